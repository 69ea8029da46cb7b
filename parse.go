package robots

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unsafe"
)

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
		body = body[:r.opts.maxBytes] // parse reports FileTooLarge on the line where the cut falls
	}
	r.parse(view(body))
	return r
}

// view returns body as a string without copying it. It is used only while Parse or
// CheckOnce runs: every string they keep is copied out of it first (keepText, and
// strings.Clone in CheckOnce), so nothing they return refers to the caller's bytes.
// Copying the whole body instead costs a second pass over it and as much memory again
// for the garbage collector to take back.
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

// builder holds the slices a parse appends to. Builders are pooled, so parsing
// allocates only the exact-size slices the result keeps.
type builder struct {
	groups   []group
	agents   []Agent
	rules    []rule
	fields   []Field
	pats     []string // the pattern of each rule (rule.off), until the sets are written
	merged   []rule
	diags    []diag
	names    []named
	tokens   []tokenSet
	tokAgent []int32 // for each token, the agent whose name starts with it
	prog     []byte
	setGroup []int32
	sets     setWriter
}

type named struct {
	key          uint64 // foldKey(token)
	token        string
	group, agent int32
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
	clear(b.agents)
	clear(b.fields)
	clear(b.tokens)
	clear(b.pats)
	clear(b.diags)
	clear(b.names)
	b.groups, b.agents, b.rules = b.groups[:0], b.agents[:0], b.rules[:0]
	b.fields, b.diags, b.names, b.tokens = b.fields[:0], b.diags[:0], b.names[:0], b.tokens[:0]
	b.prog, b.setGroup, b.pats, b.tokAgent = b.prog[:0], b.setGroup[:0], b.pats[:0], b.tokAgent[:0]
	b.merged = b.merged[:0]
	builders.Put(b)
}

func (b *builder) diag(line int, code Code, arg1, arg2 string) {
	b.diags = append(b.diags, diag{line: int32(line), code: code, arg1: arg1, arg2: arg2})
}

// parse reads the lines into groups. Groups, agents, rules and fields are appended to
// shared slices: a group's lines always follow the previous group's, so each group is
// a span of them.
func (r *Robots) parse(body string) {
	b := builders.Get().(*builder)
	defer b.release()
	dialect := r.opts.dialect
	legacy := dialect.legacy()
	inRules := false // a rule has been seen since the current group's user-agent lines
	closed := false  // a blank line has ended a record (legacy dialects)
	var cur *group
	// A loop rather than scanLines' callback: the Line stays on the stack.
	var sc scanner
	sc.init(body)
	var line Line
	l := &line
	for sc.next(l) {
		if legacy && l.Kind != KindBlank && l.Kind != KindInvalid {
			// The old documents know no misspellings and require the colon.
			l.Typo = false
			if l.MissingColon {
				l.Kind, l.MissingColon = KindInvalid, false
			} else {
				l.Kind = legacyKind(dialect, l.Key)
			}
		}
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
				n := int32(len(b.agents))
				b.groups = append(b.groups, group{line: int32(l.Num), agentLo: n, agentHi: n,
					ruleLo: int32(len(b.rules)), ruleHi: int32(len(b.rules)),
					fieldLo: int32(len(b.fields)), fieldHi: int32(len(b.fields))})
				cur = &b.groups[len(b.groups)-1]
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
			allow := l.Kind == KindAllow
			pat, shape := dialect.compilePattern(l.Value)
			if pat != l.Value {
				r.setWritten(l.Num, l.Value)
			}
			b.addRule(pat, l.Num, allow, shape)
			cur.ruleHi++
			if allow && !legacy {
				if p, ok := indexDir(pat); ok {
					r.setWritten(l.Num, l.Value)
					b.addRule(p, l.Num, true, shapeOf(p))
					cur.ruleHi++
				}
			}
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
	r.compile(b)
	r.keepText(b)
	r.groups, r.agents = clone(b.groups), clone(b.agents)
	r.fields, r.diags = clone(b.fields), clone(b.diags)
	r.tokens, r.setGroup = clone(b.tokens), clone(b.setGroup)
	for i := range r.tokens {
		t := &r.tokens[i]
		t.token = r.agents[b.tokAgent[i]].Name[:len(t.token)]
	}
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

func (b *builder) addRule(pat string, line int, allow bool, shape uint8) {
	// What the rule's entry holds (prog.go) is worked out once, though a rule may be
	// written in several sets.
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
	b.rules = append(b.rules, rule{off: uint32(len(b.pats)), n: uint32(len(pat)), line: int32(line), shape: shape, flags: flags,
		key: bucketKey(pat), word: word, pairs: pairs})
	b.pats = append(b.pats, pat)
}

// keepText makes r.prog: the rule sets written so far in b.prog, then every other
// string the result keeps, to which it points the agents, fields, diagnostics and
// written values. The parsed body is then garbage: comments, field names and white
// space cost no memory.
func (r *Robots) keepText(b *builder) {
	out := b.prog
	text := len(out)
	for _, a := range b.agents {
		out = append(out, a.Name...)
	}
	for _, f := range b.fields {
		out = append(out, f.Name...)
		out = append(out, f.Value...)
	}
	for _, d := range b.diags {
		out = append(out, d.arg1...)
		out = append(out, d.arg2...)
	}
	written := slices.Sorted(maps.Keys(r.written)) // one order for both loops
	for _, k := range written {
		out = append(out, r.written[k]...)
	}
	out = append(out, make([]byte, progPad)...)
	b.prog = out
	r.prog = string(out)
	o := text
	take := func(s string) string {
		t := r.prog[o : o+len(s)]
		o += len(s)
		return t
	}
	for i := range b.agents {
		b.agents[i].Name = take(b.agents[i].Name)
	}
	for i := range b.fields {
		b.fields[i].Name = take(b.fields[i].Name)
		b.fields[i].Value = take(b.fields[i].Value)
	}
	for i := range b.diags {
		b.diags[i].arg1 = take(b.diags[i].arg1)
		b.diags[i].arg2 = take(b.diags[i].arg2)
	}
	for _, k := range written {
		r.written[k] = take(r.written[k])
	}
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

func (r *Robots) setWritten(line int, v string) {
	if r.written == nil {
		r.written = make(map[int32]string)
	}
	r.written[int32(line)] = v
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

// compile writes the rule set of each group into b.prog and indexes the groups by
// product token.
func (r *Robots) compile(b *builder) {
	legacy := r.dialect.legacy()
	r.star.set = -1
	for gi := range b.groups {
		g := &b.groups[gi]
		g.set = int32(len(b.prog))
		// The old dialects have no buckets: they try rules in file order.
		b.prog = b.sets.appendSet(b.prog, b.rules[g.ruleLo:g.ruleHi], b.pats, !legacy)
	}
	if len(b.groups) == 0 || legacy {
		return
	}
	// Index the groups by product token; "*" groups go to the fallback set.
	names := b.names
	var stars []int32
	for gi := range b.groups {
		g := &b.groups[gi]
		for ai := g.agentLo; ai < g.agentHi; ai++ {
			name := b.agents[ai].Name
			if isGlobal(name) {
				if len(stars) == 0 || stars[len(stars)-1] != int32(gi) {
					stars = append(stars, int32(gi))
				}
				continue
			}
			tok := leadingToken(name)
			names = append(names, named{foldKey(tok), tok, int32(gi), ai})
		}
	}
	b.names = names
	slices.SortFunc(names, func(a, b named) int {
		if a.key != b.key { // most tokens differ in their first eight bytes
			return cmp.Compare(a.key, b.key)
		}
		if c := compareFold(a.token, b.token); c != 0 {
			return c
		}
		return int(a.group - b.group) // file order within a token
	})
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
		b.tokens = append(b.tokens, tokenSet{key: names[i].key, token: tok, ref: b.merge(lo)})
		b.tokAgent = append(b.tokAgent, names[i].agent)
		if tok != "" {
			r.initials |= initial(tok)
		}
		i = j
	}
	if len(stars) > 0 {
		lo := len(b.setGroup)
		b.setGroup = append(b.setGroup, stars...)
		r.star = b.merge(lo)
		so := int(r.star.set)
		var h [16]byte // the set may be shorter than a long header
		copy(h[:], b.prog[so:])
		if _, _, n := setLayout(unsafe.String(&h[0], len(h)), 0); n <= headMax {
			copy(r.head[:], b.prog[so:so+n])
			r.headOK, r.starRecs = true, int32(so+n)
		}
	}
}

// merge returns the rule set of the groups b.setGroup[lo:]: a group's own set when
// there is one group, otherwise a new set of all their rules, bucketed.
func (b *builder) merge(lo int) setRef {
	gs := b.setGroup[lo:]
	ref := setRef{groupLo: int32(lo), groupN: int32(len(gs))}
	if len(gs) == 1 {
		ref.set = b.groups[gs[0]].set
		return ref
	}
	rules := b.merged[:0]
	for _, gi := range gs {
		g := &b.groups[gi]
		rules = append(rules, b.rules[g.ruleLo:g.ruleHi]...)
	}
	b.merged = rules
	ref.set = int32(len(b.prog))
	b.prog = b.sets.appendSet(b.prog, rules, b.pats, true)
	return ref
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
