package robots

import (
	"errors"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"
)

// Robots is a parsed robots.txt file. It is immutable in what it reports and safe for
// concurrent use; the rule set of a crawler is compiled on the first decision that
// needs it, and the agents, fields and diagnostics are read when first asked for, by
// whichever goroutine comes first (see lazyProg). The zero value, like an empty file,
// allows everything.
type Robots struct {
	// What a decision reads comes first, so that it shares the struct's first cache line.
	// Most decisions use the star set.
	star     setRef     // the "*" groups (groupN 0 when there are none) and their rule set
	initials uint64     // the initial bit of each token
	tokens   []tokenSet // sorted by token, compared case-insensitively
	dialect  Dialect
	exact    bool   // some CR ends a line by itself: the body is read exactly (see reader); beside dialect, in its word
	licenses bool   // the body has a License line (Parse's reading notes them: groupBytes)
	body     string // the body parsed, immutable: every string reported is part of it

	groups      []group     // in file order
	setGroup    []int32     // the groups of all rule sets
	legacyProgs *[]lazyProg // the legacy dialects' rule set of each group alone, in file order (nil in Google's)
	detail      atomic.Pointer[details]
	usage       atomic.Pointer[usageIndex] // its Content-Usage and Content-Signal lines, read on first use
	delays      atomic.Pointer[[]delay]    // the crawl-delay of each group, read on first use (readDelays)
	size        int                        // bytes of the body before the size limit (len(body) is the limit when it is larger)
}

// group is where a group's lines are in the body: from its first user-agent line to
// the start of the next group's (in the legacy dialects, of the blank line that ends
// the record), or the end of the body.
type group struct {
	line       int32 // of its first user-agent line
	start, end int32 // in body
}

// rule is a compiled allow or disallow line while its set is written; the set keeps it
// as an entry and a text (see prog.go).
type rule struct {
	off    uint32 // the index of its pattern in the builder's pats
	n      uint32 // the pattern's length, which is the rule's priority
	line   int32
	src    uint32 // where its value as written starts in the body
	srcLen uint16 // and its length
	shape  uint8
	flags  uint8   // its entry's flags (prog.go)
	key    int16   // pattern.bucketKey
	word   byteSet // its entry's word: for a wildcard pattern, needMask(pattern)
	pairs  byteSet // the pairs of a wildcard pattern (wildSets)
	e, t   uint32  // where setWriter.write put its entry and text
}

// groupOf returns the group a rule line belongs to: the last group starting before it.
func (r *Robots) groupOf(line int32) int {
	lo, hi := 0, len(r.groups)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if r.groups[m].line < line {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo - 1
}

// Agent is one user-agent line of a group.
type Agent struct {
	Name string // the value as written
	Line int
}

// Token returns the product token Google matches for this user-agent value: "*" for
// the catch-all, otherwise the leading run of [A-Za-z_-].
func (a Agent) Token() string {
	tok, global := agentValue(a.Name)
	if global {
		return "*"
	}
	return tok
}

// Rule is an allow or disallow line.
type Rule struct {
	Allow bool
	Value string // the value as written
	Line  int    // 1-based line number; 0 for the zero Rule
}

// String formats r as it would be written: "Disallow: /private/".
func (r Rule) String() string {
	if r.Line == 0 {
		return ""
	}
	if r.Allow {
		return "Allow: " + r.Value
	}
	return "Disallow: " + r.Value
}

// Field is a line that is not a rule or a user-agent line: sitemap, crawl-delay, host,
// clean-param, request-rate, visit-time or any other name. Fields never change decisions.
type Field struct {
	Name  string `json:"name"` // lower case for the fields Google knows; otherwise as written
	Value string `json:"value"`
	Line  int    `json:"line"`
}

// Group is a group of the file: one or more user-agent lines and the lines up to the
// next group.
type Group struct {
	Line   int // line of its first user-agent line
	Agents []Agent
	Rules  []Rule  // in file order; empty values are left out (they restrict nothing)
	Fields []Field // crawl-delay and other non-rule lines inside the group
	// Usage are its Content-Usage and Content-Signal lines (also among Fields), read as
	// Robots.Usage reads them: path and statement apart, with why a statement does not
	// parse. None in the legacy dialects, which know neither field.
	Usage []UsageLine
}

// CrawlDelay returns the group's crawl-delay (the first valid one, see
// ParseCrawlDelay), and whether there is one.
func (g Group) CrawlDelay() (time.Duration, bool) {
	return crawlDelay(g.Fields)
}

func crawlDelay(fields []Field) (time.Duration, bool) {
	for _, f := range fields {
		if f.Name != "crawl-delay" {
			continue
		}
		if d, ok := delayValue(f.Value); ok {
			return d, true
		}
	}
	return 0, false
}

// delayValue is ParseCrawlDelay without the error, which costs an allocation:
// decisions read crawl-delays on every call. A number written in decimal of at most
// plainMax bytes (nearly every value in use: "10", "0.5") cannot fail to parse and
// needs no error. A value holding a byte no number has ("10 seconds", "1,5") is
// rejected at once; ParseCrawlDelay judges the rest.
func delayValue(value string) (time.Duration, bool) {
	v := strings.TrimSpace(value)
	if v == "" {
		return 0, false
	}
	digits, dots := 0, 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case '0' <= c && c <= '9':
			digits++
		case c == '.':
			dots++
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', c == '+', c == '-', c == '_':
			// "1e3", "+5", "0x1p-2", "inf": ParseFloat reads these.
		default:
			return 0, false
		}
	}
	if digits > 0 && dots <= 1 && digits+dots == len(v) && len(v) <= plainMax {
		secs, _ := strconv.ParseFloat(v, 64) // cannot fail: see plainMax
		if secs > maxDelaySeconds {
			return 0, false
		}
		return time.Duration(secs * float64(time.Second)), true
	}
	d, err := ParseCrawlDelay(value)
	return d, err == nil
}

// plainMax bounds the decimal numbers delayValue parses without ParseCrawlDelay: a
// number of at most 300 digits is within float64's range, neither infinite nor a
// non-zero value that rounds to zero, so ParseFloat returns no error for it.
const plainMax = 300

// maxDelaySeconds bounds a crawl-delay so that it fits a time.Duration (about 31 years).
const maxDelaySeconds = 1e9

// ParseCrawlDelay reads the value of a crawl-delay line: a number of seconds, not
// negative, fractions allowed ("10", "0.5"), at most 1e9 (so that it fits a
// time.Duration). Crawl-delay is not part of RFC 9309; Google has never honoured it
// and Yandex has ignored it since February 2018. The crawlers that read it (Bing
// among them; package crawlers says which) read such numbers. The error says why any
// other value is not one.
func ParseCrawlDelay(value string) (time.Duration, error) {
	v := strings.TrimSpace(value)
	secs, err := strconv.ParseFloat(v, 64)
	if errors.Is(err, strconv.ErrRange) {
		err = nil // ±Inf or 0, which the cases below judge
	}
	switch {
	case v == "":
		return 0, errors.New("crawl-delay has no value")
	case err != nil || secs != secs: // secs != secs: NaN
		return 0, fmt.Errorf("crawl-delay %q is not a number of seconds", value)
	case secs < 0:
		return 0, fmt.Errorf("crawl-delay %q is negative", value)
	case secs > maxDelaySeconds:
		return 0, fmt.Errorf("crawl-delay %q is more than %g seconds", value, float64(maxDelaySeconds))
	}
	return time.Duration(secs * float64(time.Second)), nil
}

// Diagnostic reports a line that Parse skipped or read in a doubtful way.
type Diagnostic struct {
	Line    int    `json:"line"` // 1-based
	Code    Code   `json:"code"` // stable: one of the Code constants
	Message string `json:"message"`
}

func (d Diagnostic) String() string {
	return fmt.Sprintf("line %d: %s [%s]", d.Line, d.Message, d.Code)
}

// Code names a kind of diagnostic. Codes are stable: tools may filter on them.
// Package lint reports these diagnostics under the same codes, and codes of its own
// of the same type.
type Code string

// The codes of Diagnostics. Each line is judged by what crawlers do with it, and
// reported once for each problem it has:
//
//   - "name value" with no colon is MissingColon when Google reads the name as a field
//     it knows: RFC 9309 parsers skip such a line. So is "Disallow https://host/x",
//     whose only colon belongs to the value (Google reads "Disallow https" as disallow).
//     A name no crawler reads is UnknownField, colon or not ("foo bar" is the unknown
//     field foo, as Google's parser reads it): every crawler skips the line anyway.
//   - InvalidLine is text in which Google finds no field at all: no colon and not
//     exactly two words. A line that shows nothing (only white space and invisible
//     characters such as a zero-width space before a comment) is skipped like a blank
//     line and not reported.
//   - MisspelledField covers the misspellings Google accepts ("Dissallow",
//     "User agent") and names that only start with a field name ("Disallowed"): Google
//     reads both, other crawlers skip the line.
//
// The legacy dialects read only exact field names with a colon: there, what Google
// reads through a misspelling is UnknownField and a missing colon is InvalidLine.
const (
	FileTooLarge     Code = "file-too-large"     // content past the size limit is ignored; reported on the line where the limit falls
	LineTooLong      Code = "line-too-long"      // a line was cut at MaxLineBytes
	InvalidLine      Code = "invalid-line"       // text that is no field at all: skipped
	MissingColon     Code = "missing-colon"      // "name value" read as "name: value"
	MisspelledField  Code = "misspelled-field"   // a field name Google reads although it is not the name
	UnknownField     Code = "unknown-field"      // a field name no crawler is known to read: skipped
	RuleOutsideGroup Code = "rule-outside-group" // allow or disallow before any user-agent line (legacy dialects: since a blank line): ignored
	EmptyUserAgent   Code = "empty-user-agent"   // a user-agent line with no value
)

type options struct {
	maxBytes int
	dialect  Dialect
}

// Option changes how Parse reads a file.
type Option func(*options)

// WithMaxBytes sets how many bytes of the body are parsed. Values below
// DefaultMaxBytes are raised to it, since RFC 9309 requires at least 500 KiB.
func WithMaxBytes(n int) Option {
	return func(o *options) { o.maxBytes = max(n, DefaultMaxBytes) }
}

// Decision is the outcome of matching one URL for one crawler, with the reason.
type Decision struct {
	Allowed bool
	Rule    Rule // the deciding rule; the zero Rule (Line 0) when no rule matched
	Group   int  // index in Groups of the group of Rule, else of the first group that applied; -1 when none did
	Global  bool // no group named the crawler, so the "*" group(s) applied
}

// Allowed reports whether the crawler whose product token is agent may fetch url.
// agent is compared case-insensitively with the product tokens of the user-agent lines
// (the legacy dialects compare names as their documents say: see Legacy1996 and
// Legacy1994); pass a token such as "Googlebot", not a whole User-Agent header (see
// ProductToken).
// url may be absolute ("https://example.com/a?b") or a path ("/a?b").
func (r *Robots) Allowed(agent, url string) bool {
	if r == nil || r.dialect != Google {
		var pv pathView
		pv.ofURL(url)
		return r.decide(&pv, agent, nil).Allowed
	}
	// Only the verdict is wanted: the deciding rule's value and group, which Check
	// reports, cost memory reads of their own. lookup is written out, its common case
	// first: most agents are named by no group.
	var ref *setRef
	if agent == "" || r.initials&initial(agent) != 0 {
		ref = r.search(agent)
	}
	if ref == nil {
		if r.star.groupN == 0 {
			return true
		}
		ref = &r.star
	}
	prog := ref.prog.load() // setProg, written out
	if prog == "" {
		prog = r.compileRef(ref)
	}
	var pv pathView
	pv.ofURL(url)
	pv.body = r.body
	best := noMatch()
	if !matchParts(prog, &pv, &best, true) { // matchSet, written out
		r.matchIndexed(ref, prog, &pv, &best)
	}
	return best.n < 0 || best.allow()
}

// Check is Allowed with the reason: the deciding rule and the group that applied.
// Like every decision method of this module it takes the agent first, then the URL.
func (r *Robots) Check(agent, url string) Decision {
	var pv pathView
	pv.ofURL(url)
	return r.decide(&pv, agent, nil)
}

// CheckAgents is Check for one crawler that answers to several product tokens: the
// groups naming any of them apply together, as in Google's reference matcher (a
// crawler that obeys both Googlebot-Image and Googlebot); the "*" group applies only
// when none is named. To ask about several crawlers, call Check once for each.
func (r *Robots) CheckAgents(agents []string, url string) Decision {
	var pv pathView
	pv.ofURL(url)
	if len(agents) == 1 {
		return r.decide(&pv, agents[0], nil)
	}
	return r.decide(&pv, "", agents)
}

// ruleAt returns the rule of an entry of prog: its value as written is in the body.
func (r *Robots) ruleAt(prog string, en entry) Rule {
	src, n := en.src(prog)
	return Rule{Allow: en.allow(), Value: r.body[src : src+n], Line: int(en.line(prog))}
}

// Groups returns the groups of the file in file order. It builds them on each call:
// the result is the caller's, and changing it changes nothing in r.
func (r *Robots) Groups() []Group {
	if r == nil {
		return nil
	}
	d := r.details()
	out := make([]Group, len(r.groups))
	// The agents, rules and fields of all groups are copied in one allocation each,
	// each group's part capped, so that appending to it copies it rather than
	// changing the next group's.
	agents, rules := clone(d.agents), clone(d.rules)
	var fields []Field // without sitemaps and licences, which stand outside groups
	if n := len(d.spans); n > 0 && d.spans[n-1].fieldHi > d.spans[0].fieldLo {
		fields = make([]Field, 0, d.spans[n-1].fieldHi-d.spans[0].fieldLo)
	}
	for gi := range r.groups {
		sp := &d.spans[gi]
		g := &out[gi]
		g.Line = int(r.groups[gi].line)
		g.Agents = agents[sp.agentLo:sp.agentHi:sp.agentHi]
		if sp.ruleHi > sp.ruleLo {
			g.Rules = rules[sp.ruleLo:sp.ruleHi:sp.ruleHi]
		}
		lo := len(fields)
		for _, f := range d.fields[sp.fieldLo:sp.fieldHi] {
			if f.Name != "sitemap" && f.Name != licenseField {
				fields = append(fields, f)
			}
		}
		if hi := len(fields); hi > lo {
			g.Fields = fields[lo:hi:hi]
		}
		g.Usage = r.groupUsage(d, gi)
	}
	return out
}

// Rules returns the allow and disallow rules of the groups at indexes gs in Groups
// (as GroupsFor returns them), group by group, each group's in file order: the Rules
// of those groups as Groups reports them, read again from the body without building
// the groups. It allocates nothing.
func (r *Robots) Rules(gs []int) iter.Seq[Rule] {
	return func(yield func(Rule) bool) {
		for _, gi := range gs {
			for rr := (ruleReader{rd: r.groupLines(gi)}); rr.next(); {
				if !yield(Rule{Allow: rr.l.Kind == KindAllow, Value: rr.l.Value, Line: rr.l.Num}) {
					return
				}
			}
		}
	}
}

// Sitemaps returns the values of the sitemap lines, in file order.
func (r *Robots) Sitemaps() []string {
	if r == nil {
		return nil
	}
	var out []string
	for _, f := range r.details().fields {
		if f.Name == "sitemap" {
			out = append(out, f.Value)
		}
	}
	return out
}

// Licenses returns the values of the License lines (RSL 1.0, Really Simple Licensing:
// the absolute URL of an XML licence for the whole site), in file order. Like
// sitemaps, they stand outside groups and speak to every crawler.
func (r *Robots) Licenses() []string {
	if r == nil || !r.licenses {
		return nil
	}
	var out []string
	for _, f := range r.details().fields {
		if f.Name == licenseField {
			out = append(out, f.Value)
		}
	}
	return out
}

// Fields returns every non-rule field of the file with its line, in file order:
// sitemaps, fields before the first group and the fields of every group.
func (r *Robots) Fields() []Field {
	if r == nil {
		return nil
	}
	return slices.Clone(r.details().fields)
}

// Diagnostics returns what Parse skipped or read in a doubtful way, by line.
func (r *Robots) Diagnostics() []Diagnostic {
	if r == nil {
		return nil
	}
	diags := r.details().diags
	out := make([]Diagnostic, len(diags))
	for i, d := range diags {
		out[i] = d.diagnostic(r)
	}
	return out
}

// GroupsFor returns the indexes in Groups of the groups that apply to a crawler with
// these product tokens, in file order, and whether they are the "*" fallback. It
// returns no groups when none applies (everything is allowed).
func (r *Robots) GroupsFor(agents ...string) (groups []int, global bool) {
	return r.AppendGroupsFor(nil, agents...)
}

// AppendGroupsFor is GroupsFor appending the indexes to dst: a caller asking for many
// crawlers may reuse one slice. It allocates nothing when dst has room for them.
func (r *Robots) AppendGroupsFor(dst []int, agents ...string) (groups []int, global bool) {
	if r == nil {
		return dst, false
	}
	if r.dialect.legacy() {
		gi, global := r.legacyGroup(agents)
		if gi < 0 {
			return dst, false
		}
		return append(dst, gi), global
	}
	// The groups of one set are in file order, each once (Robots.index): most crawlers
	// are named by one token at most, whose set (or the "*" set) is appended as it is.
	var set *setRef
	for i, a := range agents {
		s := r.lookup(a)
		if s == nil {
			continue
		}
		if set != nil {
			return r.appendNamed(dst, set, agents[i:]), false
		}
		set = s
	}
	if set == nil {
		set, global = &r.star, r.star.groupN > 0
	}
	return appendGroups(dst, r.groupsOf(set)), global
}

// appendNamed appends the groups of set, and of the sets agents name, sorted, each
// once: several agents may name the same groups (a sort, not a search per group, so
// that a file of many groups costs linear time).
func (r *Robots) appendNamed(dst []int, set *setRef, agents []string) []int {
	n := len(dst)
	dst = appendGroups(dst, r.groupsOf(set))
	for _, a := range agents {
		if s := r.lookup(a); s != nil {
			dst = appendGroups(dst, r.groupsOf(s))
		}
	}
	slices.Sort(dst[n:])
	return dst[:n+len(slices.Compact(dst[n:]))]
}

func appendGroups(dst []int, gs []int32) []int {
	dst = slices.Grow(dst, len(gs))
	for _, g := range gs {
		dst = append(dst, int(g))
	}
	return dst
}

// CrawlDelay returns the crawl-delay that applies to a crawler with these product
// tokens (the first valid one among its groups, in file order), and whether there
// is one. It allocates nothing when the values are written as decimal numbers (see
// ParseCrawlDelay), and sorts nothing: it keeps the earliest group holding a valid
// value while it walks the groups that apply.
func (r *Robots) CrawlDelay(agents ...string) (time.Duration, bool) {
	if r == nil || len(*r.delayTable()) == 0 {
		return 0, false
	}
	if r.dialect.legacy() {
		if gi, _ := r.legacyGroup(agents); gi >= 0 {
			return r.groupDelay(gi)
		}
		return 0, false
	}
	best, delay, named := len(r.groups), time.Duration(0), false
	// earliest walks a set's groups, which may come in any order; the same group may
	// be named by several agents.
	earliest := func(gs []int32) {
		for _, g := range gs {
			if gi := int(g); gi < best {
				if d, ok := r.groupDelay(gi); ok {
					best, delay = gi, d
				}
			}
		}
	}
	for _, a := range agents {
		if set := r.lookup(a); set != nil && set.groupN > 0 {
			named = true
			earliest(r.groupsOf(set))
		}
	}
	if !named && r.star.groupN > 0 {
		earliest(r.groupsOf(&r.star))
	}
	return delay, best < len(r.groups)
}

// delayTable returns the crawl-delay of each group, in file order, reading them on
// first use; it is empty when the body names no crawl-delay.
func (r *Robots) delayTable() *[]delay { return loadOrRead(&r.delays, r, (*Robots).readDelays) }

// noDelays is the delay table of a body that names no crawl-delay.
var noDelays []delay

// readDelays reads the crawl-delay of each group. A field is one only when its name is
// spelled out, so a body without "crawl-delay" in any case has none: most files, for
// which CrawlDelay then answers without the detailed reading (details), which a server
// asking every new origin's crawl-delay would otherwise pay for once per file. The
// others are read in detail, but only the table is kept, 16 bytes a group: the detailed
// reading of the 14% of corpus files that name one held 380 bytes per file over the
// corpus, a tenth of a cached origin (issue 33). A detailed reading made already is
// used, and its table shared.
func (r *Robots) readDelays() *[]delay {
	if !containsFold(r.body, "crawl-delay") {
		return &noDelays
	}
	d := r.detail.Load()
	if d == nil {
		d = r.readDetails()
	}
	t := d.delays
	return &t
}

// containsFold reports whether s contains sub, a lower-case ASCII string, in any case.
// When sub holds a byte that is not a letter (the '-' of "crawl-delay"), the places to
// compare are found by a search for that byte, rarer in robots.txt bodies than letters.
func containsFold(s, sub string) bool {
	h := 0
	for h < len(sub) && 'a' <= sub[h] && sub[h] <= 'z' {
		h++
	}
	if h == len(sub) { // letters only: every place is compared
		for i := 0; i+len(sub) <= len(s); i++ {
			if hasPrefixFold(s[i:], sub) {
				return true
			}
		}
		return false
	}
	for i := h; i < len(s); {
		j := strings.IndexByte(s[i:], sub[h])
		if j < 0 {
			return false
		}
		i += j
		if start := i - h; start >= 0 && hasPrefixFold(s[start:], sub) {
			return true
		}
		i++
	}
	return false
}

// groupDelay is the crawl-delay of group gi, as Group.CrawlDelay.
func (r *Robots) groupDelay(gi int) (time.Duration, bool) {
	dl := &(*r.delayTable())[gi]
	return dl.d, dl.ok
}

// MemSize returns an estimate of the heap bytes r holds: what a cache of parsed files
// counts against its bound. It counts what r keeps (the body it read, its tables)
// and what it has built on first use so far (the rule sets compiled, the detailed
// reading of the file); it may grow while decisions are made.
func (r *Robots) MemSize() int {
	if r == nil {
		return 0
	}
	n := int(unsafe.Sizeof(*r)) + len(r.body) +
		cap(r.tokens)*int(unsafe.Sizeof(tokenSet{})) + cap(r.groups)*int(unsafe.Sizeof(group{})) +
		cap(r.setGroup)*4
	n += len(r.star.prog.load())
	for i := range r.tokens {
		n += len(r.tokens[i].ref.prog.load())
	}
	if lp := r.legacyProgs; lp != nil {
		n += int(unsafe.Sizeof(*lp)) + cap(*lp)*int(unsafe.Sizeof(lazyProg{}))
		for i := range *lp {
			n += len((*lp)[i].load())
		}
	}
	if ix := r.usage.Load(); ix != nil && ix != &noUsage {
		n += ix.memSize()
	}
	d := r.detail.Load()
	if t := r.delays.Load(); t != nil && t != &noDelays && (d == nil || unsafe.SliceData(*t) != unsafe.SliceData(d.delays)) {
		n += int(unsafe.Sizeof(*t)) + cap(*t)*int(unsafe.Sizeof(delay{}))
	}
	if d != nil {
		n += int(unsafe.Sizeof(*d)) + cap(d.agents)*int(unsafe.Sizeof(Agent{})) +
			cap(d.rules)*int(unsafe.Sizeof(Rule{})) + cap(d.fields)*int(unsafe.Sizeof(Field{})) +
			cap(d.spans)*int(unsafe.Sizeof(span{})) + cap(d.diags)*int(unsafe.Sizeof(diag{})) +
			cap(d.delays)*int(unsafe.Sizeof(delay{}))
	}
	return n
}

// loadOrRead returns what p points to, first pointing it at what read returns for r
// when it is nil. Goroutines that race may each read; all get the one reading kept.
// read is a method expression ((*Robots).readUsage), not a method value: a method
// value escapes to the heap where the caller is inlined into another package, an
// allocation on every call.
func loadOrRead[T any](p *atomic.Pointer[T], r *Robots, read func(*Robots) *T) *T {
	if v := p.Load(); v != nil {
		return v
	}
	if v := read(r); p.CompareAndSwap(nil, v) {
		return v
	}
	return p.Load()
}
