package audit

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/fetch"
)

// decider decides URLs for every crawler asked about, once per class of crawlers:
// crawlers to which the same groups of the file apply (GroupsFor) get the same
// decision for every URL, so that eighty crawlers of which most fall to the "*" group
// cost a few decisions per URL, not eighty. The file is parsed once; a decision
// allocates nothing.
type decider struct {
	rb      *robots.Robots // nil when the fetch's effect decides
	effect  fetch.Effect
	agents  []string
	classOf []int             // per agent: its class
	rep     []string          // per class: the agent whose token decides it
	members [][]int           // per class: its agents, in the order of agents
	cur     []robots.Decision // per class: the decision of the latest URL
	rules   map[int]string    // rule lines seen in decisions, as written
}

// groupsKey names the groups of rb that apply to agent (GroupsFor): agents with
// the same key are told the same for every URL. A nil rb has one key.
func groupsKey(rb *robots.Robots, agent string) string {
	if rb == nil {
		return ""
	}
	gs, global := rb.GroupsFor(agent)
	return fmt.Sprint(gs, global)
}

func newDecider(rb *robots.Robots, effect fetch.Effect, agents []string) *decider {
	d := &decider{rb: rb, effect: effect, agents: agents, classOf: make([]int, len(agents)), rules: map[int]string{}}
	key := map[string]int{}
	for i, a := range agents {
		k := groupsKey(rb, a)
		c, ok := key[k]
		if !ok {
			c = len(d.rep)
			key[k] = c
			d.rep = append(d.rep, a)
			d.members = append(d.members, nil)
		}
		d.classOf[i] = c
		d.members[c] = append(d.members[c], i)
	}
	d.cur = make([]robots.Decision, len(d.rep))
	return d
}

// decide decides u for every class into d.cur.
func (d *decider) decide(u string) {
	for c, agent := range d.rep {
		d.cur[c] = d.check(agent, u)
	}
}

func (d *decider) check(agent, u string) robots.Decision {
	switch {
	case d.rb != nil:
		return d.rb.Check(agent, u)
	case d.effect == fetch.AllowAll:
		return robots.Decision{Allowed: true, Group: -1}
	}
	return robots.Decision{Allowed: false, Group: -1}
}

// note remembers the text of a deciding rule, for Report.Rules.
func (d *decider) note(r robots.Rule) {
	if r.Line == 0 {
		return
	}
	if _, ok := d.rules[r.Line]; !ok {
		d.rules[r.Line] = r.String()
	}
}

func (d *decider) ruleRefs() []RuleRef {
	out := make([]RuleRef, 0, len(d.rules))
	for line, text := range d.rules {
		out = append(out, RuleRef{Line: line, Rule: text})
	}
	slices.SortFunc(out, func(a, b RuleRef) int { return cmp.Compare(a.Line, b.Line) })
	return out
}

// perAgent expands counts per class to counts per agent.
func (d *decider) perAgent(byClass []int) []int {
	out := make([]int, len(d.agents))
	for i, c := range d.classOf {
		out[i] = byClass[c]
	}
	return out
}

// names returns the agents of the classes set in mask, in the order of agents.
func (d *decider) names(inClass func(c int) bool) []string {
	var out []string
	for i, a := range d.agents {
		if inClass(d.classOf[i]) {
			out = append(out, a)
		}
	}
	return out
}

// sitemapBlocks says which crawlers may not fetch the sitemap at u, grouped by rule.
// A token that fetches nothing (Google-Extended) is not among them.
func (d *decider) sitemapBlocks(u string) []SitemapBlock {
	out := []SitemapBlock{}
	byLine := map[int]int{} // rule line → index in out
	for i, a := range d.agents {
		if !crawlers.Fetches(a) {
			continue
		}
		c := d.classOf[i]
		dec := d.check(d.rep[c], u)
		if dec.Allowed {
			continue
		}
		j, ok := byLine[dec.Rule.Line]
		if !ok {
			j = len(out)
			byLine[dec.Rule.Line] = j
			out = append(out, SitemapBlock{Rule: ruleText(dec.Rule), Line: dec.Rule.Line})
		}
		out[j].Agents = append(out[j].Agents, a)
	}
	return out
}

// ruleText is the rule as written, or nil when no rule decided.
func ruleText(r robots.Rule) *string {
	if r.Line == 0 {
		return nil
	}
	s := r.String()
	return &s
}

// stats counts blocked URLs per class and per (rule, class).
type stats struct {
	d        *decider
	examples int   // per rule and class
	left     int   // examples the report may keep still (Config.MaxExamples)
	blocked  []int // per class
	any      int
	unlisted int // verdicts of pairs past maxPairs
	maxPairs int // MaxRuleClasses; lower in tests
	byRule   map[ruleClass]*ruleStat
}

type ruleClass struct {
	line  int
	class int
}

type ruleStat struct {
	rule     robots.Rule
	urls     int
	sum      uint64 // sum of the URLs' hashes: equal sums and counts mean the same URLs
	examples []string
}

func newStats(d *decider, examples, max int) *stats {
	return &stats{d: d, examples: examples, left: max, maxPairs: MaxRuleClasses, blocked: make([]int, len(d.rep)), byRule: map[ruleClass]*ruleStat{}}
}

// add counts the decisions of d.cur for u.
func (s *stats) add(u string) {
	var h uint64
	hashed := false
	for c, dec := range s.d.cur {
		if dec.Allowed {
			continue
		}
		if !hashed {
			h, hashed = hash(u), true
			s.any++
		}
		s.blocked[c]++
		k := ruleClass{dec.Rule.Line, c}
		st := s.byRule[k]
		if st == nil {
			if len(s.byRule) >= s.maxPairs {
				s.unlisted++
				continue
			}
			st = &ruleStat{rule: dec.Rule}
			s.byRule[k] = st
			s.d.note(dec.Rule)
		}
		st.urls++
		st.sum += h
		if len(st.examples) < s.examples && s.left > 0 {
			s.left--
			st.examples = append(st.examples, u)
		}
	}
}

// hash is FNV-1a, 64 bits.
func hash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// blocks merges the classes a rule blocks the same URLs for into one entry each, and
// sorts them: most URLs first, then by line.
func (s *stats) blocks() []Block {
	type key struct {
		line int
		urls int
		sum  uint64
	}
	merged := map[key][]int{} // → classes
	var keys []key
	for rc, st := range s.byRule {
		k := key{rc.line, st.urls, st.sum}
		if _, ok := merged[k]; !ok {
			keys = append(keys, k)
		}
		merged[k] = append(merged[k], rc.class)
	}
	out := make([]Block, 0, len(keys))
	for _, k := range keys {
		classes := merged[k]
		slices.Sort(classes)
		st := s.byRule[ruleClass{k.line, classes[0]}]
		in := make(map[int]bool, len(classes))
		for _, c := range classes {
			in[c] = true
		}
		out = append(out, Block{
			Rule: ruleText(st.rule), Line: k.line, URLs: k.urls,
			Agents:   s.d.names(func(c int) bool { return in[c] }),
			Examples: append([]string{}, st.examples...),
		})
	}
	first := map[string]int{} // agent → its place in the order asked
	for i := len(s.d.agents) - 1; i >= 0; i-- {
		first[s.d.agents[i]] = i
	}
	slices.SortFunc(out, func(a, b Block) int {
		return cmp.Or(cmp.Compare(b.URLs, a.URLs), cmp.Compare(a.Line, b.Line), cmp.Compare(first[a.Agents[0]], first[b.Agents[0]]))
	})
	return out
}
