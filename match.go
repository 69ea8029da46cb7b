package robots

import (
	"math/bits"
	"strings"
)

// Pattern shapes, decided at parse time so that the common cases skip the general matcher.
const (
	shapePrefix uint8 = iota // no '*' and no trailing '$': a plain prefix
	shapeExact               // a trailing '$' and no '*': the path equals the value
	shapeWild                // contains '*'
)

// shapeOf is the shape of a compiled pattern, and the one place that says which of its
// bytes are special: '*' anywhere, '$' only at the end. Every dialect's compilation
// (Dialect.compilePattern) takes the shape from here.
func shapeOf(pat string) uint8 {
	if strings.IndexByte(pat, '*') >= 0 {
		return shapeWild
	}
	if pat != "" && pat[len(pat)-1] == '$' {
		return shapeExact
	}
	return shapePrefix
}

// matches reports whether path matches pat of the given shape. Like Google's matcher,
// a pattern matches from the start of the path, '*' matches any run of bytes and '$'
// anchors only as the last byte of the pattern (elsewhere it is literal).
func matches(shape uint8, pat, path string) bool {
	switch shape {
	case shapePrefix:
		return strings.HasPrefix(path, pat)
	case shapeExact:
		return path == pat[:len(pat)-1]
	}
	return matchWild(pat, path)
}

// matchesSlash is matches(shape, pat, "/"+rest) without building that string.
func matchesSlash(shape uint8, pat, rest string) bool {
	switch shape {
	case shapePrefix:
		return pat == "" || pat[0] == '/' && strings.HasPrefix(rest, pat[1:])
	case shapeExact:
		return len(pat) >= 2 && pat[0] == '/' && rest == pat[1:len(pat)-1]
	}
	for {
		switch {
		case pat == "":
			return true
		case pat[0] == '/':
			return matchWild(pat[1:], rest)
		case pat[0] == '*':
			if matchWild(pat, rest) { // the '*' takes the "/" and maybe more
				return true
			}
			pat = pat[1:] // the '*' takes nothing
		default: // another byte, or a final '$': "/"+rest is never empty
			return false
		}
	}
}

// matchWild matches a pattern with '*' wildcards. Each literal piece is taken at its
// leftmost occurrence after the previous one: with '*' as the only wildcard this finds
// a match whenever one exists, so no backtracking is needed and the cost is at worst
// linear in len(pat) × len(path).
func matchWild(pat, path string) bool {
	anchored := strings.HasSuffix(pat, "$")
	if anchored {
		pat = pat[:len(pat)-1]
	}
	star := strings.IndexByte(pat, '*')
	if star < 0 { // from matchesSlash: the rest of a wildcard pattern, which may have no '*' left
		if anchored {
			return path == pat
		}
		return strings.HasPrefix(path, pat)
	}
	// The first piece is anchored at the start of the path.
	if !strings.HasPrefix(path, pat[:star]) {
		return false
	}
	pos := star
	pat = pat[star+1:]
	for {
		star = strings.IndexByte(pat, '*')
		if star < 0 {
			break
		}
		piece := pat[:star]
		pat = pat[star+1:]
		if piece == "" {
			continue
		}
		i := strings.Index(path[pos:], piece)
		if i < 0 {
			return false
		}
		pos += i + len(piece)
	}
	// pat is now the last piece, after the last '*'.
	if anchored {
		return len(path)-pos >= len(pat) && strings.HasSuffix(path, pat)
	}
	return strings.Contains(path[pos:], pat)
}

// byteSet is a 64-bit summary of the bytes of a string: bit bitOf[c] is set for each
// byte c. A path can match a pattern only if it has every byte the pattern needs, so
// comparing sets rejects most non-matching wildcard rules without running the matcher.
// bitOf gives the bytes frequent in URLs bits of their own (upper and lower case share
// one), so that the summary of a path stays sparse.
type byteSet uint64

var bitOf = func() (t [256]uint8) {
	for c := range t {
		t[c] = 63
	}
	for c := byte('a'); c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = c-'a', c-'a'
	}
	for c := byte('0'); c <= '9'; c++ {
		t[c] = 26 + c - '0'
	}
	for i, c := range []byte("/.-_?=&%+,;:~!$()@'# ") {
		t[c] = 36 + uint8(i)
	}
	for c := 0x80; c < 256; c++ {
		t[c] = 57 + uint8(c&5)
	}
	return t
}()

// bitsOf[c] is 1 << bitOf[c]: byteMask's loop then costs a load and an or a byte.
var bitsOf = func() (t [256]byteSet) {
	for c := range t {
		t[c] = 1 << (bitOf[c] & 63)
	}
	return t
}()

func byteMask(s string) byteSet {
	// Two sets, each of every other byte, keep the ors independent of each other.
	var m0, m1 byteSet
	if len(s) < 8 {
		for i := 0; i < len(s); i++ {
			m0 |= bitsOf[s[i]]
		}
		return m0
	}
	// Whole words, then the last eight bytes, some seen already: a set takes them twice.
	for i := 8; i <= len(s); i += 8 {
		b := s[i-8 : i]
		m0 |= bitsOf[b[0]] | bitsOf[b[2]] | bitsOf[b[4]] | bitsOf[b[6]]
		m1 |= bitsOf[b[1]] | bitsOf[b[3]] | bitsOf[b[5]] | bitsOf[b[7]]
	}
	b := s[len(s)-8:]
	m0 |= bitsOf[b[0]] | bitsOf[b[2]] | bitsOf[b[4]] | bitsOf[b[6]]
	m1 |= bitsOf[b[1]] | bitsOf[b[3]] | bitsOf[b[5]] | bitsOf[b[7]]
	return m0 | m1
}

// pairSet is a 64-bit summary of the pairs of adjacent bytes of a string, each pair
// hashed to one bit (Fibonacci hashing). Every pair within a literal piece of a pattern
// is a pair of any path it matches, so after the byte sets this rejects most of the
// wildcard patterns whose bytes a path has in another order (a quarter of the
// decisions on the corpus meet one, and one in fifty of those matches).
func pairSet(s string) byteSet {
	var m byteSet
	i := 0
	// A word holds seven pairs; the next word starts at the last byte of this one.
	for ; i+8 <= len(s); i += 7 {
		w := u64(s, i)
		m |= pairHash(uint32(w)&0xFFFF) | pairHash(uint32(w>>8)&0xFFFF) | pairHash(uint32(w>>16)&0xFFFF) |
			pairHash(uint32(w>>24)&0xFFFF) | pairHash(uint32(w>>32)&0xFFFF) | pairHash(uint32(w>>40)&0xFFFF) |
			pairHash(uint32(w>>48)&0xFFFF)
	}
	for ; i+1 < len(s); i++ {
		m |= pairBit(s[i], s[i+1])
	}
	return m
}

// pairBit is the bit of the pair of bytes a, b.
func pairBit(a, b byte) byteSet { return pairHash(uint32(a) | uint32(b)<<8) }

// pairHash hashes a pair, its first byte in the low eight bits, to one of 64 bits
// (Fibonacci hashing).
func pairHash(k uint32) byteSet { return 1 << (k * 0x9E3779B1 >> 26) }

// wildSets returns the needMask and the pairSet of the literal pieces of a wildcard
// pattern (its pairs without '*' and without a final '$'), in one pass.
func wildSets(pat string) (need, pairs byteSet) {
	pat = strings.TrimSuffix(pat, "$")
	prev := byte('*')
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		if c != '*' {
			need |= 1 << (bitOf[c] & 63)
			if prev != '*' {
				pairs |= pairBit(prev, c)
			}
		}
		prev = c
	}
	return need, pairs
}

// needMask is the byteMask of the bytes a path must contain to match pat: all but
// '*' and a final '$'.
func needMask(pat string) byteSet {
	pat = strings.TrimSuffix(pat, "$")
	var m byteSet
	for i := 0; i < len(pat); i++ {
		if pat[i] != '*' {
			m |= 1 << (bitOf[pat[i]] & 63)
		}
	}
	return m
}

// Hex digits, of percent-encoding: the one place that reads and writes them.
const upperHex = "0123456789ABCDEF"

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// unhex is the value of the hex digit c.
func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// escapePattern percent-encodes bytes outside US-ASCII and upper-cases the hex digits
// of existing %xx escapes, as Google does to rule values. It returns s itself when
// nothing changes, which is the common case.
func escapePattern(s string) string {
	if plainASCII(s) {
		return s
	}
	return rewriteEscapes(s, nil, true)
}

// splitPath returns the path, params and query of a URL: what rules are matched
// against. It follows Google's GetPathParamsQuery: no scheme or host, no fragment, "/"
// when there is no path, and a "/" put in front when the result would start with '?'
// or ';' — which splitPath does not build: when slash is true the path is "/" + p
// (a URL such as "https://example.com?q" has no "/" of its own before its query).
func splitPath(url string) (p string, slash bool) {
	var v pathView
	v.ofURL(url)
	v.end()
	return v.s, v.slash
}

// ofURL sets p to the path of url, as splitPath gives it, except that the path may still
// run on into the URL's fragment (see pathView.end). It is inlined, so that a caller's
// pathView on its stack is written without write barriers.
func (p *pathView) ofURL(url string) {
	p.s, p.w0, p.slash, p.cut = urlPath(url)
	p.mask, p.pairs = 0, 0
}

// urlPath returns what ofURL sets: the path, its first word (pathView.w0), and
// whether the path is "/" + s and s is cut at the fragment already.
func urlPath(url string) (s string, w0 uint64, slash, cut bool) {
	// Fast path for the common absolute URL: the scheme holds none of "/?;", so the
	// path starts at the first of them after "://".
	var from int
	switch {
	case strings.HasPrefix(url, "https://"):
		from = len("https://")
	case strings.HasPrefix(url, "http://"):
		from = len("http://")
	default:
		s, slash = slowSplitPath(url)
		return s, firstWord(s, slash), slash, true
	}
	// The path starts at the first '/', '?', ';' or '#' after the host, which is a few
	// words long: eight bytes at a time. Or-ing 0x1C into a byte makes those four into
	// '?', and of the other bytes only '\'', '+', '3' and '7': one comparison a word,
	// then a byte of those four others found is passed over. (Written out here: a call
	// costs as much as a host's words.)
	const ors, questions = 0x1C1C1C1C1C1C1C1C, 0x3F3F3F3F3F3F3F3F
	i := from
	for ; i+8 <= len(url); i += 8 {
		if z := zeroBytes((u64(url, i) | ors) ^ questions); z != 0 {
			if i += bits.TrailingZeros64(z) >> 3; isPathStart(url[i]) {
				break
			}
			i -= 7 // the next word starts after the byte passed over
		}
	}
	for i < len(url) && !isPathStart(url[i]) {
		i++
	}
	if i == len(url) || url[i] == '#' { // no path, or a fragment before it
		return "/", '/', false, true
	}
	// The path runs to the end of the URL, so the word that ends the URL holds the
	// start of a short path: no loop over its bytes.
	if n := len(url) - i; n >= 8 {
		w0 = u64(url, i)
	} else {
		w0 = u64(url, len(url)-8) >> (64 - 8*n) // len(url) > 8: it starts with "http://"
	}
	if url[i] != '/' {
		return url[i:], w0<<8 | '/', true, false
	}
	return url[i:], w0, false, false
}

func slowSplitPath(url string) (string, bool) {
	start := 0
	if strings.HasPrefix(url, "//") {
		start = 2
	}
	early := indexAnyFrom(url, "/?;", start)
	protoEnd := strings.Index(url[start:], "://")
	if protoEnd >= 0 {
		protoEnd += start
	}
	if early >= 0 && (protoEnd < 0 || early < protoEnd) {
		protoEnd = -1
	}
	if protoEnd < 0 {
		protoEnd = start
	} else {
		protoEnd += 3
	}
	p := indexAnyFrom(url, "/?;", protoEnd)
	if p < 0 {
		return "/", false
	}
	end := len(url)
	if h := strings.IndexByte(url[start:], '#'); h >= 0 {
		h += start
		if h < p {
			return "/", false
		}
		end = h
	}
	if url[p] != '/' {
		return url[p:end], true
	}
	return url[p:end], false
}

func isPathStart(c byte) bool { return c == '/' || c == '?' || c == ';' || c == '#' }

const (
	ones   = 0x0101010101010101
	highs  = 0x8080808080808080
	hashes = 0x2323232323232323
)

// indexHash is strings.IndexByte(s, '#') for the few words of a path: a call of the
// vectorised search costs more there than words of eight bytes.
func indexHash(s string) int {
	if len(s) < 8 {
		return strings.IndexByte(s, '#')
	}
	i := 0
	for ; i+8 < len(s); i += 8 {
		if z := zeroBytes(u64(s, i) ^ hashes); z != 0 {
			return i + bits.TrailingZeros64(z)>>3
		}
	}
	// The last word overlaps the one before, which had no '#'.
	if z := zeroBytes(u64(s, len(s)-8) ^ hashes); z != 0 {
		return len(s) - 8 + bits.TrailingZeros64(z)>>3
	}
	return -1
}

// zeroBytes marks the zero bytes of x with their high bit. The lowest mark is exact;
// marks above it may be false (a borrow), so only the lowest may be used.
func zeroBytes(x uint64) uint64 {
	return (x - ones) &^ x & highs
}

func indexAnyFrom(s, chars string, from int) int {
	if from > len(s) {
		return -1
	}
	i := strings.IndexAny(s[from:], chars)
	if i < 0 {
		return -1
	}
	return i + from
}

// plainASCII reports whether s has neither a byte outside US-ASCII nor a '%', eight
// bytes at a time: such a value needs no escaping, which is the common case.
func plainASCII(s string) bool {
	const percents = 0x2525252525252525
	bad := func(w uint64) bool {
		x := w ^ percents // a zero byte where w has '%'
		return (w|(x-ones)&^x)&highs != 0
	}
	if len(s) >= 8 {
		// Whole words, the last one overlapping the one before: no loop over bytes.
		for i := 0; i+8 < len(s); i += 8 {
			if bad(u64(s, i)) {
				return false
			}
		}
		return !bad(u64(s, len(s)-8))
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] == '%' {
			return false
		}
	}
	return true
}
