package audit

import (
	"fmt"
	"strings"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/crawlers"
)

// CrawlDelay is one Crawl-delay line and the crawlers asked about it applies to,
// as "robots explain" finds it: the first valid value among the groups that apply.
type CrawlDelay struct {
	Line    int      `json:"line"`
	Seconds float64  `json:"seconds"`
	Agents  []string `json:"agents"`
	// Ignored are those of Agents whose operators document that they ignore
	// Crawl-delay (package crawlers: Google's, Yandex's); Honoured those that say
	// they obey it.
	Ignored  []string `json:"ignored"`
	Honoured []string `json:"honoured"`
}

// Text says it as the command and the tester write it: "line 5: 10s for bingbot,
// YandexBot (honoured by bingbot; ignored by YandexBot, as its operator says)".
func (c CrawlDelay) Text() string {
	s := fmt.Sprintf("line %d: %gs for %s", c.Line, c.Seconds, strings.Join(c.Agents, ", "))
	var said []string
	if len(c.Honoured) > 0 {
		said = append(said, "honoured by "+strings.Join(c.Honoured, ", "))
	}
	if len(c.Ignored) > 0 {
		said = append(said, "ignored by "+strings.Join(c.Ignored, ", ")+", as their operators say")
	}
	if len(said) > 0 {
		s += " (" + strings.Join(said, "; ") + ")"
	}
	return s
}

// DelayOf returns the crawl-delay that applies to agent in rb and its line: the
// first valid Crawl-delay of the groups that apply, in file order; ok is false
// when none does.
func DelayOf(rb *robots.Robots, agent string) (seconds float64, line int, ok bool) {
	if rb == nil {
		return 0, 0, false
	}
	gs, _ := rb.GroupsFor(agent)
	groups := rb.Groups()
	for _, gi := range gs {
		for _, f := range groups[gi].Fields {
			if f.Name != "crawl-delay" {
				continue
			}
			if d, err := robots.ParseCrawlDelay(f.Value); err == nil {
				return d.Seconds(), f.Line, true
			}
		}
	}
	return 0, 0, false
}

// crawlDelays lists the Crawl-delay lines that apply to agents, in line order.
func crawlDelays(rb *robots.Robots, agents []string) []CrawlDelay {
	out := []CrawlDelay{}
	at := map[int]int{}
	for _, a := range agents {
		secs, line, ok := DelayOf(rb, a)
		if !ok {
			continue
		}
		i, seen := at[line]
		if !seen {
			i = len(out)
			at[line] = i
			out = append(out, CrawlDelay{Line: line, Seconds: secs, Ignored: []string{}, Honoured: []string{}})
		}
		c := &out[i]
		c.Agents = append(c.Agents, a)
		if cr, ok := crawlers.Lookup(a); ok {
			switch cr.CrawlDelay {
			case crawlers.Ignored:
				c.Ignored = append(c.Ignored, a)
			case crawlers.Honoured:
				c.Honoured = append(c.Honoured, a)
			}
		}
	}
	return out
}
