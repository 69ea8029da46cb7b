package robots

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/gorobots/robots/internal/sfv"
)

// Preference is what a site prefers about one category of use of its content:
// allowed, disallowed, or unknown when nothing readable says (draft-ietf-aipref-vocab
// §3; the vocabulary takes no position on what a recipient should assume then). The
// constants are ordered from least to most restrictive.
type Preference uint8

const (
	UsageUnknown    Preference = iota // nothing stated, or nothing that could be read
	UsageAllowed                      // the token y (Content-Usage) or yes (Content-Signal)
	UsageDisallowed                   // the token n (Content-Usage) or no (Content-Signal)
)

var preferenceNames = [...]string{"unknown", "allowed", "disallowed"}

func (p Preference) String() string {
	if int(p) < len(preferenceNames) {
		return preferenceNames[p]
	}
	return "preference?"
}

// MarshalText writes the preference's name: "unknown", "allowed" or "disallowed".
func (p Preference) MarshalText() ([]byte, error) {
	if int(p) >= len(preferenceNames) {
		return nil, fmt.Errorf("robots: no preference %d", p)
	}
	return []byte(preferenceNames[p]), nil
}

// UnmarshalText reads what MarshalText writes.
func (p *Preference) UnmarshalText(b []byte) error {
	i := slices.Index(preferenceNames[:], string(b))
	if i < 0 {
		return fmt.Errorf("robots: unknown preference %q (want unknown, allowed or disallowed)", b)
	}
	*p = Preference(i)
	return nil
}

// Stated is the preference for one category or signal, and what stated it.
type Stated struct {
	Label      string     `json:"label"` // the category ("train-ai") or signal ("ai-input")
	Preference Preference `json:"preference"`
	// Line is the robots.txt line whose statement gives Preference; 0 when no line
	// does (Preference is unknown, or the header alone gives it).
	Line int `json:"line"`
	// Header is true when the response's own header field gives Preference (see
	// Usage.WithHeader).
	Header bool `json:"header,omitempty"`
}

// UsageLine is a Content-Usage or Content-Signal line that applies to a URL.
type UsageLine struct {
	Signal    bool   `json:"signal"`    // a Content-Signal line; else a Content-Usage line
	Path      string `json:"path"`      // the path as written; "" when the line has none, and applies to every path
	Statement string `json:"statement"` // the rest of the value: an RFC 9651 Dictionary, as written
	Line      int    `json:"line"`
	// Error says why Statement is not a Dictionary; every category is unknown then
	// (draft-ietf-aipref-vocab §6.5.1). It is "" when Statement parses.
	Error string `json:"error,omitempty"`
}

// Usage is what a site prefers about the use of the content at one URL by one
// crawler: the Content-Usage lines of its robots.txt (draft-ietf-aipref-attach-05,
// with the vocabulary of draft-ietf-aipref-vocab), its Content-Signal lines
// (Cloudflare's Content Signals Policy), and, through WithHeader, the response's own
// header fields. The two vocabularies are kept apart: both have a "search", and they
// do not mean the same.
//
// Within the groups that apply to the crawler, the lines of each field whose paths
// match the URL longest apply, paths matched as Allow and Disallow values are (the
// dialect's rules for '*', '$' and percent-encoding; length counted in bytes of the
// encoded path), and a line without a path as if its path were "/". Lines that match
// equally long combine, category by category, most restrictively: unlike Allow and
// Disallow, a tie goes to the stricter. Lines in a group that do not apply, and
// lines that match less long, say nothing about the URL.
type Usage struct {
	// Fetchable reports whether robots.txt lets the crawler fetch the URL. When it
	// does not, no preference of the file applies (draft-ietf-aipref-attach §3.1):
	// every category is unknown and Lines is empty.
	Fetchable bool `json:"fetchable"`
	// ContentUsage has one entry for each category of Categories, in that order.
	ContentUsage []Stated `json:"content_usage"`
	// ContentSignal has one entry for each signal of Signals, in that order.
	ContentSignal []Stated `json:"content_signal"`
	// Lines are the robots.txt lines that apply, in file order.
	Lines []UsageLine `json:"lines"`
}

// String writes the stated preferences as a file writes them, each with what stated
// it: "train-ai=n (line 4), search=y (line 4), ai-train=no (line 5)"; Content-Usage's
// come first, and its tokens y and n tell them from Content-Signal's yes and no.
// "(header)" marks a preference the response's header gives. Unknown preferences are
// left out; it is "" when none is stated.
func (u Usage) String() string {
	var b strings.Builder
	for _, f := range []struct {
		st      []Stated
		yes, no string
	}{{u.ContentUsage, usageYes, usageNo}, {u.ContentSignal, signalYes, signalNo}} {
		for _, s := range f.st {
			tok := f.yes
			switch s.Preference {
			case UsageUnknown:
				continue
			case UsageDisallowed:
				tok = f.no
			}
			if b.Len() > 0 {
				b.WriteString(", ")
			}
			b.WriteString(s.Label + "=" + tok)
			switch {
			case s.Line > 0 && s.Header:
				fmt.Fprintf(&b, " (line %d, header)", s.Line)
			case s.Line > 0:
				fmt.Fprintf(&b, " (line %d)", s.Line)
			case s.Header:
				b.WriteString(" (header)")
			}
		}
	}
	return b.String()
}

func find(s []Stated, label string) Stated {
	for _, st := range s {
		if st.Label == label {
			return st
		}
	}
	return Stated{Label: label}
}

// WithHeader returns u combined most restrictively (draft-ietf-aipref-vocab §5.1)
// with the Content-Usage and Content-Signal fields of a response's header h, whose
// keys are canonical as in net/http (an http.Header can be passed as it is). The
// field lines of each field make one Dictionary, joined with ", " (RFC 9110 §5.3); a
// field that does not parse, or is longer than the parser's limit (64 KiB, sfv.MaxLength),
// states nothing. The header applies to the content of
// the response it came with, whatever robots.txt said; the zero Usage combined with
// a header gives the header's preferences alone.
func (u Usage) WithHeader(h map[string][]string) Usage {
	out := u
	out.ContentUsage = withHeader(u.ContentUsage, vocabulary, usageYes, usageNo, h["Content-Usage"])
	out.ContentSignal = withHeader(u.ContentSignal, signalVocabulary, signalYes, signalNo, h["Content-Signal"])
	out.Lines = slices.Clone(u.Lines)
	return out
}

func withHeader(st []Stated, vocab []Category, yes, no string, values []string) []Stated {
	if len(st) != len(vocab) {
		st = unknowns(vocab)
	} else {
		st = slices.Clone(st)
	}
	n := 0
	for _, v := range values {
		n += len(v) + len(", ")
	}
	if len(values) == 0 || n > sfv.MaxLength+len(", ") {
		return st // past the limit the joined field would fail to parse: no copy is made of it
	}
	prefs, _ := readStatement(vocab, yes, no, strings.Join(values, ", "))
	for i, p := range prefs {
		switch s := &st[i]; {
		case p > s.Preference:
			s.Preference, s.Line, s.Header = p, 0, true
		case p == s.Preference && p != UsageUnknown:
			s.Header = true
		}
	}
	return st
}

func unknowns(vocab []Category) []Stated {
	st := make([]Stated, len(vocab))
	for i, c := range vocab {
		st[i].Label = c.Label
	}
	return st
}

// Usage returns what the file prefers about the use of url's content by the crawler
// whose product token is agent (see Usage for how lines apply). When the crawler may
// not fetch url, Fetchable is false and no preference applies. The Google and RFC9309
// dialects read Content-Usage and Content-Signal lines; the legacy dialects know
// neither, and every preference is unknown in them. To combine the preferences with a
// response's own header, see Usage.WithHeader.
func (r *Robots) Usage(agent, url string) Usage {
	_, u := r.CheckUsage([]string{agent}, url)
	return u
}

// UsageAgents is Usage for one crawler that answers to several product tokens: the
// groups naming any of them apply together, as in CheckAgents.
func (r *Robots) UsageAgents(agents []string, url string) Usage {
	_, u := r.CheckUsage(agents, url)
	return u
}

// CheckUsage is CheckAgents and UsageAgents in one: the decision on url, made once, and
// what the file prefers about the use of its content.
func (r *Robots) CheckUsage(agents []string, url string) (Decision, Usage) {
	d := r.CheckAgents(agents, url)
	u := Usage{ContentUsage: unknowns(vocabulary), ContentSignal: unknowns(signalVocabulary), Lines: []UsageLine{}}
	if !d.Allowed {
		return d, u
	}
	u.Fetchable = true
	if !r.StatesUsage() {
		return d, u
	}
	// The lines of the sets that apply, as the decision found them (decide).
	var pv pathView
	pv.ofURL(url)
	if dialect := r.dialect; dialect != Google {
		pv.end()
		p := pv.s
		if pv.slash {
			p = "/" + p
		}
		pv.set(dialect.matchPath(p), false, true)
	}
	pv.body = r.body
	var found []int32
	offer := func(ref *setRef) {
		prog := r.usageProg(ref)
		found = usageMatches(prog, &pv, found)
	}
	named := false
	for _, a := range agents {
		if ref := r.lookup(a); ref != nil {
			named = true
			offer(ref)
		}
	}
	if !named && r.star.groupN > 0 {
		offer(&r.star)
	}
	r.applyUsage(&u, found)
	return d, u
}

// applyUsage sets u's preferences and lines from the usage lines found, numbered by
// line: for each field, those whose paths match the URL longest (usageMatches, whose
// sets may have found a line twice).
func (r *Robots) applyUsage(u *Usage, found []int32) {
	ix := r.usageIndex()
	slices.Sort(found)
	found = slices.Compact(found)
	for _, num := range found {
		i, _ := slices.BinarySearchFunc(ix.lines, int(num), func(l UsageLine, n int) int { return l.Line - n })
		l := ix.lines[i]
		st := u.ContentUsage
		if l.Signal {
			st = u.ContentSignal
		}
		for c, p := range ix.prefs[i] {
			// Lines in file order: the first that gives the combined preference names it.
			if s := &st[c]; p > s.Preference {
				s.Preference, s.Line = p, l.Line
			}
		}
		u.Lines = append(u.Lines, l)
	}
}

// usageProg returns the usage set of ref, compiling it on first use: the Content-Usage
// and Content-Signal lines of its groups as a rule set (prog.go), matched by the same
// machinery as allow and disallow rules, whose entries' allow flag marks Content-Signal
// lines. A line without a path has the path "/".
func (r *Robots) usageProg(ref *setRef) string {
	ix := r.usageIndex()
	lp := &ix.progs[ref.groupLo]
	if prog := lp.load(); prog != "" {
		return prog
	}
	gs := r.groupsOf(ref)
	b := builders.Get().(*builder)
	defer b.release()
	for i, g := range ix.group {
		if _, ok := slices.BinarySearch(gs, g); ok {
			l := &ix.lines[i]
			b.addRule(r.dialect.compilePattern(cmp.Or(l.Path, "/")), l.Line, 0, 0, l.Signal)
		}
	}
	return lp.store(b.writeSet(true, len(b.rules) >= 32))
}

// usageMatches appends to found the lines of the usage set prog that match the path
// and are, in their field, the longest that do: all of them when several are as long.
func usageMatches(prog string, p *pathView, found []int32) []int32 {
	var ms []entry
	longest := [2]int{-1, -1}
	visit := func(en entry) {
		if f := b2i(en.allow()); en.n >= longest[f] {
			longest[f] = en.n
			ms = append(ms, en)
		}
	}
	if ix := progIndex(prog); ix != 0 && indexPays(prog, p, false) {
		eachIndexMatch(prog, ix, p, visit)
	} else {
		for _, po := range setParts(prog, p) {
			if po != 0 {
				for en := range partAt(prog, po).entries(prog) {
					if p.matches(en.shape(), en.pat(prog, p.body)) {
						visit(en)
					}
				}
			}
		}
	}
	for _, en := range ms {
		if en.n == longest[b2i(en.allow())] {
			found = append(found, en.line(prog))
		}
	}
	return found
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// StatesUsage reports whether a group of the file has a Content-Usage or
// Content-Signal line that the dialect reads (Google's and RFC 9309's; the legacy
// dialects read none): whether Usage can ever find a preference. It is cheap after
// its first call, which reads the file's groups.
func (r *Robots) StatesUsage() bool {
	return r != nil && len(r.usageIndex().lines) > 0
}

// groupUsage returns the usage lines of group gi, each with why its statement does
// not parse, or nil. d is the detailed reading: a body in which it read no line of a
// usage field (most) has none, and is not searched for them again.
func (r *Robots) groupUsage(d *details, gi int) []UsageLine {
	if !d.usage {
		return nil
	}
	var out []UsageLine
	ix := r.usageIndex()
	for i, g := range ix.group {
		if int(g) == gi {
			out = append(out, ix.lines[i])
		}
	}
	return out
}

// usageIndex is where a file's Content-Usage and Content-Signal lines are: those of
// its groups, in file order, with the group of each.
type usageIndex struct {
	lines []UsageLine // each with Error set when its statement does not parse
	group []int32
	prefs [][]Preference // of each line, its statement read (readStatement) in its field's vocabulary
	// progs holds the usage set of each rule set, at the set's groupLo (its groups are
	// r.setGroup[groupLo:groupLo+groupN], never empty, so no two sets share one),
	// compiled on first use (usageProg). Here rather than in each setRef: 2 of the
	// corpus's 19,480 files state usage, and a lazyProg in every set cost the others 42
	// bytes a file (issue 33, memory per cached origin).
	progs []lazyProg
}

func (ix *usageIndex) memSize() int {
	n := int(unsafe.Sizeof(*ix)) + cap(ix.lines)*int(unsafe.Sizeof(UsageLine{})) + cap(ix.group)*4 +
		cap(ix.prefs)*int(unsafe.Sizeof([]Preference{})) + cap(ix.progs)*int(unsafe.Sizeof(lazyProg{}))
	for i := range ix.progs {
		n += len(ix.progs[i].load())
	}
	for i, l := range ix.lines {
		n += len(l.Error) + cap(ix.prefs[i]) // the rest is the body's
	}
	return n
}

// usageIndex returns the file's usage lines, reading them on first use. Two goroutines
// may both read them; one reading is kept.
func (r *Robots) usageIndex() *usageIndex { return loadOrRead(&r.usage, r, (*Robots).readUsage) }

// readUsage reads the lines of the groups, as the reader draws them, for the usage
// fields (fieldName.usage): in one pass from the first group on, passing over by its
// first byte every line that cannot be one (usageByte). A line before the first group
// belongs to none and is left out. Each line's statement is read here, once.
func (r *Robots) readUsage() *usageIndex {
	if r.dialect.legacy() || len(r.groups) == 0 || !mayStateUsage(r.body[r.groups[0].start:]) {
		return &noUsage
	}
	ix := &usageIndex{}
	gi, g := 0, r.groups[0]
	rd := readerAt(r.body, r.dialect, int(g.start), int(g.line)-1, r.exact)
	rd.want = &usageByte
	var l Line
	for {
		start, end, kind, n, ok := rd.next()
		if !ok {
			break
		}
		for gi+1 < len(r.groups) && start >= int(r.groups[gi+1].start) {
			gi++
		}
		rd.classify(&l, start, end, kind, n)
		if l.Kind != KindOther {
			continue
		}
		f := fieldOf(l.Key, r.dialect)
		if f == nil || f.usage == 0 {
			continue
		}
		signal := f.usage == signalField
		path, stmt := splitUsageValue(l.Value)
		ix.lines = append(ix.lines, UsageLine{Signal: signal, Path: path, Statement: stmt, Line: l.Num})
		ix.group = append(ix.group, int32(gi))
	}
	if len(ix.lines) == 0 {
		return &noUsage
	}
	ix.prefs = make([][]Preference, len(ix.lines))
	ix.progs = make([]lazyProg, len(r.setGroup))
	for i := range ix.lines {
		l := &ix.lines[i]
		var err error
		if l.Signal {
			ix.prefs[i], err = readStatement(signalVocabulary, signalYes, signalNo, l.Statement)
		} else {
			ix.prefs[i], err = readStatement(vocabulary, usageYes, usageNo, l.Statement)
		}
		if err != nil {
			l.Error = err.Error()
		}
	}
	return ix
}

// mayStateUsage reports whether s has usageStem in any case: whether it may have a
// line of a usage field. Most files have none, and a search for the stem's last byte
// (vectorised) with a look back at each costs less than reading their lines.
func mayStateUsage(s string) bool {
	stem := usageStem
	if stem == "" {
		return true
	}
	last := stem[len(stem)-1]
	if c := lower(last); 'a' <= c && c <= 'z' { // the search would miss its other case
		return true
	}
	for i := len(stem) - 1; i < len(s); i++ {
		j := strings.IndexByte(s[i:], last)
		if j < 0 {
			return false
		}
		i += j
		if len(stem) == 8 { // as it is: the bytes before the '-' compared as one word, in any case
			if u64(s, i-7)|usageFold == usageWord {
				return true
			}
		} else if equalFold(s[i-len(stem)+1:i], stem[:len(stem)-1]) {
			return true
		}
	}
	return false
}

// usageWord is usageStem as a word (u64) when it is 8 bytes long, its letters in lower
// case, and usageFold their case bit: a word w is the stem in any case when
// w|usageFold == usageWord.
var usageWord, usageFold = func() (w, fold uint64) {
	if len(usageStem) != 8 {
		return 0, 0
	}
	for i := range 8 {
		c := usageStem[i]
		w |= uint64(c) << (8 * i)
		if 'a' <= c && c <= 'z' {
			fold |= 0x20 << (8 * i)
		}
	}
	return w, fold
}()

// usageStem is the longest start the names of the usage fields share ("content-").
var usageStem = func() string {
	stem := ""
	for _, f := range fieldNames {
		if f.usage == 0 {
			continue
		}
		if stem == "" {
			stem = f.name
		}
		n := 0
		for n < len(stem) && n < len(f.name) && stem[n] == f.name[n] {
			n++
		}
		stem = stem[:n]
	}
	return stem
}()

// noUsage is the index of every file without usage lines, shared so that reading one
// allocates nothing.
var noUsage usageIndex

// usageByte marks the bytes that may start a line of a usage field (fieldName.usage),
// in either case, white space and NUL.
var usageByte = initialsOf(func(f *fieldName) bool { return f.usage != 0 })

// readStatement assigns a preference to each category of vocab from a statement, as
// draft-ietf-aipref-vocab §6.5 says: the statement is an RFC 9651 Dictionary; a
// category whose key has the token yes or no as its value is allowed or disallowed;
// any other value, an absent key, and every category of a statement that does not
// parse, are unknown (the error says why it does not). Parameters and keys of no
// category are ignored, and a repeated key keeps its last value. A category left
// unknown takes its parent's preference.
func readStatement(vocab []Category, yes, no, stmt string) ([]Preference, error) {
	prefs := make([]Preference, len(vocab))
	dict, err := sfv.ParseDictionary(stmt)
	if err != nil {
		return prefs, err
	}
	for i, c := range vocab {
		if v, ok := dict.Get(c.Label); ok && v.Kind == sfv.Token {
			switch v.Text {
			case yes:
				prefs[i] = UsageAllowed
			case no:
				prefs[i] = UsageDisallowed
			}
		}
		if prefs[i] == UsageUnknown && c.Parent != "" {
			if p := slices.IndexFunc(vocab[:i], func(pc Category) bool { return pc.Label == c.Parent }); p >= 0 {
				prefs[i] = prefs[p]
			}
		}
	}
	return prefs, nil
}

// splitUsageValue splits the value of a Content-Usage or Content-Signal line into its
// path and its statement (draft-ietf-aipref-attach-05 §3.2): a value that starts with
// "/" has a path, up to the first space or tab; any other value is all statement.
// (Earlier drafts required the path.)
func splitUsageValue(v string) (path, stmt string) {
	if !strings.HasPrefix(v, "/") {
		return "", v
	}
	i := strings.IndexAny(v, " \t")
	if i < 0 {
		return v, ""
	}
	return v[:i], strings.TrimLeft(v[i:], " \t")
}
