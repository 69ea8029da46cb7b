package fetch

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// ErrUnsupportedScheme is returned for URLs whose scheme has no robots.txt access
// method here: only http, https and ftp do.
var ErrUnsupportedScheme = errors.New("unsupported scheme")

// hostProfile maps internationalised names to punycode as lookups do (UTS #46
// non-transitional), without the STD3 rules: real host names contain underscores.
var hostProfile = idna.New(idna.MapForLookup(), idna.StrictDomainName(false),
	idna.BidiRule(), idna.Transitional(false))

var defaultPorts = map[string]string{"http": "80", "https": "443", "ftp": "21"}

// Origin returns the origin of rawURL, the key under which its robots.txt is cached:
// scheme://host[:port] with the scheme and host lower case, the host in punycode,
// an IPv6 address in its RFC 5952 form and the scheme's default port left out, so
// that every spelling of one origin gives the same key. Its robots.txt is at
// origin + "/robots.txt" (RFC 9309 §2.3). For the common URL shape (http or https,
// a lower-case host without user info) Origin allocates nothing.
func Origin(rawURL string) (string, error) {
	if origin, ok := quickOrigin(rawURL); ok {
		return origin, nil
	}
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil {
		return "", fmt.Errorf("origin of %q: %w", rawURL, err)
	}
	scheme := strings.ToLower(u.Scheme)
	def, ok := defaultPorts[scheme]
	if !ok {
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
	}
	if port != "" && port != def {
		for i := 0; i < len(port); i++ {
			if port[i] < '0' || port[i] > '9' {
				return "", fmt.Errorf("origin of %q: invalid port %q", rawURL, port)
			}
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

// originAddr returns the address and port of an origin (as Origin gives it) whose
// host is an IP address; ok is false when the host is a name.
func originAddr(origin string) (ap netip.AddrPort, ok bool) {
	scheme, hostport, found := strings.Cut(origin, "://")
	if !found {
		return netip.AddrPort{}, false
	}
	host, port := hostport, defaultPorts[scheme]
	if i := strings.LastIndexByte(hostport, ':'); i >= 0 && !strings.HasSuffix(hostport, "]") {
		host, port = hostport[:i], hostport[i+1:]
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return netip.AddrPort{}, false
	}
	n, err := strconv.ParseUint(port, 10, 16)
	if err != nil {
		return netip.AddrPort{}, false
	}
	return netip.AddrPortFrom(addr, uint16(n)), true
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
	h, err := hostProfile.ToASCII(host)
	if err != nil {
		return "", fmt.Errorf("invalid host name %q: %w", host, err)
	}
	return strings.ToLower(h), nil
}

// quickOrigin returns the origin of rawURL as a substring of it, without
// allocating, for the form nearly every URL a crawler holds has: scheme "http://" or
// "https://" in lower case; a host of lower-case letters, digits, '.', '-' and '_'
// without punycode labels; no user info; a port only when it is not the scheme's
// default and has no leading zero; then no control character and only valid
// %-escapes. ok is false for anything else, and Origin decides. For every URL it
// accepts, Origin gives the same origin (TestQuickOrigin and FuzzQuickOrigin hold
// it to that).
func quickOrigin(rawURL string) (origin string, ok bool) {
	var rest, def string
	switch {
	case strings.HasPrefix(rawURL, "https://"):
		rest, def = rawURL[len("https://"):], "443"
	case strings.HasPrefix(rawURL, "http://"):
		rest, def = rawURL[len("http://"):], "80"
	default:
		return "", false
	}
	end, colon := len(rest), -1
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if c == '/' || c == '?' || c == '#' {
			end = i
			break
		}
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '.', c == '-', c == '_':
		case c == ':' && colon < 0:
			colon = i
		default:
			return "", false
		}
	}
	host := rest[:end]
	if colon >= 0 {
		host = rest[:colon]
		port := rest[colon+1 : end]
		if len(port) == 0 || len(port) > 5 || port[0] == '0' || port == def ||
			len(port) == 5 && port > "65535" {
			return "", false
		}
		for i := 0; i < len(port); i++ {
			if port[i] < '0' || port[i] > '9' {
				return "", false
			}
		}
	}
	if host == "" || strings.Contains(host, "xn--") {
		return "", false
	}
	// What url.Parse would refuse after the authority: control characters and
	// malformed %-escapes (it checks those of the path and fragment; the query's are
	// checked too here, which only sends a few more URLs to Origin).
	tail := rest[end:]
	for i := 0; i < len(tail); i++ {
		switch c := tail[i]; {
		case c < 0x20 || c == 0x7f:
			return "", false
		case c == '%':
			if i+2 >= len(tail) || !isHex(tail[i+1]) || !isHex(tail[i+2]) {
				return "", false
			}
		}
	}
	return rawURL[:len(rawURL)-len(rest)+end], true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
