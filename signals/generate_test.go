package signals

import (
	"context"
	"errors"
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

// TestGenerateAdded: the lines Generate adds, by their numbers in the new file, are
// exactly those not in the old one (every old line is kept, in order).
func TestGenerateAdded(t *testing.T) {
	body := "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nAllow: /public/\n"
	out, _, err := Generate(body, map[Purpose]Stance{AITrain: Block, Search: Allow})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	var added []string
	for _, n := range Added(body, out) {
		added = append(added, lines[n-1])
	}
	// The "*" group gets the usage lines after its rule (lines 3, 4); GPTBot's group
	// gets "Disallow: /" and the usage lines after its Allow; the other training
	// crawlers a new group at the end.
	if added[0] != "Content-Usage: train-ai=n, search=y" || added[1] != "Content-Signal: search=yes, ai-train=no" ||
		added[2] != "Disallow: /" || len(added) != len(lines)-5 {
		t.Errorf("added lines %q of\n%s", added, out)
	}
	if got := Added(body, body); len(got) != 0 {
		t.Errorf("nothing added: %v", got)
	}
}

// TestGenerateBounds: a file that would pass the 500 KiB crawlers read is refused
// (the added lines would not be read), and a check whose context ends stops with its
// cause.
func TestGenerateBounds(t *testing.T) {
	big := "User-agent: *\n" + strings.Repeat("Disallow: /"+strings.Repeat("x", 88)+"\n", robots.DefaultMaxBytes/100)
	if _, _, err := Generate(big, map[Purpose]Stance{AITrain: NoUse}); err == nil || !strings.Contains(err.Error(), "past the 512000 crawlers read") {
		t.Errorf("a file past 500 KiB: %v", err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("budget spent"))
	if _, _, err := GenerateContext(ctx, "User-agent: *\nDisallow: /x\n", map[Purpose]Stance{AITrain: NoUse}); err == nil || !strings.Contains(err.Error(), "budget spent") {
		t.Errorf("ended context: %v", err)
	}
}
