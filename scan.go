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
	s = skipBOM(s)
	var l Line
	num := 0
	lastCR := false
	noNUL := strings.IndexByte(s, 0) < 0
	// The next LF and CR at or after pos, found with the vectorised IndexByte and kept
	// until passed, so that files with only one kind of line end are scanned once.
	pos, nextLF, nextCR, nextHash := 0, -1, -1, -1
	for {
		if nextLF != len(s) && nextLF < pos {
			if i := strings.IndexByte(s[pos:], '\n'); i >= 0 {
				nextLF = pos + i
			} else {
				nextLF = len(s)
			}
		}
		if nextCR != len(s) && nextCR < pos {
			if i := strings.IndexByte(s[pos:], '\r'); i >= 0 {
				nextCR = pos + i
			} else {
				nextCR = len(s)
			}
		}
		end := min(nextLF, nextCR)
		// Comments are rare on rule lines: finding the next '#' of the body once, rather
		// than searching every line, saves a scan per line.
		if nextHash != len(s) && nextHash < pos {
			if i := strings.IndexByte(s[pos:], '#'); i >= 0 {
				nextHash = pos + i
			} else {
				nextHash = len(s)
			}
		}
		hash := -1
		if nextHash < end {
			hash = nextHash - pos
		}
		// A LF right after a CR ends nothing: it is the second half of CR LF.
		if !(end == pos && lastCR && end < len(s) && s[end] == '\n') {
			num++
			classify(&l, num, s[pos:end], noNUL, hash)
			if !fn(&l) {
				return
			}
		}
		if end == len(s) {
			return
		}
		lastCR = s[end] == '\r'
		pos = end + 1
	}
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

// classify fills l from one line of text, following Google's reference parser.
// hash is the index of the first '#' in text, or -1 when it has none.
func classify(l *Line, num int, text string, noNUL bool, hash int) {
	*l = Line{Num: num}
	if len(text) > MaxLineBytes {
		text = text[:MaxLineBytes]
		l.TooLong = true
	}
	l.Text = text
	// The reference parser works on C strings: a NUL byte ends the line.
	if hash >= len(text) { // past a cut at MaxLineBytes
		hash = -1
	}
	if !noNUL {
		if i := strings.IndexByte(text, 0); i >= 0 {
			text = text[:i]
			if hash >= i {
				hash = -1
			}
		}
	}
	if hash >= 0 {
		text = text[:hash]
		l.Comment = true
	}
	line, off := trimSpace(text)
	if line == "" {
		l.Kind = KindBlank
		return
	}
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
