package gate

import (
	"reflect"
	"testing"

	"github.com/gorobots/robots/crawlers"
)

// The policy's words (docs/gate.md, the -gate-* flags and the robots_gate
// Caddyfile directive) and the errors naming a wrong one.
func TestGateWords(t *testing.T) {
	opt := func(o, v string) Word { return Word{Option: o, Value: v} }
	for _, tt := range []struct {
		name string
		w    Words
		want Policy
		err  string // "": no error
	}{
		{"defaults", Words{}, Policy{}, ""},
		{"defaults written out", Words{Disallowed: opt("d", "log"), CrawlDelay: opt("c", "log"), Impostor: opt("i", "log"),
			Unverified: opt("u", "judge"), Fail: opt("f", "open")}, Policy{}, ""},
		{"every word", Words{Enforce: []string{"GPTBot, ai-train", "Search", "", "MyBot"}, Disallowed: opt("d", "deny"),
			CrawlDelay: opt("c", "429"), Impostor: opt("i", " Deny "), Unverified: opt("u", "log"), Fail: opt("f", "closed")},
			Policy{Crawlers: []string{"GPTBot", "MyBot"}, Purposes: []crawlers.Purpose{crawlers.AITrain, crawlers.Search},
				Disallowed: Refuse, CrawlDelay: Slow, Impostor: Refuse, LogUnverified: true, FailClosed: true}, ""},
		{"crawl delay deny", Words{CrawlDelay: opt("c", "deny")}, Policy{CrawlDelay: Refuse}, ""},
		{"429 for disallowed", Words{Disallowed: opt("-gate-disallowed", "429"), CrawlDelay: opt("-gate-crawl-delay", "")},
			Policy{}, `-gate-disallowed "429": want log or deny (429 is for -gate-crawl-delay)`},
		{"429 for impostors", Words{Impostor: opt("impostor", "429"), CrawlDelay: opt("crawl_delay", "")},
			Policy{}, `impostor "429": want log or deny (429 is for crawl_delay)`},
		{"bad action", Words{Impostor: opt("impostor", "block")}, Policy{}, `impostor "block": want log or deny`},
		{"bad crawl-delay action", Words{CrawlDelay: opt("-gate-crawl-delay", "slow")}, Policy{},
			`-gate-crawl-delay "slow": want log, deny or 429`},
		{"bad unverified", Words{Unverified: opt("unverified", "trust")}, Policy{}, `unverified "trust": want judge or log`},
		{"bad fail", Words{Fail: opt("-gate-fail", "maybe")}, Policy{}, `-gate-fail "maybe": want open or closed`},
		{"no option name", Words{Fail: opt("", "maybe")}, Policy{}, `fail "maybe": want open or closed`},
	} {
		got, err := tt.w.Policy()
		switch {
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
		case tt.err == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.err == "" && !reflect.DeepEqual(got, tt.want):
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// A Policy built in Go is held to the words' rule: 429 (Slow) is for Crawl-delay only.
func TestGateWordsPolicyRule(t *testing.T) {
	for _, tt := range []struct {
		p   Policy
		err string
	}{
		{Policy{Disallowed: Slow}, `gate: policy: disallowed "429": want log or deny (429 is for Crawl-delay)`},
		{Policy{Impostor: Slow}, `gate: policy: impostor "429": want log or deny (429 is for Crawl-delay)`},
	} {
		_, err := New(Config{Sites: []Site{{Host: "example.com", Origin: "http://127.0.0.1:1"}}, Policy: tt.p})
		if err == nil || err.Error() != tt.err {
			t.Errorf("%+v: error %v, want %q", tt.p, err, tt.err)
		}
	}
	if _, err := New(Config{Sites: []Site{{Host: "example.com", Origin: "http://127.0.0.1:1"}}, Policy: Policy{CrawlDelay: Slow}}); err != nil {
		t.Errorf("CrawlDelay Slow: %v", err)
	}
}
