package weburl

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// ErrUnsupportedScheme is matched by Origin's error for a URL whose scheme has no
// robots.txt: only http, https and ftp have one.
var ErrUnsupportedScheme = errors.New("unsupported scheme")

// hostProfile maps internationalised names to punycode as lookups do (UTS #46
// non-transitional), without the STD3 rules: real host names contain underscores.
var hostProfile = idna.New(idna.MapForLookup(), idna.StrictDomainName(false),
	idna.BidiRule(), idna.Transitional(false))

// DefaultPort returns the port a URL of scheme (lower case) means when it names
// none: "80", "443" or "21"; "" for a scheme without robots.txt.
func DefaultPort(scheme string) string {
	switch scheme {
	case "http":
		return "80"
	case "https":
		return "443"
	case "ftp":
		return "21"
	}
	return ""
}

// Origin returns the origin of rawURL: scheme://host[:port] with the scheme and host
// lower case, the host in punycode, an IPv6 address in its RFC 5952 form and the
// scheme's default port left out. For the common URL shape (see cutPlainOrigin) it is
// a substring of rawURL and nothing is allocated.
func Origin(rawURL string) (string, error) {
	if origin, ok := quickOrigin(rawURL); ok {
		return origin, nil
	}
	return parseOrigin(rawURL)
}

// parseOrigin is Origin without the shortcut for the common URL shape.
func parseOrigin(rawURL string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil {
		return "", fmt.Errorf("origin of %q: %w", rawURL, err)
	}
	scheme := strings.ToLower(u.Scheme)
	def := DefaultPort(scheme)
	if def == "" {
		if scheme == "" {
			return "", fmt.Errorf("origin of %q: not an absolute URL", rawURL)
		}
		return "", fmt.Errorf("origin of %q: %w %q", rawURL, ErrUnsupportedScheme, u.Scheme)
	}
	host, port := u.Hostname(), u.Port()
	if host == "" {
		return "", fmt.Errorf("origin of %q: no host", rawURL)
	}
	if strings.Contains(host, ":") { // IPv6 literal
		// netip keeps an IPv4-mapped address in IPv6 form (::ffff:1.2.3.4), where
		// net.IP would print the bare IPv4 address, which is no IPv6 literal.
		ip, err := netip.ParseAddr(host)
		if err != nil || !ip.Is6() || ip.Zone() != "" {
			return "", fmt.Errorf("origin of %q: invalid IPv6 address %q", rawURL, host)
		}
		host = "[" + ip.String() + "]"
	} else if host, err = asciiHost(host); err != nil {
		return "", fmt.Errorf("origin of %q: %w", rawURL, err)
	} else if a, ok, err := numericIPv4(host); err != nil {
		return "", fmt.Errorf("origin of %q: %w", rawURL, err)
	} else if ok {
		host = a.String()
	}
	if port != "" && port != def {
		if !allDigits(port) {
			return "", fmt.Errorf("origin of %q: invalid port %q", rawURL, port)
		}
		port = strings.TrimLeft(port, "0")
		if port == "" || len(port) > 5 || port > "65535" && len(port) == 5 {
			return "", fmt.Errorf("origin of %q: invalid port %q", rawURL, u.Port())
		}
		if port != def {
			host += ":" + port
		}
	}
	return scheme + "://" + host, nil
}

// asciiHost lower-cases a host name and converts its internationalised labels to
// punycode. Plain ASCII names skip the IDNA tables: they only need lower-casing.
func asciiHost(host string) (string, error) {
	ascii := true
	for i := 0; i < len(host); i++ {
		if host[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii && !strings.Contains(host, "xn--") && !strings.Contains(host, "XN--") {
		return strings.ToLower(host), nil
	}
	// The URL Standard decodes a host's percent-escapes as UTF-8 with U+FFFD for the
	// bytes that are not, and UTS #46 disallows U+FFFD: such a host fails. The IDNA
	// package encodes those bytes without a word ("0.0%80000" became
	// "0.xn--0000-v70y", a label it then refuses to read back).
	if !utf8.ValidString(host) {
		return "", fmt.Errorf("invalid host name %q: bytes that are not UTF-8", host)
	}
	h, err := hostProfile.ToASCII(host)
	if err != nil {
		return "", fmt.Errorf("invalid host name %q: %w", host, err)
	}
	// A label "xn--" encodes nothing: the URL Standard fails it, where the IDNA
	// package returns an empty label ("http://xn--/" had the origin "http://").
	in, out := strings.Split(host, "."), strings.Split(h, ".")
	for i := range out {
		if out[i] == "" && (len(in) != len(out) || in[i] != "") {
			return "", fmt.Errorf("invalid host name %q: an empty label", host)
		}
	}
	return strings.ToLower(h), nil
}

// numericIPv4 reads a host as the URL Standard's IPv4 parser does: a host whose
// last label is a number (decimal, 0x hex or 0-led octal) is an IPv4 address of one
// to four numbers, the last filling the bytes left ("127.1" is 127.0.0.1,
// "0x7f000001" and "2130706433" too), which a browser requests as such; one that
// does not read as an address is an error. ok is false for a host name.
func numericIPv4(host string) (addr netip.Addr, ok bool, err error) {
	parts := strings.Split(host, ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if !isNumber(parts[len(parts)-1]) {
		return netip.Addr{}, false, nil
	}
	bad := fmt.Errorf("invalid IPv4 address %q: its last label is a number, so the whole is read as an address", host)
	if len(parts) > 4 {
		return netip.Addr{}, false, bad
	}
	var v uint64
	for i, p := range parts {
		n, ok := ipv4Number(p)
		if !ok {
			return netip.Addr{}, false, bad
		}
		if i < len(parts)-1 {
			if n > 255 {
				return netip.Addr{}, false, bad
			}
			v |= n << (8 * (3 - i))
			continue
		}
		if n >= 1<<(8*(5-len(parts))) {
			return netip.Addr{}, false, bad
		}
		v |= n
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true, nil
}

// isNumber reports whether a label is all decimal digits, or 0x followed by hex
// digits (possibly none): the URL Standard's "ends in a number".
func isNumber(s string) bool {
	if len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		for i := 2; i < len(s); i++ {
			if !isHex(s[i]) {
				return false
			}
		}
		return true
	}
	return s != "" && allDigits(s)
}

// ipv4Number reads one number of a numeric IPv4 host: 0x hex, 0-led octal or
// decimal, at most 2^32-1.
func ipv4Number(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
		s, base = s[2:], 16
		if s == "" {
			return 0, true
		}
	case len(s) >= 2 && s[0] == '0':
		s, base = s[1:], 8
	}
	n, err := strconv.ParseUint(s, base, 32)
	return n, err == nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// hostKept are the bytes of a plain origin's host (cutPlainOrigin): a table, looked
// at in a loop of its own, where comparing each byte with their ranges cost as many
// instructions as the rest of a batch's grouping.
var hostKept = func() (t [256]bool) {
	for c := range t {
		t[c] = 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_'
	}
	return t
}()

// cutPlainOrigin splits off the origin of u when u has the form nearly every URL a
// crawler holds has, in which the origin is written as Origin would return it: scheme
// "http://" or "https://" in lower case; a host of lower-case letters, digits, '.',
// '-' and '_' without punycode labels; no user info; a port only when it is not the
// scheme's default and has no leading zero. rest is what follows the origin: "" or a
// string starting with '/', '?' or '#'. ok is false for any other form.
func cutPlainOrigin(u string) (origin, rest string, ok bool) {
	var def string
	switch {
	case strings.HasPrefix(u, "https://"):
		rest, def = u[len("https://"):], "443"
	case strings.HasPrefix(u, "http://"):
		rest, def = u[len("http://"):], "80"
	default:
		return "", "", false
	}
	// The host's bytes, then a port's digits after a colon, then the end or a path,
	// query or fragment.
	end := 0
	for end < len(rest) && hostKept[rest[end]] {
		end++
	}
	colon := -1
	if end < len(rest) && rest[end] == ':' {
		colon, end = end, end+1
		for end < len(rest) && '0' <= rest[end] && rest[end] <= '9' {
			end++
		}
	}
	if end < len(rest) && rest[end] != '/' && rest[end] != '?' && rest[end] != '#' {
		return "", "", false
	}
	host := rest[:end]
	if colon >= 0 {
		host = rest[:colon]
		port := rest[colon+1 : end]
		if len(port) == 0 || len(port) > 5 || port[0] == '0' || port == def ||
			len(port) == 5 && port > "65535" {
			return "", "", false
		}
	}
	if host == "" || strings.Contains(host, "xn--") {
		return "", "", false
	}
	if i := strings.LastIndexByte(strings.TrimSuffix(host, "."), '.'); host[i+1] >= '0' && host[i+1] <= '9' {
		// A last label that may be a number: unless the host is an IPv4 address in
		// its usual form, parseOrigin reads it as the URL Standard does ("127.1" is
		// 127.0.0.1).
		if a, err := netip.ParseAddr(host); err != nil || !a.Is4() {
			return "", "", false
		}
	}
	n := len(u) - len(rest) + end
	return u[:n], u[n:], true
}

// quickOrigin returns the origin of u as a substring of it, without allocating, when
// cutPlainOrigin accepts u and what follows the origin is something url.Parse
// accepts: no control character and only well-formed %-escapes (it checks those of
// the path and fragment; the query's are checked too here, which only sends a few
// more URLs the slow way). For every URL it accepts, parseOrigin gives the same origin
// (TestQuickOrigin, FuzzPlain).
func quickOrigin(u string) (origin string, ok bool) {
	origin, rest, ok := cutPlainOrigin(u)
	if !ok {
		return "", false
	}
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c < 0x20 || c == 0x7f:
			return "", false
		case c == '%' && !isEscape(rest, i):
			return "", false
		}
	}
	return origin, true
}

// isEscape reports whether s[i:] starts with '%' and two hex digits.
func isEscape(s string, i int) bool {
	return i+2 < len(s) && s[i] == '%' && isHex(s[i+1]) && isHex(s[i+2])
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// The bytes that Encode keeps as they are in each part of a URL, and that need no
// second look: printable ASCII outside the part's encode set, without '%' (checked
// for a well-formed escape), '\' (a path separator to the URL parser), and the bytes
// that end the part ('/' in the path, for dot segments).
var pathKept, queryKept, fragmentKept = keptBytes(pathSet + `%\/?#`), keptBytes(querySet + `%\#`), keptBytes(fragmentSet + `%\`)

func keptBytes(not string) (kept [256]bool) {
	for c := '!'; c <= '~'; c++ {
		kept[c] = !strings.ContainsRune(not, c)
	}
	return kept
}

// isPlain reports whether u is an absolute http(s) URL that Encode returns as it is,
// so that Encode need not look further: cutPlainOrigin accepts it, a path follows
// the origin, and the path, query and fragment hold only bytes their encode sets
// keep, well-formed %-escapes and no dot segment. Its origin is then the one
// quickOrigin returns. A false answer only sends u the slow way.
func isPlain(u string) bool {
	_, ok := PlainOrigin(u)
	return ok
}

// PlainOrigin reports whether u is a URL that Encode and Absolute return as it is
// (isPlain: nearly every URL a crawler holds), and returns its origin, the one Origin
// returns, a prefix of u. It reads u once for both, where Encode then Origin read it
// twice: serve's batches ask both of every URL.
func PlainOrigin(u string) (origin string, ok bool) {
	origin, rest, ok := cutPlainOrigin(u)
	if !ok || rest == "" || rest[0] != '/' {
		return "", false
	}
	kept := &pathKept
	for i := 0; i < len(rest); i++ {
		for i < len(rest) && kept[rest[i]] {
			i++ // the bytes kept (nearly all), in a loop of their own
		}
		if i == len(rest) {
			break
		}
		switch c := rest[i]; {
		case c == '/' && kept == &pathKept:
			if i+1 < len(rest) && (rest[i+1] == '.' || rest[i+1] == '%') {
				seg := rest[i+1:]
				if end := strings.IndexAny(seg, "/?#"); end >= 0 {
					seg = seg[:end]
				}
				if dots(seg) != 0 {
					return "", false
				}
			}
		case c == '?' && kept == &pathKept:
			kept = &queryKept
		case c == '#' && kept != &fragmentKept:
			kept = &fragmentKept
		case c == '%' && isEscape(rest, i):
		default:
			return "", false
		}
	}
	return origin, true
}
