package lint

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/internal/precedence"
)

// checkGroupMerge finds user-agent lines that join the group above them because only
// non-rule lines (crawl-delay, sitemap, host, …) stand between: the parser ends a
// group's user-agent lines only at an allow or disallow line.
func checkGroupMerge(f *file) {
	var first, between robots.Line // the group's first user-agent line; the first field after a user-agent line
	open := false                  // still in the user-agent lines of a group
	var named []string             // the tokens named so far in the group
	for _, l := range f.lines {
		switch l.Kind {
		case robots.KindUserAgent:
			tok := strings.ToLower(leading(l.Value))
			if !open {
				first, between, open = l, robots.Line{}, true
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
				f.add(l.Num, keyCol(l), GroupMerge, "User-agent: %s joins the group of line %d (User-agent: %s): the %s line %d between them does not end a group%s, so both share every rule that follows; end the first group with a rule (an empty \"Disallow:\" allows everything)",
					l.Value, first.Num, first.Value, fieldName(between), between.Num, rfc)
				between = robots.Line{}
			}
		case robots.KindAllow, robots.KindDisallow:
			open = false
		case robots.KindSitemap, robots.KindOther, robots.KindUnknown:
			if open && between.Num == 0 {
				between = l
			}
		}
	}
}

// groupRules returns the number of rules of the group with a user-agent line at line.
func (f *file) groupRules(line int) int {
	for _, g := range f.groups {
		for _, a := range g.Agents {
			if a.Line == line {
				return len(g.Rules)
			}
		}
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
func tokenProblem(v string) string {
	tok := leading(v)
	if tok == "" {
		return fmt.Sprintf("Google reads no product token in %q (a token is letters, \"_\" and \"-\", from the start): this line names no crawler", v)
	}
	rest := v[len(tok):]
	if strings.HasPrefix(rest, "*") {
		return ""
	}
	if low := strings.ToLower(v); (strings.HasPrefix(low, "mozilla/") || strings.Contains(low, "compatible;")) && robots.ProductToken(v) != tok {
		return fmt.Sprintf("%q looks like a whole User-Agent header: Google reads only %q, so the group does not apply to %s; write the crawler's product token", v, tok, robots.ProductToken(v))
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
// and a crawler that compares the whole value as a token names none.
func wildcardProblem(v string) string {
	tok := leading(v)
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
	firstGroup := map[string]int{} // lower-case token (or "*") → first user-agent line naming it
	type rule struct {
		allow bool
		value string
	}
	rulesOf := map[string]map[rule]bool{} // lower-case token → the rules of the groups naming it so far
	disallows := map[string]bool{}        // lower-case token → whether those rules include a disallow
	// Only a token named more than once can be in more than one group, with rules to
	// compare: the others' are not collected (most files name each token once).
	named := map[string]int{}
	for _, g := range f.groups {
		for _, a := range g.Agents {
			named[strings.ToLower(a.Token())]++
		}
	}
	for _, g := range f.groups {
		seen := map[string]bool{}
		for _, a := range g.Agents {
			tok := a.Token()
			if a.Name != "" && tok != "*" {
				if msg := tokenProblem(a.Name); msg != "" {
					f.add(a.Line, max(f.line(a.Line).ValueCol, 1), AgentToken, "%s", msg)
				}
				if msg := wildcardProblem(a.Name); msg != "" {
					f.add(a.Line, max(f.line(a.Line).ValueCol, 1), AgentWildcard, "%s", msg)
				}
			}
			key := strings.ToLower(tok)
			if key == "" || seen[key] {
				continue
			}
			seen[key] = true
			if named[key] < 2 {
				continue
			}
			prev, ok := firstGroup[key]
			if !ok {
				firstGroup[key] = a.Line
				rulesOf[key] = map[rule]bool{}
			}
			// Merging matters only when this group adds rules the earlier ones lack
			// ("Crescent" and "Crescent Internet ToolPak", both "Disallow: /", agree).
			// A new allow matters only next to a disallow it could override.
			newDisallow, newAllow, anyDisallow := false, false, disallows[key]
			for _, r := range g.Rules {
				if !r.Allow {
					anyDisallow = true
				}
				if k := (rule{r.Allow, r.Value}); !rulesOf[key][k] {
					rulesOf[key][k] = true
					newDisallow = newDisallow || !r.Allow
					newAllow = newAllow || r.Allow
				}
			}
			disallows[key] = anyDisallow
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
	for _, l := range f.lines[f.groups[gi].Line-1 : end] {
		if l.Kind == robots.KindAllow || l.Kind == robots.KindDisallow {
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
	byToken := map[string][]int{}
	name := map[string]string{}
	var order []string
	for gi, g := range f.groups {
		for _, a := range g.Agents {
			tok := strings.ToLower(a.Token())
			if tok == "" {
				continue
			}
			if _, ok := byToken[tok]; !ok {
				order = append(order, tok)
				name[tok] = a.Token() // what Google reads: "Googlebot" of "Googlebot, Bingbot"
			}
			if !slices.Contains(byToken[tok], gi) {
				byToken[tok] = append(byToken[tok], gi)
			}
		}
	}
	index := map[string]int{}
	sets := []ruleSet{}
	for _, tok := range order {
		gs := byToken[tok]
		key := groupsKey(gs)
		if i, ok := index[key]; ok {
			if tok != "*" {
				sets[i].names = append(sets[i].names, name[tok])
			}
			continue
		}
		index[key] = len(sets)
		s := ruleSet{token: tok, groups: gs}
		if tok != "*" {
			s.names = []string{name[tok]}
		}
		for _, gi := range gs {
			s.rules = append(s.rules, f.groups[gi].Rules...)
		}
		sets = append(sets, s)
	}
	f.sets = sets
	return sets
}

// groupsKey writes the indexes of a set of groups as a map key.
func groupsKey(gs []int) string {
	b := make([]byte, 0, 4*len(gs))
	for _, g := range gs {
		b = strconv.AppendInt(b, int64(g), 10)
		b = append(b, ',')
	}
	return string(b)
}

// MaxCoverChecks bounds the pattern comparisons made to find rules that never decide,
// so that a file with thousands of wildcard rules is checked in bounded time. Past it
// the remaining rules are not checked for shadowing (duplicates still are).
const MaxCoverChecks = 1 << 20

// verdict is why a rule never decides in one rule set.
type verdict struct {
	code  Code
	other robots.Rule
}

// checkRules finds rules that never decide anything: duplicates, allow and disallow
// with the same value, and rules always beaten by a longer rule that matches every
// URL they match. A rule is reported only when that holds for every crawler it
// applies to.
func checkRules(f *file) {
	budget := MaxCoverChecks
	in := map[int]int{}      // rule line → number of sets containing it
	dead := map[int]int{}    // rule line → number of sets where it never decides
	why := map[int]verdict{} // rule line → the reason in the first such set
	groupOf := map[int]int{} // rule line → group
	for gi, g := range f.groups {
		for _, r := range g.Rules {
			groupOf[r.Line] = gi
		}
	}
	for _, s := range f.ruleSets() {
		byValue := map[string][]robots.Rule{}
		var wild wildRules
		for _, r := range s.rules {
			if !isPath(r.Value) {
				continue
			}
			byValue[r.Value] = append(byValue[r.Value], r)
			p := f.pattern(r)
			if p.wild && p.ascii {
				wild.add(p)
			}
		}
		for _, r := range s.rules {
			if f.stopped() {
				return
			}
			if !isPath(r.Value) {
				continue
			}
			in[r.Line]++
			v, ok := neverDecides(f.pattern(r), byValue[r.Value], &wild, groupOf, &budget)
			if !ok {
				continue
			}
			dead[r.Line]++
			if _, ok := why[r.Line]; !ok {
				why[r.Line] = v
			}
		}
	}
	for line, n := range in {
		if dead[line] != n {
			continue
		}
		v := why[line]
		r := f.pats[line].rule
		col := max(f.line(line).ValueCol, 1)
		switch v.code {
		case DuplicateRule:
			f.add(line, col, DuplicateRule, "%q repeats %s for the same crawlers; remove one", r.String(), describe(v.other))
		case ConflictingRules:
			f.add(line, col, ConflictingRules, "%q and %s have the same value: Google and RFC 9309 allow (allow wins a tie), crawlers that take the first matching rule follow line %d; keep one of them",
				r.String(), describe(v.other), min(line, v.other.Line))
		case ShadowedRule:
			f.add(line, col, ShadowedRule, "%q never decides anything: %s matches every URL it matches and wins (longer), so those URLs are %s",
				r.String(), describe(v.other), allowedWord(v.other.Allow))
		case RedundantRule:
			f.add(line, col, RedundantRule, "%q never decides anything: %s matches every URL it matches with the same verdict; remove it", r.String(), describe(v.other))
		}
	}
}

func allowedWord(allow bool) string {
	if allow {
		return "allowed"
	}
	return "disallowed"
}

// isPath reports whether a rule value can match a URL path at all.
func isPath(v string) bool {
	return v != "" && (v[0] == '/' || v[0] == '*')
}

// beats reports whether rule a takes precedence over rule b for a URL both match
// (package precedence).
func beats(a, b robots.Rule) bool {
	return precedence.Outranks(len(a.Value), a.Allow, a.Line, len(b.Value), b.Allow, b.Line)
}

// pattern is a rule prepared for comparison with others.
type pattern struct {
	rule   robots.Rule
	glob   glob
	prefix string    // glob up to its first "*": every path the rule matches starts with it
	bytes  [4]uint64 // the set of bytes of glob other than "*" (see mayCover)
	wild   bool      // the value has a "*"
	ascii  bool
}

func newPattern(r robots.Rule) *pattern {
	p := &pattern{rule: r, glob: globOf(r.Value), wild: strings.IndexByte(r.Value, '*') >= 0, ascii: isASCII(r.Value)}
	p.prefix = p.glob.base
	if i := strings.IndexByte(p.prefix, '*'); i >= 0 {
		p.prefix = p.prefix[:i]
	}
	for i := 0; i < len(p.glob.base); i++ {
		if c := p.glob.base[i]; c != '*' {
			p.bytes[c/64] |= 1 << (c % 64)
		}
	}
	return p
}

// mayCover is a quick test that rules out most pairs before q.glob.match(p.glob):
// q's pattern can match p's read as text only when p starts with q's text up to its
// first "*" and every byte of q other than "*" is a byte of p other than "*" (a "*" of
// p can be matched only by a "*" of q). On the shared corpus it turns away nearly all
// of the comparisons that made lint's cost (BenchmarkCorpus).
func (q *pattern) mayCover(p *pattern) bool {
	for i := range q.bytes {
		if q.bytes[i]&^p.bytes[i] != 0 {
			return false
		}
	}
	return strings.HasPrefix(p.glob.base, q.prefix)
}

// pattern returns r prepared for comparison, made once per rule of the file.
func (f *file) pattern(r robots.Rule) *pattern {
	if r.Line < 1 || r.Line > len(f.lines) {
		return newPattern(r)
	}
	if f.pats == nil {
		f.pats = make([]*pattern, len(f.lines)+1)
	}
	if f.pats[r.Line] == nil {
		f.pats[r.Line] = newPattern(r)
	}
	return f.pats[r.Line]
}

// neverDecides reports whether the rule of p never decides in a set whose rules with
// the same value are same and whose ASCII rules with wildcards are wild, and why.
// groupOf maps each rule's line to its group.
func neverDecides(p *pattern, same []robots.Rule, wild *wildRules, groupOf map[int]int, budget *int) (verdict, bool) {
	r := p.rule
	for _, q := range same {
		if q.Line == r.Line || !beats(q, r) {
			continue
		}
		if q.Allow != r.Allow {
			return verdict{ConflictingRules, q}, true
		}
		// The same rule in another group naming the same crawler is what merging
		// groups does; repeated-agent speaks of it when it matters.
		if groupOf[q.Line] == groupOf[r.Line] {
			return verdict{DuplicateRule, q}, true
		}
		return verdict{}, false
	}
	// Only a value with "*" can cover a different value of at least the same length.
	// Values with non-ASCII bytes are compared by the parser after escaping, which can
	// change their length; they are left alone. So is an allow of ".../index.html",
	// which the parser widens to the directory.
	if !p.ascii || r.Allow && strings.Contains(r.Value, "/index.htm") || *budget <= 0 {
		return verdict{}, false // past the budget, the wildcard rules are not read again for each rule
	}
	// The candidates are the wildcard rules whose text before their first "*" starts
	// p's (the others cannot match it): those of each length of that text p has.
	// Which wins does not depend on the order they are read in, nor does the budget
	// they use (one per candidate).
	var best robots.Rule
	spent := false
	wild.candidates(p, func(q *pattern) bool {
		if q.rule.Line == r.Line || q.rule.Value == r.Value || !beats(q.rule, r) {
			return true
		}
		if *budget <= 0 {
			spent = true
			return false
		}
		*budget--
		if q.mayCover(p) && q.glob.match(p.glob) && (best.Line == 0 || beats(q.rule, best)) {
			best = q.rule
		}
		return true
	})
	if spent || best.Line == 0 {
		return verdict{}, false
	}
	if best.Allow != r.Allow {
		return verdict{ShadowedRule, best}, true
	}
	return verdict{RedundantRule, best}, true
}

// wildRules are the ASCII rules with wildcards of a rule set, by their text before
// the first "*" (pattern.prefix), so that a rule is compared only with those that
// can match it (a file of a thousand "/dir/*.ext" rules made each rule read them all).
// They are kept by a hash of that text (FNV-1a), which a rule computes for each
// length of its own text in one pass: a file whose wildcard rules have a thousand
// lengths of text costs no more than the text read. Two texts of one hash would only
// make a candidate more, which glob.match turns away.
type wildRules struct {
	byPrefix map[uint64][]*pattern
	lengths  []int // the lengths of the prefixes, ascending
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func (w *wildRules) add(p *pattern) {
	if w.byPrefix == nil {
		w.byPrefix = map[uint64][]*pattern{}
	}
	h := uint64(fnvOffset)
	for i := 0; i < len(p.prefix); i++ {
		h = (h ^ uint64(p.prefix[i])) * fnvPrime
	}
	w.byPrefix[h] = append(w.byPrefix[h], p)
	if i, found := slices.BinarySearch(w.lengths, len(p.prefix)); !found {
		w.lengths = slices.Insert(w.lengths, i, len(p.prefix))
	}
}

// candidates calls yield with each wildcard rule whose text before its first "*"
// starts p's (and, rarely, one of the same hash), shortest texts first; it stops
// when yield returns false.
func (w *wildRules) candidates(p *pattern, yield func(q *pattern) bool) {
	h, n := uint64(fnvOffset), 0
	for _, l := range w.lengths {
		if l > len(p.prefix) {
			return
		}
		for ; n < l; n++ {
			h = (h ^ uint64(p.prefix[n])) * fnvPrime
		}
		for _, q := range w.byPrefix[h] {
			if !yield(q) {
				return
			}
		}
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// glob is a rule value as a pattern over the whole path: a value matches as a
// prefix unless it ends in "$", so "/a" is the pattern "/a*" and "/a$" the pattern
// "/a". It is read in place, without building the pattern's text.
type glob struct {
	base string // the value without its final "$"
	open bool   // no final "$": the pattern goes on with a "*"
}

func globOf(v string) glob {
	if strings.HasSuffix(v, "$") {
		return glob{base: v[:len(v)-1]}
	}
	return glob{base: v, open: true}
}

// covers reports whether every path that rule value r matches is also matched by
// rule value q. With "*" the only wildcard, that holds when q's pattern matches r's
// pattern read as text, each "*" of r being a character only a "*" of q can match.
func covers(q, r string) bool {
	return globOf(q).match(globOf(r))
}

// match matches s, read as text, against p, where "*" in p matches any run of
// bytes and every other byte of p itself ("*" in s is text only a "*" of p can
// match). With "*" the only wildcard, matching each piece of p between stars at
// its leftmost place in s is enough; the pieces are found with strings.Index.
func (p glob) match(s glob) bool {
	pat, text := p.base, s.base
	i := strings.IndexByte(pat, '*')
	if i < 0 {
		if !p.open { // p is all text: s must be the same text
			return !s.open && text == pat
		}
		return strings.HasPrefix(text, pat) // pat, then a "*" that takes the rest
	}
	if !strings.HasPrefix(text, pat[:i]) {
		return false
	}
	text, pat = text[i:], pat[i+1:]
	// A star was read: the pieces between the next stars, leftmost each.
	for {
		j := strings.IndexByte(pat, '*')
		if j < 0 {
			break
		}
		piece := pat[:j]
		pat = pat[j+1:]
		k := strings.Index(text, piece)
		if k < 0 {
			return false
		}
		text = text[k+len(piece):]
	}
	// pat is the piece after the last star of p's value.
	if p.open { // ... * pat *
		return strings.Contains(text, pat)
	}
	if s.open { // p ends in pat, s in a "*" that only a "*" of p can match
		return pat == ""
	}
	return strings.HasSuffix(text, pat)
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
	var blocks []*block
	byKey := map[string]*block{}
	for _, name := range majorNames() {
		gs, global := f.r.GroupsFor(name)
		if len(gs) == 0 || !blocksEverything(f, gs) {
			continue
		}
		key := groupsKey(gs)
		b, ok := byKey[key]
		if !ok {
			b = &block{groups: gs, global: global}
			byKey[key] = b
			blocks = append(blocks, b)
		}
		b.names = append(b.names, name)
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
		case b == 0 && covers(r.Value, "/"):
			b = 1
		}
	}
	return b
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
	allowed, covered, part := false, false, false
	for _, gi := range gs {
		switch groupBlocks(groups[gi]) {
		case -1:
			allowed = true
		case 1:
			covered = true
		}
		for _, r := range groups[gi].Rules {
			part = part || !r.Allow && isPath(r.Value)
		}
	}
	switch {
	case covered && !allowed:
		return AccessNone
	case part:
		return AccessPart
	}
	return AccessAll
}
