package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gorobots/robots"
)

// checkStarRules finds crawlers that lose the "*" group's disallow rules without
// saying so. A crawler obeys only the groups that name it, so a group written as
// "these too" (only Allow lines, typically for CSS and scripts) opens the whole site
// to it: AllowOnlyGroup, a warning. A group with rules of its own that repeats none of
// the "*" disallow rules is more often meant, but is worth a word: DropsStarRules
// (not said when the "*" group blocks everything, the usual way to let only some
// crawlers in).
//
// A "*" disallow rule counts as kept when a disallow rule of the crawler's groups
// matches every path it matches (covers), and as given up on purpose when an allow
// rule does ("User-agent: Googlebot / Allow: /" under "Disallow: /" opens the site to
// Googlebot in so many words). Groups with no rule at all are EmptyGroup's, and a
// group with an empty "Disallow:" line says it means to allow everything.
func checkStarRules(f *file) {
	var star *ruleSet
	for i, s := range f.ruleSets() {
		if s.token == "*" {
			star = &f.ruleSets()[i]
		}
	}
	others := func(s ruleSet) bool { return s.token != "*" && len(s.rules) > 0 }
	if star == nil || !slices.ContainsFunc(f.ruleSets(), others) {
		return // no crawler has rules of its own (most files have one "*" group)
	}
	ids, count := f.valueIDs()
	starDisallow := make([]robots.Rule, 0, len(star.rules)) // each value once: a rule the "*" group repeats is one rule dropped
	seen := make([]bool, len(count))                        // by value number, so that a file of many rules costs linear time
	for _, r := range star.rules {
		if f.stopped() {
			return
		}
		if !r.Allow && isPath(r.Value) && !seen[ids[r.Line]] {
			seen[ids[r.Line]] = true
			starDisallow = append(starDisallow, r)
		}
	}
	clear(seen)
	same := seen // by value number: a disallow rule of the group being read has it
	if len(starDisallow) == 0 {
		return
	}
	// Under a "*" group that blocks everything, a group of one's own is how a crawler
	// is let in: dropping the "*" rules is its purpose.
	whitelist := blocksEverything(f, star.groups)
	var allows, disallows []*pattern
	var dropped []robots.Rule // of each group: "*" disallow rules these crawlers do not obey, unsaid
	for _, s := range f.ruleSets() {
		if !others(s) {
			continue
		}
		allows, disallows = allows[:0], disallows[:0]
		for _, r := range s.rules {
			if !isPath(r.Value) {
				continue // not-a-path: it matches nothing
			}
			if r.Allow {
				allows = append(allows, f.pattern(r))
			} else {
				disallows = append(disallows, f.pattern(r))
			}
		}
		// Nothing is said of a group with disallow rules under a "*" group that
		// blocks everything (how a crawler is let in), nor of a group of allow rules
		// with an empty "Disallow:" line (everything allowed on purpose).
		if len(disallows) > 0 && whitelist || len(disallows) == 0 && f.hasDisallowLine(s.groups) {
			continue
		}
		for _, p := range allows {
			p.prep()
		}
		for _, p := range disallows {
			p.prep()
		}
		dropped = dropped[:0]
		kept := false
		// A group that repeats the "*" rules (the usual way to keep them) covers each
		// with the same value: a set finds it without comparing each pair.
		for _, r := range disallows {
			same[ids[r.rule.Line]] = true
		}
		for _, d := range starDisallow {
			if f.stopped() {
				return
			}
			p := f.pattern(d)
			p.prep()
			switch {
			case same[ids[d.Line]] || coveredBy(disallows, p):
				kept = true // nothing is said of the group: the others need not be read
			case !coveredBy(allows, p):
				dropped = append(dropped, d)
			}
			if kept {
				break
			}
		}
		for _, r := range disallows {
			same[ids[r.rule.Line]] = false
		}
		if kept || len(dropped) == 0 {
			continue
		}
		names := list(s.names)
		line := f.groups[s.groups[0]].Line
		if len(disallows) > 0 {
			f.add(line, 0, DropsStarRules, "this group repeats none of the \"*\" group's disallow rules, so the crawlers it names (%s) may fetch what they block: %s; repeat them here if that is not meant",
				names, rulesList(dropped))
			continue
		}
		example := ""
		if path, ok := f.shownBy(dropped, s.token); ok {
			example = fmt.Sprintf("; %s, for one, is disallowed for other crawlers and allowed for %s", path, s.names[0])
		}
		f.add(line, 0, AllowOnlyGroup, "this group has only allow rules, so the crawlers it names (%s) skip the \"*\" group's disallow rules and may fetch what they block: %s%s. A crawler obeys only the groups that name it: repeat the disallow rules here",
			names, rulesList(dropped), example)
	}
}

// coveredBy reports whether one of rules matches every path that d matches.
func coveredBy(rules []*pattern, d *pattern) bool {
	for _, r := range rules {
		if r.mayCover(d) && r.glob.match(d.glob) {
			return true
		}
	}
	return false
}

// hasDisallowLine reports whether one of the groups has a disallow line, also one
// with no value (which Groups leaves out).
func (f *file) hasDisallowLine(groups []int) bool {
	for _, gi := range groups {
		end := len(f.lines)
		if gi+1 < len(f.groups) {
			end = f.groups[gi+1].Line - 1
		}
		for i := f.groups[gi].Line - 1; i < end; i++ {
			if f.lines[i].Kind == robots.KindDisallow {
				return true
			}
		}
	}
	return false
}

// shownBy returns a path that one of the rules disallows for crawlers no group names
// and that the crawler with the given token may fetch, both decided by the parser.
func (f *file) shownBy(rules []robots.Rule, token string) (string, bool) {
	// A crawler no group names gets the "*" group.
	probe := "robots-lint-probe"
	for _, global := f.r.GroupsFor(probe); !global; _, global = f.r.GroupsFor(probe) {
		probe += "-x"
		if len(probe) > 64 {
			return "", false
		}
	}
	for _, r := range rules {
		path := strings.ReplaceAll(strings.TrimSuffix(r.Value, "$"), "*", "")
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		d := f.r.Check(probe, path)
		byDropped := slices.ContainsFunc(rules, func(r robots.Rule) bool { return r.Line == d.Rule.Line })
		if !d.Allowed && byDropped && f.r.Allowed(token, path) {
			return path, true
		}
	}
	return "", false
}

// rulesList writes rules as the file does, with their lines, cut after maxNamed.
func rulesList(rules []robots.Rule) string {
	var out []string
	for i, r := range rules {
		if i == maxNamed {
			out = append(out, fmt.Sprintf("%d more", len(rules)-maxNamed))
			break
		}
		out = append(out, describe(r))
	}
	return strings.Join(out, ", ")
}
