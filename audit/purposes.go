package audit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/fetch"
)

// Purpose answers, for one purpose of package crawlers, what the file does to every
// crawler of the registry that has it, at the site's root URL: "which training
// crawlers are blocked or told train-ai=n, which search and user-triggered fetchers
// stay open". Each crawler is in one of three lists.
type Purpose struct {
	Purpose crawlers.Purpose `json:"purpose"`
	// Preferences are the preferences that speak to the purpose, as "field label"
	// ("content-usage train-ai"); none for the purposes no vocabulary names (seo,
	// social, archive, ads, other).
	Preferences []string         `json:"preferences"`
	Blocked     []PurposeCrawler `json:"blocked"` // may not fetch the root URL
	ToldNo      []PurposeCrawler `json:"told_no"` // may fetch it, and a preference of the purpose disallows the use
	Open        []PurposeCrawler `json:"open"`    // may fetch it, and no preference of the purpose disallows the use
}

// PurposeCrawler is one crawler of the registry and what the file says to it at the
// site's root URL.
type PurposeCrawler struct {
	Name     string  `json:"name"`
	Operator string  `json:"operator"`
	Rule     *string `json:"rule"` // the rule deciding the root URL, as written; null when none did
	Line     int     `json:"line"`
	// Told are the preferences of the purpose the file states for the crawler, the
	// unknown ones left out.
	Told []Told `json:"told"`
}

// ToldText says what the file tells the crawler for the purpose, as the command and
// the tester write it: each preference with its field and line, or "nothing said".
func (c PurposeCrawler) ToldText() string {
	if len(c.Told) == 0 {
		return "nothing said"
	}
	said := make([]string, len(c.Told))
	for i, t := range c.Told {
		said[i] = fmt.Sprintf("%s %s=%s (line %d)", t.Field, t.Label, t.Preference, t.Line)
	}
	return strings.Join(said, ", ")
}

// Told is one stated preference and its field.
type Told struct {
	Field string `json:"field"` // "content-usage" or "content-signal"
	robots.Stated
}

// prefKey names one preference: a category of Content-Usage, or a signal of
// Content-Signal.
type prefKey struct {
	signal   bool
	category robots.CategoryLabel
	sig      robots.SignalLabel
}

func (k prefKey) label() string {
	if k.signal {
		return k.sig.String()
	}
	return k.category.String()
}

func (k prefKey) field() string {
	if k.signal {
		return "content-signal"
	}
	return "content-usage"
}

// purposePrefs are the preferences that speak to each purpose. Content-Usage's
// train-ai and Content-Signal's ai-train are training; their two "search" are
// search (Content-Signal's leaves out AI summaries, which its ai-input covers, as it
// covers the AI answers that AI search and user-triggered fetchers give).
// Content-Usage's ai-use (draft-ietf-aipref-vocab-08) is input to a generative model
// of an asset the user did not provide directly: AI search's, not a user-triggered
// fetch of the page the user named (whether a URL the user gives is "directly
// provided" is open in the working group, issue 249).
var purposePrefs = map[crawlers.Purpose][]prefKey{
	crawlers.AITrain:  {{category: robots.TrainAI}, {signal: true, sig: robots.SignalAITrain}},
	crawlers.Search:   {{category: robots.Search}, {signal: true, sig: robots.SignalSearch}},
	crawlers.AISearch: {{category: robots.AIUse}, {signal: true, sig: robots.SignalAIInput}},
	crawlers.AIUser:   {{signal: true, sig: robots.SignalAIInput}},
}

// purposes answers the question of Purpose for every purpose, deciding the root URL
// for each crawler of the registry by rb, or by the fetch's effect when there are no
// rules.
func purposes(rb *robots.Robots, effect fetch.Effect, origin string) []Purpose {
	root := origin + "/"
	res := &fetch.Result{Effect: effect, Robots: rb}
	if rb != nil {
		res.Effect = fetch.ObeyRules
	}
	// Crawlers that the same groups apply to are told the same.
	type said struct {
		d robots.Decision
		u robots.Usage
	}
	byGroups := map[string]said{}
	sayTo := func(name string) said {
		key := groupsKey(rb, name)
		s, ok := byGroups[key]
		if !ok {
			s = said{res.Check(name, root), res.Usage(name, root)}
			byGroups[key] = s
		}
		return s
	}
	out := []Purpose{}
	for _, p := range crawlers.Purposes() {
		pr := Purpose{Purpose: p, Preferences: []string{}, Blocked: []PurposeCrawler{}, ToldNo: []PurposeCrawler{}, Open: []PurposeCrawler{}}
		keys := purposePrefs[p]
		for _, k := range keys {
			pr.Preferences = append(pr.Preferences, k.field()+" "+k.label())
		}
		for _, c := range crawlers.WithPurpose(p) {
			s := sayTo(c.Name)
			pc := PurposeCrawler{Name: c.Name, Operator: c.Operator, Line: s.d.Rule.Line, Told: []Told{}}
			if s.d.Rule.Line > 0 {
				rule := s.d.Rule.String()
				pc.Rule = &rule
			}
			no := false
			for _, k := range keys {
				st := s.u.Category(k.category)
				if k.signal {
					st = s.u.Signal(k.sig)
				}
				if st.Preference != robots.UsageUnknown {
					pc.Told = append(pc.Told, Told{Field: k.field(), Stated: st})
					no = no || st.Preference == robots.UsageDisallowed
				}
			}
			switch {
			case !s.d.Allowed:
				pr.Blocked = append(pr.Blocked, pc)
			case no:
				pr.ToldNo = append(pr.ToldNo, pc)
			default:
				pr.Open = append(pr.Open, pc)
			}
		}
		out = append(out, pr)
	}
	return slices.Clip(out)
}
