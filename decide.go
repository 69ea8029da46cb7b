package robots

import "strings"

// ruleSet is what applies to one product token: the rules of all groups naming it, in
// decision order. Rules that can match any path come first; the others are bucketed by
// the byte after the leading '/', so a decision looks only at the rules that can match.
//
// The bucket keys, their starts and the groups of all sets are kept in three shared
// slices of the Robots (keys, starts, setGroup), so a set costs no allocation of its own.
type ruleSet struct {
	ruleLo, ruleHi  int32 // the rules are r.rules[ruleLo:ruleHi], or r.merged[…] when merged
	merged          bool  // several groups: their rules were copied and sorted together
	generic         int32 // the first generic rules can match any path
	keyLo, keyN     int32 // the keys are r.keys[keyLo:keyLo+keyN], ascending
	startLo         int32 // bucket i is rules[r.starts[startLo+i]:r.starts[startLo+i+1]]
	groupLo, groupN int32 // the groups naming the token are r.setGroup[groupLo:groupLo+groupN]
}

type tokenSet struct {
	token string // as written; compared case-insensitively
	set   ruleSet
}

func (r *Robots) rulesOf(s *ruleSet) []rule {
	if s.merged {
		return r.merged[s.ruleLo:s.ruleHi]
	}
	return r.rules[s.ruleLo:s.ruleHi]
}

// newRuleSet indexes rules, which are sorted by cmpDecisionOrder, for the groups
// b.setGroup[groupLo:]. s holds where the rules are.
func (b *builder) newRuleSet(s ruleSet, rules []rule, groupLo int) ruleSet {
	s.groupLo, s.groupN = int32(groupLo), int32(len(b.setGroup)-groupLo)
	s.keyLo, s.startLo = int32(len(b.keys)), int32(len(b.starts))
	i := 0
	for i < len(rules) && rules[i].key < 0 {
		i++
	}
	s.generic = int32(i)
	for ; i < len(rules); i++ {
		k := byte(rules[i].key)
		if s.keyN == 0 || b.keys[len(b.keys)-1] != k {
			b.keys = append(b.keys, k)
			b.starts = append(b.starts, int32(i))
			s.keyN++
		}
	}
	if s.keyN > 0 {
		b.starts = append(b.starts, int32(len(rules)))
	}
	return s
}

func (r *Robots) groupsOf(s *ruleSet) []int32 {
	return r.setGroup[s.groupLo : s.groupLo+s.groupN]
}

// first returns the rule that decides path within the set, or nil. Each part of the set
// is sorted best first, so the first match in a part is its best; a rule that cannot
// beat the best found so far ends the search of its part.
// The path is p, or "/"+p when slash is set (see splitPath).
func (r *Robots) first(s *ruleSet, p pathView, best *rule) *rule {
	if second, ok := p.second(); ok && s.keyN > 0 {
		if j := strings.IndexByte(r.keys[s.keyLo:s.keyLo+s.keyN], second); j >= 0 {
			j += int(s.startLo)
			best = firstMatch(r.rulesOf(s)[r.starts[j]:r.starts[j+1]], r.text, p, best)
		}
	}
	return firstMatch(r.rulesOf(s)[:s.generic], r.text, p, best)
}

// pathView is the path a decision matches, as splitPath gives it, with its byteMask.
type pathView struct {
	s     string
	slash bool // the path is "/" + s
	mask  uint32
}

func newPathView(s string, slash bool) pathView {
	m := byteMask(s)
	if slash {
		m |= 1 << ('/' & 31)
	}
	return pathView{s, slash, m}
}

// second returns the byte after the path's leading "/", which selects a bucket.
func (p pathView) second() (byte, bool) {
	if p.slash {
		if len(p.s) >= 1 {
			return p.s[0], true
		}
	} else if len(p.s) >= 2 {
		return p.s[1], true
	}
	return 0, false
}

func (p pathView) matches(shape uint8, pat string) bool {
	if p.slash {
		return matchesSlash(shape, pat, p.s)
	}
	return matches(shape, pat, p.s)
}

func firstMatch(rules []rule, text string, p pathView, best *rule) *rule {
	for i := range rules {
		ru := &rules[i]
		if best != nil && !better(ru, best) {
			break
		}
		if ru.need&^p.mask == 0 && p.matches(ru.shape, text[ru.off:ru.off+ru.n]) {
			return ru
		}
	}
	return best
}

// lookup finds the rule set for one product token, compared case-insensitively,
// without allocating.
func (r *Robots) lookup(agent string) *ruleSet {
	if len(agent) > 0 && r.initials&(1<<(lower(agent[0])&63)) == 0 {
		return nil // most crawlers are named by no group: no token starts as the agent does
	}
	lo, hi := 0, len(r.tokens)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if compareFold(r.tokens[m].token, agent) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(r.tokens) && compareFold(r.tokens[lo].token, agent) == 0 {
		return &r.tokens[lo].set
	}
	return nil
}

func (r *Robots) decide(path string, slash bool, agent string, agents []string) Decision {
	d := Decision{Allowed: true, Group: -1}
	if r == nil {
		return d
	}
	if dialect := r.opts.dialect; dialect != Google {
		if slash {
			path, slash = "/"+path, false
		}
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
	pv := newPathView(path, slash)
	if agents == nil {
		if set := r.lookup(agent); set != nil {
			found = true
			d.Group = int(r.setGroup[set.groupLo])
			best = r.first(set, pv, nil)
		}
	} else {
		for _, a := range agents {
			if set := r.lookup(a); set != nil {
				if !found {
					found = true
					d.Group = int(r.setGroup[set.groupLo])
				}
				best = r.first(set, pv, best)
			}
		}
	}
	if !found && r.hasStar {
		d.Global = true
		d.Group = int(r.setGroup[r.star.groupLo])
		best = r.first(&r.star, pv, nil)
	}
	if best != nil {
		d.Allowed = best.allow
		d.Rule = r.ruleOf(best)
		d.Group = r.groupOf(best.line)
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
	for i := g.ruleLo; i < g.ruleHi; i++ {
		ru := &r.rules[i]
		if matches(ru.shape, r.pat(ru), path) {
			d.Allowed = ru.allow
			d.Rule = r.ruleOf(ru)
			break
		}
	}
	return d
}
