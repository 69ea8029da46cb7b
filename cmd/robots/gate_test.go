package main

import (
	"flag"
	"io"
	"reflect"
	"testing"

	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/gate"
)

// The -gate-* flags read the policy's words as the robots_gate Caddyfile
// directive does (gate.Words), and a wrong one is an error naming the flag.
func TestGateFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want gate.Policy
		err  string // "": no error
	}{
		{nil, gate.Policy{}, ""},
		{[]string{"-gate-enforce", "GPTBot,ai-train", "-gate-disallowed", "deny", "-gate-crawl-delay", "429",
			"-gate-impostor", "deny", "-gate-unverified", "log", "-gate-fail", "closed"},
			gate.Policy{Crawlers: []string{"GPTBot"}, Purposes: []crawlers.Purpose{crawlers.AITrain}, Disallowed: gate.Refuse,
				CrawlDelay: gate.Slow, Impostor: gate.Refuse, LogUnverified: true, FailClosed: true}, ""},
		{[]string{"-gate-disallowed", "429"}, gate.Policy{}, `-gate-disallowed "429": want log or deny (429 is for -gate-crawl-delay)`},
		{[]string{"-gate-impostor", "block"}, gate.Policy{}, `-gate-impostor "block": want log or deny`},
		{[]string{"-gate-crawl-delay", "slow"}, gate.Policy{}, `-gate-crawl-delay "slow": want log, deny or 429`},
		{[]string{"-gate-unverified", "trust"}, gate.Policy{}, `-gate-unverified "trust": want judge or log`},
		{[]string{"-gate-fail", "maybe"}, gate.Policy{}, `-gate-fail "maybe": want open or closed`},
	} {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		g := addGateFlags(fs)
		if err := fs.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		cfg, err := g.policy()
		switch {
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("%q: error %v, want %q", tt.args, err, tt.err)
		case tt.err == "" && err != nil:
			t.Errorf("%q: %v", tt.args, err)
		case tt.err == "" && !reflect.DeepEqual(cfg.Policy, tt.want):
			t.Errorf("%q: %+v, want %+v", tt.args, cfg.Policy, tt.want)
		}
	}
}
