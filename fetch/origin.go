package fetch

import (
	"net/netip"
	"strconv"
	"strings"

	"github.com/gorobots/robots/internal/weburl"
)

// ErrUnsupportedScheme is returned for URLs whose scheme has no robots.txt access
// method here: only http, https and ftp do.
var ErrUnsupportedScheme = weburl.ErrUnsupportedScheme

// Origin returns the origin of rawURL, the key under which its robots.txt is cached:
// scheme://host[:port] with the scheme and host lower case, the host in punycode,
// an IPv6 address in its RFC 5952 form and the scheme's default port left out, so
// that every spelling of one origin gives the same key. Its robots.txt is at
// origin + "/robots.txt" (RFC 9309 §2.3). For the common URL shape (http or https,
// a lower-case host without user info) Origin allocates nothing.
func Origin(rawURL string) (string, error) {
	return weburl.Origin(rawURL)
}

// originAddr returns the address and port of an origin (as Origin gives it) whose
// host is an IP address; ok is false when the host is a name.
func originAddr(origin string) (ap netip.AddrPort, ok bool) {
	scheme, hostport, found := strings.Cut(origin, "://")
	if !found {
		return netip.AddrPort{}, false
	}
	host, port := hostport, weburl.DefaultPort(scheme)
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
