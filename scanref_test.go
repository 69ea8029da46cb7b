package robots

import "strings"

// The reference line reader that the reader is tested against (scan_test.go): a plain
// transcription of how Google's parser reads lines, written without the reader's
// helpers or its word-at-a-time tricks. It builds every line in full, allocating freely.
// It shares nothing with the package: not even the table of field names (fieldNames).

// refScan returns the lines of s as Google's parser reads them:
//   - a leading UTF-8 byte order mark, or a leading part of one, is skipped;
//   - a line ends at CR, LF or CR LF; what follows the last line end is a line too;
//   - a line is cut at MaxLineBytes (TooLong), and its content ends at a NUL byte, since
//     the parser works on C strings;
//   - '#' starts a comment to the end of the line;
//   - the rest, trimmed of white space (C's isspace), is blank, or "key: value" with
//     both trimmed, or with no colon "key value" when it has exactly two runs of
//     characters other than space and tab (MissingColon); anything else is invalid;
//   - the key is recognised by its start, ignoring case, with the misspellings Google
//     accepts (Typo); the other names Google knows are KindOther, any other KindUnknown.
func refScan(s string) []Line {
	for _, b := range []byte{0xEF, 0xBB, 0xBF} {
		if len(s) == 0 || s[0] != b {
			break
		}
		s = s[1:]
	}
	var texts []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '\n' && s[i] != '\r' {
			continue
		}
		texts = append(texts, s[start:i])
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		start = i + 1
	}
	texts = append(texts, s[start:])
	lines := make([]Line, len(texts))
	for i, text := range texts {
		lines[i] = refClassify(i+1, text)
	}
	return lines
}

// refClassify reads one line (see refScan).
func refClassify(num int, text string) Line {
	l := Line{Num: num, Text: text}
	if len(text) > MaxLineBytes {
		l.Text, l.TooLong = text[:MaxLineBytes], true
	}
	content := l.Text
	if nul := strings.IndexByte(content, 0); nul >= 0 {
		content = content[:nul]
	}
	if hash := strings.IndexByte(content, '#'); hash >= 0 {
		content, l.Comment = content[:hash], true
	}
	// Work with offsets into Text, for ValueCol.
	first, last := 0, len(content) // the line without white space at either end
	for first < last && refSpace(rune(content[first])) {
		first++
	}
	for last > first && refSpace(rune(content[last-1])) {
		last--
	}
	if first == last {
		l.Kind = KindBlank
		return l
	}
	keyEnd, valueStart := -1, -1
	if colon := strings.IndexByte(content[first:last], ':'); colon >= 0 {
		keyEnd, valueStart = first+colon, first+colon+1
	} else {
		runs := strings.FieldsFunc(content[first:last], func(r rune) bool { return r == ' ' || r == '\t' })
		if len(runs) != 2 {
			l.Kind = KindInvalid
			return l
		}
		keyEnd = first + len(runs[0])
		valueStart = keyEnd
		l.MissingColon = true
	}
	trim := func(lo, hi int) (int, int) {
		for lo < hi && refSpace(rune(content[lo])) {
			lo++
		}
		for hi > lo && refSpace(rune(content[hi-1])) {
			hi--
		}
		return lo, hi
	}
	klo, khi := trim(first, keyEnd)
	if klo == khi {
		return Line{Num: num, Text: l.Text, TooLong: l.TooLong, Comment: l.Comment, Kind: KindInvalid}
	}
	vlo, vhi := trim(valueStart, last)
	l.Key, l.Value = content[klo:khi], content[vlo:vhi]
	if vlo < vhi {
		l.ValueCol = vlo + 1
	}
	l.Kind, l.Typo = refFieldKind(l.Key)
	return l
}

// refFieldKind recognises a field name by its start, ignoring case, as Google's parser
// does ("user-agentx" is user-agent), with the misspellings it accepts: each kind's
// first name is the field's own, the others are misspellings.
func refFieldKind(key string) (Kind, bool) {
	k := refLowerASCII(key)
	fields := []struct {
		kind   Kind
		starts []string
	}{
		{KindUserAgent, []string{"user-agent", "useragent", "user agent"}},
		{KindAllow, []string{"allow"}},
		{KindDisallow, []string{"disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"}},
		{KindSitemap, []string{"sitemap", "site-map"}},
	}
	for _, f := range fields {
		for i, start := range f.starts {
			if strings.HasPrefix(k, start) {
				return f.kind, i > 0
			}
		}
	}
	for _, name := range refOtherFields {
		if k == name {
			return KindOther, false
		}
	}
	return KindUnknown, false
}

// refOtherFields are the names Google knows but does not use for rules (its "unused"
// directives), and those other crawlers read: exact names, in any case.
var refOtherFields = []string{
	"clean-param", "content-signal", "content-usage", "crawl-delay", "domain", "host",
	"noarchive", "nofollow", "noindex", "request-rate", "revisit-after", "visit-time",
}
