// Package weburl reads URLs as people type them and returns them as a browser would
// request them, so that the command and the service decide the URL a crawler will
// actually fetch.
//
// The library matches URLs as given, percent-encoded, as Google's does: its test
// expects "/foo/bar/ツ" not to match a rule for "/foo/bar/%E3%83%84". A person who
// types https://example.com/café/menu means the URL a browser sends,
// /caf%C3%A9/menu, and a crawler requests that one too. [Encode] follows the WHATWG
// URL Standard (https://url.spec.whatwg.org/) for what matters to robots.txt: the
// host in lower case and punycode (UTS #46, [Origin], which package fetch's Origin
// is), the default port left out, "\" read as "/", dot segments removed, and the
// path, query and fragment percent-encoded with the standard's encode sets. Existing
// escapes are kept as written. A host ending in a number is read as the standard
// reads it, an IPv4 address (0x7f.1 is 127.0.0.1).
package weburl

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ErrNotURL is matched (errors.Is) by the error for input that is neither an
// absolute URL with a scheme robots.txt applies to nor an absolute path.
var ErrNotURL = errors.New("not a URL or an absolute path")

// Encode returns raw as a browser would request it. raw is an absolute http, https
// or ftp URL, or an absolute path ("/a?b"), which is encoded alike and stays a path.
// Anything else ("search", "example.com/a", "mailto:x@y", "", "https://") is an error
// naming the input and matching ErrNotURL. Most URLs a crawler holds are returned as
// they are, without allocating.
func Encode(raw string) (string, error) {
	if isPlain(raw) {
		return raw, nil
	}
	return encode(raw)
}

// encode is Encode without the shortcut for URLs it keeps as they are.
func encode(raw string) (string, error) {
	s := trim(raw)
	if s == "" {
		return "", fmt.Errorf("%q: %w", raw, ErrNotURL)
	}
	if s[0] == '/' || s[0] == '\\' {
		if len(s) > 1 && (s[1] == '/' || s[1] == '\\') {
			return "", fmt.Errorf("%q: %w: a URL needs its scheme (https://…)", raw, ErrNotURL)
		}
		return encodeRest(s), nil
	}
	scheme, rest, ok := cutScheme(s)
	if !ok {
		return "", fmt.Errorf("%q: %w: write https://host/path or /path", raw, ErrNotURL)
	}
	switch scheme {
	case "http", "https", "ftp":
	default:
		return "", fmt.Errorf("%q: %w: scheme %q has no robots.txt (http, https or ftp)", raw, ErrNotURL, scheme)
	}
	// Special schemes take any run of slashes and backslashes before the host.
	rest = strings.TrimLeft(rest, `/\`)
	end := strings.IndexAny(rest, `/\?#`)
	if end < 0 {
		end = len(rest)
	}
	authority, tail := rest[:end], rest[end:]
	if authority == "" {
		return "", fmt.Errorf("%q: %w: no host", raw, ErrNotURL)
	}
	userinfo := ""
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		userinfo, authority = authority[:at+1], authority[at+1:]
	}
	if !utf8.ValidString(authority) {
		return "", fmt.Errorf("%q: %w: the host is not valid UTF-8", raw, ErrNotURL)
	}
	origin, err := Origin(scheme + "://" + authority + "/")
	if err != nil {
		return "", fmt.Errorf("%q: %w: %v", raw, ErrNotURL, err)
	}
	if userinfo != "" {
		origin = scheme + "://" + escape(userinfo[:len(userinfo)-1], pathSet) + "@" + origin[len(scheme)+3:]
	}
	if tail == "" || tail[0] == '?' || tail[0] == '#' {
		tail = "/" + tail
	}
	return origin + encodeRest(tail), nil
}

// trim removes leading and trailing C0 controls and spaces, and every tab and line
// break inside, as the URL parser does.
func trim(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	if strings.ContainsAny(s, "\t\n\r") {
		s = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s)
	}
	return s
}

// cutScheme splits "scheme:rest" with the scheme lower-cased; ok is false when s does
// not start with a scheme (ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":").
func cutScheme(s string) (scheme, rest string, ok bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c|0x20 && c|0x20 <= 'z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return strings.ToLower(s[:i]), s[i+1:], true
		default:
			return "", "", false
		}
	}
	return "", "", false
}

// encodeRest encodes a path with its query and fragment ("/p?q#f").
func encodeRest(s string) string {
	path, query, fragment := s, "", ""
	hasQuery, hasFragment := false, false
	if i := strings.IndexByte(path, '#'); i >= 0 {
		path, fragment, hasFragment = path[:i], path[i+1:], true
	}
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path, query, hasQuery = path[:i], path[i+1:], true
	}
	path = removeDots(strings.ReplaceAll(path, `\`, "/"))
	out := escape(path, pathSet)
	if hasQuery {
		out += "?" + escape(query, querySet)
	}
	if hasFragment {
		out += "#" + escape(fragment, fragmentSet)
	}
	return out
}

// removeDots resolves "." and ".." segments (and their %2e spellings) of an absolute
// path, as the URL parser does: "/a/./b/../c" is "/a/c", "/a/.." is "/".
func removeDots(path string) string {
	if !strings.Contains(path, ".") && !strings.Contains(path, "%2") {
		return path
	}
	segs := strings.Split(path[1:], "/")
	out := make([]string, 0, len(segs))
	for i, seg := range segs {
		last := i == len(segs)-1
		switch dots(seg) {
		case 2:
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		case 1:
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, seg)
		}
	}
	return "/" + strings.Join(out, "/")
}

// dots returns 1 for a single-dot segment, 2 for a double-dot one, 0 otherwise.
func dots(seg string) int {
	seg = strings.ReplaceAll(strings.ReplaceAll(seg, "%2e", "."), "%2E", ".")
	switch seg {
	case ".":
		return 1
	case "..":
		return 2
	}
	return 0
}

// The WHATWG encode sets, beyond the C0 controls, space and bytes above 0x7E that
// every set encodes.
const (
	fragmentSet = "\"<>`"
	querySet    = "\"#<>'" // the special-query set: http, https and ftp are special
	pathSet     = "\"#<>?`{}"
)

// escape percent-encodes the bytes of s that are controls, space, non-ASCII or in set.
func escape(s, set string) string {
	const hex = "0123456789ABCDEF"
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c > '~' || strings.IndexByte(set, c) >= 0 {
			n++
		}
	}
	if n == 0 {
		return s
	}
	b := make([]byte, 0, len(s)+2*n)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c > '~' || strings.IndexByte(set, c) >= 0 {
			b = append(b, '%', hex[c>>4], hex[c&15])
			continue
		}
		b = append(b, c)
	}
	return string(b)
}
