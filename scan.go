package robots

import (
	"iter"
	"strings"
)

// Kind is what a line of robots.txt is, as Google's parser classifies it.
type Kind uint8

const (
	KindBlank     Kind = iota // empty or comment only
	KindInvalid               // text that is not a field: no colon and not "name value"
	KindUserAgent             // user-agent (or an accepted misspelling)
	KindAllow                 // allow
	KindDisallow              // disallow (or an accepted misspelling)
	KindSitemap               // sitemap (or site-map)
	KindOther                 // a known field that is not a rule: crawl-delay, host, clean-param, …
	KindUnknown               // any other field name
)

var kindNames = [...]string{"blank", "invalid", "user-agent", "allow", "disallow", "sitemap", "other", "unknown"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind?"
}

// Line is one line of a robots.txt body as the parser sees it.
type Line struct {
	Num          int    // 1-based line number; CR, LF and CR LF each end a line
	Text         string // the line as written, without its line end, cut at MaxLineBytes
	Kind         Kind
	Key          string // the field name as written, trimmed
	Value        string // the value as written, trimmed, without the comment
	ValueCol     int    // 1-based byte column of Value in Text (0 when there is no value)
	Typo         bool   // the field name is a misspelling that Google accepts
	MissingColon bool   // "name value" accepted without a colon
	Comment      bool   // the line has a # comment
	TooLong      bool   // the line was longer than MaxLineBytes and was cut
}

// otherFields are field names that Google recognises but does not use for rules
// (its "unused" directives); other parsers and crawlers read some of them.
var otherFields = []string{
	"clean-param", "content-signal", "content-usage", "crawl-delay", "domain", "host",
	"noarchive", "nofollow", "noindex", "request-rate", "revisit-after", "visit-time",
}

// Lines returns the lines of body as Parse reads them, ignoring the size limit:
// a leading UTF-8 byte order mark (or a leading part of one) is skipped, lines end at
// CR, LF or CR LF, a NUL byte ends a line's content, and lines longer than
// MaxLineBytes are cut. It is meant for tools that explain or lint a file.
func Lines(body []byte) iter.Seq[Line] {
	s := string(body)
	return func(yield func(Line) bool) {
		scanLines(s, func(l *Line) bool { return yield(*l) })
	}
}

// skipBOM skips the longest prefix of s that is a prefix of the UTF-8 byte order mark,
// as Google's parser does.
func skipBOM(s string) string {
	const bom = "\xEF\xBB\xBF"
	i := 0
	for i < len(bom) && i < len(s) && s[i] == bom[i] {
		i++
	}
	return s[i:]
}

// scanLines walks s line by line without allocating and calls fn for each line.
// The *Line passed to fn is reused; fn must copy what it keeps.
func scanLines(s string, fn func(*Line) bool) {
	var sc scanner
	sc.init(s)
	var l Line
	for sc.next(&l) {
		if !fn(&l) {
			return
		}
	}
}

// scanner reads a body line by line. Where each kind of byte that ends or cuts a
// line (LF, CR, '#') is next is found with the vectorised IndexByte and kept until
// passed, so that each part of a body is searched once for each kind of byte: a body
// with only LF line ends and few comments costs one search per line.
type scanner struct {
	s      string
	pos    int // where the next line starts; past len(s) once the last line is read
	num    int
	noNUL  bool // the body has no NUL byte: no line needs to be searched for one
	nextLF int  // the first LF at or after pos, len(s) when there is none, -1 at first
	nextCR int  // the same for CR
	nextH  int  // the first '#' at or after the last line classified (see hash)
}

func (sc *scanner) init(s string) {
	sc.initAt(s, len(s)-len(skipBOM(s)), 0, strings.IndexByte(s, 0) < 0)
}

// initAt sets sc to read s from pos, a line start after which num lines have been read
// (skipping the byte order mark is init's). noNUL says s has no NUL byte. Offsets, as
// line returns them, are in s: a rule set compiled later (compileSet) reads its
// groups' lines again from where Parse found them.
func (sc *scanner) initAt(s string, pos, num int, noNUL bool) {
	*sc = scanner{s: s, pos: pos, num: num, noNUL: noNUL, nextLF: -1, nextCR: -1, nextH: -1}
}

// indexFrom is the index of the first c in s at or after from, or len(s).
func indexFrom(s string, from int, c byte) int {
	if i := strings.IndexByte(s[from:], c); i >= 0 {
		return from + i
	}
	return len(s)
}

// next reads the next line into l. It reports false when there are no more lines.
func (sc *scanner) next(l *Line) bool {
	start, end, ok := sc.line()
	if !ok {
		return false
	}
	classify(l, sc.num, sc.s[start:end], sc.noNUL, sc.hash(start, end))
	return true
}

// line moves to the next line and returns where its text starts and ends in sc.s,
// without classifying it: CheckOnce reads only the first byte of most lines. ok is
// false when there are no more lines.
func (sc *scanner) line() (start, end int, ok bool) {
	s, pos := sc.s, sc.pos
	if pos > len(s) {
		return 0, 0, false
	}
	// strings.IndexByte is called here rather than through indexFrom, which is too
	// large to be inlined: this is the one search made for every line.
	if sc.nextLF < pos {
		sc.nextLF = len(s)
		if i := strings.IndexByte(s[pos:], '\n'); i >= 0 {
			sc.nextLF = pos + i
		}
	}
	if sc.nextCR < pos {
		sc.nextCR = indexFrom(s, pos, '\r')
	}
	end = sc.nextLF
	sc.pos = end + 1
	if sc.nextCR < end {
		end = sc.nextCR
		sc.pos = end + 1
		if end+1 < len(s) && s[end+1] == '\n' { // CR LF ends one line
			sc.pos++
		}
	}
	sc.num++
	return pos, end, true
}

// hash returns where the first '#' of the line s[start:end] just read by line is,
// relative to start, or -1 when it has none. Comments are rare on rule lines: the
// next '#' of the body is found once and kept until passed, rather than each line
// being searched; and it is looked for only in the lines classified.
func (sc *scanner) hash(start, end int) int {
	if sc.nextH < start {
		sc.nextH = indexFrom(sc.s, start, '#')
	}
	if sc.nextH < end {
		return sc.nextH - start
	}
	return -1
}

// spaces marks the bytes C's isspace accepts.
var spaces = [256]bool{' ': true, '\t': true, '\n': true, '\v': true, '\f': true, '\r': true}

func isSpace(c byte) bool {
	return spaces[c]
}

// trimSpace trims ASCII white space (C's isspace) from both ends.
func trimSpace(s string) (string, int) {
	start := 0
	for start < len(s) && isSpace(s[start]) {
		start++
	}
	end := len(s)
	for end > start && isSpace(s[end-1]) {
		end--
	}
	return s[start:end], start
}

// Field names that start most lines, as little-endian words of their first eight
// bytes: a word w starts with the name in any case when w&keep|fold == word, fold
// being the case bit (0x20) of each letter and keep the bytes of the name.
const (
	wordDisallow = 0x776f6c6c61736964 // "disallow"
	foldDisallow = 0x2020202020202020
	wordUserAge  = 0x6567612d72657375 // "user-age"
	foldUserAge  = 0x2020200020202020 // not the '-': CR|0x20 is '-'
	wordAllow    = 0x000000776f6c6c61 // "allow"
	foldAllow    = 0x0000002020202020
	keepAllow    = 0x000000ffffffffff
	wordSitemap  = 0x0070616d65746973 // "sitemap"
	foldSitemap  = 0x0020202020202020
	keepSitemap  = 0x00ffffffffffffff
)

// knownKey recognises a line that starts with one of the common field names, in
// any case, followed at once by a colon: the shape of most lines. It returns the
// kind and the length of the name, or 0 for any other line.
func knownKey(s string) (Kind, int) {
	if len(s) < 8 {
		return 0, 0
	}
	w := u64(s, 0)
	kind, n := Kind(0), 0
	switch {
	case w|foldDisallow == wordDisallow:
		kind, n = KindDisallow, 8
	case w&keepAllow|foldAllow == wordAllow:
		kind, n = KindAllow, 5
	case w|foldUserAge == wordUserAge:
		if len(s) >= 10 && s[8]|0x20 == 'n' && s[9]|0x20 == 't' {
			kind, n = KindUserAgent, 10
		}
	case w&keepSitemap|foldSitemap == wordSitemap:
		kind, n = KindSitemap, 7
	}
	if n == 0 || n >= len(s) || s[n] != ':' {
		return 0, 0
	}
	return kind, n
}

// classify fills l from one line of text, following Google's reference parser.
// hash is the index of the first '#' in text, or -1 when it has none.
func classify(l *Line, num int, text string, noNUL bool, hash int) {
	tooLong := false
	if len(text) > MaxLineBytes {
		text = text[:MaxLineBytes]
		tooLong = true
	}
	// The reference parser works on C strings: a NUL byte ends the line.
	line := text
	if !noNUL {
		if i := strings.IndexByte(line, 0); i >= 0 {
			line = line[:i]
		}
	}
	comment := hash >= 0 && hash < len(line)
	if comment {
		line = line[:hash]
	}
	// Every field is written, rather than the whole struct zeroed first: a Line is
	// large and most lines take the fast path below.
	l.Num, l.Text, l.TooLong, l.Comment = num, text, tooLong, comment
	l.Typo, l.MissingColon = false, false
	if kind, n := knownKey(line); n > 0 {
		val, voff := trimSpace(line[n+1:])
		l.Kind, l.Key, l.Value, l.ValueCol = kind, line[:n], val, 0
		if val != "" {
			l.ValueCol = n + 1 + voff + 1
		}
		return
	}
	l.Kind, l.Key, l.Value, l.ValueCol = KindBlank, "", "", 0
	line, off := trimSpace(line)
	if line != "" {
		classifyField(l, line, off)
	}
}

// classifyField classifies a line that has text but does not start with a common
// field name and a colon. line is trimmed; off is where it starts in Text.
func classifyField(l *Line, line string, off int) {
	sep := strings.IndexByte(line, ':')
	if sep < 0 {
		// Google accepts white space in place of a missing colon, but only when the line
		// has exactly two runs of non-space characters.
		sep = strings.IndexAny(line, " \t")
		if sep < 0 {
			l.Kind = KindInvalid
			return
		}
		rest := line[sep:]
		for len(rest) > 0 && (rest[0] == ' ' || rest[0] == '\t') {
			rest = rest[1:]
		}
		if strings.ContainsAny(rest, " \t") {
			l.Kind = KindInvalid
			return
		}
		l.MissingColon = true
	}
	key, _ := trimSpace(line[:sep])
	if key == "" {
		l.Kind = KindInvalid
		l.MissingColon = false
		return
	}
	val, voff := trimSpace(line[sep+1:])
	l.Key = key
	l.Value = val
	if val != "" {
		l.ValueCol = off + sep + 1 + voff + 1
	}
	l.Kind, l.Typo = fieldKind(key)
}

// hasPrefixFold reports whether s starts with prefix, ignoring ASCII case.
// prefix must be lower case.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

func equalFold(s, lower string) bool {
	return len(s) == len(lower) && hasPrefixFold(s, lower)
}

// fieldKind recognises a field name. Like Google's parser it matches on prefixes
// ("user-agentx" is user-agent) and accepts a few frequent misspellings.
func fieldKind(key string) (Kind, bool) {
	switch lower(key[0]) {
	case 'u':
		switch {
		case hasPrefixFold(key, "user-agent"):
			return KindUserAgent, false
		case hasPrefixFold(key, "useragent"), hasPrefixFold(key, "user agent"):
			return KindUserAgent, true
		}
	case 'a':
		if hasPrefixFold(key, "allow") {
			return KindAllow, false
		}
	case 'd':
		switch {
		case hasPrefixFold(key, "disallow"):
			return KindDisallow, false
		case hasPrefixFold(key, "dissallow"), hasPrefixFold(key, "dissalow"), hasPrefixFold(key, "disalow"),
			hasPrefixFold(key, "diasllow"), hasPrefixFold(key, "disallaw"):
			return KindDisallow, true
		}
	case 's':
		switch {
		case hasPrefixFold(key, "sitemap"):
			return KindSitemap, false
		case hasPrefixFold(key, "site-map"):
			return KindSitemap, true
		}
	}
	for _, f := range otherFields {
		if equalFold(key, f) {
			return KindOther, false
		}
	}
	return KindUnknown, false
}
