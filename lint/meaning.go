package lint

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/crawlers"
)

// checkGroupMerge finds user-agent lines that join the group above them because only
// non-rule lines (crawl-delay, sitemap, host, …) stand between: the parser ends a
// group's user-agent lines only at an allow or disallow line.
func checkGroupMerge(f *file) {
	var first, between robots.Line // the group's first user-agent line; the first field after a user-agent line
	open := false                  // still in the user-agent lines of a group
	var named []string             // the tokens named so far in the group
	for i := range f.lines {
		l := &f.lines[i] // not copied: most lines are passed over
		switch l.Kind {
		case robots.KindUserAgent:
			tok := f.agentKey(l.Num, l.Value)
			if !open {
				first, between, open = *l, robots.Line{}, true
				named = append(named[:0], tok)
				continue
			}
			seen := slices.Contains(named, tok)
			named = append(named, tok)
			// Naming again a crawler the group already names merges nothing new.
			if between.Num > 0 && !seen && f.groupRules(l.Num) > 0 {
				// RFC 9309 with draft-ietf-aipref-attach reads a Content-Usage line as a
				// rule, which ends the user-agent lines: there the readings differ.
				rfc := ""
				if between.Kind == robots.KindOther && strings.EqualFold(between.Key, "content-usage") {
					rfc = " (under RFC 9309, with draft-ietf-aipref-attach, a Content-Usage line is a rule and does end it: crawlers read this file two ways)"
				}
				f.add(l.Num, keyCol(*l), GroupMerge, "User-agent: %s joins the group of line %d (User-agent: %s): the %s line %d between them does not end a group%s, so both share every rule that follows; end the first group with a rule (an empty \"Disallow:\" allows everything)",
					l.Value, first.Num, first.Value, fieldName(between), between.Num, rfc)
				between = robots.Line{}
			}
		case robots.KindAllow, robots.KindDisallow:
			open = false
		case robots.KindSitemap, robots.KindOther, robots.KindUnknown:
			if open && between.Num == 0 {
				between = *l
			}
		}
	}
}

// groupRules returns the number of rules of the group with a user-agent line at line.
// Groups are in line order: the one that can hold it is the last starting at or
// before it (a search, not a walk over every group: a file of thousands of merged
// groups asks for each).
func (f *file) groupRules(line int) int {
	gi, _ := slices.BinarySearchFunc(f.groups, line+1, func(g robots.Group, n int) int { return g.Line - n })
	gi-- // the last group starting at or before line
	if gi >= 0 && slices.ContainsFunc(f.groups[gi].Agents, func(a robots.Agent) bool { return a.Line == line }) {
		return len(f.groups[gi].Rules)
	}
	return 0
}

func fieldName(l robots.Line) string {
	if l.Kind == robots.KindSitemap {
		return "sitemap"
	}
	if l.Kind == robots.KindOther {
		return strings.ToLower(l.Key)
	}
	return strconv.Quote(l.Key)
}

// tokenProblem says what is wrong with a user-agent value whose product token, as
// Google reads it, is not the crawler name the author meant, or "" when nothing is.
// The token is the leading run of [A-Za-z_-]; the name continues past it when a
// letter or digit follows ("MJ12bot" is "MJ"), or a dot and more name
// ("archive.org_bot" is "archive"). A version ("Googlebot/2.1"), a space or
// punctuation ("Baiduspider+") ends the name where the token ends, which is fine.
// tok is v's product token (leading(v)), which the caller has read.
func tokenProblem(v, tok string) string {
	if tok == "" {
		return fmt.Sprintf("Google reads no product token in %q (a token is letters, \"_\" and \"-\", from the start): this line names no crawler", v)
	}
	rest := v[len(tok):]
	if strings.HasPrefix(rest, "*") {
		return ""
	}
	// Lower-cased only where the test can hold (most values are a bare token): a
	// "mozilla/" needs a "/" seven bytes in at least, a "compatible;" a ";".
	if strings.IndexByte(v, '/') >= 7 || strings.IndexByte(v, ';') >= 0 {
		if low := strings.ToLower(v); (strings.HasPrefix(low, "mozilla/") || strings.Contains(low, "compatible;")) && robots.ProductToken(v) != tok {
			return fmt.Sprintf("%q looks like a whole User-Agent header: Google reads only %q, so the group does not apply to %s; write the crawler's product token", v, tok, robots.ProductToken(v))
		}
	}
	if i := strings.IndexByte(rest, ','); i >= 0 && leading(strings.TrimLeft(rest[i+1:], " \t")) != "" {
		return fmt.Sprintf("Google reads only %q from %q: a user-agent line names one crawler; write one line per crawler", tok, v)
	}
	if rest == "" {
		return ""
	}
	c := rest[0]
	continues := isAlnum(c) || c == '.' && len(rest) > 1 && isAlnum(rest[1])
	if !continues {
		return ""
	}
	name := v
	if i := strings.IndexAny(name, " \t/"); i >= 0 {
		name = name[:i]
	}
	return fmt.Sprintf("Google reads %q as %q (a product token is letters, \"_\" and \"-\" only): crawlers that match as Google and RFC 9309 do never apply this group to %s, only to a crawler named %s", v, tok, name, tok)
}

// wildcardProblem says what a "*" straight after a user-agent name's product token
// does ("Google*"), or "" when there is none: only "*" alone is a wildcard, so Google
// reads the token, which names one crawler and not those whose names start with it,
// and a crawler that compares the whole value as a token names none. tok is v's
// product token (leading(v)).
func wildcardProblem(v, tok string) string {
	if tok == "" || !strings.HasPrefix(v[len(tok):], "*") {
		return ""
	}
	known := false
	var others []string
	for _, name := range crawlers.Names() {
		switch {
		case strings.EqualFold(name, tok):
			known = true
		case len(name) > len(tok) && strings.EqualFold(name[:len(tok)], tok):
			others = append(others, name)
		}
	}
	msg := fmt.Sprintf("%q is not a wildcard: only \"*\" alone matches every crawler; Google reads this name as %q, and crawlers that compare the whole name as a product token match no crawler", v, tok)
	if known {
		return msg + fmt.Sprintf("; write %q", tok)
	}
	msg += fmt.Sprintf(", so the group applies to no crawler except one named %s", tok)
	if len(others) > 0 {
		msg += fmt.Sprintf(" (not to %s)", list(others))
	}
	return msg + "; write one user-agent line per crawler"
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// leading is the product token of a user-agent value, as robots.Agent.Token.
func leading(v string) string {
	return robots.Agent{Name: v}.Token()
}

// checkAgents looks at the user-agent lines: their product tokens and the crawlers
// named in more than one group.
func checkAgents(f *file) {
	// Only a token named more than once can be in more than one group, with rules to
	// compare: the others' are not collected (most files name each token once, and
	// most name none in two groups, which a rule set of two groups or more shows).
	type token struct {
		n         int  // its number
		named     int  // user-agent lines naming it
		first     int  // the first user-agent line naming it, once its groups are read
		inGroup   int  // 1 + the last group read naming it
		disallows bool // the rules of its groups read so far include a disallow
	}
	var tokens map[string]*token // by lower-case token (or "*"), in slab
	var slab []token
	var seen map[uint64]bool // of each token, the rules of its groups read so far: number, value number, allow
	var ids []int32
	if slices.ContainsFunc(f.ruleSets(), func(s ruleSet) bool { return len(s.groups) > 1 }) {
		tokens, seen = map[string]*token{}, map[uint64]bool{}
		ids, _ = f.valueIDs()
		n := 0
		for _, g := range f.groups {
			n += len(g.Agents)
		}
		slab = make([]token, 0, n) // one a user-agent line at most: never moved
		for _, g := range f.groups {
			for _, a := range g.Agents {
				key := f.agentKey(a.Line, a.Name)
				t := tokens[key]
				if t == nil {
					slab = append(slab, token{n: len(tokens)})
					t = &slab[len(slab)-1]
					tokens[key] = t
				}
				t.named++
			}
		}
	}
	for gi, g := range f.groups {
		for _, a := range g.Agents {
			tok, _ := f.agent(a.Line, a.Name)
			if a.Name != "" && tok != "*" {
				if msg := tokenProblem(a.Name, tok); msg != "" {
					f.add(a.Line, max(f.line(a.Line).ValueCol, 1), AgentToken, "%s", msg)
				}
				if msg := wildcardProblem(a.Name, tok); msg != "" {
					f.add(a.Line, max(f.line(a.Line).ValueCol, 1), AgentWildcard, "%s", msg)
				}
			}
			if tokens == nil {
				continue
			}
			key := f.agentKey(a.Line, a.Name)
			t := tokens[key]
			if key == "" || t.named < 2 || t.inGroup == gi+1 {
				continue
			}
			t.inGroup = gi + 1
			prev, ok := t.first, t.first > 0
			if !ok {
				t.first = a.Line
			}
			// Merging matters only when this group adds rules the earlier ones lack
			// ("Crescent" and "Crescent Internet ToolPak", both "Disallow: /", agree).
			// A new allow matters only next to a disallow it could override.
			newDisallow, newAllow, anyDisallow := false, false, t.disallows
			for _, r := range g.Rules {
				if !r.Allow {
					anyDisallow = true
				}
				k := uint64(t.n)<<33 | uint64(ids[r.Line])<<1
				if r.Allow {
					k |= 1
				}
				if !seen[k] {
					seen[k] = true
					newDisallow = newDisallow || !r.Allow
					newAllow = newAllow || r.Allow
				}
			}
			t.disallows = anyDisallow
			adds := newDisallow || newAllow && anyDisallow
			if !ok || !adds {
				continue
			}
			if key == "*" {
				f.add(a.Line, keyCol(f.line(a.Line)), RepeatedStar, "another \"User-agent: *\" group (the first \"*\" is at line %d): Google and RFC 9309 merge them, crawlers that stop at the first group ignore this one's rules; merge them into one group", prev)
			} else {
				f.add(a.Line, keyCol(f.line(a.Line)), RepeatedAgent, "%s is also named at line %d: Google and RFC 9309 merge the groups, crawlers that stop at the first group ignore this one's rules; merge them into one group", tok, prev)
			}
		}
	}
}

// checkEmptyGroups finds crawlers whose only group has no allow or disallow line:
// they obey that group, so they skip the rules of the "*" group and may fetch
// everything. The usual cause is a group written only for a crawl-delay.
func checkEmptyGroups(f *file) {
	starRules := 0
	for _, s := range f.ruleSets() {
		if s.token == "*" {
			starRules = len(s.rules)
		}
	}
	if starRules == 0 {
		return
	}
	byGroup := map[int][]string{}
	for _, s := range f.ruleSets() {
		if s.token == "*" || len(s.rules) > 0 {
			continue
		}
		if slices.ContainsFunc(s.groups, f.hasRuleLines) {
			continue // an explicit "Disallow:" says everything is allowed on purpose
		}
		byGroup[s.groups[0]] = append(byGroup[s.groups[0]], s.names...)
	}
	for gi, g := range f.groups {
		names := byGroup[gi]
		if len(names) == 0 {
			continue
		}
		f.add(g.Line, 0, EmptyGroup, "this group has no allow or disallow line, so %s may fetch everything: a crawler obeys only its own group and skips the %d rule(s) of the \"*\" group; repeat the rules here, or add an empty \"Disallow:\" if that is meant",
			list(names), starRules)
	}
}

// checkCrawlDelay finds crawl-delay lines in groups whose crawlers all ignore
// crawl-delay, as their operators say (package crawlers): Googlebot's, Yandex's. A
// group that names "*" or a crawler not known to ignore it may be read by one that
// honours it.
func checkCrawlDelay(f *file) {
	for _, g := range f.groups {
		if !slices.ContainsFunc(g.Fields, func(fl robots.Field) bool { return fl.Name == "crawl-delay" }) {
			continue // most groups have no crawl-delay: their crawlers need not be looked up
		}
		var names []string
		for _, a := range g.Agents {
			c, ok := crawlers.Lookup(a.Token())
			if !ok || c.CrawlDelay != crawlers.Ignored {
				names = nil
				break
			}
			if !slices.Contains(names, c.Name) {
				names = append(names, c.Name)
			}
		}
		if len(names) == 0 {
			continue
		}
		for _, fl := range g.Fields {
			if fl.Name == "crawl-delay" {
				f.add(fl.Line, keyCol(f.line(fl.Line)), IgnoredCrawlDelay, "crawl-delay is ignored by %s, as the operators say, and no other crawler reads this group: the line changes nothing", list(names))
			}
		}
	}
}

// hasRuleLines reports whether group gi has an allow or disallow line, also one with
// no value (which Groups leaves out).
func (f *file) hasRuleLines(gi int) bool {
	end := len(f.lines)
	if gi+1 < len(f.groups) {
		end = f.groups[gi+1].Line - 1
	}
	for i := f.groups[gi].Line - 1; i < end; i++ {
		if k := f.lines[i].Kind; k == robots.KindAllow || k == robots.KindDisallow {
			return true
		}
	}
	return false
}

// list joins names, cut after maxNamed.
func list(names []string) string {
	if len(names) > maxNamed {
		return fmt.Sprintf("%s and %d more", strings.Join(names[:maxNamed], ", "), len(names)-maxNamed)
	}
	return strings.Join(names, ", ")
}

// ruleSet is the rules that apply together to some crawlers: those of the groups
// naming one product token, or of the "*" groups.
type ruleSet struct {
	token  string   // lower case; "*" for the catch-all; the first one when several share the groups
	names  []string // the product tokens naming the groups, as first written (as agent-token reads them)
	groups []int
	rules  []robots.Rule
}

// ruleSets returns each distinct set of groups that applies to some crawler.
func (f *file) ruleSets() []ruleSet {
	if f.sets != nil {
		return f.sets
	}
	type token struct {
		key, name string // lower case; as Google reads it ("Googlebot" of "Googlebot, Bingbot")
		groups    []int
	}
	n := 0
	for _, g := range f.groups {
		n += len(g.Agents)
	}
	// Sized for every user-agent line; most tokens are named in one group, whose
	// list is one element of one: a few allocations a file, not a few a token.
	toks := make([]token, 0, n)
	at := make(map[string]int, n) // key → index in toks
	one := make([]int, n)
	for gi, g := range f.groups {
		for _, a := range g.Agents {
			key := f.agentKey(a.Line, a.Name)
			if key == "" {
				continue
			}
			i, ok := at[key]
			if !ok {
				i = len(toks)
				at[key] = i
				one[i] = gi
				name, _ := f.agent(a.Line, a.Name)
				toks = append(toks, token{key: key, name: name, groups: one[i : i+1 : i+1]})
				continue
			}
			// Groups come in order: a group already listed is the last one.
			if gs := toks[i].groups; gs[len(gs)-1] != gi {
				toks[i].groups = append(gs, gi)
			}
		}
	}
	// Tokens naming the same groups share a set: the sets starting at one group are
	// chained from first (no key string made for each token).
	first := make([]int, len(f.groups))
	for i := range first {
		first[i] = -1
	}
	next := make([]int, 0, len(toks))
	sets := make([]ruleSet, 0, len(toks))
	names := make([]string, len(toks)) // the first name of each set, a slice of one
	for _, t := range toks {
		gs := t.groups
		k := first[gs[0]]
		for k >= 0 && !slices.Equal(sets[k].groups, gs) {
			k = next[k]
		}
		if k >= 0 {
			if t.key != "*" {
				sets[k].names = append(sets[k].names, t.name)
			}
			continue
		}
		next = append(next, first[gs[0]])
		first[gs[0]] = len(sets)
		s := ruleSet{token: t.key, groups: gs}
		if t.key != "*" {
			names[len(sets)] = t.name
			s.names = names[len(sets) : len(sets)+1 : len(sets)+1]
		}
		if len(gs) == 1 {
			s.rules = slices.Clip(f.groups[gs[0]].Rules) // read only
		} else {
			for _, gi := range gs {
				s.rules = append(s.rules, f.groups[gi].Rules...)
			}
		}
		sets = append(sets, s)
	}
	f.sets = sets
	return sets
}

// agentKey is the lower-case product token of the user-agent line numbered line
// whose value is name (see agent).
func (f *file) agentKey(line int, name string) string {
	_, key := f.agent(line, name)
	return key
}

// agent returns the product token of the user-agent line numbered line whose value
// is name, as Google reads it (robots.Agent.Token), and that token in lower case,
// made once per line (ruleSets, checkAgents and checkGroupMerge all ask).
func (f *file) agent(line int, name string) (tok, key string) {
	if line < 1 || line > len(f.lines) {
		tok = leading(name)
		return tok, strings.ToLower(tok)
	}
	if f.keys == nil {
		f.keys = make([]agentKey, len(f.lines)+1)
	}
	k := &f.keys[line]
	if !k.ok {
		k.tok = leading(name)
		k.key, k.ok = strings.ToLower(k.tok), true
	}
	return k.tok, k.key
}

type agentKey struct {
	tok, key string
	ok       bool
}

// maxNamed is how many crawler names a blocks-all message lists before "and N more".
const maxNamed = 5

// majorNames are the names of crawlers.Major, read once (Major clones the registry's
// entries at each call; lint is called once per file of a corpus).
var majorNames = sync.OnceValue(func() []string {
	var names []string
	for _, c := range crawlers.Major() {
		names = append(names, c.Name)
	}
	return names
})

// majors are the major crawlers as checkBlocksAll reads them, read once: their
// names, whether each is ASCII, and by lower-case name their indexes in names.
type majors struct {
	names []string
	ascii []bool
	byKey map[string][]int
}

var majorSet = sync.OnceValue(func() *majors {
	m := &majors{names: majorNames(), byKey: map[string][]int{}}
	for i, name := range m.names {
		m.ascii = append(m.ascii, isASCII(name))
		key := strings.ToLower(name)
		m.byKey[key] = append(m.byKey[key], i)
	}
	return m
})

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// checkBlocksAll reports each group that disallows every URL for major crawlers.
func checkBlocksAll(f *file) {
	type block struct {
		groups []int
		global bool
		names  []string
	}
	if !slices.ContainsFunc(f.groupBlocks(), func(b int8) bool { return b > 0 }) {
		return // no group blocks every path: no crawler is blocked entirely
	}
	// A crawler that no user-agent line names (the parser compares product tokens
	// in ASCII lower case, as agentKey makes them) gets the "*" groups, as every
	// other such crawler does: the parser is asked once for them all.
	m := majorSet()
	named := make([]bool, len(m.names))
	for _, g := range f.groups {
		for _, a := range g.Agents {
			for _, i := range m.byKey[f.agentKey(a.Line, a.Name)] {
				named[i] = true
			}
		}
	}
	var others struct {
		gs                  []int
		global, got, blocks bool
	}
	var blocks []*block
	for i, name := range m.names {
		var gs []int
		var global bool
		if named[i] || !m.ascii[i] {
			gs, global = f.r.GroupsFor(name)
			if len(gs) == 0 || !blocksEverything(f, gs) {
				continue
			}
		} else {
			if !others.got {
				others.gs, others.global = f.r.GroupsFor(name)
				others.got, others.blocks = true, len(others.gs) > 0 && blocksEverything(f, others.gs)
			}
			if !others.blocks {
				continue
			}
			gs, global = others.gs, others.global
		}
		// Crawlers blocked by the same groups share a finding (few sets of groups:
		// a search of those found so far).
		k := slices.IndexFunc(blocks, func(b *block) bool { return slices.Equal(b.groups, gs) })
		if k < 0 {
			k = len(blocks)
			blocks = append(blocks, &block{groups: gs, global: global})
		}
		blocks[k].names = append(blocks[k].names, name)
	}
	for _, b := range blocks {
		g := f.groups[b.groups[0]]
		names := list(b.names)
		if b.global {
			f.add(g.Line, 0, BlocksAll, "the \"*\" group disallows every URL for the %d major crawlers no group names: %s", len(b.names), names)
		} else {
			f.add(g.Line, 0, BlocksAll, "this group disallows every URL for %s", names)
		}
	}
}

// blocksEverything reports whether the groups disallow every path: a disallow rule
// matches every path and no allow rule can match any.
func blocksEverything(f *file, gs []int) bool {
	return blocksAll(f.groupBlocks(), gs)
}

// groupBlocks returns groupBlocks of each group of the file, read once.
func (f *file) groupBlocks() []int8 {
	if f.blocks == nil {
		f.blocks = make([]int8, len(f.groups))
		for gi, g := range f.groups {
			f.blocks[gi] = groupBlocks(g)
		}
	}
	return f.blocks
}

// groupBlocks says what a group's rules do to the paths of a site: 1 when a
// disallow rule matches every path and no allow rule can match any, -1 when an
// allow rule can match a path, 0 otherwise.
func groupBlocks(g robots.Group) int8 {
	var b int8
	for _, r := range g.Rules {
		switch {
		case !isPath(r.Value):
		case r.Allow:
			return -1
		case b == 0 && coversAll(r.Value):
			b = 1
		}
	}
	return b
}

// coversAll reports whether a rule of path value v matches every path.
func coversAll(v string) bool {
	// ("/x…": the "x" would have to match what follows "/" in every path.)
	return (len(v) < 2 || v[1] == '*' || v[0] == '*') && covers(v, "/")
}

// blocksAll reports whether the groups gs, whose groupBlocks are blocks, disallow
// every path.
func blocksAll(blocks []int8, gs []int) bool {
	all := false
	for _, gi := range gs {
		if blocks[gi] < 0 {
			return false
		}
		all = all || blocks[gi] > 0
	}
	return all
}

// Access says how much of a site robots.txt lets one crawler fetch.
type Access string

const (
	// AccessNone: every URL is disallowed. A disallow rule of the crawler's groups
	// matches every path ("/", "*", "/*") and none of their allow rules can match
	// any: the rule of the blocks-all finding.
	AccessNone Access = "blocked"
	// AccessPart: some disallow rule with a path applies, and some URL may be fetched.
	AccessPart Access = "partly"
	// AccessAll: no disallow rule with a path applies (no group for the crawler,
	// or only allow rules and empty disallows).
	AccessAll Access = "open"
)

// AccessOf says how much of a site the groups at indexes gs of groups let their
// crawler fetch; groups are a file's robots.Robots.Groups and gs what its
// GroupsFor returns for the crawler.
func AccessOf(groups []robots.Group, gs []int) Access {
	var a accessOf
	for _, gi := range gs {
		for _, r := range groups[gi].Rules {
			if a.add(r) {
				return a.access()
			}
		}
	}
	return a.access()
}

// AccessIn is AccessOf for the groups at indexes gs of a parsed file r, reading
// their rules alone (robots.Robots.Rules) rather than building every group. It
// allocates nothing.
func AccessIn(r *robots.Robots, gs []int) Access {
	var a accessOf
	for rule := range r.Rules(gs) {
		if a.add(rule) {
			break
		}
	}
	return a.access()
}

// accessOf reads the rules of a crawler's groups for AccessOf: what it says
// depends only on their rules together, in any order. No allow rule with a path
// in any of the groups, and some disallow rule that matches every path, is
// AccessNone.
type accessOf struct{ allowed, covered, part bool }

// add reads rule r, and reports whether the answer is known whatever rules follow.
func (a *accessOf) add(r robots.Rule) bool {
	switch {
	case !isPath(r.Value):
	case r.Allow:
		a.allowed = true
	default:
		a.part = true
		a.covered = a.covered || coversAll(r.Value)
	}
	return a.allowed && a.part
}

func (a *accessOf) access() Access {
	switch {
	case a.covered && !a.allowed:
		return AccessNone
	case a.part:
		return AccessPart
	}
	return AccessAll
}
