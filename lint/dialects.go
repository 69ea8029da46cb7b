package lint

import (
	"fmt"
	"strings"

	"github.com/gorobots/robots"
)

// Readings is one file parsed under every interpretation of robots.txt
// ([robots.Dialects], in that order), to see where they disagree: the dialects-disagree
// check and "robots compare" both ask it. It is immutable and safe for concurrent use.
type Readings struct {
	dialects []robots.Dialect
	parsed   []*robots.Robots
}

// Verdict is how one interpretation decides a URL for a crawler.
type Verdict struct {
	Dialect robots.Dialect
	robots.Decision
}

// ReadDialects parses body under every dialect.
func ReadDialects(body []byte) *Readings {
	return readDialects(body, nil)
}

// readDialects is ReadDialects with the Google reading already parsed, when google
// is not nil.
func readDialects(body []byte, google *robots.Robots) *Readings {
	rd := &Readings{dialects: robots.Dialects()}
	rd.parsed = make([]*robots.Robots, len(rd.dialects))
	for i, d := range rd.dialects {
		if d == robots.Google && google != nil {
			rd.parsed[i] = google
			continue
		}
		rd.parsed[i] = robots.Parse(body, robots.WithDialect(d))
	}
	return rd
}

// Dialects returns the dialects of the readings, in the order of Check's verdicts.
func (rd *Readings) Dialects() []robots.Dialect {
	return append([]robots.Dialect(nil), rd.dialects...)
}

// Usage returns what the file prefers about the use of url's content by the crawler
// whose product token is agent under every dialect, in the order of Dialects (see
// robots.Robots.Usage: the legacy dialects read no preference).
func (rd *Readings) Usage(agent, url string) []robots.Usage {
	out := make([]robots.Usage, len(rd.parsed))
	for i, r := range rd.parsed {
		out[i] = r.Usage(agent, url)
	}
	return out
}

// Check decides url for the crawler whose product token is agent under every dialect,
// in the order of Dialects, and reports whether every dialect gives the same verdict
// (allowed or not; the deciding rules may differ).
func (rd *Readings) Check(agent, url string) (verdicts []Verdict, agree bool) {
	verdicts = make([]Verdict, len(rd.parsed))
	agree = true
	for i, r := range rd.parsed {
		verdicts[i] = Verdict{Dialect: rd.dialects[i], Decision: r.Check(agent, url)}
		agree = agree && verdicts[i].Allowed == verdicts[0].Allowed
	}
	return verdicts, agree
}

// checkDialects decides, for each group, the paths its own rules name under every
// interpretation of robots.txt and reports the rules whose verdicts differ. One finding
// per rule, on the rule whose value is the path.
func checkDialects(f *file) {
	if !f.opts.Dialects || f.html || len(f.groups) == 0 {
		return
	}
	rd := readDialects(f.body, f.r)
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
			vs, agree := rd.Check(agent, path)
			if agree {
				continue
			}
			words := make([]string, len(vs))
			for i, v := range vs {
				words[i] = fmt.Sprintf("%s %s", v.Dialect, verdictWord(v.Allowed))
				if v.Rule.Line > 0 {
					words[i] += fmt.Sprintf(" (line %d)", v.Rule.Line)
				}
			}
			f.add(ru.Line, 0, DialectsDisagree, "%s for %s: %s; check the crawlers you care about with \"robots compare\"",
				path, agent, strings.Join(words, ", "))
		}
	}
}

func verdictWord(allowed bool) string {
	if allowed {
		return "allows"
	}
	return "disallows"
}
