// Package filediff lists what changes between two versions of a robots.txt file:
// the groups added, removed or changed (package groupdiff's pairing), the sitemaps
// and licences added or removed, and for chosen crawlers and URLs the verdicts and
// usage preferences that change. It is the one reading of a change shared by
// "robots diff", "robots monitor", and the history of "robots serve" (its API and
// its tester), so that all report the same changes, in the same JSON shape, for
// the same two files.
package filediff

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/internal/groupdiff"
)

// Change is one difference; its JSON is that of "robots diff -format json".
type Change struct {
	Kind   string   `json:"kind"` // "url", "usage", "group", "sitemap" or "license"
	URL    string   `json:"url,omitempty"`
	Agent  string   `json:"agent,omitempty"`
	Change string   `json:"change,omitempty"` // for groups and sitemaps: added, removed, changed
	Agents []string `json:"agents,omitempty"`
	Before *Side    `json:"before,omitempty"`
	After  *Side    `json:"after,omitempty"`
}

// Side is one side of a change: a verdict for URLs (allowed, rule, line: the
// fields of a verdict, rule null when none matched), a group for groups (line,
// agents, rules and fields, each written as in a file: "Disallow: /a",
// "Crawl-delay: 5").
type Side struct {
	Allowed *bool    `json:"allowed,omitempty"`
	Rule    *string  `json:"rule,omitempty"`
	Line    int      `json:"line"`
	Agents  []string `json:"agents,omitempty"`
	Rules   []string `json:"rules,omitempty"`
	Fields  []string `json:"fields,omitempty"`
	// Usage is what the file prefers about the URL's use by the crawler (Content-Usage
	// and Content-Signal, as "train-ai=n (line 4)"; "" when nothing), for a usage change.
	Usage *string `json:"usage,omitempty"`
}

// MarshalJSON writes a verdict side with "rule": null when no rule matched, as every
// verdict is written; a group side has no rule.
func (s *Side) MarshalJSON() ([]byte, error) {
	type plain Side
	if s.Allowed == nil {
		return json.Marshal((*plain)(s))
	}
	return json.Marshal(struct {
		Allowed bool    `json:"allowed"`
		Rule    *string `json:"rule"`
		Line    int     `json:"line"`
	}{*s.Allowed, s.Rule, s.Line})
}

// Verdict is the side of a URL change: d's verdict, rule and line.
func Verdict(d robots.Decision) *Side {
	allowed := d.Allowed
	s := &Side{Allowed: &allowed, Line: d.Rule.Line}
	if d.Rule.Line != 0 {
		r := d.Rule.String()
		s.Rule = &r
	}
	return s
}

// Diff lists the changes from a to b: groups, then sitemaps and licences, then
// for each URL and each crawler (by product token) the verdicts that change and,
// where both versions allow the URL, the usage preferences that change.
func Diff(a, b *robots.Robots, agents, urls []string) []Change {
	changes := Groups(a.Groups(), b.Groups())
	changes = appendLists(changes, "sitemap", a.Sitemaps(), b.Sitemaps())
	changes = appendLists(changes, "license", a.Licenses(), b.Licenses())
	for _, u := range urls {
		for _, ag := range agents {
			da, db := a.Check(ag, u), b.Check(ag, u)
			if da.Allowed != db.Allowed {
				changes = append(changes, Change{Kind: "url", URL: u, Agent: ag, Before: Verdict(da), After: Verdict(db)})
				continue
			}
			// A URL both versions let the crawler fetch whose usage preferences change
			// ("ai-train=yes" to "ai-train=no"): a change of its own.
			if ua, ub := a.Usage(ag, u).String(), b.Usage(ag, u).String(); da.Allowed && ua != ub {
				changes = append(changes, Change{Kind: "usage", URL: u, Agent: ag, Before: &Side{Usage: &ua}, After: &Side{Usage: &ub}})
			}
		}
	}
	return changes
}

// appendLists appends the entries of a list (sitemaps, licences) removed from as,
// then those added in bs.
func appendLists(changes []Change, kind string, as, bs []string) []Change {
	for _, s := range as {
		if !slices.Contains(bs, s) {
			changes = append(changes, Change{Kind: kind, Change: "removed", URL: s})
		}
	}
	for _, s := range bs {
		if !slices.Contains(as, s) {
			changes = append(changes, Change{Kind: kind, Change: "added", URL: s})
		}
	}
	return changes
}

// Groups lists the groups added, removed or changed (see groupdiff.Groups).
func Groups(old, new []robots.Group) []Change {
	var changes []Change
	for _, c := range groupdiff.Groups(old, new) {
		switch c.Kind {
		case groupdiff.Removed:
			changes = append(changes, Change{Kind: "group", Change: "removed", Agents: AgentNames(old[c.Old]), Before: group(old[c.Old])})
		case groupdiff.Changed:
			after := group(new[c.New])
			changes = append(changes, Change{Kind: "group", Change: "changed", Agents: after.Agents, Before: group(old[c.Old]), After: after})
		case groupdiff.Added:
			changes = append(changes, Change{Kind: "group", Change: "added", Agents: AgentNames(new[c.New]), After: group(new[c.New])})
		}
	}
	return changes
}

func group(g robots.Group) *Side {
	s := &Side{Line: g.Line, Agents: AgentNames(g), Rules: []string{}}
	for _, r := range g.Rules {
		s.Rules = append(s.Rules, r.String())
	}
	for _, f := range g.Fields {
		s.Fields = append(s.Fields, FieldText(f))
	}
	return s
}

// FieldText writes a field as rules are written: the name with a capital, then the
// value ("Crawl-delay: 5"). Names Google does not know are kept as written.
func FieldText(f robots.Field) string {
	name := f.Name
	if name != "" && 'a' <= name[0] && name[0] <= 'z' {
		name = string(name[0]-'a'+'A') + name[1:]
	}
	return name + ": " + f.Value
}

// AgentNames returns the values of g's user-agent lines, in order.
func AgentNames(g robots.Group) []string {
	var names []string
	for _, a := range g.Agents {
		names = append(names, a.Name)
	}
	return names
}

// AgentsMinus returns the user-agent values of a whose product token none of b has.
func AgentsMinus(a, b []string) []string {
	var tb []string
	for _, n := range b {
		tb = append(tb, strings.ToLower(robots.Agent{Name: n}.Token()))
	}
	var out []string
	for _, n := range a {
		if !slices.Contains(tb, strings.ToLower(robots.Agent{Name: n}.Token())) {
			out = append(out, n)
		}
	}
	return out
}

// MaxProbes bounds the URLs Probes returns: the paths of the rules of a few
// changed groups, not of a file of thousands of rules rewritten whole.
const MaxProbes = 200

// Probes returns URLs of origin whose verdicts the group changes of a to b
// (Groups) may change: the root, and for each rule a changed group gains or
// loses, a path it matches (its value with each "*" matching nothing and a final
// "$" dropped: "/*.pdf$" gives "/.pdf"). Without URLs of the caller's, Diff over
// these says which crawlers a change blocks or opens, and where. At most
// MaxProbes, in the order of the changes.
func Probes(origin string, changes []Change) []string {
	out := []string{origin + "/"}
	add := func(rule string) {
		_, v, ok := strings.Cut(rule, ": ")
		if !ok || len(out) >= MaxProbes {
			return
		}
		v = strings.TrimSuffix(strings.ReplaceAll(v, "*", ""), "$")
		if !strings.HasPrefix(v, "/") {
			v = "/" + v
		}
		if u := origin + v; !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	for _, c := range changes {
		if c.Kind != "group" {
			continue
		}
		var before, after []string
		if c.Before != nil {
			before = c.Before.Rules
		}
		if c.After != nil {
			after = c.After.Rules
		}
		if c.Change == "changed" && slices.Equal(c.Before.Agents, c.After.Agents) {
			// The same crawlers: only the rules that differ can change a verdict.
			before, after = groupdiff.Minus(before, after), groupdiff.Minus(after, before)
		}
		for _, r := range before {
			add(r)
		}
		for _, r := range after {
			add(r)
		}
	}
	return out
}
