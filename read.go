package robots

import (
	"iter"
	"slices"
	"strings"
)

// The reader of the robots.txt grammar. Every reading of a body goes through it:
// Parse finding the groups, a rule set's compilation, CheckOnce, the detailed reading
// behind Groups and Diagnostics, and Lines. It alone says where a line ends
// (reader.next), where its comment starts (reader.hash), what its field name is
// (fieldNames, through reader.next's word comparison and fieldOf) and what its value is
// (classify, agentValue); grouping says which group a line belongs to. The readings
// differ only in the lines they pass over: those whose first byte starts no field they
// use (groupBytes, agentByte).

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

// Lines returns the lines of body as Parse reads them, ignoring the size limit:
// a leading UTF-8 byte order mark (or a leading part of one) is skipped, lines end at
// CR, LF or CR LF, a NUL byte ends a line's content, and lines longer than
// MaxLineBytes are cut. It is meant for tools that explain or lint a file.
func Lines(body []byte) iter.Seq[Line] {
	s := string(body)
	return func(yield func(Line) bool) {
		rd := newReader(s, Google)
		var l Line
		for {
			start, end, kind, n, ok := rd.next()
			if !ok {
				return
			}
			rd.classify(&l, start, end, kind, n)
			if !yield(l) {
				return
			}
		}
	}
}

// Lines returns the lines of the body r parsed, up to its size limit, as r's dialect
// reads them (Lines reads as Google does): in Google's dialect, those Lines returns for
// that part of the body. The strings of each Line are r's, not a copy. A loop that reads
// every line also makes the reading of the body that Groups, Fields and Diagnostics
// return, when none of them has been asked for yet, so that a tool that reads the
// lines and the groups (package lint) reads the body once.
func (r *Robots) Lines() iter.Seq[Line] {
	return func(yield func(Line) bool) {
		if r == nil {
			return
		}
		var dr detailReader
		if r.detail.Load() == nil {
			dr.start(r)
			defer dr.b.release()
		}
		rd := newReader(r.body, r.dialect)
		rd.exact = r.exact // where no CR ends a line by itself, a line ends at LF
		var l Line
		for {
			start, end, kind, n, ok := rd.next()
			if !ok {
				break
			}
			rd.classify(&l, start, end, kind, n)
			if dr.b != nil {
				dr.line(&l)
			}
			if !yield(l) {
				return
			}
		}
		if dr.b != nil {
			r.detail.CompareAndSwap(nil, dr.done(r, rd.num))
		}
	}
}

// fieldName is a field name the reader knows.
type fieldName struct {
	name     string // lower case
	kind     Kind
	prefix   bool  // Google reads any name that starts so ("user-agentx" is user-agent); the legacy dialects read it exactly
	typo     bool  // a misspelling Google accepts
	dialects uint8 // bit d is set when Dialect d reads the name
	// rule has bit d set when Dialect d reads a line of the field, of KindOther, as a
	// rule of its group: like allow, it ends the group's user-agent lines (see
	// Dialect.groupRule). Its kind stays KindOther, which is what Lines reports.
	rule uint8
	// usage says which preferences a line of the field states, if any: Content-Usage's
	// (usageField) or Content-Signal's (signalField), which Robots.Usage reports.
	usage uint8
}

// Which preferences a field's lines state (fieldName.usage).
const (
	usageField  = 1 // Content-Usage (draft-ietf-aipref-attach)
	signalField = 2 // Content-Signal (contentsignals.org)
)

// Which dialects read a name.
const (
	everyDialect = 1<<Google | 1<<RFC9309 | 1<<Legacy1996 | 1<<Legacy1994
	googleOnly   = 1<<Google | 1<<RFC9309 // RFC 9309 reads names as Google does
	not1994      = everyDialect &^ (1 << Legacy1994)
)

// fieldNames are the field names of robots.txt in every dialect: the one table the
// reader knows them from. A name is read in any ASCII case; the first row that matches
// a line's name gives its kind.
//
// To add a name of a kind that exists, add a row for a misspelling, or the name to
// the list of otherFields for another unused field: nothing else. Lines, Fields and the
// diagnostics then read it, in the dialects its row names. A field of KindOther that
// some dialects read as a rule of its group, ending the group's user-agent lines as
// allow does (Content-Usage in RFC9309, draft-ietf-aipref-attach), has a row of its own
// after otherFields whose rule names those dialects: nothing else. The readings of
// groups then see its lines in those dialects (groupBytes is derived from the rows) and
// call grouping.rule for them (Dialect.groupRule), and every other reading is as for
// any KindOther field. To add a field that belongs to a group in every dialect and is
// to be reported as such by Lines:
//   - give it a Kind of its own (a constant and its name in kindNames; readDetails'
//     test of which kinds get name diagnostics compares kinds by order);
//   - put its row here (not among otherFields) and its kind in groupKinds if, like
//     allow, it ends the user-agent lines of its group: the readings of groups then see
//     its lines (groupBytes is derived from the rows);
//   - say what each reading does with it: readDetails keeps it for Groups and Fields;
//     groupReader.read calls its rule for it, as for allow.
//
// The other tables follow the rows: the first name of each initial that is not a
// misspelling is recognised by a word comparison (reader.next), so put the frequent
// spelling of an initial first (TestQuickNames checks that both ways read it alike).
var fieldNames = append([]fieldName{
	// Google's reference parser reads these by prefix, with the misspellings it accepts.
	{name: "disallow", kind: KindDisallow, prefix: true, dialects: everyDialect},
	{name: "dissallow", kind: KindDisallow, prefix: true, typo: true, dialects: googleOnly},
	{name: "dissalow", kind: KindDisallow, prefix: true, typo: true, dialects: googleOnly},
	{name: "disalow", kind: KindDisallow, prefix: true, typo: true, dialects: googleOnly},
	{name: "diasllow", kind: KindDisallow, prefix: true, typo: true, dialects: googleOnly},
	{name: "disallaw", kind: KindDisallow, prefix: true, typo: true, dialects: googleOnly},
	{name: "allow", kind: KindAllow, prefix: true, dialects: not1994}, // the 1994 standard has no allow
	{name: "user-agent", kind: KindUserAgent, prefix: true, dialects: everyDialect},
	{name: "useragent", kind: KindUserAgent, prefix: true, typo: true, dialects: googleOnly},
	{name: "user agent", kind: KindUserAgent, prefix: true, typo: true, dialects: googleOnly},
	{name: "sitemap", kind: KindSitemap, prefix: true, dialects: everyDialect},
	{name: "site-map", kind: KindSitemap, prefix: true, typo: true, dialects: googleOnly},
},
	// Names Google knows but does not use for rules (its "unused" directives), read
	// exactly; other parsers and crawlers read some of them.
	// License is RSL 1.0's (Really Simple Licensing, rslstandard.org): a global line,
	// as sitemap is, with the absolute URL of an XML licence; LLM-Policy is read by
	// crawler-commons.
	append(otherFields("crawl-delay", "clean-param", "domain", "host",
		"license", "llm-policy", "noarchive", "nofollow", "noindex", "request-rate", "revisit-after", "visit-time"),
		// Content-Signal states usage preferences, as Content-Usage does; every dialect
		// reads it as a field, the legacy ones without preferences (Robots.Usage).
		fieldName{name: "content-signal", kind: KindOther, dialects: everyDialect, usage: signalField},
		// draft-ietf-aipref-attach, which updates RFC 9309, adds Content-Usage to its
		// rules ("rule =/ content-usage"): in RFC9309 it ends the user-agent lines of its
		// group. Google's parser reads it as an unused directive, which ends nothing;
		// the legacy documents do not know it. (After crawl-delay, which stays the
		// reader's word comparison for lines starting with 'c'.)
		fieldName{name: "content-usage", kind: KindOther, dialects: everyDialect, rule: 1 << RFC9309, usage: usageField})...)

// otherFields returns the rows of fieldNames for names of KindOther, which every
// dialect reads, and reads exactly.
func otherFields(names ...string) []fieldName {
	rows := make([]fieldName, len(names))
	for i, name := range names {
		rows[i] = fieldName{name: name, kind: KindOther, dialects: everyDialect}
	}
	return rows
}

// groupKinds are the kinds of line that the readings of groups use: the lines that
// start a group, end its user-agent lines or are its rules.
var groupKinds = [...]Kind{KindUserAgent, KindAllow, KindDisallow}

// fieldsByInitial lists the rows of fieldNames by the lower-case first byte of their name.
var fieldsByInitial = func() (t [256][]*fieldName) {
	for i := range fieldNames {
		f := &fieldNames[i]
		t[f.name[0]] = append(t[f.name[0]], f)
	}
	return t
}()

// ruleDialects has bit d set when Dialect d reads some field of KindOther as a rule
// (fieldName.rule).
var ruleDialects = func() (m uint8) {
	for _, f := range fieldNames {
		m |= f.rule
	}
	return m
}()

// groupRule reports whether a line of KindOther whose field name is key is, in d, a rule
// of its group: it belongs to the group, ends its user-agent lines, and before any
// group belongs to none.
func (d Dialect) groupRule(key string) bool {
	if ruleDialects>>d&1 == 0 {
		return false
	}
	f := fieldOf(key, d)
	return f != nil && f.rule>>d&1 != 0
}

// fieldOf returns the row of fieldNames that names a field as dialect d reads it, or
// nil for a name no row gives (KindUnknown).
func fieldOf(key string, d Dialect) *fieldName {
	for _, f := range fieldsByInitial[lower(key[0])] {
		if f.dialects>>d&1 != 0 && (len(key) == len(f.name) || f.prefix && !d.legacy()) && hasPrefixFold(key, f.name) {
			return f
		}
	}
	return nil
}

// groupBytes[d] marks the bytes that may start a line the readings of groups use in
// Dialect d: the initials of the names of groupKinds, and of the fields d reads as rules
// (fieldName.rule), in either case, white space and NUL (a line that starts so may be
// blank, or a field after white space). Any other line is none of them in d, and is
// passed over by its first byte. agentByte marks those that may start a user-agent
// line: all a reading needs while rule lines change nothing for it (reader.agentsOnly).
// Both mark the initials of License too: Parse's reading notes License lines, which
// stand outside groups, so that Robots.Licenses needs no other reading of a file that
// has none (most files); the other readings pass over them (lines that start so are
// rare: tables of their own would cost every reading more). anyByte marks every byte.
var groupBytes = func() (t [len(dialectNames)][256]bool) {
	for d := range t {
		t[d] = initialsOf(func(f *fieldName) bool {
			return slices.Contains(groupKinds[:], f.kind) || f.rule>>d&1 != 0 || f.name == licenseField
		})
	}
	return t
}()
var agentByte = initialsOf(func(f *fieldName) bool { return f.kind == KindUserAgent || f.name == licenseField })

// licenseField is the name of RSL's License field.
const licenseField = "license"

var anyByte = func() (t [256]bool) {
	for c := range t {
		t[c] = true
	}
	return t
}()

// initialsOf marks the bytes that may start a line of a field of fieldNames that the
// reading wants: their initials in either case, white space and NUL (see groupBytes).
func initialsOf(wants func(*fieldName) bool) (t [256]bool) {
	for c := range 256 {
		t[c] = spaces[c] || c == 0
	}
	for i := range fieldNames {
		if f := &fieldNames[i]; wants(f) {
			t[f.name[0]], t[f.name[0]-'a'+'A'] = true, true
		}
	}
	return t
}

// quickName is a name of fieldNames and its colon, laid out to be compared with the
// start of a line as two words: a line starts with it, in any case, when its first
// sixteen bytes w (little-endian) have w&keep|fold == word.
type quickName struct {
	word, keep, fold [2]uint64 // name+":"; its bytes; the case bit of its letters
	n                int       // the name's length
	kind             Kind
	dialects         uint8
}

// quickNames holds, at quickOf[c], the name that reader.next compares with lines that
// start with c: the first row of fieldNames of that initial that is not a misspelling,
// if its name and colon fit two words. Entry 0 matches nothing.
var quickNames, quickOf = func() (qs []quickName, of [256]uint8) {
	qs = []quickName{{word: [2]uint64{1}}}
	for _, f := range fieldNames {
		c := f.name[0]
		if f.typo || of[c] != 0 || len(f.name) >= 16 {
			continue
		}
		q := quickName{n: len(f.name), kind: f.kind, dialects: f.dialects}
		s := f.name + ":"
		for i := 0; i < len(s); i++ {
			q.word[i/8] |= uint64(s[i]) << (8 * (i % 8))
			q.keep[i/8] |= 0xff << (8 * (i % 8))
			if 'a' <= s[i] && s[i] <= 'z' {
				q.fold[i/8] |= 0x20 << (8 * (i % 8))
			}
		}
		of[c], of[c-'a'+'A'] = uint8(len(qs)), uint8(len(qs))
		qs = append(qs, q)
	}
	return qs, of
}()

// tailWords returns the first sixteen bytes of s, zero-padded, as two words.
func tailWords(s string) (w [2]uint64) {
	for i := 0; i < len(s) && i < 16; i++ {
		w[i/8] |= uint64(s[i]) << (8 * (i % 8))
	}
	return w
}

// agentValue returns the product token of a user-agent line's value and whether the
// value is "*", from rest, the text after the colon: it may still hold the white space
// before the value, and a comment or a NUL after it, since a token ends at any byte
// that ends a value. rest must be cut at MaxLineBytes (cutLine).
func agentValue(rest string) (tok string, global bool) {
	rest = trimLeft(rest)
	if rest != "" && rest[0] == '*' {
		// "*" alone, or followed by white space or by what ends the value; any other
		// value starting with '*' has an empty token.
		return "", len(rest) == 1 || spaces[rest[1]] || rest[1] == '#' || rest[1] == 0
	}
	return leadingToken(rest), false
}

// cutLine cuts a line's text at MaxLineBytes, as the reader does.
func cutLine(text string) string {
	return text[:min(len(text), MaxLineBytes)]
}

// reader reads a body line by line. Each line end costs one search of the body
// (strings.IndexByte, vectorised), for an LF; a CR counts only before an LF, unless the
// reader is exact. Most bodies end their lines in LF or CR LF, and reading such a body
// exactly would cost a second search a line, for CRs: so a reading that is not exact
// counts the CRs it passes, and misread reports a body where some CR ends a line by
// itself, to be read again exactly.
type reader struct {
	s         string
	dialect   Dialect
	want      *[256]bool // the first bytes of the lines next returns (see agentsOnly)
	groups    *[256]bool // groupBytes of the dialect
	blanks    bool       // next returns empty lines
	noNUL     bool       // s has no NUL byte: classify need not search a line for one
	exact     bool       // a CR alone ends a line too
	hasCR     bool       // s holds a CR
	crs       int        // not exact: the CRs of s not yet found before an LF
	pos       int        // where the next line starts; past len(s) once the last line is read
	num       int        // the lines read
	nextLF    int        // exact: the first LF at or after pos, len(s) when there is none, -1 at first
	nextCR    int        // exact: the same for CR
	nextH     int        // the first '#' at or after the last line searched (see hash), -1 at first
	skip      bool       // next passes over the allow and disallow lines that cannot match a path (skipRules)
	pathW0    uint64     // that path's first eight bytes (pathView.w0)
	pathPlain int        // and how many of them stand for themselves (pathView.plain)
}

// newReader returns a reader of every line of body s, as dialect d reads them, from its
// start: a leading byte order mark, or a leading part of one, is skipped, as Google's
// parser does.
func newReader(s string, d Dialect) reader {
	rd := readerAt(s, d, skipBOM(s), 0, true)
	rd.want, rd.blanks, rd.noNUL = &anyByte, true, strings.IndexByte(s, 0) < 0
	return rd
}

// readerAt returns a reader of s from pos, a line start after which num lines have been
// read, that returns only the lines the readings of groups use (see next). Offsets, as
// next returns them, are in s: a rule set's compilation reads its groups' lines again
// from where Parse found them. Whether s has a NUL byte is not looked for: such a
// reading classifies few lines, and classify searches those.
func readerAt(s string, d Dialect, pos, num int, exact bool) reader {
	crs := strings.Count(s[pos:], "\r")
	groups := &groupBytes[d]
	return reader{s: s, dialect: d, want: groups, groups: groups, blanks: d.legacy(), exact: exact, hasCR: crs > 0, crs: crs,
		pos: pos, num: num, nextLF: -1, nextCR: -1, nextH: -1}
}

// skipBOM returns where the text of s starts: past the longest prefix of s that is a
// prefix of the UTF-8 byte order mark.
func skipBOM(s string) int {
	const bom = "\xEF\xBB\xBF"
	i := 0
	for i < len(bom) && i < len(s) && s[i] == bom[i] {
		i++
	}
	return i
}

// next moves to the next line and returns where its text starts and ends in s, and its
// kind and the length of its name when it starts with a name of quickNames followed at
// once by a colon, in any case, as the dialect reads it: the shape of most lines (n is
// 0 for any other line; classify reads the line in full, the same way: TestQuickNames).
// ok is false when there are no more lines.
//
// Unless the reader reads every line, next passes over the lines the readings of groups
// do not use: those whose first byte is not in groupBytes, and empty lines except in the
// legacy dialects, where a blank line ends the record.
func (rd *reader) next() (start, end int, kind Kind, n int, ok bool) {
	s, pos, num, want, hasCR := rd.s, rd.pos, rd.num, rd.want, rd.hasCR
	for pos <= len(s) {
		start = pos
		if rd.exact {
			end, pos = rd.exactEnd(pos)
		} else {
			end = len(s)
			if i := strings.IndexByte(s[pos:], '\n'); i >= 0 {
				end = pos + i
			}
			pos = end + 1
			if hasCR && end > start && end < len(s) && s[end-1] == '\r' {
				rd.crs--
				end--
			}
		}
		num++
		if start == end {
			if rd.blanks {
				rd.pos, rd.num = pos, num
				return start, end, 0, 0, true
			}
			continue
		}
		c := s[start]
		if !want[c] {
			continue
		}
		// The words compared may run past the line: no byte that ends a line or its
		// content (LF, CR, NUL, '#') is a letter or a colon, even with a letter's case
		// bit set.
		var w0, w1 uint64
		if start+16 <= len(s) {
			w0, w1 = u64(s, start), u64(s, start+8)
		} else {
			w := tailWords(s[start:])
			w0, w1 = w[0], w[1]
		}
		q := &quickNames[quickOf[c]]
		if w0&q.keep[0]|q.fold[0] == q.word[0] && w1&q.keep[1]|q.fold[1] == q.word[1] && q.dialects>>rd.dialect&1 != 0 {
			kind, n = q.kind, q.n
			if rd.skip && kind-KindAllow <= KindDisallow-KindAllow && end-start <= MaxLineBytes && start+n+10 <= len(s) {
				// An allow or disallow line, while CheckOnce reads the rules of a group that
				// applies: passed over when its value's first eight bytes (read within s and
				// the line as cut; past the line's end, its LF or CR stands for itself in no
				// pattern) cannot match the path, after a space or tab if any.
				v := start + n + 1
				if c := s[v]; c == ' ' || c == '\t' {
					v++
				}
				if differsPlain(u64(s, v), rd.pathW0, rd.pathPlain) && (kind == KindDisallow || !strings.Contains(s[v:end], indexPage)) {
					kind, n = 0, 0
					continue
				}
			}
		}
		rd.pos, rd.num = pos, num
		return start, end, kind, n, true
	}
	rd.pos, rd.num = pos, num
	return 0, 0, 0, 0, false
}

// exactEnd returns where the line at pos ends and the next starts, for an exact reader:
// a line ends at CR, LF or CR LF. The first LF and CR ahead are found once each and kept
// until passed.
func (rd *reader) exactEnd(pos int) (end, next int) {
	s := rd.s
	if rd.nextLF < pos {
		rd.nextLF = indexFrom(s, pos, '\n')
	}
	if rd.nextCR < pos {
		rd.nextCR = indexFrom(s, pos, '\r')
	}
	end = rd.nextLF
	if rd.nextCR < end {
		end = rd.nextCR
		if end+1 < len(s) && s[end+1] == '\n' { // CR LF ends one line
			return end, end + 2
		}
	}
	return end, end + 1
}

// agentsOnly makes next return, of the lines the readings of groups use, only
// user-agent lines and blank ones (if only), or all of them again: a reading asks for
// that while rule lines change nothing for it.
func (rd *reader) agentsOnly(only bool) {
	rd.want, rd.skip = rd.groups, false
	if only {
		rd.want = &agentByte
	}
}

// skipRules makes next pass over, as well as what it passes over, the allow and
// disallow lines spelled out (a name of quickNames and its colon) whose value's first
// eight bytes tell that it cannot match the path p (differsPlain; white space after the
// colon, beyond a space or tab, does not stand for itself): CheckOnce asks for that while it reads the rules of a
// group that applies, whose user-agent lines have ended, so that such a line costs it no
// more than a look at its first bytes. The next agentsOnly ends it.
func (rd *reader) skipRules(p *pathView) {
	if p.plain < 0 {
		p.plain = plainPrefix(p.w0)
	}
	rd.skip, rd.pathW0, rd.pathPlain = true, p.w0, p.plain
}

// misread reports, once every line is read, that some CR ended a line by itself in a
// reading that was not exact: the body is to be read again, exactly.
func (rd *reader) misread() bool {
	return !rd.exact && rd.crs != 0
}

// indexFrom is the index of the first c in s at or after from, or len(s).
func indexFrom(s string, from int, c byte) int {
	if i := strings.IndexByte(s[from:], c); i >= 0 {
		return from + i
	}
	return len(s)
}

// hash returns where the first '#' of the line s[start:end] just read is, relative to
// start, or -1 when it has none. Comments are rare on rule lines: the next '#' of the
// body is found once and kept until passed, rather than each line being searched.
func (rd *reader) hash(start, end int) int {
	if rd.nextH < start {
		rd.nextH = indexFrom(rd.s, start, '#')
	}
	if rd.nextH < end {
		return rd.nextH - start
	}
	return -1
}

// classify fills l from the line s[start:end] just read, of kind and name length n as
// next returned them.
func (rd *reader) classify(l *Line, start, end int, kind Kind, n int) {
	classify(l, rd.num, rd.s[start:end], kind, n, rd.noNUL, rd.hash(start, end), rd.dialect)
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

// trimLeft trims ASCII white space (C's isspace) from the start of s.
func trimLeft(s string) string {
	for len(s) > 0 && spaces[s[0]] {
		s = s[1:]
	}
	return s
}

// classify fills l from line num, text, as dialect d reads it, following Google's
// reference parser (the legacy dialects read only exact names, with a colon). kind and
// n are what reader.next found: n > 0 when the line starts with a name of kind and a
// colon. hash is the index of the first '#' in the line, or -1 when it has none; noNUL
// says it has no NUL byte.
func classify(l *Line, num int, text string, kind Kind, n int, noNUL bool, hash int, d Dialect) {
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
	// large and most lines take the quick path below.
	l.Num, l.Text, l.TooLong, l.Comment = num, text, tooLong, comment
	l.Typo, l.MissingColon = false, false
	if n > 0 { // the name and its colon hold no NUL and no '#': line is longer
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
		classifyField(l, line, off, d)
	}
}

// classifyField classifies a line that has text but does not start with a quick name
// and a colon. line is trimmed; off is where it starts in Text.
func classifyField(l *Line, line string, off int, d Dialect) {
	sep := strings.IndexByte(line, ':')
	if sep < 0 {
		// Google accepts white space in place of a missing colon, but only when the line
		// has exactly two runs of non-space characters; the legacy dialects require the colon.
		sep = strings.IndexAny(line, " \t")
		if sep < 0 || d.legacy() || strings.ContainsAny(trimBlanks(line[sep:]), " \t") {
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
	l.Kind = KindUnknown
	if f := fieldOf(key, d); f != nil {
		l.Kind, l.Typo = f.kind, f.typo
	}
}

// trimBlanks trims spaces and tabs from the start of s.
func trimBlanks(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	return s
}

// grouping follows the groups of a body line by line, as every reading draws them: a
// user-agent line starts a group unless it follows another of the same group, a rule
// line (allow, disallow, or a field the dialect reads as a rule: Dialect.groupRule)
// ends the group's user-agent lines (before any group it is ignored), and in the legacy
// dialects a blank line ends the record.
type grouping struct {
	cur     int  // the group being read, -1 when none
	n       int  // the groups started
	inRules bool // a rule has been read since the current group's user-agent lines
}

func newGrouping() grouping { return grouping{cur: -1} }

// agent reads a user-agent line and reports whether it starts a group.
func (g *grouping) agent() bool {
	if g.cur >= 0 && !g.inRules {
		return false
	}
	g.cur, g.inRules = g.n, false
	g.n++
	return true
}

// rule reads a rule line and reports whether it belongs to a group.
func (g *grouping) rule() bool {
	if g.cur < 0 {
		return false
	}
	g.inRules = true
	return true
}

// blank reads a blank line (no comment) in a legacy dialect, which ends the record;
// it reports whether a record was being read.
func (g *grouping) blank() bool {
	was := g.cur >= 0
	g.cur, g.inRules = -1, false
	return was
}

// groupReader is the one loop over a body's lines that draws its groups, shared by
// Parse, which records where each group starts and ends and the tokens that name it
// (groups), and CheckOnce, which decides on the rules of the groups that apply to its
// agent as it reads them (once): exactly one of the two is set. Only user-agent lines,
// rule lines and, in the legacy dialects, blank lines count; of rule lines, only the first
// of a group (it ends the group's user-agent lines) and for CheckOnce those of a group
// that applies: the reader passes over the others by their first byte (agentsOnly).
// The two are held by value, so that a CheckOnce's reading stays on its stack.
type groupReader struct {
	g      grouping
	l      Line
	decide bool // CheckOnce's reading (once), else Parse's (groups)
	groups grouper
	once   onceReader
}

// readBody reads the groups of body s as dialect d reads them, and reports whether it
// read the body exactly (see reader.misread): a first reading that finds some CR ending a
// line by itself is forgotten, and the body read again.
func (gr *groupReader) readBody(s string, d Dialect) (exact bool) {
	rd := readerAt(s, d, skipBOM(s), 0, false)
	gr.read(&rd)
	if !rd.misread() || gr.decide && gr.once.budget < 0 {
		return false
	}
	if gr.decide {
		gr.once.reset()
	} else {
		gr.groups.reset()
	}
	gr.g = newGrouping()
	rd = readerAt(s, d, skipBOM(s), 0, true)
	gr.read(&rd)
	return true
}

// read reads the lines of rd.
func (gr *groupReader) read(rd *reader) {
	s, legacy := rd.s, rd.dialect.legacy()
	gr.g = newGrouping()
	rd.agentsOnly(true) // before any group, rule lines change nothing
	for {
		start, end, kind, n, ok := rd.next()
		if !ok {
			return
		}
		if n == 0 {
			rd.classify(&gr.l, start, end, kind, n)
			kind = gr.l.Kind
		}
		switch kind {
		case KindAllow, KindDisallow:
			if !gr.rule(rd) {
				break
			}
			if !gr.once.rule(rd, &gr.l, start, end, kind, n) {
				return // the budget ran out
			}
			rd.skipRules(&gr.once.pv) // the group's user-agent lines have ended
		case KindUserAgent:
			v := gr.l.Value
			if n > 0 {
				v = cutLine(s[start:end])[n+1:]
			}
			tok, global := agentValue(v)
			prev := gr.g.cur
			starts := gr.g.agent()
			if gr.decide {
				gr.once.userAgent(starts, gr.g.cur, tok, global)
			} else {
				gr.groups.userAgent(starts, prev, gr.g.cur, start, rd.num, tok, global)
			}
			rd.agentsOnly(false)
		case KindBlank:
			// A blank line ends the record in the old documents (1994: "records separated
			// by one or more blank lines"; 1996: blank = *space CRLF); a comment line does
			// not. (The reader returns empty lines only in these dialects.)
			if cur := gr.g.cur; legacy && !gr.l.Comment && gr.g.blank() {
				gr.groups.end(cur, start)
				rd.agentsOnly(true)
			}
		case KindOther:
			key := gr.l.Key
			if n > 0 {
				key = s[start : start+n]
			}
			gr.other(rd, key)
		}
	}
}

// other reads a line of KindOther whose field name is key: a rule in some dialects
// (Dialect.groupRule), and for Parse maybe a License line. Such lines are rare among
// those read: a call of its own keeps the loop of read small.
//
//go:noinline
func (gr *groupReader) other(rd *reader, key string) {
	if rd.dialect.groupRule(key) {
		gr.rule(rd)
	}
	if !gr.decide && equalFold(key, licenseField) {
		gr.groups.licenses = true
	}
}

// rule reads a rule line and reports whether CheckOnce is to read it: it belongs to a
// group that applies. Otherwise the rule lines that follow change nothing, and the
// reader passes over them.
func (gr *groupReader) rule(rd *reader) bool {
	if gr.g.rule() && gr.decide && gr.once.applies() {
		return true
	}
	rd.agentsOnly(true)
	return false
}

// Case: field names and product tokens are compared in ASCII case only, as Google's
// parser compares them (Unicode case folding would take some invalid UTF-8 for letters).

// lower returns c in lower case when it is an ASCII letter, else c.
func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// compareFold compares a and b as if both were in lower case.
func compareFold(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if ca, cb := lower(a[i]), lower(b[i]); ca != cb {
			return int(ca) - int(cb)
		}
	}
	return len(a) - len(b)
}

// equalFold reports whether a and b are equal in any case.
func equalFold(a, b string) bool {
	return len(a) == len(b) && compareFold(a, b) == 0
}

// hasPrefixFold reports whether s starts with prefix in any case.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && compareFold(s[:len(prefix)], prefix) == 0
}
