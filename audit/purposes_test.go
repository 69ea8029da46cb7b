package audit

import (
	"slices"
	"testing"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/fetch"
)

// TestPurposes: the site owner's question answered by purpose, from the file's
// rules and preferences at the root URL.
func TestPurposes(t *testing.T) {
	const file = "User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n, search=y\nContent-Signal: search=yes, ai-input=no\n" +
		"User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: ChatGPT-User\nAllow: /\n"
	ps := purposes(robots.Parse([]byte(file)), fetch.ObeyRules, "https://example.com")
	byPurpose := map[crawlers.Purpose]Purpose{}
	for _, p := range ps {
		byPurpose[p.Purpose] = p
		if n := len(p.Blocked) + len(p.ToldNo) + len(p.Open); n != len(crawlers.WithPurpose(p.Purpose)) {
			t.Errorf("%s: %d crawlers listed, the registry has %d", p.Purpose, n, len(crawlers.WithPurpose(p.Purpose)))
		}
	}
	in := func(cs []PurposeCrawler, name string) *PurposeCrawler {
		i := slices.IndexFunc(cs, func(c PurposeCrawler) bool { return c.Name == name })
		if i < 0 {
			return nil
		}
		return &cs[i]
	}
	train := byPurpose[crawlers.AITrain]
	if c := in(train.Blocked, "GPTBot"); c == nil || c.Line != 7 || *c.Rule != "Disallow: /" {
		t.Errorf("GPTBot not blocked by line 7 for ai-train: %+v", c)
	}
	if c := in(train.ToldNo, "ClaudeBot"); c == nil || len(c.Told) != 1 || c.Told[0].Field != "content-usage" || c.Told[0].Line != 3 {
		t.Errorf("ClaudeBot not told train-ai=n by line 3: %+v", c)
	}
	search := byPurpose[crawlers.Search]
	if c := in(search.Open, "Googlebot"); c == nil || len(c.Told) != 2 || c.Told[1].Preference != robots.UsageAllowed {
		t.Errorf("Googlebot not open for search, told search=y and search=yes: %+v", c)
	}
	// ChatGPT-User's own group states nothing; other user-triggered fetchers get the
	// "*" group's ai-input=no.
	user := byPurpose[crawlers.AIUser]
	if c := in(user.Open, "ChatGPT-User"); c == nil || len(c.Told) != 0 {
		t.Errorf("ChatGPT-User not open with nothing said: %+v", c)
	}
	if c := in(user.ToldNo, "Claude-User"); c == nil || c.Told[0].Label != "ai-input" {
		t.Errorf("Claude-User not told ai-input=no: %+v", c)
	}
	if p := byPurpose[crawlers.SEO]; len(p.Preferences) != 0 || len(p.ToldNo) != 0 {
		t.Errorf("seo: no preference speaks to it, yet %+v", p)
	}

	// Without rules, the fetch's effect decides.
	for _, tt := range []struct {
		effect  fetch.Effect
		blocked bool
	}{{fetch.DisallowAll, true}, {fetch.AllowAll, false}} {
		for _, p := range purposes(nil, tt.effect, "https://example.com") {
			if got := len(p.Blocked) == len(crawlers.WithPurpose(p.Purpose)); got != tt.blocked || len(p.ToldNo) > 0 {
				t.Errorf("%v, %s: %d blocked, %d told no", tt.effect, p.Purpose, len(p.Blocked), len(p.ToldNo))
			}
		}
	}
}
