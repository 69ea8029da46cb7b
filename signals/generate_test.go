package signals

import (
	"strings"
	"testing"

	"github.com/gorobots/robots"
)

// TestGenerate: "block training, keep search and assistants" written into files; no
// crawler but those blocked gets another verdict, and a change that would give one is
// refused.
func TestGenerate(t *testing.T) {
	stance, err := ParseStance("ai-train=block, search=allow, ai-user=allow")
	if err != nil {
		t.Fatal(err)
	}
	body := "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nAllow: /public/\n"
	out, _, err := Generate(body, stance)
	if err != nil {
		t.Fatal(err)
	}
	r := robots.ParseString(out)
	if r.Allowed("GPTBot", "https://example.com/x") || !r.Allowed("GPTBot", "https://example.com/public/a") {
		t.Errorf("GPTBot: its group gets Disallow: /, and its longer Allow still wins:\n%s", out)
	}
	if r.Allowed("ClaudeBot", "https://example.com/x") || !r.Allowed("Googlebot", "https://example.com/x") || r.Allowed("Googlebot", "https://example.com/private/a") {
		t.Errorf("verdicts:\n%s", out)
	}
	u := r.Usage("Googlebot", "https://example.com/x")
	if u.Category(robots.TrainAI).Preference != robots.UsageDisallowed || u.Category(robots.Search).Preference != robots.UsageAllowed || u.Signal(robots.SignalAIInput).Preference != robots.UsageAllowed {
		t.Errorf("usage %s", u)
	}
	// A group naming a training crawler with a search engine cannot be blocked without
	// changing the search engine's verdicts: refused.
	if _, _, err := Generate("User-agent: GPTBot\nUser-agent: Googlebot\nDisallow: /tmp/\n", stance); err == nil || !strings.Contains(err.Error(), "Googlebot") {
		t.Errorf("shared group: %v", err)
	}
	// An empty file gets a "*" group for the usage lines and a group for the blocked.
	out, _, err = Generate("", map[Purpose]Stance{AITrain: NoUse})
	if err != nil || !strings.Contains(out, "User-agent: *\nAllow: /\nContent-Usage: train-ai=n\nContent-Signal: ai-train=no\n") {
		t.Errorf("empty file: %v\n%s", err, out)
	}
	if _, err := ParseStance("ai-train=maybe"); err == nil {
		t.Error("ai-train=maybe: no error")
	}
}
