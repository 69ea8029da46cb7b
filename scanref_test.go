package robots

import "strings"

// The scanner as it was before its fast path (commit e5715ff), kept as the reference
// that the fast scanner is tested against (scan_test.go): it follows Google's parser
// step by step and is easy to check by reading.

// otherFieldsRef is otherFields as of the reference.
var otherFieldsRef = []string{
	"clean-param", "content-signal", "content-usage", "crawl-delay", "domain", "host",
	"noarchive", "nofollow", "noindex", "request-rate", "revisit-after", "visit-time",
}

// skipBOM skips the longest prefix of s that is a prefix of the UTF-8 byte order mark,
// as Google's parser does.
func skipBOMRef(s string) string {
	const bom = "\xEF\xBB\xBF"
	i := 0
	for i < len(bom) && i < len(s) && s[i] == bom[i] {
		i++
	}
	return s[i:]
}

// scanLines walks s line by line without allocating and calls fn for each line.
// The *Line passed to fn is reused; fn must copy what it keeps.
func scanLinesRef(s string, fn func(*Line) bool) {
	s = skipBOMRef(s)
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
			classifyRef(&l, num, s[pos:end], noNUL, hash)
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
var spacesRef = [256]bool{' ': true, '\t': true, '\n': true, '\v': true, '\f': true, '\r': true}

func isSpaceRef(c byte) bool {
	return spacesRef[c]
}

// trimSpace trims ASCII white space (C's isspace) from both ends.
func trimSpaceRef(s string) (string, int) {
	start := 0
	for start < len(s) && isSpaceRef(s[start]) {
		start++
	}
	end := len(s)
	for end > start && isSpaceRef(s[end-1]) {
		end--
	}
	return s[start:end], start
}

// classify fills l from one line of text, following Google's reference parser.
// hash is the index of the first '#' in text, or -1 when it has none.
func classifyRef(l *Line, num int, text string, noNUL bool, hash int) {
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
	line, off := trimSpaceRef(text)
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
	key, _ := trimSpaceRef(line[:sep])
	if key == "" {
		l.Kind = KindInvalid
		l.MissingColon = false
		return
	}
	val, voff := trimSpaceRef(line[sep+1:])
	l.Key = key
	l.Value = val
	if val != "" {
		l.ValueCol = off + sep + 1 + voff + 1
	}
	l.Kind, l.Typo = fieldKindRef(key)
}

// hasPrefixFold reports whether s starts with prefix, ignoring ASCII case.
// prefix must be lower case.
func hasPrefixFoldRef(s, prefix string) bool {
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

func equalFoldRef(s, lower string) bool {
	return len(s) == len(lower) && hasPrefixFoldRef(s, lower)
}

// fieldKind recognises a field name. Like Google's parser it matches on prefixes
// ("user-agentx" is user-agent) and accepts a few frequent misspellings.
func fieldKindRef(key string) (Kind, bool) {
	switch lowerRef(key[0]) {
	case 'u':
		switch {
		case hasPrefixFoldRef(key, "user-agent"):
			return KindUserAgent, false
		case hasPrefixFoldRef(key, "useragent"), hasPrefixFoldRef(key, "user agent"):
			return KindUserAgent, true
		}
	case 'a':
		if hasPrefixFoldRef(key, "allow") {
			return KindAllow, false
		}
	case 'd':
		switch {
		case hasPrefixFoldRef(key, "disallow"):
			return KindDisallow, false
		case hasPrefixFoldRef(key, "dissallow"), hasPrefixFoldRef(key, "dissalow"), hasPrefixFoldRef(key, "disalow"),
			hasPrefixFoldRef(key, "diasllow"), hasPrefixFoldRef(key, "disallaw"):
			return KindDisallow, true
		}
	case 's':
		switch {
		case hasPrefixFoldRef(key, "sitemap"):
			return KindSitemap, false
		case hasPrefixFoldRef(key, "site-map"):
			return KindSitemap, true
		}
	}
	for _, f := range otherFieldsRef {
		if equalFoldRef(key, f) {
			return KindOther, false
		}
	}
	return KindUnknown, false
}

func lowerRef(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
