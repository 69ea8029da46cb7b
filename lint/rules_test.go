package lint

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/internal/testenv"
)

// slowDeadRules is deadRules as written before the index of wildcard rules sorted
// them (issue 39): each rule is compared with every wildcard rule of its set whose
// text before the first "*" starts its own and that wins over it, in file order,
// each comparison spending one of budget, a rule whose comparisons overrun the
// budget being left alone. It is the reference deadRules is checked against.
func slowDeadRules(f *file, budget int) []deadRule {
	in, dead := map[int]int{}, map[int]int{}
	why := map[int]deadRule{}
	groupOf := map[int]int{}
	for gi, g := range f.groups {
		for _, r := range g.Rules {
			groupOf[r.Line] = gi
		}
	}
	for _, s := range f.ruleSets() {
		var paths []robots.Rule
		for _, r := range s.rules {
			if isPath(r.Value) {
				paths = append(paths, r)
			}
		}
		var pats []*pattern
		for _, r := range paths {
			pats = append(pats, newPattern(r))
		}
		for i, r := range paths {
			in[r.Line]++
			v, ok := slowNeverDecides(pats[i], pats, groupOf, &budget)
			if !ok {
				continue
			}
			dead[r.Line]++
			if _, ok := why[r.Line]; !ok {
				why[r.Line] = deadRule{r.Line, r, v}
			}
		}
	}
	var out []deadRule
	for line, n := range in {
		if dead[line] == n {
			out = append(out, why[line])
		}
	}
	slices.SortFunc(out, func(a, b deadRule) int { return a.line - b.line })
	return out
}

func slowNeverDecides(p *pattern, set []*pattern, groupOf map[int]int, budget *int) (verdict, bool) {
	r := p.rule
	for _, qp := range set {
		q := qp.rule
		if q.Value != r.Value || q.Line == r.Line || !beats(q, r) {
			continue
		}
		if q.Allow != r.Allow {
			return verdict{ConflictingRules, q}, true
		}
		if groupOf[q.Line] == groupOf[r.Line] {
			return verdict{DuplicateRule, q}, true
		}
		return verdict{}, false
	}
	if !p.ascii || r.Allow && strings.Contains(r.Value, "/index.htm") || *budget <= 0 {
		return verdict{}, false
	}
	var best robots.Rule
	for _, qp := range set {
		q := qp.rule
		if !qp.wild || !qp.ascii || !strings.HasPrefix(p.prefix, qp.prefix) ||
			q.Line == r.Line || q.Value == r.Value || !beats(q, r) {
			continue
		}
		if *budget <= 0 {
			return verdict{}, false
		}
		*budget--
		if qp.glob.match(p.glob) && (best.Line == 0 || beats(q, best)) {
			best = q
		}
	}
	switch {
	case best.Line == 0:
		return verdict{}, false
	case best.Allow != r.Allow:
		return verdict{ShadowedRule, best}, true
	}
	return verdict{RedundantRule, best}, true
}

// TestDeadRules checks deadRules against slowDeadRules, on corpus files, on files
// of random rules over a small alphabet (where many rules cover others), and on
// files of many wildcard rules sharing their text before the "*", with budgets that
// run out at many places.
func TestDeadRules(t *testing.T) {
	var bodies []string
	rng := rand.New(rand.NewPCG(39, 2))
	for range 300 {
		var b strings.Builder
		for g := range 1 + rng.IntN(3) {
			fmt.Fprintf(&b, "User-agent: %s\n", []string{"*", "a", "b"}[g])
			for range rng.IntN(40) {
				v := "/"
				for range rng.IntN(6) {
					v += string("ab*/"[rng.IntN(4)])
				}
				if rng.IntN(4) == 0 {
					v += "$"
				}
				fmt.Fprintf(&b, "%s: %s\n", []string{"Allow", "Disallow"}[rng.IntN(2)], v)
			}
		}
		bodies = append(bodies, b.String())
	}
	var wide strings.Builder
	wide.WriteString("User-agent: *\n")
	for i := range 1500 {
		fmt.Fprintf(&wide, "Disallow: /*.x%d.html\nAllow: /*%d*\n", i%97, i%13)
	}
	bodies = append(bodies, wide.String())
	for _, cf := range corpusFiles(t, 2*corpusStride) {
		bodies = append(bodies, string(cf.body))
	}
	// The costliest of the corpus: two thousand "/*.name.html" rules, which
	// overrun MaxCoverChecks.
	if b, err := os.ReadFile(filepath.Join(testenv.CorpusDir(t), "robots", "www.stuttgarter-zeitung.de.txt")); err == nil {
		bodies = append(bodies, string(b))
	}
	dead := 0
	for _, body := range bodies {
		for _, budget := range []int{MaxCoverChecks, 0, 1, 7, 100, 5000, 200000} {
			want := slowDeadRules(newFile(context.Background(), "f", []byte(body), Options{}), budget)
			got := newFile(context.Background(), "f", []byte(body), Options{}).deadRules(budget)
			if !slices.Equal(got, want) {
				t.Fatalf("budget %d: deadRules = %v, want %v, of\n%.2000s", budget, got, want, body)
			}
			dead += len(got)
		}
	}
	if dead == 0 {
		t.Fatal("no rule found dead: the test compared nothing")
	}
}

// TestUnnamedGetStar checks what checkBlocksAll relies on to ask the parser once for
// every major crawler no user-agent line names: that the parser names a crawler's
// groups exactly when its lower-case name is a user-agent line's agentKey, on every
// 5th corpus file and on tokens in mixed case, with versions and with wildcards.
func TestUnnamedGetStar(t *testing.T) {
	bodies := []string{
		"User-agent: GPTBOT\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n",
		"User-agent: ccbot/2.0\nUser-agent: Google-Extended*\nDisallow: /\n",
		"User-agent: Bytespider, GPTBot\nDisallow: /\n",
		"User-agent: *\nDisallow: /\n",
	}
	for _, cf := range corpusFiles(t, corpusStride) {
		bodies = append(bodies, string(cf.body))
	}
	namedSeen := 0
	for _, body := range bodies {
		f := newFile(context.Background(), "f", []byte(body), Options{})
		named := map[string]bool{}
		for _, g := range f.groups {
			for _, a := range g.Agents {
				named[f.agentKey(a.Line, a.Name)] = true
			}
		}
		for _, name := range majorNames() {
			gs, global := f.r.GroupsFor(name)
			byParser := len(gs) > 0 && !global
			if byParser != named[strings.ToLower(name)] {
				t.Fatalf("%s: the parser names groups for it: %v, agentKey: %v, in\n%.500s", name, byParser, named[strings.ToLower(name)], body)
			}
			if byParser {
				namedSeen++
			}
		}
	}
	if namedSeen == 0 {
		t.Fatal("no major crawler named: the test compared nothing")
	}
}
