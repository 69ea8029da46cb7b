package weburl

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// A site typed by a person: the one rule of the tester's Fetch and audit fields,
// "robots fetch", "robots audit" and GET /v1/robots.
//
// A URL with a scheme is taken as written (Encode). Without one, "example.com",
// "example.com/shop" and "127.0.0.1:8080" are accepted and a scheme is chosen, as a
// browser's address bar or curl would, and said (Site's note):
//
//   - http for a machine of one's own or a development server: an IP address,
//     "localhost" (and names under .localhost), or a port other than 443. Such
//     servers rarely have a certificate, and https there fails with a TLS error
//     that says nothing useful;
//   - https for every other name (and port 443): most sites serve HTTPS, and the
//     https origin is the one search engines index when both exist.
//
// There is no silent fallback from https to http: robots.txt belongs to an origin,
// scheme included (RFC 9309 §2.3), and http://example.com may answer another file
// than https://example.com. When the chosen origin cannot be reached, [Retry] names
// the other one to try.

// Site returns the URL of the site raw names, and note, which says which scheme was
// chosen when raw had none ("" when it had one). raw is an absolute http, https or
// ftp URL, or a host with an optional port and path ("example.com",
// "127.0.0.1:8080/robots.txt"); anything else is an error matching ErrNotURL that
// says what to type.
func Site(raw string) (u, note string, err error) {
	s := trim(raw)
	if s == "" {
		return "", "", fmt.Errorf("no site given: %w: type a site such as example.com or https://example.com/", ErrNotURL)
	}
	if strings.Contains(s, "://") {
		u, err := Encode(s)
		if err != nil {
			return "", "", err
		}
		if u[0] == '/' {
			return "", "", fmt.Errorf("%q: %w: type a site such as example.com or https://example.com/", raw, ErrNotURL)
		}
		return u, "", nil
	}
	end := strings.IndexAny(s, `/\?#`)
	if end < 0 {
		end = len(s)
	}
	authority := s[:end]
	host, port, ok := splitHostPort(authority)
	if !ok || strings.ContainsAny(authority, "@ ") {
		return "", "", fmt.Errorf("%q: %w: type a site such as example.com, 127.0.0.1:8080 or https://example.com/", raw, ErrNotURL)
	}
	scheme := "https"
	if plainHTTP(host, port) {
		scheme = "http"
	}
	u, err = Encode(scheme + "://" + s)
	if err != nil {
		return "", "", err
	}
	if scheme == "https" {
		note = fmt.Sprintf("no scheme given: %s chosen (type %s for a site without HTTPS)", u, swapScheme(u))
	} else {
		note = fmt.Sprintf("no scheme given: %s chosen, plain HTTP for a local address or a port other than 443 (type %s for HTTPS)", u, swapScheme(u))
	}
	return u, note, nil
}

// splitHostPort splits "host", "host:port", "[v6]" or "[v6]:port"; ok is false
// when what looks like a port is not a number of 0 to 65535, or the host is empty
// or not a name or address (a single word without a dot other than "localhost" is
// not taken for a site: "search" is more likely a path).
func splitHostPort(a string) (host, port string, ok bool) {
	host = a
	if strings.HasPrefix(a, "[") {
		i := strings.IndexByte(a, ']')
		if i < 0 {
			return "", "", false
		}
		host, port = a[1:i], strings.TrimPrefix(a[i+1:], ":")
		if a[i+1:] != "" && !strings.HasPrefix(a[i+1:], ":") {
			return "", "", false
		}
		if _, err := netip.ParseAddr(host); err != nil {
			return "", "", false
		}
	} else if i := strings.LastIndexByte(a, ':'); i >= 0 {
		host, port = a[:i], a[i+1:]
	}
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
			return "", "", false
		}
	}
	if host == "" {
		return "", "", false
	}
	if !strings.Contains(host, ".") && !strings.Contains(host, ":") && !strings.EqualFold(host, "localhost") {
		return "", "", false
	}
	return host, port, true
}

// plainHTTP reports whether a site typed without a scheme is read as http: an IP
// address, localhost, or a port other than 443.
func plainHTTP(host, port string) bool {
	if port != "" && port != "443" {
		return true
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return true
	}
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	return h == "localhost" || strings.HasSuffix(h, ".localhost")
}

// swapScheme returns u with http and https swapped (u's origin with the other
// scheme and the default port left as it is).
func swapScheme(u string) string {
	switch {
	case strings.HasPrefix(u, "https://"):
		return "http://" + u[len("https://"):]
	case strings.HasPrefix(u, "http://"):
		return "https://" + u[len("http://"):]
	}
	return u
}

// Retry says what to try when the site at u could not be reached (no HTTP answer:
// a refused connection, a TLS or DNS failure): the same site with the other scheme,
// and for a name, whether it is spelt right. It is "" for a URL that is not http
// or https.
func Retry(u string) string {
	other := swapScheme(u)
	if other == u {
		return ""
	}
	if strings.Count(other, "/") == 2 {
		other += "/" // an origin, written as the site's root
	}
	if strings.HasPrefix(u, "https://") {
		return "check the name, or try " + other + " if the site has no HTTPS"
	}
	return "check the address and port, or try " + other + " if the site serves HTTPS"
}

// Absolute reads a URL to decide against its origin's live robots.txt, as "robots
// check" without -robots and the service's /v1/check take it: an absolute URL as
// Encode does, or one typed without a scheme as Site reads it ("example.com:8080/x"
// is http://example.com:8080/x, said in note), so that the URL a person types is
// read the same by check, fetch and audit. A path ("/x") is returned as Encode
// returns it, for the caller to refuse.
func Absolute(raw string) (u, note string, err error) {
	s := trim(raw)
	if s != "" && s[0] != '/' && s[0] != '\\' && !strings.Contains(s, "://") {
		if u, note, err := Site(s); err == nil {
			return u, note, nil
		}
	}
	u, err = Encode(raw)
	return u, "", err
}
