package robots

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gorobots/robots/internal/testenv"
)

// raceSample: under the race detector (raceEnabled), which makes them ten times
// slower, the corpus sweeps check every raceSample-th file.
const raceSample = 20

// refFile is a file parsed by the package and by the reference under every dialect.
type refFile struct {
	name   string
	robots [4]*Robots
	groups [4][]refGroup
}

func newRefFile(name string, body []byte) *refFile {
	f := &refFile{name: name}
	for _, d := range Dialects() {
		f.robots[d] = Parse(body, WithDialect(d))
		f.groups[d] = refParse(body, d)
	}
	return f
}

// checkGroups compares the groups the package reads with the reference's, per dialect.
func (f *refFile) checkGroups() error {
	for _, d := range Dialects() {
		got, want := f.robots[d].Groups(), f.groups[d]
		if len(got) != len(want) {
			return fmt.Errorf("%s: %d groups, reference %d", d, len(got), len(want))
		}
		for gi, g := range got {
			var agents []string
			for _, a := range g.Agents {
				agents = append(agents, a.Name)
			}
			var wantRules []Rule
			for _, r := range want[gi].rules {
				wantRules = append(wantRules, Rule{r.allow, r.value, r.line})
			}
			if !slices.Equal(agents, want[gi].agents) || !slices.Equal(g.Rules, wantRules) {
				return fmt.Errorf("%s: group %d (line %d) has agents %q and rules %v; reference %q and %v",
					d, gi, g.Line, agents, g.Rules, want[gi].agents, wantRules)
			}
		}
	}
	return nil
}

// check compares, under every dialect, the package's decision for a crawler answering
// to agents with the reference's: Check (and Allowed) for one agent, CheckAgents for
// several.
func (f *refFile) check(agents []string, url string) error {
	for _, d := range Dialects() {
		r := f.robots[d]
		want := refDecide(f.groups[d], d, agents, url)
		var got Decision
		if len(agents) == 1 {
			got = r.Check(agents[0], url)
			if a := r.Allowed(agents[0], url); a != want.Allowed {
				return fmt.Errorf("%s: Allowed(%q, %q) = %v, reference %v", d, agents[0], url, a, want.Allowed)
			}
		} else {
			got = r.CheckAgents(agents, url)
		}
		if got != want {
			return fmt.Errorf("%s: agents %q, url %q: got %+v, reference %+v", d, agents, url, got, want)
		}
	}
	return nil
}

// TestSlowReferenceConformance runs the reference on every conformance case: it must
// give Google's verdict, and the package must agree with it under every dialect, for
// the case's agent alone and together with another.
func TestSlowReferenceConformance(t *testing.T) {
	for _, file := range conformanceFiles {
		t.Run(file, func(t *testing.T) {
			failed := 0
			fail := func(format string, args ...any) {
				t.Helper()
				if failed++; failed <= 10 {
					t.Errorf(format, args...)
				}
			}
			for i, c := range readJSONL[conformanceCase](t, file) {
				want := c.Allowed
				if c.Google != nil {
					want = *c.Google
				}
				body := c.body(t)
				name := fmt.Sprintf("case %d %s (line %d)", i, c.Name, c.Line)
				f := newRefFile(name, body)
				if got := refDecide(f.groups[Google], Google, []string{c.Agent}, c.URL); got.Allowed != want {
					fail("%s: agent %q url %q: reference says allowed %v, Google %v", name, c.Agent, c.URL, got.Allowed, want)
				}
				if err := f.checkGroups(); err != nil {
					fail("%s: %v", name, err)
				}
				for _, agents := range [][]string{{c.Agent}, {c.Agent, "FooBot"}, {"FooBot", c.Agent}} {
					if err := f.check(agents, c.URL); err != nil {
						fail("%s: %v\nrobots.txt:\n%s", name, err, truncate(string(body), 600))
					}
				}
			}
			if failed > 0 {
				t.Errorf("%d disagreements", failed)
			}
		})
	}
}

// TestSlowReferenceCorpus runs the reference against the package on the whole corpus,
// under every dialect: every real URL of urls.txt and every URL of urls_rules.txt
// against its host's file, and on every file URLs made from its own rules (each rule's
// value with '*' as "x" and without a final '$', then "/" and "/robots.txt"). The
// agents alternate as in the benchmarks' cases; one URL in three is asked for the agent
// alone (Check and Allowed), the others for the agent together with a token the file
// names, in either order (CheckAgents). Each file's groups (Groups) and rule sets
// (prog.go's invariants) are checked too. Under the race detector, which makes this
// sweep ten times slower, every raceSample-th file is checked.
func TestSlowReferenceCorpus(t *testing.T) {
	c := testenv.Corpus(t)
	urls := map[int][]string{}
	for _, u := range c.URLs {
		if fi, ok := c.FileFor(u); ok {
			urls[fi] = append(urls[fi], u)
		}
	}
	rulesURLs, err := os.ReadFile(filepath.Join(c.Dir, "urls_rules.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range strings.Fields(string(rulesURLs)) {
		if fi, ok := c.FileFor(u); ok {
			urls[fi] = append(urls[fi], u)
		}
	}
	checked, decisions, failed := 0, 0, 0
	for fi, file := range c.Files {
		if raceEnabled && fi%raceSample != 0 {
			continue
		}
		f := newRefFile(file.Host, file.Body)
		if err := f.checkGroups(); err != nil {
			failed++
			t.Errorf("%s: %v", file.Host, err)
		}
		for _, r := range f.robots {
			if err := checkProg(r); err != nil { // prog.go's layout invariants
				failed++
				t.Errorf("%s, %s: %v", file.Host, r.Dialect(), err)
			}
		}
		checked++
		named := refNamedToken(f.groups[Google])
		for j, u := range append(urls[fi], refRuleURLs(file.Host, f.groups[Google])...) {
			agent := c.Major[(fi+j)%len(c.Major)]
			if j%2 == 1 {
				agent = c.Agents[(fi*7+j)%len(c.Agents)]
			}
			several := [][]string{{agent}, {agent, named}, {named, agent}}
			for _, agents := range several[j%3 : j%3+1] {
				decisions++
				if err := f.check(agents, u); err != nil {
					if failed++; failed <= 20 {
						t.Errorf("%s: %v", file.Host, err)
					}
				}
			}
		}
		if failed > 50 {
			t.Fatalf("stopped after %d disagreements", failed)
		}
	}
	if checked == 0 || decisions == 0 {
		t.Fatalf("no corpus file checked (corpus at %s)", c.Dir)
	}
	t.Logf("%d files, %d decisions under each of %d dialects (race detector: %v)", checked, decisions, len(Dialects()), raceEnabled)
}

// refNamedToken returns a product token the file names, for the several-agents
// decisions: the last group's first token, "FooBot" when no group names one.
func refNamedToken(groups []refGroup) string {
	for gi := len(groups) - 1; gi >= 0; gi-- {
		for _, a := range groups[gi].agents {
			if tok := refToken(a); tok != "" {
				return tok
			}
		}
	}
	return "FooBot"
}

// refRuleURLs makes URLs from the rules of a file (at most maxRuleURLs, spread over the
// file) so that decisions reach every kind of rule: each value with '*' as "x" and
// without a final '$', then "/" and "/robots.txt".
func refRuleURLs(host string, groups []refGroup) []string {
	const maxRuleURLs = 6
	var values []string
	for _, g := range groups {
		for _, r := range g.rules {
			values = append(values, r.value)
		}
	}
	step := max(1, len(values)/maxRuleURLs)
	base := "https://" + strings.ReplaceAll(host, "_", ":")
	var out []string
	for i := 0; i < len(values); i += step {
		v := strings.TrimSuffix(strings.ReplaceAll(values[i], "*", "x"), "$")
		if !strings.HasPrefix(v, "/") {
			v = "/" + v
		}
		out = append(out, base+v)
	}
	return append(out, base+"/", base+"/robots.txt")
}
