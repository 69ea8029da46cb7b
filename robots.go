package robots

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Robots is a parsed robots.txt file. It is immutable and safe for concurrent use.
// The zero value, like an empty file, allows everything.
type Robots struct {
	body     string  // the parsed body; every value is a substring of it
	groups   []group // in file order
	rules    []rule  // all rules, group by group, each group's sorted best first
	tokens   []tokenSet
	star     ruleSet
	hasStar  bool
	sitemaps []Field
	fields   []Field // non-rule fields that stand before any group
	diags    []Diagnostic
	written  map[int32]string // value as written, for lines whose pattern was escaped
	size     int              // bytes of the body, before the limit
	opts     options
}

type group struct {
	line   int32
	agents []Agent
	first  int32 // rules[first:end] belong to this group
	end    int32
	fields []Field
}

// rule is a compiled allow or disallow line.
type rule struct {
	pat   string // the value with non-ASCII bytes percent-encoded; its length is the priority
	line  int32
	group int32
	allow bool
	shape uint8
}

// ruleSet is what applies to one product token: the rules of all groups naming it,
// sorted so that the first match decides.
type ruleSet struct {
	rules  []rule
	groups []int32 // the groups naming the token, in file order
}

type tokenSet struct {
	token string // lower case
	set   ruleSet
}

// Agent is one user-agent line of a group.
type Agent struct {
	Name string // the value as written
	Line int
}

// Token returns the product token Google matches for this user-agent value: "*" for
// the catch-all, otherwise the leading run of [A-Za-z_-].
func (a Agent) Token() string {
	if isGlobal(a.Name) {
		return "*"
	}
	return leadingToken(a.Name)
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
	Name  string // lower case for the fields Google knows; otherwise as written
	Value string
	Line  int
}

// Group is a group of the file: one or more user-agent lines and the lines up to the
// next group.
type Group struct {
	Line   int // line of its first user-agent line
	Agents []Agent
	Rules  []Rule  // in file order; empty values are left out (they restrict nothing)
	Fields []Field // crawl-delay and other non-rule lines inside the group
}

// CrawlDelay returns the group's crawl-delay in seconds (the first valid one), and
// whether there is one. Fractions are allowed; negative and non-numeric values are not.
func (g Group) CrawlDelay() (time.Duration, bool) {
	for _, f := range g.Fields {
		if f.Name != "crawl-delay" {
			continue
		}
		if d, ok := parseDelay(f.Value); ok {
			return d, true
		}
	}
	return 0, false
}

func parseDelay(v string) (time.Duration, bool) {
	secs, err := strconv.ParseFloat(v, 64)
	if err != nil || secs < 0 || secs > 1e9 || secs != secs {
		return 0, false
	}
	return time.Duration(secs * float64(time.Second)), true
}

// Diagnostic reports a line that Parse skipped or read in a doubtful way.
type Diagnostic struct {
	Line    int    // 1-based; 0 for the file as a whole
	Code    string // stable, one of the Diag* constants
	Message string
}

func (d Diagnostic) String() string {
	return fmt.Sprintf("line %d: %s [%s]", d.Line, d.Message, d.Code)
}

// Diagnostic codes.
const (
	DiagTruncated    = "file-too-large"     // content past the size limit was ignored
	DiagLineTooLong  = "line-too-long"      // a line was cut at MaxLineBytes
	DiagInvalid      = "invalid-line"       // a line that is no field at all was skipped
	DiagMissingColon = "missing-colon"      // "name value" read as "name: value"
	DiagTypo         = "misspelled-field"   // a misspelling Google accepts was read as the field
	DiagUnknown      = "unknown-field"      // a field name no crawler is known to use
	DiagNoGroup      = "rule-outside-group" // allow/disallow before any user-agent line: ignored
	DiagEmptyAgent   = "empty-user-agent"   // a user-agent line with no value
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

// Parse reads a robots.txt body. It never fails: like Google's parser it skips what
// it cannot read and records why in Diagnostics. Bytes past the size limit
// (DefaultMaxBytes unless WithMaxBytes says otherwise) are ignored.
func Parse(body []byte, opts ...Option) *Robots {
	r := &Robots{size: len(body), opts: options{maxBytes: DefaultMaxBytes}}
	for _, o := range opts {
		o(&r.opts)
	}
	if len(body) > r.opts.maxBytes {
		body = body[:r.opts.maxBytes]
		r.diags = append(r.diags, Diagnostic{Code: DiagTruncated,
			Message: fmt.Sprintf("file is %d bytes; only the first %d are read", r.size, r.opts.maxBytes)})
	}
	r.body = string(body)
	r.parse()
	return r
}

func (r *Robots) diag(line int, code, format string, args ...any) {
	r.diags = append(r.diags, Diagnostic{Line: line, Code: code, Message: fmt.Sprintf(format, args...)})
}

func isGlobal(v string) bool {
	return len(v) > 0 && v[0] == '*' && (len(v) == 1 || isSpace(v[1]))
}

func (r *Robots) parse() {
	cur := -1        // current group
	inRules := false // a rule has been seen since the group's user-agent lines
	var raw []rule   // rules in file order
	dialect := r.opts.dialect
	scanLines(r.body, func(l *Line) bool {
		if dialect.legacy() && l.Kind != KindBlank && l.Kind != KindInvalid {
			// The old documents know no misspellings and require the colon.
			l.Typo = false
			if l.MissingColon {
				l.Kind, l.MissingColon = KindInvalid, false
			} else {
				l.Kind = legacyKind(dialect, l.Key)
			}
		}
		if l.TooLong {
			r.diag(l.Num, DiagLineTooLong, "line is longer than %d bytes; the rest is ignored", MaxLineBytes)
		}
		if l.MissingColon {
			r.diag(l.Num, DiagMissingColon, "no colon after %q; read as %q", l.Key, l.Key+": "+l.Value)
		}
		if l.Typo {
			r.diag(l.Num, DiagTypo, "%q is a misspelling; Google reads it as %s", l.Key, l.Kind)
		}
		switch l.Kind {
		case KindInvalid:
			r.diag(l.Num, DiagInvalid, "not a field (no colon): line ignored")
		case KindUserAgent:
			if cur < 0 || inRules {
				r.groups = append(r.groups, group{line: int32(l.Num)})
				cur = len(r.groups) - 1
				inRules = false
			}
			g := &r.groups[cur]
			g.agents = append(g.agents, Agent{Name: l.Value, Line: l.Num})
			if l.Value == "" {
				r.diag(l.Num, DiagEmptyAgent, "user-agent without a value")
			}
		case KindAllow, KindDisallow:
			if cur < 0 {
				r.diag(l.Num, DiagNoGroup, "%s before any user-agent line: ignored", l.Kind)
				return true
			}
			inRules = true
			if l.Value == "" {
				return true // an empty value restricts nothing, but still ends the agent lines
			}
			allow := l.Kind == KindAllow
			pat, shape := dialect.compilePattern(l.Value)
			if pat != l.Value {
				r.setWritten(l.Num, l.Value)
			}
			raw = append(raw, rule{pat: pat, line: int32(l.Num), group: int32(cur), allow: allow, shape: shape})
			// Google normalises ".../index.htm*" in an allow rule: the directory itself
			// ("...//$") is allowed too.
			if allow && !dialect.legacy() {
				if slash := strings.LastIndexByte(pat, '/'); slash >= 0 && strings.HasPrefix(pat[slash:], "/index.htm") {
					p := pat[:slash+1] + "$"
					r.setWritten(l.Num, l.Value)
					raw = append(raw, rule{pat: p, line: int32(l.Num), group: int32(cur), allow: true, shape: shapeOf(p)})
				}
			}
		case KindSitemap:
			r.sitemaps = append(r.sitemaps, Field{Name: "sitemap", Value: l.Value, Line: l.Num})
		case KindOther, KindUnknown:
			name := l.Key
			if l.Kind == KindOther {
				name = strings.ToLower(name)
			} else {
				r.diag(l.Num, DiagUnknown, "unknown field %q: ignored", l.Key)
			}
			f := Field{Name: name, Value: l.Value, Line: l.Num}
			if cur < 0 {
				r.fields = append(r.fields, f)
			} else {
				r.groups[cur].fields = append(r.groups[cur].fields, f)
			}
		}
		return true
	})
	r.compile(raw)
}

func (r *Robots) setWritten(line int, v string) {
	if r.written == nil {
		r.written = make(map[int32]string)
	}
	r.written[int32(line)] = v
}

// better reports whether a decides over b: the longer pattern wins; on a tie, allow wins.
func better(a, b *rule) bool {
	if len(a.pat) != len(b.pat) {
		return len(a.pat) > len(b.pat)
	}
	return a.allow && !b.allow
}

func cmpRules(a, b rule) int {
	switch {
	case better(&a, &b):
		return -1
	case better(&b, &a):
		return 1
	}
	return int(a.line - b.line)
}

func (r *Robots) compile(raw []rule) {
	// Lay the rules out group by group, each group sorted best first.
	r.rules = make([]rule, 0, len(raw))
	byGroup := make([][]rule, len(r.groups))
	for _, ru := range raw {
		byGroup[ru.group] = append(byGroup[ru.group], ru)
	}
	for gi := range r.groups {
		g := &r.groups[gi]
		g.first = int32(len(r.rules))
		if !r.opts.dialect.legacy() { // the old dialects try rules in file order
			slices.SortStableFunc(byGroup[gi], cmpRules)
		}
		r.rules = append(r.rules, byGroup[gi]...)
		g.end = int32(len(r.rules))
	}
	// Index groups by lower-case product token.
	named := map[string][]int32{}
	var stars []int32
	for gi, g := range r.groups {
		for _, a := range g.agents {
			if isGlobal(a.Name) {
				if !slices.Contains(stars, int32(gi)) {
					stars = append(stars, int32(gi))
				}
				continue
			}
			tok := strings.ToLower(leadingToken(a.Name))
			if !slices.Contains(named[tok], int32(gi)) {
				named[tok] = append(named[tok], int32(gi))
			}
		}
	}
	r.tokens = make([]tokenSet, 0, len(named))
	for tok, gs := range named {
		r.tokens = append(r.tokens, tokenSet{token: tok, set: r.merge(gs)})
	}
	slices.SortFunc(r.tokens, func(a, b tokenSet) int { return strings.Compare(a.token, b.token) })
	if len(stars) > 0 {
		r.hasStar = true
		r.star = r.merge(stars)
	}
}

// merge returns the rule set of the given groups; with one group it shares its rules.
func (r *Robots) merge(gs []int32) ruleSet {
	g := &r.groups[gs[0]]
	if len(gs) == 1 {
		return ruleSet{rules: r.rules[g.first:g.end:g.end], groups: gs}
	}
	var rs []rule
	for _, gi := range gs {
		g := &r.groups[gi]
		rs = append(rs, r.rules[g.first:g.end]...)
	}
	slices.SortStableFunc(rs, cmpRules)
	return ruleSet{rules: rs, groups: gs}
}

// lookup finds the rule set for one product token, compared case-insensitively.
// The token is lower-cased into a stack buffer so that the lookup does not allocate.
func (r *Robots) lookup(agent string) (*ruleSet, bool) {
	var buf [64]byte
	var low string
	if len(agent) <= len(buf) {
		b := buf[:len(agent)]
		for i := 0; i < len(agent); i++ {
			c := agent[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b[i] = c
		}
		i, ok := slices.BinarySearchFunc(r.tokens, b, func(t tokenSet, b []byte) int {
			return strings.Compare(t.token, string(b))
		})
		if ok {
			return &r.tokens[i].set, true
		}
		return nil, false
	}
	low = strings.ToLower(agent)
	i, ok := slices.BinarySearchFunc(r.tokens, low, func(t tokenSet, s string) int { return strings.Compare(t.token, s) })
	if ok {
		return &r.tokens[i].set, true
	}
	return nil, false
}

// Decision is the outcome of matching one URL for one crawler, with the reason.
type Decision struct {
	Allowed bool
	Rule    Rule // the deciding rule; the zero Rule (Line 0) when no rule matched
	Group   int  // index in Groups of the group that applied; -1 when none did
	Global  bool // no group named the crawler, so the "*" group(s) applied
}

// Allowed reports whether the crawler whose product token is agent may fetch url.
// agent is compared case-insensitively with the product tokens of the user-agent lines;
// pass a token such as "Googlebot", not a whole User-Agent header (see ProductToken).
// url may be absolute ("https://example.com/a?b") or a path ("/a?b").
func (r *Robots) Allowed(agent, url string) bool {
	return r.decide(pathOf(url), agent, nil).Allowed
}

// Decide is Allowed with the reason. With several agents, the groups naming any of
// them apply together, as in Google's reference matcher (a crawler that obeys both
// Googlebot-Image and Googlebot); the "*" group applies only when none is named.
func (r *Robots) Decide(url string, agents ...string) Decision {
	if len(agents) == 1 {
		return r.decide(pathOf(url), agents[0], nil)
	}
	return r.decide(pathOf(url), "", agents)
}

func (r *Robots) decide(path, agent string, agents []string) Decision {
	d := Decision{Allowed: true, Group: -1}
	if r == nil {
		return d
	}
	if dialect := r.opts.dialect; dialect != Google {
		if dialect == RFC9309 && isRobotsTxt(path) {
			return d // RFC 9309 §2.2.2: the /robots.txt URI is implicitly allowed
		}
		path = dialect.matchPath(path)
		if dialect.legacy() {
			if agents == nil {
				agents = []string{agent}
			}
			return r.decideLegacy(path, agents)
		}
	}
	var best *rule
	found := false
	try := func(set *ruleSet) {
		if !found {
			d.Group = int(set.groups[0])
			found = true
		}
		for i := range set.rules {
			ru := &set.rules[i]
			if matches(ru.shape, ru.pat, path) {
				if best == nil || better(ru, best) {
					best = ru
				}
				return
			}
		}
	}
	if agents == nil {
		if set, ok := r.lookup(agent); ok {
			try(set)
		}
	} else {
		for _, a := range agents {
			if set, ok := r.lookup(a); ok {
				try(set)
			}
		}
	}
	if !found && r.hasStar {
		d.Global = true
		try(&r.star)
	}
	if best != nil {
		d.Allowed = best.allow
		d.Rule = r.ruleOf(best)
		d.Group = int(best.group)
	}
	return d
}

func isRobotsTxt(path string) bool {
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	return path == "/robots.txt"
}

// decideLegacy decides in the old dialects: one record, its rules in file order, the
// first match wins.
func (r *Robots) decideLegacy(path string, agents []string) Decision {
	d := Decision{Allowed: true, Group: -1}
	gi, global := r.legacyGroup(agents)
	if gi < 0 {
		return d
	}
	d.Group, d.Global = gi, global
	g := &r.groups[gi]
	for i := g.first; i < g.end; i++ {
		ru := &r.rules[i]
		if matches(ru.shape, ru.pat, path) {
			d.Allowed = ru.allow
			d.Rule = r.ruleOf(ru)
			break
		}
	}
	return d
}

func (r *Robots) ruleOf(ru *rule) Rule {
	v := ru.pat
	if w, ok := r.written[ru.line]; ok {
		v = w
	}
	return Rule{Allow: ru.allow, Value: v, Line: int(ru.line)}
}

// Groups returns the groups of the file in file order. It builds them on each call.
func (r *Robots) Groups() []Group {
	if r == nil {
		return nil
	}
	out := make([]Group, len(r.groups))
	for gi, g := range r.groups {
		rules := make([]Rule, 0, g.end-g.first)
		seen := map[int32]bool{}
		for i := g.first; i < g.end; i++ {
			ru := &r.rules[i]
			if seen[ru.line] { // the derived index.htm rule shares its line
				continue
			}
			seen[ru.line] = true
			rules = append(rules, r.ruleOf(ru))
		}
		slices.SortFunc(rules, func(a, b Rule) int { return a.Line - b.Line })
		out[gi] = Group{Line: int(g.line), Agents: g.agents, Rules: rules, Fields: g.fields}
	}
	return out
}

// Sitemaps returns the values of the sitemap lines, in file order.
func (r *Robots) Sitemaps() []string {
	if r == nil {
		return nil
	}
	out := make([]string, len(r.sitemaps))
	for i, f := range r.sitemaps {
		out[i] = f.Value
	}
	return out
}

// Fields returns every non-rule field of the file with its line, in file order:
// sitemaps, fields before the first group and the fields of every group.
func (r *Robots) Fields() []Field {
	if r == nil {
		return nil
	}
	out := slices.Concat(r.sitemaps, r.fields)
	for _, g := range r.groups {
		out = append(out, g.fields...)
	}
	slices.SortFunc(out, func(a, b Field) int { return a.Line - b.Line })
	return out
}

// Diagnostics returns what Parse skipped or read in a doubtful way, by line.
func (r *Robots) Diagnostics() []Diagnostic {
	if r == nil {
		return nil
	}
	return r.diags
}

// GroupsFor returns the indexes in Groups of the groups that apply to a crawler with
// these product tokens, in file order, and whether they are the "*" fallback. It
// returns no groups when none applies (everything is allowed).
func (r *Robots) GroupsFor(agents ...string) (groups []int, global bool) {
	if r == nil {
		return nil, false
	}
	if r.opts.dialect.legacy() {
		gi, global := r.legacyGroup(agents)
		if gi < 0 {
			return nil, false
		}
		return []int{gi}, global
	}
	for _, a := range agents {
		if set, ok := r.lookup(a); ok {
			for _, g := range set.groups {
				if !slices.Contains(groups, int(g)) {
					groups = append(groups, int(g))
				}
			}
		}
	}
	if len(groups) == 0 && r.hasStar {
		global = true
		for _, g := range r.star.groups {
			groups = append(groups, int(g))
		}
	}
	slices.Sort(groups)
	return groups, global
}

// CrawlDelay returns the crawl-delay that applies to a crawler with these product
// tokens (the first valid one among its groups), and whether there is one.
func (r *Robots) CrawlDelay(agents ...string) (time.Duration, bool) {
	gs, _ := r.GroupsFor(agents...)
	for _, gi := range gs {
		if d, ok := (Group{Fields: r.groups[gi].fields}).CrawlDelay(); ok {
			return d, true
		}
	}
	return 0, false
}

// Size returns the size of the body given to Parse, before the size limit.
func (r *Robots) Size() int {
	if r == nil {
		return 0
	}
	return r.size
}
