package robots

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// The Content-Usage rule: draft-ietf-aipref-attach, which updates RFC 9309, adds
// Content-Usage to RFC 9309's rules ("rule =/ content-usage"), and RFC 9309 draws a
// group as user-agent lines "followed by rules" (group = startgroupline
// *(startgroupline / emptyline) *(rule / emptyline)): under RFC9309 a Content-Usage
// line ends the user-agent lines of its group, so a user-agent line after it starts a
// new group. Google's parser reads Content-Usage as an unused directive, which ends
// nothing (SPEC.md §4: "Lines that are not rules or user-agents ... do not end a
// group"); the legacy documents do not know the field, which neither starts nor ends a
// record there.

// usageRuleCase is a file read under every dialect by crawlers a and b: its groups,
// whether each crawler may fetch /private/x, and the preferences each reads for
// usagePath (a path every group lets them fetch).
type usageRuleCase struct {
	name      string
	body      string
	usagePath string // "" means /x
	// Per dialect, in the order of Dialects: the groups as groupShape writes them, and
	// whether a and b may fetch /private/x.
	groups [4][]string
	a, b   [4]bool
	// Usage(a) and Usage(b) as Usage.String writes them, under Google and RFC9309 (the
	// legacy dialects read no preference).
	usageA, usageB [2]string
}

// The groups of the cases: the same in every dialect.
func sameEverywhere(g ...string) [4][]string { return [4][]string{g, g, g, g} }

// between is the file whose line 2, between the user-agent lines of a and b, is line,
// and whose line 4 keeps b out of /private/. If split, RFC9309 reads line as a rule:
// two groups, {a} with line 2 and no access rule, and {b} with line 4; every other
// dialect reads one group naming both. usage is what line 2 says about /x.
func between(name, line string, split bool, usage string) usageRuleCase {
	c := usageRuleCase{
		name:   name,
		body:   "User-agent: a\n" + line + "\nUser-agent: b\nDisallow: /private/\n",
		groups: sameEverywhere("a,b rules 4 fields 2"),
		usageA: [2]string{usage, usage},
		usageB: [2]string{usage, usage},
	}
	if split {
		c.groups[RFC9309] = []string{"a fields 2", "b rules 4"}
		c.a[RFC9309], c.usageB[RFC9309] = true, ""
	}
	return c
}

var usageRuleCases = []usageRuleCase{
	between("between user-agent lines", "Content-Usage: train-ai=n", true, "train-ai=n (line 2)"),
	{
		name: "between user-agent lines, a blank line after it",
		body: "User-agent: a\nContent-Usage: train-ai=n\n\nUser-agent: b\nDisallow: /private/\n",
		// Google: blank lines end nothing. The legacy dialects: the blank line ends the
		// record {a}, which has no rule: a may fetch everything (no fallback to b's).
		groups: [4][]string{{"a,b rules 5 fields 2"}, {"a fields 2", "b rules 5"}, {"a fields 2", "b rules 5"}, {"a fields 2", "b rules 5"}},
		a:      [4]bool{false, true, true, true},
		b:      [4]bool{false, false, false, false},
		usageA: [2]string{"train-ai=n (line 2)", "train-ai=n (line 2)"},
		usageB: [2]string{"train-ai=n (line 2)", ""},
	},
	{
		name: "between user-agent lines, a blank line before it",
		body: "User-agent: a\n\nContent-Usage: train-ai=n\nUser-agent: b\nDisallow: /private/\n",
		// The legacy dialects: the record {a} ends at the blank line, and the
		// Content-Usage line after it belongs to no record.
		groups: [4][]string{{"a,b rules 5 fields 3"}, {"a fields 3", "b rules 5"}, {"a", "b rules 5"}, {"a", "b rules 5"}},
		a:      [4]bool{false, true, true, true},
		b:      [4]bool{false, false, false, false},
		usageA: [2]string{"train-ai=n (line 3)", "train-ai=n (line 3)"},
		usageB: [2]string{"train-ai=n (line 3)", ""},
	},
	{
		name: "first in the file, before any user-agent line",
		body: "Content-Usage: train-ai=n\nUser-agent: a\nUser-agent: b\nDisallow: /private/\n",
		// A rule before any group belongs to none, in RFC 9309 as for allow and disallow.
		groups: sameEverywhere("a,b rules 4"),
		a:      [4]bool{false, false, false, false},
		b:      [4]bool{false, false, false, false},
	},
	{
		name: "among the rules of a group",
		body: "User-agent: a\nDisallow: /private/\nContent-Usage: train-ai=n\nDisallow: /other/\nUser-agent: b\nDisallow: /other/\n",
		// The rules of a group may be interleaved (draft-ietf-aipref-attach: "The ordering
		// of rules in a group carries no semantics"): one group, in every dialect.
		groups: sameEverywhere("a rules 2,4 fields 3", "b rules 6"),
		a:      [4]bool{false, false, false, false},
		b:      [4]bool{true, true, true, true},
		usageA: [2]string{"train-ai=n (line 3)", "train-ai=n (line 3)"},
	},
	{
		name:   "after the user-agent lines, before the access rules",
		body:   "User-agent: a\nUser-agent: b\nContent-Usage: train-ai=n\nDisallow: /private/\n",
		groups: sameEverywhere("a,b rules 4 fields 3"),
		a:      [4]bool{false, false, false, false},
		b:      [4]bool{false, false, false, false},
		usageA: [2]string{"train-ai=n (line 3)", "train-ai=n (line 3)"},
		usageB: [2]string{"train-ai=n (line 3)", "train-ai=n (line 3)"},
	},
	func() usageRuleCase {
		c := between("with a path, between user-agent lines", "Content-Usage: /blog/ train-ai=n", true, "train-ai=n (line 2)")
		c.usagePath = "/blog/x"
		return c
	}(),
	func() usageRuleCase {
		// Google's parser reads "name value" when the colon is missing, and RFC9309
		// reads names as Google does; the legacy documents require the colon, and read
		// no field.
		c := between("without a colon, between user-agent lines", "Content-Usage train-ai=n", true, "train-ai=n (line 2)")
		c.groups[Legacy1996], c.groups[Legacy1994] = []string{"a,b rules 4"}, []string{"a,b rules 4"}
		return c
	}(),
	between("in upper case after white space, between user-agent lines", "  CONTENT-USAGE : train-ai=n", true, "train-ai=n (line 2)"),
	// As "Disallow:" with no value, it restricts nothing and still ends the user-agent
	// lines.
	between("empty, between user-agent lines", "Content-Usage:", true, ""),
	// Cloudflare's Content-Signal is no rule of RFC 9309: it ends nothing.
	between("Content-Signal between user-agent lines", "Content-Signal: ai-train=no", false, "ai-train=no (line 2)"),
	between("a misspelt name between user-agent lines", "Content-Usages: train-ai=n", false, ""),
}

// groupShape writes a group as "a,b rules 4 fields 2": its agents, the lines of its
// rules and of its fields.
func groupShape(g Group) string {
	var agents, rules, fields []string
	for _, a := range g.Agents {
		agents = append(agents, a.Name)
	}
	for _, r := range g.Rules {
		rules = append(rules, fmt.Sprint(r.Line))
	}
	for _, f := range g.Fields {
		fields = append(fields, fmt.Sprint(f.Line))
	}
	s := strings.Join(agents, ",")
	if rules != nil {
		s += " rules " + strings.Join(rules, ",")
	}
	if fields != nil {
		s += " fields " + strings.Join(fields, ",")
	}
	return s
}

// TestContentUsageRule: Parse's groups and decisions, CheckOnce, the detailed reading
// (Groups, GroupsFor) and Usage per dialect.
func TestContentUsageRule(t *testing.T) {
	const origin = "https://example.com"
	for _, tt := range usageRuleCases {
		body := []byte(tt.body)
		// The slow reference (slowref_test.go) draws the same groups and decides alike,
		// under every dialect.
		rf := newRefFile(tt.name, body)
		if err := rf.checkGroups(); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
		for _, agents := range [][]string{{"a"}, {"b"}, {"a", "b"}} {
			if err := rf.check(agents, origin+"/private/x"); err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
		}
		for _, d := range Dialects() {
			t.Run(tt.name+"/"+d.String(), func(t *testing.T) {
				r := Parse(body, WithDialect(d))
				var shapes []string
				for _, g := range r.Groups() {
					shapes = append(shapes, groupShape(g))
				}
				if !slices.Equal(shapes, tt.groups[d]) {
					t.Errorf("groups %q, want %q", shapes, tt.groups[d])
				}
				for _, c := range []struct {
					agent string
					want  bool
				}{{"a", tt.a[d]}, {"b", tt.b[d]}} {
					url := origin + "/private/x"
					dec := r.Check(c.agent, url)
					if dec.Allowed != c.want {
						t.Errorf("%s may fetch /private/x: %v, want %v (%+v)", c.agent, dec.Allowed, c.want, dec)
					}
					if once := CheckOnce(body, c.agent, url, WithDialect(d)); once != dec {
						t.Errorf("%s: CheckOnce %+v, Parse and Check %+v", c.agent, once, dec)
					}
					if d == Google {
						if once := CheckOnce(body, c.agent, url); once != dec {
							t.Errorf("%s: CheckOnce without options %+v, Parse and Check %+v", c.agent, once, dec)
						}
					}
					// The groups that apply are those whose agents name the crawler.
					groups, _ := r.GroupsFor(c.agent)
					for _, gi := range groups {
						if gi >= len(tt.groups[d]) {
							t.Errorf("%s: GroupsFor gives group %d of %d", c.agent, gi, len(tt.groups[d]))
						} else if !strings.Contains(","+strings.Fields(tt.groups[d][gi])[0]+",", ","+c.agent+",") {
							t.Errorf("%s: GroupsFor gives group %d, %q", c.agent, gi, tt.groups[d][gi])
						}
					}
					if len(groups) != 1 {
						t.Errorf("%s: GroupsFor gives %v, want one group", c.agent, groups)
					}
				}
				path := tt.usagePath
				if path == "" {
					path = "/x"
				}
				for _, c := range []struct {
					agent string
					want  [2]string
				}{{"a", tt.usageA}, {"b", tt.usageB}} {
					want := ""
					if !d.legacy() {
						want = c.want[d]
					}
					u := r.Usage(c.agent, origin+path)
					if !u.Fetchable {
						t.Fatalf("%s may not fetch %s", c.agent, path)
					}
					if got := u.String(); got != want {
						t.Errorf("Usage(%s, %s) = %q, want %q", c.agent, path, got, want)
					}
				}
			})
		}
	}
}

// TestContentUsageRuleCrawlDelay: a crawl-delay belongs to the group RFC9309 draws.
func TestContentUsageRuleCrawlDelay(t *testing.T) {
	const body = "User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\nCrawl-delay: 5\nDisallow: /private/\n"
	tests := []struct {
		dialect Dialect
		a, b    time.Duration // 0: none
	}{
		{Google, 5 * time.Second, 5 * time.Second},
		{RFC9309, 0, 5 * time.Second},
		{Legacy1996, 5 * time.Second, 5 * time.Second},
		{Legacy1994, 5 * time.Second, 5 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.dialect.String(), func(t *testing.T) {
			r := Parse([]byte(body), WithDialect(tt.dialect))
			for _, c := range []struct {
				agent string
				want  time.Duration
			}{{"a", tt.a}, {"b", tt.b}} {
				got, ok := r.CrawlDelay(c.agent)
				if ok != (c.want != 0) || got != c.want {
					t.Errorf("CrawlDelay(%s) = %v, %v; want %v", c.agent, got, ok, c.want)
				}
			}
		})
	}
}

// TestContentUsageRuleLines: Lines reads as Google's parser, in which Content-Usage is
// an unused directive (the reporting conformance's "Unused"): KindOther.
func TestContentUsageRuleLines(t *testing.T) {
	var kinds []Kind
	for l := range Lines([]byte("User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b")) {
		kinds = append(kinds, l.Kind)
	}
	if want := []Kind{KindUserAgent, KindOther, KindUserAgent}; !slices.Equal(kinds, want) {
		t.Errorf("kinds %v, want %v", kinds, want)
	}
}
