package crawlers

import (
	"strings"
	"testing"
)

// Each documented header names its crawler, and its page is the crawler's own
// documentation in the registry (the provenance written beside it).
func TestHeadersProvenance(t *testing.T) {
	seen := map[string]bool{}
	for _, h := range headers {
		c, ok := Lookup(h.Crawler)
		if !ok || c.Name != h.Crawler {
			t.Errorf("%s: not a registry name", h.Crawler)
			continue
		}
		if seen[h.Crawler] {
			t.Errorf("%s: two headers", h.Crawler)
		}
		seen[h.Crawler] = true
		if !strings.Contains(strings.ToLower(h.Value), strings.ToLower(h.Crawler)) {
			t.Errorf("%s: header %q does not hold the token", h.Crawler, h.Value)
		}
		if h.Source != c.URL || !strings.HasPrefix(h.Source, "https://") {
			t.Errorf("%s: source %q, want the crawler's documentation %q", h.Crawler, h.Source, c.URL)
		}
		if strings.ContainsAny(h.Value, "\r\n") || strings.Contains(h.Value, "W.X.Y.Z") {
			t.Errorf("%s: %q cannot be sent as written", h.Crawler, h.Value)
		}
	}
}

func TestHeaderOf(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		documented bool
	}{
		{"gptbot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)", true},
		{"CCBot", "CCBot/2.0 (https://commoncrawl.org/faq/)", true},
		// Anthropic documents the token only.
		{"ClaudeBot", "Mozilla/5.0 (compatible; ClaudeBot)", false},
		// Sogou's documented words, not its token alone.
		{"Sogou", "Mozilla/5.0 (compatible; Sogou web spider)", false},
	} {
		h, ok := HeaderOf(tc.name)
		if !ok || h.Value != tc.want || h.Documented() != tc.documented {
			t.Errorf("HeaderOf(%q) = %+v, %v; want %q documented=%v", tc.name, h, ok, tc.want, tc.documented)
		}
	}
	if _, ok := HeaderOf("NoSuchBot"); ok {
		t.Error("HeaderOf(NoSuchBot) found a header")
	}
	var names []string
	for _, h := range Headers() {
		names = append(names, h.Crawler)
	}
	got := strings.Join(names, ",")
	for _, want := range []string{"Googlebot", "bingbot", "GPTBot", "CCBot", "PerplexityBot"} {
		if !strings.Contains(","+got+",", ","+want+",") {
			t.Errorf("Headers() = %s, missing %s", got, want)
		}
	}
	if strings.Contains(got, "ClaudeBot") || strings.Contains(got, "Perplexity-User") {
		t.Errorf("Headers() = %s: only major crawlers with a documented header", got)
	}
}
