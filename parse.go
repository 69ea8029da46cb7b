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
)

// Parse reads a robots.txt body. It never fails: like Google's parser it skips what
// it cannot read and records why in Diagnostics. Bytes past the size limit
// (DefaultMaxBytes unless WithMaxBytes says otherwise) are ignored. The result keeps
// a copy of the bytes it reads: the caller may reuse body.
func Parse(body []byte, opts ...Option) *Robots {
	r, maxBytes := newRobots(len(body), opts)
	// r keeps what it parses: every string it reports is part of it, and rule sets
	// are compiled from it on first use.
	r.parse(string(body[:min(len(body), maxBytes)]))
	return r
}

// ParseString is Parse for a body held as a string, which the result keeps itself
// rather than a copy: a caller that has the file as a string, and keeps it, holds it
// once. Past the size limit the result keeps a copy of the part it reads, so that
// the rest of a large body is not kept alive by it.
func ParseString(body string, opts ...Option) *Robots {
	r, maxBytes := newRobots(len(body), opts)
	if len(body) > maxBytes {
		body = strings.Clone(body[:maxBytes])
	}
	r.parse(body)
	return r
}

// newRobots returns a Robots for a body of size bytes, its options applied, to be
// parsed, and the size limit. r keeps no options: the limit is len(r.body) when
// r.size is larger.
func newRobots(size int, opts []Option) (*Robots, int) {
	o := options{maxBytes: DefaultMaxBytes}
	for _, set := range opts {
		set(&o)
	}
	return &Robots{size: size, dialect: o.dialect}, o.maxBytes
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
		msg = fmt.Sprintf("file is %d bytes; only the first %d are read, up to this line: the rest is ignored", r.size, len(r.body))
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

// parse finds the groups of body (which r keeps, and no caller can change) and indexes
// them by product token. That is all a decision needs before it reads a group's rules:
// rule sets are compiled on the first decision that needs each (compileSet), and the
// agents, fields and diagnostics are read when first asked for (details). Only the
// user-agent and rule lines count, and of these only user-agent lines are read past
// their name: most lines are passed over by their first byte (groupBytes) or their name
// (reader.next).
func (r *Robots) parse(body string) {
	r.body = body
	b := builders.Get().(*builder)
	defer b.release()
	// Whether the body has a NUL byte is not looked for: the few lines classified here
	// are searched for one (classify), and a rule set's compilation searches its groups.
	gr := groupReader{groups: grouper{b: b, size: len(body)}}
	r.exact = gr.readBody(body, r.dialect)
	r.licenses = gr.groups.licenses
	r.index(b)
	r.groups = clone(b.groups)
	r.tokens, r.setGroup = clone(b.tokens), clone(b.setGroup)
	if r.dialect.legacy() {
		lp := make([]lazyProg, len(r.groups))
		r.legacyProgs = &lp
	}
}

// grouper is what parse records of a body's groups as groupReader reads them: where
// each starts and ends, and the product tokens that name it.
type grouper struct {
	b        *builder
	size     int  // the body's
	licenses bool // a License line was read
}

// reset forgets what a first reading recorded, for a second (groupReader.readBody).
func (gr *grouper) reset() {
	b := gr.b
	b.groups, b.names, b.stars = b.groups[:0], b.names[:0], b.stars[:0]
	gr.licenses = false
}

// end ends group gi before the line at start.
func (gr *grouper) end(gi, start int) {
	gr.b.groups[gi].end = int32(start)
}

// userAgent reads the user-agent line num of group cur, which starts at start in the
// body and names the product token tok, or "*" when global. starts says it starts the
// group, after group prev (-1 when none, or when a blank line ended it).
func (gr *grouper) userAgent(starts bool, prev, cur, start, num int, tok string, global bool) {
	b := gr.b
	if starts {
		if prev >= 0 {
			gr.end(prev, start)
		}
		b.groups = append(b.groups, group{line: int32(num), start: int32(start), end: int32(gr.size)})
	}
	if global {
		if n := len(b.stars); n == 0 || b.stars[n-1] != int32(cur) {
			b.stars = append(b.stars, int32(cur))
		}
	} else {
		b.names = append(b.names, named{foldKey(tok), tok, int32(cur)})
	}
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

// offsetOf returns where s, a part of r.body, starts in it: tokens keep their place in
// the body, not a string of their own (8 bytes a token; issue 33, memory per cached
// origin).
func (r *Robots) offsetOf(s string) uint32 {
	if s == "" {
		return 0
	}
	off := uintptr(unsafe.Pointer(unsafe.StringData(s))) - uintptr(unsafe.Pointer(unsafe.StringData(r.body)))
	if off > uintptr(len(r.body)-len(s)) {
		panic("robots: a token not read from the body") // the reader only slices the body
	}
	return uint32(off)
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
		b.tokens = append(b.tokens, tokenSet{key: names[i].key, off: r.offsetOf(tok), n: uint32(len(tok)),
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
	usage  bool // some line is of a field that states usage preferences: Groups reads them only then
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
func (r *Robots) details() *details { return loadOrRead(&r.detail, r, (*Robots).readDetails) }

// readDetails reads every line of the body as Google's parser (or the dialect's
// documents) would, for Groups, Fields, Diagnostics and the legacy dialects' records.
func (r *Robots) readDetails() *details { return r.readDetailsAs(r.exact) }

// readDetailsAs is readDetails, reading the body exactly (a CR alone ends a line too)
// if exact. Parse found whether some CR ends a line by itself (Robots.exact): where
// none does, lines end at LF, a CR before it dropped, which costs one search a line
// rather than two (see reader).
func (r *Robots) readDetailsAs(exact bool) *details {
	var dr detailReader
	dr.start(r)
	defer dr.b.release()
	// A loop rather than Lines' iterator: the Line stays on the stack.
	rd := newReader(r.body, r.dialect)
	rd.exact = exact
	var l Line
	for {
		start, end, kind, n, ok := rd.next()
		if !ok {
			break
		}
		rd.classify(&l, start, end, kind, n)
		dr.line(&l)
	}
	return dr.done(r, rd.num)
}

// detailReader makes the detailed reading of a body from its lines, each as the
// reader classified it, in order: readDetails reads them for it, and Robots.Lines as
// it hands them out.
type detailReader struct {
	b       *builder
	dialect Dialect
	legacy  bool
	g       grouping
	closed  bool  // a blank line has ended a record (legacy dialects)
	cur     *span // of the group being read, nil when none
	usage   bool  // a line of a field that states usage preferences was read
}

func (dr *detailReader) start(r *Robots) {
	*dr = detailReader{b: builders.Get().(*builder), dialect: r.dialect, legacy: r.dialect.legacy(), g: newGrouping()}
}

// line reads the next line of the body.
func (dr *detailReader) line(l *Line) {
	b := dr.b
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
		if dr.legacy && !l.Comment {
			// A blank line ends the record in the old documents (1994: "records
			// separated by one or more blank lines"; 1996: blank = *space CRLF);
			// a comment line does not.
			dr.g.blank()
			dr.cur, dr.closed = nil, true
		}
	case KindInvalid:
		if !showsNothing(l.Text) {
			b.diag(l.Num, InvalidLine, "", "")
		}
	case KindUserAgent:
		if dr.g.agent() {
			n, nr, nf := int32(len(b.agents)), int32(len(b.ruleLs)), int32(len(b.fields))
			b.spans = append(b.spans, span{n, n, nr, nr, nf, nf})
			dr.cur = &b.spans[len(b.spans)-1]
		}
		b.agents = append(b.agents, Agent{Name: l.Value, Line: l.Num})
		dr.cur.agentHi++
		if l.Value == "" {
			b.diag(l.Num, EmptyUserAgent, "", "")
		}
	case KindAllow, KindDisallow:
		if !dr.g.rule() {
			where := beforeAgents
			if dr.closed {
				where = afterBlank
			}
			b.diag(l.Num, RuleOutsideGroup, l.Kind.String(), where)
			return
		}
		if l.Value == "" {
			return // an empty value restricts nothing, but still ends the agent lines
		}
		b.ruleLs = append(b.ruleLs, Rule{Allow: l.Kind == KindAllow, Value: l.Value, Line: l.Num})
		dr.cur.ruleHi++
	case KindSitemap:
		b.fields = append(b.fields, Field{Name: "sitemap", Value: l.Value, Line: l.Num})
		if dr.cur != nil {
			dr.cur.fieldHi++
		}
	case KindOther, KindUnknown:
		name := l.Key
		if l.Kind == KindOther {
			f := fieldOf(name, dr.dialect)
			name = f.name // lower case, without allocating
			dr.usage = dr.usage || f.usage != 0
			if f.rule>>dr.dialect&1 != 0 {
				// A rule (Content-Usage in RFC9309) ends the user-agent lines; before
				// any group it belongs to none (cur is nil), as in the other dialects.
				dr.g.rule()
			}
		} else {
			b.diag(l.Num, UnknownField, l.Key, "")
			b.diags[len(b.diags)-1].noColon = l.MissingColon
		}
		b.fields = append(b.fields, Field{Name: name, Value: l.Value, Line: l.Num})
		if dr.cur != nil {
			dr.cur.fieldHi++
		}
	}
}

// done returns the detailed reading of r's body, of which lines lines were read.
func (dr *detailReader) done(r *Robots, lines int) *details {
	b := dr.b
	if r.size > len(r.body) {
		b.diag(lines, FileTooLarge, "", "")
	}
	d := &details{agents: clone(b.agents), rules: clone(b.ruleLs), fields: clone(b.fields),
		spans: clone(b.spans), diags: clone(b.diags), usage: dr.usage}
	d.delays = make([]delay, len(d.spans))
	for i := range d.spans {
		sp := &d.spans[i]
		d.delays[i].d, d.delays[i].ok = crawlDelay(d.fields[sp.fieldLo:sp.fieldHi])
	}
	return d
}

// indexDir is the extra allow pattern Google derives from an allow pattern whose
// last segment starts with "index.htm": the directory itself, ".../$".
func indexDir(pat string) (pattern, bool) {
	slash := strings.LastIndexByte(pat, '/')
	if slash < 0 || !strings.HasPrefix(pat[slash:], indexPage) {
		return pattern{}, false
	}
	return readPattern(pat[:slash+1] + string(endAnchor)), true
}

// indexPage is what starts the last segment of an allow pattern from which Google
// derives its directory (indexDir).
const indexPage = "/index.htm"

// addRule adds a rule of pattern pat, whose value as written is in the body at src.
func (b *builder) addRule(p pattern, line int, src, srcLen int, allow bool) {
	// What the rule's entry holds (prog.go) is worked out once, though a rule may be
	// written twice (indexDir).
	pat, shape := p.s, p.shape()
	flags := shape
	if allow {
		flags |= flagAllow
	}
	var word, pairs byteSet
	if shape == shapeWild {
		word, pairs = p.sets()
	} else {
		lit := p.literal()
		lit = lit[:min(len(lit), 8)]
		word = byteSet(u64pad(lit))
		flags |= uint8(len(lit)) << cmpShift
	}
	b.rules = append(b.rules, rule{off: uint32(len(b.pats)), n: uint32(len(pat)), line: int32(line),
		src: uint32(src), srcLen: uint16(srcLen), shape: shape, flags: flags,
		key: p.bucketKey(), word: word, pairs: pairs})
	b.pats = append(b.pats, pat)
}

// compileSet compiles the rule set of the groups gs (prog.go): it reads their lines
// again from the body, from where parse found each group to where it ends, and writes
// their rules, bucketed unless the dialect is a legacy one, and if index, their index
// (index.go). The result is a new allocation of exactly its size.
func (r *Robots) compileSet(gs []int32, index bool) []byte {
	b := builders.Get().(*builder)
	defer b.release()
	dialect := r.dialect
	legacy := dialect.legacy()
	var l Line
	for _, gi := range gs {
		// ruleReader's reading, written out: through ruleReader.next, parse and first
		// decision cost 6.7% more (bench/cachegrind.sh parsedecide: 62,520 instructions
		// against 58,571).
		rd := r.groupLines(int(gi))
		for {
			start, end, kind, n, ok := rd.next()
			if !ok {
				break
			}
			if kind == KindUserAgent {
				continue
			}
			rd.classify(&l, start, end, kind, n)
			if !l.rule() {
				continue
			}
			allow := l.Kind == KindAllow
			src := start + l.ValueCol - 1
			pat := dialect.compilePattern(l.Value)
			b.addRule(pat, l.Num, src, len(l.Value), allow)
			if pat.s == l.Value {
				b.rules[len(b.rules)-1].flags |= flagBodyPat // the text need not hold it
			}
			if allow && !legacy {
				if p, ok := indexDir(pat.s); ok {
					b.addRule(p, l.Num, src, len(l.Value), true)
				}
			}
		}
	}
	// The old dialects have no buckets: they try rules in file order.
	return b.writeSet(!legacy, index)
}

// ruleReader reads the allow and disallow lines of one group again from the body,
// from where parse found the group to where it ends: what Robots.Rules reports, and
// what a rule set's compilation reads (compileSet, which writes the loop of next out).
type ruleReader struct {
	rd reader
	l  Line // the rule line just read
}

// groupLines returns a reader of the lines of group gi that the readings of groups use.
func (r *Robots) groupLines(gi int) reader {
	g := &r.groups[gi]
	rd := readerAt(r.body[:g.end], r.dialect, int(g.start), int(g.line)-1, r.exact)
	// The group's lines need no search for a NUL byte when it has none.
	rd.noNUL = strings.IndexByte(r.body[g.start:g.end], 0) < 0
	return rd
}

// next reads the next rule of the group into rr.l, and reports whether there was one.
func (rr *ruleReader) next() bool {
	for {
		start, end, kind, n, ok := rr.rd.next()
		if !ok {
			return false
		}
		if kind == KindUserAgent {
			continue
		}
		rr.rd.classify(&rr.l, start, end, kind, n)
		if rr.l.rule() {
			return true
		}
	}
}

// rule reports whether l is a rule of its group: an allow or disallow line with a
// value. An empty value restricts nothing.
func (l *Line) rule() bool {
	return (l.Kind == KindAllow || l.Kind == KindDisallow) && l.Value != ""
}

// writeSet writes the rules added (addRule) as a set, bucketed or not (the legacy
// dialects', whose rules are tried in file order), with its index if index, into a
// new allocation of exactly its size.
func (b *builder) writeSet(bucketed, index bool) []byte {
	size := b.sets.plan(b.rules, bucketed)
	prog := make([]byte, progHead+size+progPad)
	binary.LittleEndian.PutUint32(prog[progLen:], uint32(len(prog)))
	b.sets.write(prog, progHead, b.rules, b.pats, bucketed)
	if index {
		prog = withIndex(prog, buildIndex(b.rules, b.pats, !bucketed))
	}
	return prog
}
