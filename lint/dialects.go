package lint

import (
	"fmt"
	"strings"

	"github.com/gorobots/robots"
)

// checkDialects decides, for each group, the paths its own rules name under every
// interpretation of robots.txt and reports the rules whose verdicts differ. One finding
// per rule, on the rule whose value is the path.
func checkDialects(f *file) {
	if !f.opts.Dialects || f.html || len(f.groups) == 0 {
		return
	}
	parsed := make([]*robots.Robots, len(robots.Dialects()))
	for i, d := range robots.Dialects() {
		if d == robots.Google {
			parsed[i] = f.r
			continue
		}
		parsed[i] = robots.Parse(f.body, robots.WithDialect(d))
	}
	for _, g := range f.groups {
		if len(g.Agents) == 0 {
			continue
		}
		agent := g.Agents[0].Token()
		if agent == "" {
			continue // no crawler matches this group in Google's reading (agent-token says why)
		}
		for _, ru := range g.Rules {
			path := strings.TrimSuffix(ru.Value, "$")
			if !strings.HasPrefix(path, "/") {
				continue // not-a-path says what is wrong with it
			}
			var verdicts []string
			differ := false
			var first robots.Decision
			for i, r := range parsed {
				d := r.Check(agent, path)
				if i == 0 {
					first = d
				} else if d.Allowed != first.Allowed {
					differ = true
				}
				v := fmt.Sprintf("%s %s", robots.Dialects()[i], verdictWord(d.Allowed))
				if d.Rule.Line > 0 {
					v += fmt.Sprintf(" (line %d)", d.Rule.Line)
				}
				verdicts = append(verdicts, v)
			}
			if differ {
				f.add(ru.Line, 0, DialectsDisagree, "%s for %s: %s; check the crawlers you care about with \"robots compare\"",
					path, agent, strings.Join(verdicts, ", "))
			}
		}
	}
}

func verdictWord(allowed bool) string {
	if allowed {
		return "allows"
	}
	return "disallows"
}
