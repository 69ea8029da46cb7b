package robots

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unsafe"

	"github.com/gorobots/robots/internal/parsedbody"
)

// The text a Robots keeps is shared with this module's packages (see parsedbody).
func init() {
	parsedbody.Of = func(r any) string { return r.(*Robots).body }
}

// Parse reads a robots.txt body. It never fails: like Google's parser it skips what
// it cannot read and records why in Diagnostics. Bytes past the size limit
// (DefaultMaxBytes unless WithMaxBytes says otherwise) are ignored.
func Parse(body []byte, opts ...Option) *Robots {
	r := &Robots{size: len(body), opts: options{maxBytes: DefaultMaxBytes}}
	for _, o := range opts {
		o(&r.opts)
	}
	r.dialect = r.opts.dialect
	if len(body) > r.opts.maxBytes {
		body = body[:r.opts.maxBytes] // details reports FileTooLarge on the line where the cut falls
	}
	// r keeps a copy of what it parses: every string it reports is part of it, and
	// rule sets are compiled from it on first use.
	r.body = string(body)
	r.parse(r.body)
	return r
}

// view returns body as a string without copying it. It is used only while CheckOnce
// runs: every string it keeps is copied out of it first (strings.Clone), so nothing it
// returns refers to the caller's bytes.
func view(body []byte) string {
	return unsafe.String(unsafe.SliceData(body), len(body))
}

// diag is a diagnostic whose message is formatted only when asked for.
type diag struct {
	line       int32
	noColon    bool // UnknownField: the line has no colon ("foo bar")
	code       Code
	arg1, arg2 string
}

func (d diag) diagnostic(r *Robots) Diagnostic {
	var msg string
	switch d.code {
	case FileTooLarge:
		msg = fmt.Sprintf("file is %d bytes; only the first %d are read, up to this line: the rest is ignored", r.size, r.opts.maxBytes)
	case LineTooLong:
		msg = fmt.Sprintf("line is longer than %d bytes; the rest is ignored", MaxLineBytes)
	case InvalidLine:
		msg = "not a field (no colon): line ignored"
	case MissingColon:
		msg = fmt.Sprintf("no colon after %q; Google reads %q, other crawlers skip the line", d.arg1, d.arg1+": "+d.arg2)
	case MisspelledField:
		msg = fmt.Sprintf("%q is not a field name; Google reads it as %s, other crawlers skip the line", d.arg1, d.arg2)
	case UnknownField:
		msg = fmt.Sprintf("unknown field %q: ignored", d.arg1)
		if d.noColon {
			msg = fmt.Sprintf("unknown field %q (and no colon): ignored", d.arg1)
		}
	case RuleOutsideGroup:
		msg = d.arg1 + " " + d.arg2 + ": ignored"
	case EmptyUserAgent:
		msg = "user-agent without a value"
	}
	return Diagnostic{Line: int(d.line), Code: d.code, Message: msg}
}

// Where a rule outside any group is: before the first user-agent line or, in the
// legacy dialects, after a blank line ended the record and before the next one.
const (
	beforeAgents = "before any user-agent line"
	afterBlank   = "after a blank line ended the record, before the next user-agent line"
)

// nameDiags reports how the name of a field that Google reads differs from what every
// crawler reads: a missing colon, a misspelling or a longer name (see Code).
func (b *builder) nameDiags(l *Line) {
	if l.Kind == KindOther { // read only when spelled out; the colon may be missing
		b.diag(l.Num, MissingColon, l.Key, l.Value)
		return
	}
	name := l.Kind.String()
	if !l.Typo && !l.MissingColon && len(l.Key) > len(name) && (l.Key[len(name)] == ' ' || l.Key[len(name)] == '\t') {
		// "Disallow https://host/x": the URL's colon ended the name.
		b.diag(l.Num, MissingColon, l.Key[:len(name)], l.Value)
		return
	}
	if l.MissingColon {
		b.diag(l.Num, MissingColon, l.Key, l.Value)
	}
	if l.Typo || len(l.Key) != len(name) {
		b.diag(l.Num, MisspelledField, l.Key, name)
	}
}

// showsNothing reports whether a line that holds no field shows nothing before its
// comment: white space and invisible characters (a stray byte order mark, a zero-width
// space), or a byte order mark that an editor read as Latin-1 and saved again ("ï»¿",
// common at the start of files). Such a line is skipped like a blank line, and
// nothing is lost.
func showsNothing(text string) bool {
	if i := strings.IndexAny(text, "#\x00"); i >= 0 {
		text = text[:i]
	}
	text = strings.ReplaceAll(text, "\u00ef\u00bb\u00bf", "")
	for _, c := range text {
		if !unicode.IsSpace(c) && !unicode.Is(unicode.Cf, c) {
			return false
		}
	}
	return true
}

func isGlobal(v string) bool {
	return len(v) > 0 && v[0] == '*' && (len(v) == 1 || isSpace(v[1]))
}

// builder holds the scratch slices of a parse or of a rule set's compilation. Builders
// are pooled, so parsing allocates only the exact-size slices the result keeps.
type builder struct {
	groups   []group
	names    []named
	sortTmp  []named // sortNames' scratch
	stars    []int32
	tokens   []tokenSet
	setGroup []int32
	rules    []rule
	pats     []string // the pattern of each rule (rule.off), until the set is written
	sets     setWriter
	// A detailed reading (readDetails):
	agents []Agent
	fields []Field
	ruleLs []Rule
	spans  []span
	diags  []diag
}

type named struct {
	key   uint64 // foldKey(token)
	token string
	group int32
}

var builders = sync.Pool{New: func() any { return new(builder) }}

// clone returns an exact-size copy of s, or nil when s is empty.
func clone[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

// release clears what the builder refers to (so the pool keeps no body alive) and
// returns it to the pool.
func (b *builder) release() {
	clear(b.names)
	clear(b.tokens)
	clear(b.pats)
	clear(b.agents)
	clear(b.fields)
	clear(b.ruleLs)
	clear(b.diags)
	b.groups, b.names, b.stars, b.tokens, b.setGroup = b.groups[:0], b.names[:0], b.stars[:0], b.tokens[:0], b.setGroup[:0]
	b.rules, b.pats = b.rules[:0], b.pats[:0]
	b.agents, b.fields, b.ruleLs, b.spans, b.diags = b.agents[:0], b.fields[:0], b.ruleLs[:0], b.spans[:0], b.diags[:0]
	builders.Put(b)
}

func (b *builder) diag(line int, code Code, arg1, arg2 string) {
	b.diags = append(b.diags, diag{line: int32(line), code: code, arg1: arg1, arg2: arg2})
}

// readAs turns the kind of a line, as Google's parser reads it, into the dialect's:
// the old documents know no misspellings and require the colon.
func readAs(dialect Dialect, l *Line) {
	if dialect.legacy() && l.Kind != KindBlank && l.Kind != KindInvalid {
		l.Typo = false
		if l.MissingColon {
			l.Kind, l.MissingColon = KindInvalid, false
		} else {
			l.Kind = legacyKind(dialect, l.Key)
		}
	}
}

// passOver marks the bytes that, first on a line, make it neither a user-agent nor a
// rule line nor a blank line in any dialect: every field name Google reads as one of
// these starts with u, a or d in either case (fieldKind, legacyKind), and a line
// starting with '#' is a comment. White space and NUL are not marked: the line may
// still be any of them.
var passOver = func() (t [256]bool) {
	for c := range 256 {
		t[c] = !spaces[c] && c != 0 && c|0x20 != 'u' && c|0x20 != 'a' && c|0x20 != 'd'
	}
	return t
}()

// parse finds the groups of body (a copy of the caller's, which r keeps) and indexes
// them by product token. That is all a decision needs before it reads a group's rules:
// rule sets are compiled on the first decision that needs each (compileSet), and the
// agents, fields and diagnostics are read when first asked for (details). Only the
// lines that can start or end a group are classified; most are passed over by their
// first byte or, for "Disallow:" and "Allow:" lines, their first word.
//
// The groups are the same as the detailed reading's (readDetails): a user-agent line
// starts a group unless it follows another in the same group, a rule line ends the
// group's user-agent lines, and in the legacy dialects a blank line ends the record.
func (r *Robots) parse(body string) {
	b := builders.Get().(*builder)
	defer b.release()
	from := len(body) - len(skipBOM(body))
	// Whether the body has a NUL byte is not looked for: the few lines classified here
	// are searched for one (classify), and a rule set's compilation searches its groups.
	gr := grouper{b: b, body: body, dialect: r.dialect, cur: -1}
	if !gr.skimLF(from) {
		// A CR ends a line by itself somewhere: read again with the scanner, which
		// knows every line end.
		b.groups, b.names, b.stars = b.groups[:0], b.names[:0], b.stars[:0]
		gr = grouper{b: b, body: body, dialect: r.dialect, cur: -1}
		gr.skim(from)
	}
	r.index(b)
	r.groups = clone(b.groups)
	r.tokens, r.setGroup = clone(b.tokens), clone(b.setGroup)
	if r.dialect.legacy() {
		r.legacyProgs = make([]lazyProg, len(r.groups))
	}
}

// grouper finds the groups of a body for parse: where each starts and ends, and the
// product tokens that name it.
type grouper struct {
	b       *builder
	body    string
	dialect Dialect
	cur     int  // the group being read, -1 when none
	inRules bool // a rule has been seen since the current group's user-agent lines
	l       Line
}

// skimLF reads the lines from pos, a line start, when they end in LF or CR LF, as most
// bodies' do: each line end costs one search. It reports false when some CR ends a
// line by itself, which it cannot tell from a CR inside a line: it counts the CRs it
// cut before an LF and compares the count with the body's.
func (g *grouper) skimLF(pos int) bool {
	body := g.body
	crs := strings.Count(body, "\r")
	hasCR := crs > 0
	bucketed := !g.dialect.legacy() // the old documents' field names are read otherwise
	for num := 1; pos <= len(body); num++ {
		start, end, found := pos, len(body), false
		if i := strings.IndexByte(body[pos:], '\n'); i >= 0 {
			end, found = pos+i, true
		}
		pos = end + 1
		if hasCR && found && end > start && body[end-1] == '\r' {
			end--
			crs--
		}
		// Most lines are passed over here, by their first byte or as rule lines.
		if end > start {
			c := body[start]
			if passOver[c] {
				continue
			}
			if bucketed && end-start >= 9 {
				w := u64(body, start)
				if ruleWord(w, body[start+8]) {
					g.inRules = true // before any group too: the next user-agent line starts one anyway
					continue
				}
				if end-start >= 11 && userAgentWord(w, body[start+8:start+11]) {
					tok, global := userAgentValue(body[start:end], 11)
					g.userAgent(start, num, tok, global)
					continue
				}
			}
		}
		g.line(start, end, num, -2)
	}
	return crs == 0
}

// skim reads the lines from pos with the scanner, which ends a line at CR, LF or CR LF.
func (g *grouper) skim(pos int) {
	var sc scanner
	sc.initAt(g.body, pos, 0, false)
	for {
		start, end, ok := sc.line()
		if !ok {
			return
		}
		hash := -2 // not searched
		if start < end && !passOver[g.body[start]] {
			hash = sc.hash(start, end)
		}
		g.line(start, end, sc.num, hash)
	}
}

// line reads line num, body[start:end]. hash is where its first '#' is (see
// scanner.hash), or -2 when the line has not been searched for one.
func (g *grouper) line(start, end, num, hash int) {
	body := g.body
	kind, comment := KindBlank, false
	if start < end {
		c := body[start]
		if passOver[c] {
			return
		}
		if hash == -2 {
			hash = strings.IndexByte(body[start:end], '#')
		}
		l := &g.l
		classify(l, num, body[start:end], false, hash)
		readAs(g.dialect, l)
		kind, comment = l.Kind, l.Comment
	}
	b := g.b
	switch kind {
	case KindBlank:
		if g.dialect.legacy() && !comment && g.cur >= 0 { // the record ends (see readDetails)
			b.groups[g.cur].end = int32(start)
			g.cur, g.inRules = -1, false
		}
	case KindUserAgent:
		v := g.l.Value
		g.userAgent(start, num, leadingToken(v), isGlobal(v))
	case KindAllow, KindDisallow:
		g.inRules = true
	}
}

// userAgent reads the user-agent line num, which starts at start in the body and names
// the product token tok, or "*" when global.
func (g *grouper) userAgent(start, num int, tok string, global bool) {
	b := g.b
	if g.cur < 0 || g.inRules {
		if g.cur >= 0 {
			b.groups[g.cur].end = int32(start)
		}
		g.cur, g.inRules = len(b.groups), false
		b.groups = append(b.groups, group{line: int32(num), start: int32(start), end: int32(len(g.body))})
	}
	if global {
		if n := len(b.stars); n == 0 || b.stars[n-1] != int32(g.cur) {
			b.stars = append(b.stars, int32(g.cur))
		}
	} else {
		b.names = append(b.names, named{foldKey(tok), tok, int32(g.cur)})
	}
}

// userAgentValue returns the product token of a line that starts with "user-agent:" in
// any case (text[n:] follows the colon), and whether its value is "*", as classify,
// leadingToken and isGlobal would find them: the value's first bytes tell, since a
// token ends at any byte that cuts or ends the value ('#', NUL, white space).
func userAgentValue(text string, n int) (tok string, global bool) {
	if len(text) > MaxLineBytes {
		text = text[:MaxLineBytes] // as classify cuts it
	}
	for n < len(text) && spaces[text[n]] {
		n++
	}
	v := text[n:]
	if len(v) > 0 && v[0] == '*' {
		// "*" alone, or followed by white space or by what ends the value.
		return "", len(v) == 1 || spaces[v[1]] || v[1] == '#' || v[1] == 0
	}
	return leadingToken(v), false
}

// The word of "allow:", a rule line's common first bytes (see knownKey), with the two
// bytes after it cleared. skimLF compares it, and "disallow", with a line's first word.
const (
	wordAllowColon = 0x00003a776f6c6c61 // "allow:"
	foldAllowColon = 0x0000002020202020 // not the colon: SUB|0x20 is ':'
	keepAllowColon = 0x0000ffffffffffff
)

// ruleWord reports whether a line whose first eight bytes are w (little-endian) and
// whose ninth is c starts with "disallow:" or "allow:" in any case.
func ruleWord(w uint64, c byte) bool {
	return w|foldDisallow == wordDisallow && c == ':' || w&keepAllowColon|foldAllowColon == wordAllowColon
}

// userAgentWord reports whether a line whose first eight bytes are w (little-endian)
// and whose next three are rest starts with "user-agent:" in any case.
func userAgentWord(w uint64, rest string) bool {
	return w|foldUserAge == wordUserAge && rest[0]|0x20 == 'n' && rest[1]|0x20 == 't' && rest[2] == ':'
}

// tokenLess orders names by token, compared case-insensitively.
func tokenLess(a, b *named) bool {
	// Most tokens differ in their first eight bytes.
	return a.key < b.key || a.key == b.key && compareFold(a.token, b.token) < 0
}

// sortNames sorts names by token, keeping the file order of the names of one token: a
// merge sort (stable) of insertion-sorted runs, with tmp as scratch. Its comparisons are
// written out rather than called through a function value, which cost most of the
// index of a file naming many crawlers.
func sortNames(names []named, tmp []named) []named {
	const run = 8
	n := len(names)
	for lo := 0; lo < n; lo += run {
		hi := min(lo+run, n)
		for i := lo + 1; i < hi; i++ {
			for j := i; j > lo && tokenLess(&names[j], &names[j-1]); j-- {
				names[j], names[j-1] = names[j-1], names[j]
			}
		}
	}
	if n <= run {
		return tmp
	}
	tmp = slices.Grow(tmp[:0], n)[:n]
	src, dst := names, tmp
	for width := run; width < n; width *= 2 {
		for lo := 0; lo < n; lo += 2 * width {
			mid, hi := min(lo+width, n), min(lo+2*width, n)
			i, j, k := lo, mid, lo
			for i < mid && j < hi {
				if tokenLess(&src[j], &src[i]) {
					dst[k] = src[j]
					j++
				} else {
					dst[k] = src[i]
					i++
				}
				k++
			}
			k += copy(dst[k:], src[i:mid])
			copy(dst[k:], src[j:hi])
		}
		src, dst = dst, src
	}
	copy(names, src) // a no-op when src is names
	clear(tmp)
	return tmp
}

// index indexes the groups by product token; "*" groups go to the fallback set. The
// legacy dialects find their record by walking the groups (legacyGroup).
func (r *Robots) index(b *builder) {
	if r.dialect.legacy() {
		return
	}
	names := b.names
	b.sortTmp = sortNames(names, b.sortTmp)
	for i := 0; i < len(names); {
		j := i + 1
		for j < len(names) && names[j].key == names[i].key && compareFold(names[j].token, names[i].token) == 0 {
			j++
		}
		// names[i:j] are in group order, so a group named twice by the token (two
		// user-agent lines of one group) is adjacent to itself: comparing with the last
		// group kept is enough, and keeps the index linear in the number of groups.
		lo := len(b.setGroup)
		for _, n := range names[i:j] {
			if len(b.setGroup) == lo || b.setGroup[len(b.setGroup)-1] != n.group {
				b.setGroup = append(b.setGroup, n.group)
			}
		}
		tok := names[i].token
		b.tokens = append(b.tokens, tokenSet{key: names[i].key, token: tok,
			ref: setRef{groupLo: int32(lo), groupN: int32(len(b.setGroup) - lo)}})
		if tok != "" {
			r.initials |= initial(tok)
		}
		i = j
	}
	if len(b.stars) > 0 {
		lo := len(b.setGroup)
		b.setGroup = append(b.setGroup, b.stars...)
		r.star.groupLo, r.star.groupN = int32(lo), int32(len(b.stars))
	}
}

// details is what Parse found that decisions do not need: read from the body again
// the first time it is asked for (Robots.details), with the same groups as parse's.
type details struct {
	agents []Agent // the user-agent lines of all groups, group by group
	rules  []Rule  // the rules of all groups, group by group, in file order
	fields []Field // every non-rule field (sitemaps too) in file order; groups hold spans
	spans  []span  // per group, in file order
	delays []delay // per group, in file order: its crawl-delay, read once (servers ask for every origin)
	diags  []diag
}

// delay is a group's crawl-delay, as crawlDelay reads it from the group's fields.
type delay struct {
	d  time.Duration
	ok bool
}

// span is where a group's agents, rules and fields are in details.
type span struct{ agentLo, agentHi, ruleLo, ruleHi, fieldLo, fieldHi int32 }

// details returns the detailed reading of the body, reading it on first use. Two
// goroutines may both read it; one reading is kept.
func (r *Robots) details() *details {
	if d := r.detail.Load(); d != nil {
		return d
	}
	d := r.readDetails()
	if r.detail.CompareAndSwap(nil, d) {
		return d
	}
	return r.detail.Load()
}

// readDetails reads every line of the body as Google's parser (or the dialect's
// documents) would, for Groups, Fields, Diagnostics and the legacy dialects' records.
func (r *Robots) readDetails() *details {
	b := builders.Get().(*builder)
	defer b.release()
	body := r.body
	dialect := r.dialect
	legacy := dialect.legacy()
	inRules := false // a rule has been seen since the current group's user-agent lines
	closed := false  // a blank line has ended a record (legacy dialects)
	var cur *span
	// A loop rather than scanLines' callback: the Line stays on the stack.
	var sc scanner
	sc.init(body)
	var line Line
	l := &line
	for sc.next(l) {
		readAs(dialect, l)
		if l.TooLong {
			b.diag(l.Num, LineTooLong, "", "")
		}
		// Most lines are fields spelled out with a colon: one test each.
		if KindUserAgent <= l.Kind && l.Kind <= KindOther &&
			(l.Typo || l.MissingColon || l.Kind != KindOther && len(l.Key) != len(kindNames[l.Kind])) {
			b.nameDiags(l)
		}
		switch l.Kind {
		case KindBlank:
			if legacy && !l.Comment {
				// A blank line ends the record in the old documents (1994: "records
				// separated by one or more blank lines"; 1996: blank = *space CRLF);
				// a comment line does not.
				cur, inRules = nil, false
				closed = true
			}
		case KindInvalid:
			if !showsNothing(l.Text) {
				b.diag(l.Num, InvalidLine, "", "")
			}
		case KindUserAgent:
			if cur == nil || inRules {
				n, nr, nf := int32(len(b.agents)), int32(len(b.ruleLs)), int32(len(b.fields))
				b.spans = append(b.spans, span{n, n, nr, nr, nf, nf})
				cur = &b.spans[len(b.spans)-1]
				inRules = false
			}
			b.agents = append(b.agents, Agent{Name: l.Value, Line: l.Num})
			cur.agentHi++
			if l.Value == "" {
				b.diag(l.Num, EmptyUserAgent, "", "")
			}
		case KindAllow, KindDisallow:
			if cur == nil {
				where := beforeAgents
				if closed {
					where = afterBlank
				}
				b.diag(l.Num, RuleOutsideGroup, l.Kind.String(), where)
				continue
			}
			inRules = true
			if l.Value == "" {
				continue // an empty value restricts nothing, but still ends the agent lines
			}
			b.ruleLs = append(b.ruleLs, Rule{Allow: l.Kind == KindAllow, Value: l.Value, Line: l.Num})
			cur.ruleHi++
		case KindSitemap:
			b.fields = append(b.fields, Field{Name: "sitemap", Value: l.Value, Line: l.Num})
			if cur != nil {
				cur.fieldHi++
			}
		case KindOther, KindUnknown:
			name := l.Key
			if l.Kind == KindOther {
				name = canonicalField(name)
			} else {
				b.diag(l.Num, UnknownField, l.Key, "")
				b.diags[len(b.diags)-1].noColon = l.MissingColon
			}
			b.fields = append(b.fields, Field{Name: name, Value: l.Value, Line: l.Num})
			if cur != nil {
				cur.fieldHi++
			}
		}
	}
	if r.size > len(body) {
		b.diag(sc.num, FileTooLarge, "", "")
	}
	d := &details{agents: clone(b.agents), rules: clone(b.ruleLs), fields: clone(b.fields),
		spans: clone(b.spans), diags: clone(b.diags)}
	d.delays = make([]delay, len(d.spans))
	for i := range d.spans {
		sp := &d.spans[i]
		d.delays[i].d, d.delays[i].ok = crawlDelay(d.fields[sp.fieldLo:sp.fieldHi])
	}
	return d
}

// indexDir is the extra allow pattern Google derives from an allow pattern whose
// last segment starts with "index.htm": the directory itself, ".../$".
func indexDir(pat string) (string, bool) {
	slash := strings.LastIndexByte(pat, '/')
	if slash < 0 || !strings.HasPrefix(pat[slash:], "/index.htm") {
		return "", false
	}
	return pat[:slash+1] + "$", true
}

// addRule adds a rule of pattern pat, whose value as written is in the body at src.
func (b *builder) addRule(pat string, line int, src, srcLen int, allow bool, shape uint8) {
	// What the rule's entry holds (prog.go) is worked out once, though a rule may be
	// written twice (indexDir).
	flags := shape
	if allow {
		flags |= flagAllow
	}
	var word, pairs byteSet
	if shape == shapeWild {
		word, pairs = wildSets(pat)
	} else {
		lit := pat
		if shape == shapeExact {
			lit = pat[:len(pat)-1]
		}
		lit = lit[:min(len(lit), 8)]
		word = byteSet(u64pad(lit))
		flags |= uint8(len(lit)) << cmpShift
	}
	b.rules = append(b.rules, rule{off: uint32(len(b.pats)), n: uint32(len(pat)), line: int32(line),
		src: uint32(src), srcLen: uint16(srcLen), shape: shape, flags: flags,
		key: bucketKey(pat), word: word, pairs: pairs})
	b.pats = append(b.pats, pat)
}

// canonicalField returns the lower-case spelling of a known field without allocating.
func canonicalField(key string) string {
	for _, f := range otherFields {
		if equalFold(key, f) {
			return f
		}
	}
	return strings.ToLower(key)
}

// bucketKey is the byte after the leading '/' that every path matching pat must have,
// or -1 when pat can match paths of any second byte ("/", "/$", "/*…", "*…") or that
// byte is not ASCII (escaped patterns have none) or is NUL (bit 0 of a set's keys marks
// its long header; the scanner ends a line at a NUL, so only a decoded escape has one).
func bucketKey(pat string) int16 {
	if len(pat) >= 2 && pat[0] == '/' && pat[1] != '*' && 0 < pat[1] && pat[1] < 0x80 && !(pat[1] == '$' && len(pat) == 2) {
		return int16(pat[1])
	}
	return -1
}

// compileSet compiles the rule set of the groups gs (prog.go): it reads their lines
// again from the body, from where parse found each group to where it ends, and writes
// their rules, bucketed unless the dialect is a legacy one. The result is a new
// allocation of exactly its size.
func (r *Robots) compileSet(gs []int32) []byte {
	b := builders.Get().(*builder)
	defer b.release()
	dialect := r.dialect
	legacy := dialect.legacy()
	var sc scanner
	var l Line
	for _, gi := range gs {
		g := &r.groups[gi]
		// The group's lines need no search for a NUL byte when it has none.
		sc.initAt(r.body, int(g.start), int(g.line)-1, strings.IndexByte(r.body[g.start:g.end], 0) < 0)
		for {
			start, end, ok := sc.line()
			if !ok || start >= int(g.end) {
				break
			}
			if start == end || passOver[r.body[start]] {
				continue
			}
			classify(&l, sc.num, r.body[start:end], sc.noNUL, sc.hash(start, end))
			readAs(dialect, &l)
			if l.Kind != KindAllow && l.Kind != KindDisallow || l.Value == "" {
				continue // an empty value restricts nothing
			}
			allow := l.Kind == KindAllow
			src := start + l.ValueCol - 1
			pat, shape := dialect.compilePattern(l.Value)
			b.addRule(pat, l.Num, src, len(l.Value), allow, shape)
			if allow && !legacy {
				if p, ok := indexDir(pat); ok {
					b.addRule(p, l.Num, src, len(l.Value), true, shapeOf(p))
				}
			}
		}
	}
	// The old dialects have no buckets: they try rules in file order.
	size := b.sets.plan(b.rules, !legacy)
	prog := make([]byte, progHead+size+progPad)
	binary.LittleEndian.PutUint32(prog[progLen:], uint32(len(prog)))
	b.sets.write(prog, progHead, b.rules, b.pats, !legacy)
	return prog
}

// compareFold compares ASCII strings as if both were lower case.
func compareFold(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		ca, cb := lower(a[i]), lower(b[i])
		if ca != cb {
			return int(ca) - int(cb)
		}
	}
	return len(a) - len(b)
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
