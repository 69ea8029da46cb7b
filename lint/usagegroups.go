package lint

import (
	"strings"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/internal/sfv"
)

// statedPrefs reads the y/n (or yes/no) preferences a statement gives, by label; nil
// when it does not parse (UsageNotDictionary says so).
func statedPrefs(uf *usageField, stmt string) map[string]bool {
	dict, err := sfv.ParseDictionary(stmt)
	if err != nil {
		return nil
	}
	out := map[string]bool{}
	for _, c := range uf.vocab {
		if v, ok := dict.Get(c.Label); ok && v.Kind == sfv.Token {
			switch v.Text {
			case uf.yes:
				out[c.Label] = true
			case uf.no:
				out[c.Label] = false
			}
		}
	}
	return out
}

// sameUse pairs the Content-Usage categories with the Content-Signal signals that
// speak to the same use.
var sameUse = [][2]string{{"train-ai", "ai-train"}, {"ai-use", "ai-input"}, {"search", "search"}}

// plainPath is a usage line's path as a prefix, and whether it is one (no '*' or '$'):
// "" and "/" cover every path.
func plainPath(l robots.UsageLine) (string, bool) {
	p := l.Path
	if p == "" {
		p = "/"
	}
	return p, !strings.ContainsAny(p, "*$")
}

// checkUsageGroups looks at the usage lines of each group together: a Content-Usage
// and a Content-Signal line on the same path that state opposite preferences for the
// same use, and a line on a longer path that drops preferences a line on a shorter
// path states (only the longest matching lines apply: under the longer path, the
// others become unknown).
func checkUsageGroups(f *file) {
	if f.html {
		return
	}
	for _, g := range f.groups {
		for i, a := range g.Usage {
			ufa := contentUsage
			if a.Signal {
				ufa = contentSignal
			}
			pa := statedPrefs(ufa, a.Statement)
			if pa == nil {
				continue
			}
			patha, plainA := plainPath(a)
			for _, b := range g.Usage[i+1:] {
				ufb := contentUsage
				if b.Signal {
					ufb = contentSignal
				}
				pb := statedPrefs(ufb, b.Statement)
				if pb == nil {
					continue
				}
				pathb, plainB := plainPath(b)
				if a.Signal != b.Signal && patha == pathb {
					cu, cs, pu, ps := a, b, pa, pb
					if a.Signal {
						cu, cs, pu, ps = b, a, pb, pa
					}
					for _, pair := range sameUse {
						yu, oku := pu[pair[0]]
						ys, oks := ps[pair[1]]
						if oku && oks && yu != ys {
							f.add(max(a.Line, b.Line), 1, UsageSignalsDisagree, "Content-Usage line %d says %s=%s and Content-Signal line %d says %s=%s on the same path %q: crawlers that read both take the stricter, others one or the other; make them agree",
								cu.Line, pair[0], yn(yu, "y", "n"), cs.Line, pair[1], yn(ys, "yes", "no"), patha)
						}
					}
				}
				if a.Signal != b.Signal || !plainA || !plainB || patha == pathb {
					continue
				}
				long, short, pl, ps := a, b, pa, pb
				if len(pathb) > len(patha) {
					long, short, pl, ps = b, a, pb, pa
				}
				lp, _ := plainPath(long)
				sp, _ := plainPath(short)
				if !strings.HasPrefix(lp, sp) {
					continue
				}
				var dropped []string
				for _, c := range ufa.vocab {
					if v, ok := ps[c.Label]; ok {
						if _, also := pl[c.Label]; !also {
							dropped = append(dropped, c.Label+"="+yn(v, ufa.yes, ufa.no))
						}
					}
				}
				if len(dropped) > 0 {
					f.add(long.Line, 1, UsageDropsCategories, "under %s only this line applies (the longest path wins), so %s of line %d no longer hold there: those become unknown; repeat them: %q",
						lp, strings.Join(dropped, ", "), short.Line, ufa.name+": "+lp+" "+strings.TrimSpace(long.Statement+", "+strings.Join(dropped, ", ")))
				}
			}
		}
	}
}

func yn(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}
