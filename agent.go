package robots

import "strings"

// tokenBytes marks the bytes of a product token: [A-Za-z_-]. A table rather than
// comparisons: a user-agent line's token is read on every parse, and its end is where
// a chain of comparisons would be mispredicted.
var tokenBytes = func() (t [256]bool) {
	for c := range 256 {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '-'
	}
	return t
}()

func isTokenByte(c byte) bool {
	return tokenBytes[c]
}

// leadingToken returns the leading run of [A-Za-z_-] in s: the part of a user-agent
// value that Google compares ("googlebot/1.2" and "googlebot*" both mean "googlebot").
func leadingToken(s string) string {
	i := 0
	for i < len(s) && isTokenByte(s[i]) {
		i++
	}
	return s[:i]
}

// genericProducts are the words of browser-like User-Agent headers that never name
// the crawler itself.
var genericProducts = []string{
	"mozilla", "applewebkit", "khtml", "like", "gecko", "chrome", "safari", "mobile",
	"version", "compatible", "windows", "linux", "android", "macintosh", "intel", "iphone",
	"ipad", "cpu", "u", "x", "wow", "win", "nt", "mac", "os", "edg", "firefox", "build",
	"en", "us", "ubuntu", "headlesschrome", "trident", "rv", "msie",
}

// ProductToken returns the product token a crawler should look for in robots.txt,
// taken from a whole HTTP User-Agent header. A browser-style header such as
//
//	Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)
//
// gives "Googlebot"; "curl/8.5.0" gives "curl". A word that names a bot, crawler,
// spider or slurp wins; otherwise the first product that is not a browser word; at
// worst the first product. Only the leading [A-Za-z_-] of the chosen word is kept,
// as Google does to user-agent lines ("MJ12bot/1.4" gives "MJ"). It returns "" when
// the header has no usable word.
func ProductToken(userAgent string) string {
	first, firstPlain := "", ""
	for _, w := range strings.FieldsFunc(userAgent, func(r rune) bool {
		return r == ' ' || r == '\t' || r == ';' || r == '(' || r == ')' || r == ',' || r == '/' || r == '+' || r == '!'
	}) {
		if strings.ContainsAny(w, ".:@=") { // URLs, versions, e-mail addresses
			continue
		}
		tok := leadingToken(w)
		if tok == "" {
			continue
		}
		if containsFold(w, "bot") || containsFold(w, "crawl") || containsFold(w, "spider") || containsFold(w, "slurp") {
			return tok
		}
		if first == "" {
			first = tok
		}
		if firstPlain == "" && !isGeneric(tok) && tok == w {
			firstPlain = tok
		}
	}
	if firstPlain != "" {
		return firstPlain
	}
	return first
}

func isGeneric(w string) bool {
	for _, g := range genericProducts {
		if equalFold(w, g) {
			return true
		}
	}
	return false
}
