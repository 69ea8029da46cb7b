package robots

import (
	"math/bits"
	"strings"
)

// The pattern syntax, said once. A compiled pattern (Dialect.compilePattern) matches a
// path from its start; anyRun anywhere matches any run of bytes, endAnchor as the
// pattern's last byte anchors the match at the end of the path (elsewhere it stands
// for itself), and every other byte stands for itself. So a pattern is a list of
// literal pieces separated by anyRun, the first anchored at the start of the path, and
// maybe an end anchor: readPattern reads it so, and everything that reads a pattern
// reads it through readPattern (or cutEnd, and isSpecial for values not yet compiled):
// its shape, the matcher, a literal entry's first word and its bucket key, the byte and
// pair sets of a wildcard entry, the index's pieces and its verification, CheckOnce's
// pre-filter and RFC 9309's escaping of a rule's value. A change to what a pattern
// means is made here.
const (
	anyRun    = '*'
	endAnchor = '$'
)

// isSpecial reports whether c may mean something other than itself in a pattern.
func isSpecial(c byte) bool { return c == anyRun || c == endAnchor }

// cutEnd returns pat without its end anchor, and whether it has one.
func cutEnd(pat string) (body string, end bool) {
	if n := len(pat); n > 0 && pat[n-1] == endAnchor {
		return pat[:n-1], true
	}
	return pat, false
}

// pattern is a compiled pattern as readPattern reads it.
type pattern struct {
	s    string // the pattern, which a rule set keeps
	body string // s without its end anchor: literal pieces separated by anyRun
	star int    // where the first anyRun of body is, -1 when it has none
	end  bool   // the match is anchored at the end of the path
}

func readPattern(pat string) pattern {
	body, end := cutEnd(pat)
	return pattern{s: pat, body: body, star: strings.IndexByte(body, anyRun), end: end}
}

// literalPattern is pat read as one piece, every byte standing for itself: the
// patterns of the legacy dialects, which know no special byte.
func literalPattern(pat string) pattern { return pattern{s: pat, body: pat, star: -1} }

// patternOf reads a pattern of a rule set, whose shape it has: a prefix pattern is
// one piece, whatever its bytes (the legacy dialects' are all prefix patterns).
func patternOf(pat string, shape uint8) pattern {
	if shape == shapePrefix {
		return literalPattern(pat)
	}
	return readPattern(pat)
}

// Pattern shapes, decided at parse time so that the common cases skip the general matcher.
const (
	shapePrefix uint8 = iota // one piece and no end anchor: a plain prefix
	shapeExact               // one piece and an end anchor: the path equals the piece
	shapeWild                // several pieces
)

func (p pattern) shape() uint8 {
	switch {
	case p.star >= 0:
		return shapeWild
	case p.end:
		return shapeExact
	}
	return shapePrefix
}

// head is the piece anchored at the start of the path: the body up to its first anyRun,
// all of it when it has none.
func (p pattern) head() string {
	if p.star < 0 {
		return p.body
	}
	return p.body[:p.star]
}

// tail is the last piece: the body after its last anyRun, all of it when it has none.
// With an end anchor, it is anchored at the end of the path.
func (p pattern) tail() string {
	return p.body[strings.LastIndexByte(p.body, anyRun)+1:]
}

// pieces calls f with each piece of the pattern that is not empty, in order.
func (p pattern) pieces(f func(string)) {
	body := p.body
	for i := p.star; i >= 0; i = strings.IndexByte(body, anyRun) {
		if i > 0 {
			f(body[:i])
		}
		body = body[i+1:]
	}
	if body != "" {
		f(body)
	}
}

// literal returns the piece of a pattern of one piece (shapePrefix or shapeExact).
func (p pattern) literal() string { return p.body }

// bucketKey is the byte after the leading '/' that every path matching the pattern must
// have, or -1 when it can match paths of any second byte (its head is shorter) or that
// byte is not ASCII (escaped patterns have none) or is NUL (bit 0 of a set's keys marks
// its long header; the reader ends a line at a NUL, so only a decoded escape has one).
func (p pattern) bucketKey() int16 {
	if h := p.head(); len(h) >= 2 && h[0] == '/' && 0 < h[1] && h[1] < 0x80 {
		return int16(h[1])
	}
	return -1
}

// matches reports whether path matches pat of the given shape (see patternOf). Like
// Google's matcher, a pattern matches from the start of the path.
func matches(shape uint8, pat, path string) bool {
	if shape == shapePrefix { // one piece: patternOf, without building it
		return strings.HasPrefix(path, pat)
	}
	return readPattern(pat).match(path)
}

// matchesSlash is matches(shape, pat, "/"+rest) without building that string.
func matchesSlash(shape uint8, pat, rest string) bool {
	if shape == shapePrefix {
		return pat == "" || pat[0] == '/' && strings.HasPrefix(rest, pat[1:])
	}
	return readPattern(pat).matchSlash(rest)
}

// matchSlash is p.match("/" + rest) without building that string: the '/' is the
// head's first byte, or taken by an anyRun the pattern starts with.
func (p pattern) matchSlash(rest string) bool {
	for {
		switch {
		case p.star != 0: // the head is not empty, or the body is all of it
			if p.body == "" {
				return !p.end // "/" + rest is never empty
			}
			if p.body[0] != '/' {
				return false
			}
			p.body, p.star = p.body[1:], p.star-1
			if p.star < 0 {
				p.star = -1
			}
			return p.match(rest)
		case p.match(rest): // the anyRun takes the "/" and maybe more
			return true
		}
		// The anyRun takes nothing.
		p.body = p.body[1:]
		p.star = strings.IndexByte(p.body, anyRun)
	}
}

// match reports whether path matches the pattern. Each piece is taken at its leftmost
// occurrence after the previous one: with anyRun as the only wildcard this finds a match
// whenever one exists, so no backtracking is needed and the cost is at worst linear in
// the pattern's length times the path's.
func (p pattern) match(path string) bool {
	if p.star < 0 {
		if p.end {
			return path == p.body
		}
		return strings.HasPrefix(path, p.body)
	}
	// The head is anchored at the start of the path.
	if !strings.HasPrefix(path, p.body[:p.star]) {
		return false
	}
	pos := p.star
	rest := p.body[p.star+1:]
	for {
		star := strings.IndexByte(rest, anyRun)
		if star < 0 {
			break
		}
		piece := rest[:star]
		rest = rest[star+1:]
		if piece == "" {
			continue
		}
		i := strings.Index(path[pos:], piece)
		if i < 0 {
			return false
		}
		pos += i + len(piece)
	}
	// rest is now the tail.
	if p.end {
		return len(path)-pos >= len(rest) && strings.HasSuffix(path, rest)
	}
	return strings.Contains(path[pos:], rest)
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

// sets returns the byte set a path must have to match the pattern (the bytes of its
// pieces) and the pairSet of its pieces, in one pass.
func (p pattern) sets() (need, pairs byteSet) {
	p.pieces(func(s string) {
		need |= bitsOf[s[0]]
		for i := 1; i < len(s); i++ {
			need, pairs = need|bitsOf[s[i]], pairs|pairBit(s[i-1], s[i])
		}
	})
	return need, pairs
}

// need is the byte set a path must have to match the pattern: the bytes of its pieces,
// which are the body's but anyRun.
func (p pattern) need() byteSet {
	var m byteSet
	for i := 0; i < len(p.body); i++ {
		if c := p.body[i]; c != anyRun {
			m |= bitsOf[c]
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
