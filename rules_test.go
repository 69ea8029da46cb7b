package robots

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gorobots/robots/internal/testenv"
)

// rulesBody has a group named by two tokens, a group of "*" and a second group of a
// (RFC 9309 2.2.1: the groups naming a crawler are combined), an empty allow (which
// restricts nothing) and a License line between the groups.
const rulesBody = `User-agent: a
User-agent: b
Disallow: /x
Allow:
Allow: /y
License: https://example.com/l.xml

User-agent: *
Disallow: /
User-agent: A
Disallow: /z
`

// TestRulesAndGroupsFor: GroupsFor and AppendGroupsFor give the groups that name one
// of the agents, case-insensitively, in file order, each once, else the "*" groups;
// Rules gives their allow and disallow lines, group by group, as written.
func TestRulesAndGroupsFor(t *testing.T) {
	r := ParseString(rulesBody)
	for _, tt := range []struct {
		agents []string
		groups []int
		global bool
		rules  []Rule
	}{
		{[]string{"a"}, []int{0, 2}, false, []Rule{{false, "/x", 3}, {true, "/y", 5}, {false, "/z", 11}}},
		{[]string{"B", "a"}, []int{0, 2}, false, []Rule{{false, "/x", 3}, {true, "/y", 5}, {false, "/z", 11}}},
		{[]string{"b"}, []int{0}, false, []Rule{{false, "/x", 3}, {true, "/y", 5}}},
		{[]string{"c"}, []int{1}, true, []Rule{{false, "/", 9}}},
		{[]string{"c", "d"}, []int{1}, true, []Rule{{false, "/", 9}}},
	} {
		gs, global := r.GroupsFor(tt.agents...)
		if !slices.Equal(gs, tt.groups) || global != tt.global {
			t.Errorf("GroupsFor(%q) = %v, %v; want %v, %v", tt.agents, gs, global, tt.groups, tt.global)
		}
		prefix := []int{7, 7}
		gs, global = r.AppendGroupsFor(prefix, tt.agents...)
		if !slices.Equal(gs, append(prefix, tt.groups...)) || global != tt.global {
			t.Errorf("AppendGroupsFor(%v, %q) = %v, %v; want %v then %v, %v", prefix, tt.agents, gs, global, prefix, tt.groups, tt.global)
		}
		if got := slices.Collect(r.Rules(tt.groups)); !slices.Equal(got, tt.rules) {
			t.Errorf("Rules(%v) = %v; want %v", tt.groups, got, tt.rules)
		}
	}
	if r.detail.Load() != nil {
		t.Error("GroupsFor or Rules read the file in detail")
	}
	if got := r.Licenses(); !slices.Equal(got, []string{"https://example.com/l.xml"}) {
		t.Errorf("Licenses() = %q", got)
	}
	var none *Robots
	if gs, global := none.GroupsFor("a"); gs != nil || global {
		t.Errorf("nil Robots: GroupsFor = %v, %v", gs, global)
	}
	if got := slices.Collect(ParseString("").Rules(nil)); got != nil {
		t.Errorf("empty file: Rules(nil) = %v", got)
	}
}

// TestRulesAllocs: Rules, and AppendGroupsFor into a slice with room, allocate nothing.
func TestRulesAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	r := ParseString(rulesBody)
	buf := make([]int, 0, 8)
	n := testing.AllocsPerRun(100, func() {
		gs, _ := r.AppendGroupsFor(buf[:0], "b", "a")
		for rule := range r.Rules(gs) {
			if rule.Line == 0 {
				panic("no line")
			}
		}
		r.AppendGroupsFor(buf[:0], "c")
	})
	if n != 0 {
		t.Errorf("AppendGroupsFor and Rules allocate %v times; want 0", n)
	}
}

// TestDetailsCorpus checks, on every corpus file in every dialect, that the detailed
// reading of the file (the one behind Groups and Fields), not exact where Parse found
// no CR ending a line by itself, is an exact one; and what Parse's reading and the
// readings of one group answer without it: Licenses, the License fields of Fields (and no
// detailed reading at all for a file without one); Rules, each group's Rules; and in
// Google's dialect and RFC 9309's, GroupsFor, the groups with a user-agent line whose
// product token is the agent's (Agent.Token), else those of "*".
func TestDetailsCorpus(t *testing.T) {
	c := testenv.Corpus(t)
	// nil: no agent, which the "*" groups alone apply to.
	agents := [][]string{{"googlebot"}, {"bingbot", "msnbot"}, {"GPTBot", "ChatGPT-User"}, {"nobody-names-this"}, nil}
	for _, a := range c.Major {
		agents = append(agents, []string{a})
	}
	failed, licensed := 0, 0
	fail := func(format string, args ...any) {
		t.Errorf(format, args...)
		if failed++; failed > 20 {
			t.Fatal("stopped after 20 disagreements")
		}
	}
	for fi, file := range c.Files {
		if raceEnabled && fi%raceSample != 0 {
			continue
		}
		for _, d := range Dialects() {
			r := Parse(file.Body, WithDialect(d))
			if !r.exact && !reflect.DeepEqual(r.readDetailsAs(false), r.readDetailsAs(true)) {
				fail("%s, %s: the detailed reading differs from an exact one", file.Host, d)
			}
			licenses := r.Licenses()
			if licenses == nil && r.detail.Load() != nil {
				fail("%s, %s: Licenses read the file in detail, and found none", file.Host, d)
			}
			var want []string
			for _, f := range r.Fields() {
				if f.Name == "license" {
					want = append(want, f.Value)
				}
			}
			if !slices.Equal(licenses, want) {
				fail("%s, %s: Licenses() = %q; Fields has %q", file.Host, d, licenses, want)
			}
			if d == Google && len(want) > 0 {
				licensed++
			}
			if msg := linesDiffer(Parse(file.Body, WithDialect(d))); msg != "" {
				fail("%s, %s: %s", file.Host, d, msg)
			}
			groups := r.Groups()
			for gi, g := range groups {
				if got := slices.Collect(r.Rules([]int{gi})); !slices.Equal(got, g.Rules) {
					fail("%s, %s: Rules([%d]) = %v; Groups()[%d].Rules = %v", file.Host, d, gi, got, gi, g.Rules)
				}
			}
			if d != Google && d != RFC9309 {
				continue
			}
			for _, as := range agents {
				var named, star []int
				for gi, g := range groups {
					if slices.ContainsFunc(g.Agents, func(a Agent) bool {
						return slices.ContainsFunc(as, func(s string) bool { return equalFold(a.Token(), s) })
					}) {
						named = append(named, gi)
					}
					if slices.ContainsFunc(g.Agents, func(a Agent) bool { return a.Token() == "*" }) {
						star = append(star, gi)
					}
				}
				wantGs, wantGlobal := named, false
				if named == nil && star != nil {
					wantGs, wantGlobal = star, true
				}
				if gs, global := r.GroupsFor(as...); !slices.Equal(gs, wantGs) || global != wantGlobal {
					fail("%s, %s: GroupsFor(%q) = %v, %v; want %v, %v", file.Host, d, as, gs, global, wantGs, wantGlobal)
				}
			}
		}
	}
	t.Logf("%d files with a License line (Google's reading)", licensed)
}

// TestGroupsApart: the groups Groups returns share no room: appending to one group's
// agents, rules or fields leaves the next group's as they were.
func TestGroupsApart(t *testing.T) {
	r := ParseString("User-agent: a\nDisallow: /a\nCrawl-delay: 1\nUser-agent: b\nDisallow: /b\nCrawl-delay: 2\n")
	gs := r.Groups()
	_ = append(gs[0].Agents, Agent{Name: "x"})
	_ = append(gs[0].Rules, Rule{Value: "/x"})
	_ = append(gs[0].Fields, Field{Name: "x"})
	if g := gs[1]; g.Agents[0].Name != "b" || g.Rules[0].Value != "/b" || g.Fields[0].Value != "2" {
		t.Errorf("group 1 after appending to group 0: %+v", g)
	}
}

// TestRobotsLines: Robots.Lines gives the lines of the body as far as it is read (CR,
// LF and CR LF end a line; the size limit cuts the last), and a loop that reads them
// all leaves the groups and diagnostics read; one that stops early does not.
func TestRobotsLines(t *testing.T) {
	r := ParseString("\ufeffUser-agent: a\r\nDisallow: /x # c\rAllow: /y\n\nfoo\n")
	want := []struct {
		kind  Kind
		value string
	}{{KindUserAgent, "a"}, {KindDisallow, "/x"}, {KindAllow, "/y"}, {KindBlank, ""}, {KindInvalid, ""}, {KindBlank, ""}}
	for l := range r.Lines() {
		if l.Num > len(want) || l.Kind != want[l.Num-1].kind || l.Value != want[l.Num-1].value {
			t.Fatalf("line %+v; want %+v", l, want)
		}
		if l.Num == 1 && r.detail.Load() != nil {
			t.Fatal("the detailed reading was kept before the last line")
		}
		if l.Num == 2 {
			break
		}
	}
	if r.detail.Load() != nil {
		t.Fatal("a loop that stopped early left a detailed reading")
	}
	if n := len(slices.Collect(r.Lines())); n != len(want) {
		t.Fatalf("%d lines; want %d", n, len(want))
	}
	if r.detail.Load() == nil {
		t.Fatal("reading every line left no detailed reading")
	}
	if gs := r.Groups(); len(gs) != 1 || len(gs[0].Rules) != 2 || gs[0].Rules[1].Value != "/y" {
		t.Errorf("Groups() = %+v", gs)
	}
	if ds := r.Diagnostics(); len(ds) != 1 || ds[0].Line != 5 || ds[0].Code != InvalidLine {
		t.Errorf("Diagnostics() = %+v; want an invalid line 5", ds)
	}

	// Past the size limit: the line where it falls is cut, and no line follows.
	// 14 bytes, then lines of 101: the limit (512,000) falls 17 bytes into line 5,071.
	rule := "Disallow: /" + strings.Repeat("a", 89) + "\n"
	body := "User-agent: *\n" + strings.Repeat(rule, 6000)
	r = ParseString(body)
	lines := slices.Collect(r.Lines())
	if last := lines[len(lines)-1]; len(lines) != 5071 || last.Num != 5071 || last.Text != rule[:17] {
		t.Fatalf("%d lines, the last %+v; want 5,071, the last %q", len(lines), last, rule[:17])
	}
	if ds := r.Diagnostics(); len(ds) != 1 || ds[0].Line != 5071 || ds[0].Code != FileTooLarge {
		t.Errorf("Diagnostics() = %+v; want file-too-large on line 5,071", ds)
	}
	if msg := linesDiffer(ParseString(body)); msg != "" {
		t.Error(msg)
	}
}

// linesDiffer checks Robots.Lines on r, a Robots just parsed, against every line of
// its body read exactly (a CR alone ends a line too) in its dialect, which in Google's
// is Lines of the body; and the detailed reading its loop makes against one made
// alone; and the lines once that reading is made. It returns what differs, or "".
func linesDiffer(r *Robots) string {
	var want []Line
	if r.dialect == Google {
		want = slices.Collect(Lines([]byte(r.body)))
	} else {
		rd := newReader(r.body, r.dialect)
		for {
			start, end, kind, n, ok := rd.next()
			if !ok {
				break
			}
			var l Line
			rd.classify(&l, start, end, kind, n)
			want = append(want, l)
		}
	}
	if got := slices.Collect(r.Lines()); !slices.Equal(got, want) {
		return fmt.Sprintf("Lines() gives %d lines, an exact reading %d: %+v", len(got), len(want), got)
	}
	if d := r.detail.Load(); d == nil || !reflect.DeepEqual(d, r.readDetailsAs(true)) {
		return "the detailed reading Lines made differs from an exact one"
	}
	if got := slices.Collect(r.Lines()); !slices.Equal(got, want) {
		return "Lines() differs once the detailed reading is made"
	}
	return ""
}
