package robotsgate

import (
	"reflect"
	"strings"
	"testing"

	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
)

// The directive reads into the fields of the -gate-* flags, and a mistake is an
// error naming it, at parse time or when the gate is configured.
func TestCaddyfile(t *testing.T) {
	for _, tt := range []struct {
		name, input string
		want        *Handler // nil: an error saying err
		err         string
	}{
		{"every option", `robots_gate {
			robots /srv/robots.txt
			site other.example http://127.0.0.1:8081
			enforce GPTBot ai-train,CCBot
			disallowed deny
			crawl_delay 429
			impostor deny
			unverified log
			fail closed
			wait 3s
			list GPTBot /srv/gptbot.txt
			offline
			no_dns
		}`, &Handler{Sites: []Site{{Robots: "/srv/robots.txt"}, {Host: "other.example", Robots: "http://127.0.0.1:8081"}},
			Enforce: []string{"GPTBot", "ai-train,CCBot"}, Disallowed: "deny", CrawlDelay: "429", Impostor: "deny",
			Unverified: "log", Fail: "closed", Wait: 3e9, Lists: map[string]string{"GPTBot": "/srv/gptbot.txt"},
			Offline: true, NoDNS: true}, ""},
		{"a positional file", "robots_gate /srv/robots.txt", nil, "takes no argument"},
		{"unknown option", "robots_gate {\n robots /r.txt\n deny_all\n}", nil, `unknown option "deny_all"`},
		{"two words", "robots_gate {\n robots /a.txt /b.txt\n}", nil, "wrong argument count"},
		{"bad wait", "robots_gate {\n wait soon\n}", nil, `wait "soon"`},
		{"no robots.txt", "robots_gate", nil, "no robots.txt"},
		{"429 for disallowed", "robots_gate {\n robots /r.txt\n disallowed 429\n}", nil, `disallowed "429": want log or deny (429 is for crawl_delay)`},
		{"bad action", "robots_gate {\n robots /r.txt\n impostor block\n}", nil, `impostor "block": want log or deny`},
		{"bad fail", "robots_gate {\n robots /r.txt\n fail maybe\n}", nil, `fail "maybe": want open or closed`},
		{"bad unverified", "robots_gate {\n robots /r.txt\n unverified trust\n}", nil, `unverified "trust": want judge or log`},
	} {
		h := new(Handler)
		err := h.UnmarshalCaddyfile(caddyfile.NewTestDispenser(tt.input))
		if err == nil && tt.want == nil {
			_, err = h.config() // what Provision checks before reading any file
		}
		switch {
		case tt.want == nil && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s: error %v, want one saying %q", tt.name, err, tt.err)
		case tt.want != nil && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != nil && !reflect.DeepEqual(h, tt.want):
			t.Errorf("%s: read %+v, want %+v", tt.name, h, tt.want)
		}
	}
}
