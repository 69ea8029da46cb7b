package gate

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dunglas/httpsfv"

	"github.com/gorobots/robots"
)

func newTestGate(t testing.TB, p Policy, f Forward) *Gate {
	t.Helper()
	g, err := New(Config{Sites: []Site{{Host: "example.com", File: writeRobots(t, siteRobots)}},
		Policy: p, Verifier: testVerifier, Forward: f})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The headers each proxy sends, as their documentation and docs/gate.md say.
func TestForwardAuthHeaders(t *testing.T) {
	deny := Policy{Disallowed: Refuse, Impostor: Refuse, CrawlDelay: Slow}
	type header = map[string]string
	tests := []struct {
		name   string
		policy Policy
		peer   string
		method string
		target string
		host   string
		h      header
		status int
		action string
		reason string // the token of X-Robots-Gate-Reason
		err    string // in X-Robots-Gate-Error
		uri    string // the request judged, when it is judged
		addr   string
	}{
		{name: "nginx", policy: deny, peer: "127.0.0.1:5000", method: "GET", target: "/v1/gate",
			h:      header{"X-Original-Uri": "/private/x?a=1", "X-Original-Method": "POST", "X-Forwarded-Host": "example.com", "X-Forwarded-Proto": "https", "X-Real-Ip": "66.249.66.1", "User-Agent": uaGooglebot},
			status: 403, action: "deny", reason: "disallowed", uri: "/private/x?a=1", addr: "66.249.66.1"},
		{name: "caddy", policy: deny, peer: "127.0.0.1:5000", method: "GET", target: "/v1/gate",
			h:      header{"X-Forwarded-Method": "GET", "X-Forwarded-Uri": "/public", "X-Forwarded-Host": "example.com", "X-Forwarded-Proto": "http", "X-Forwarded-For": "66.249.66.1", "User-Agent": uaGooglebot},
			status: 200, action: "pass", reason: "allowed", uri: "/public", addr: "66.249.66.1"},
		{name: "traefik: the last address not a proxy's", policy: deny, peer: "[::1]:5000", method: "GET", target: "/v1/gate",
			h:      header{"X-Forwarded-Method": "GET", "X-Forwarded-Uri": "/public", "X-Forwarded-Host": "example.com", "X-Forwarded-For": "66.249.66.1, 203.0.113.9, 127.0.0.1", "User-Agent": uaGooglebot},
			status: 403, action: "deny", reason: "impostor", addr: "203.0.113.9"},
		{name: "envoy: path after the prefix, own Host", policy: deny, peer: "127.0.0.1:5000", method: "HEAD", target: "/v1/gate/private/x?q=1", host: "example.com",
			h:      header{"X-Forwarded-For": "66.249.66.1", "User-Agent": uaGooglebot},
			status: 403, action: "deny", reason: "disallowed", uri: "/private/x?q=1", addr: "66.249.66.1"},
		{name: "robots.txt passes", policy: deny, peer: "127.0.0.1:5000", method: "GET", target: "/v1/gate",
			h:      header{"X-Forwarded-Uri": "/robots.txt", "X-Forwarded-Host": "example.com", "X-Forwarded-For": "203.0.113.9", "User-Agent": uaGPTBot},
			status: 200, action: "pass", reason: "robots-txt"},
		{name: "logged", policy: Policy{}, peer: "127.0.0.1:5000", method: "GET", target: "/v1/gate",
			h:      header{"X-Forwarded-Uri": "/x", "X-Forwarded-Host": "example.com", "X-Forwarded-For": "20.171.207.1", "User-Agent": uaGPTBot},
			status: 200, action: "log", reason: "disallowed"},
		{name: "untrusted peer", policy: deny, peer: "192.0.2.1:5000", method: "GET", target: "/v1/gate",
			h:      header{"X-Forwarded-Uri": "/x", "X-Forwarded-Host": "example.com", "X-Forwarded-For": "20.171.207.1", "User-Agent": uaGPTBot},
			status: 200, action: "pass", reason: "bad-request", err: "not a trusted proxy"},
		{name: "untrusted peer, fail closed", policy: Policy{FailClosed: true}, peer: "192.0.2.1:5000", method: "GET", target: "/v1/gate",
			h:      header{"X-Forwarded-Uri": "/x", "X-Forwarded-Host": "example.com", "X-Forwarded-For": "20.171.207.1", "User-Agent": uaGPTBot},
			status: 403, action: "deny", reason: "bad-request", err: "not a trusted proxy"},
		{name: "no URI", policy: Policy{FailClosed: true}, peer: "127.0.0.1:5000", method: "GET", target: "/v1/gate",
			h:      header{"X-Forwarded-Host": "example.com", "X-Forwarded-For": "20.171.207.1"},
			status: 403, action: "deny", reason: "bad-request", err: "no original URI: none of X-Forwarded-Uri, X-Original-Uri"},
		{name: "no host", policy: Policy{}, peer: "127.0.0.1:5000", method: "GET", target: "/v1/gate",
			h:      header{"X-Forwarded-Uri": "/", "X-Forwarded-For": "20.171.207.1"},
			status: 200, action: "pass", reason: "bad-request", err: "no original host"},
		{name: "no client", policy: Policy{FailClosed: true}, peer: "127.0.0.1:5000", method: "GET", target: "/v1/gate",
			h:      header{"X-Forwarded-Uri": "/", "X-Forwarded-Host": "example.com"},
			status: 403, action: "deny", reason: "bad-request", err: "no client address"},
		{name: "bad client", policy: Policy{FailClosed: true}, peer: "127.0.0.1:5000", method: "GET", target: "/v1/gate",
			h:      header{"X-Forwarded-Uri": "/", "X-Forwarded-Host": "example.com", "X-Forwarded-For": "1.2.3.4, evil"},
			status: 403, action: "deny", reason: "bad-request", err: `X-Forwarded-For: "evil" is not an IP address`},
		{name: "several hosts", policy: Policy{FailClosed: true}, peer: "127.0.0.1:5000", method: "GET", target: "/v1/gate",
			h:      header{"X-Forwarded-Uri": "/", "X-Forwarded-Host": "example.com, evil.example", "X-Forwarded-For": "1.2.3.4"},
			status: 403, action: "deny", reason: "bad-request", err: "several hosts"},
		{name: "URI not a path", policy: Policy{FailClosed: true}, peer: "127.0.0.1:5000", method: "GET", target: "/v1/gate",
			h:      header{"X-Forwarded-Uri": "http://evil.example/", "X-Forwarded-Host": "example.com", "X-Forwarded-For": "1.2.3.4"},
			status: 403, action: "deny", reason: "bad-request", err: "does not start with /"},
		{name: "host of no site", policy: Policy{}, peer: "127.0.0.1:5000", method: "GET", target: "/v1/gate",
			h:      header{"X-Forwarded-Uri": "/", "X-Forwarded-Host": "169.254.169.254", "X-Forwarded-For": "1.2.3.4", "User-Agent": uaGPTBot},
			status: 403, action: "deny", reason: "unknown-host", err: "not a site"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newTestGate(t, tt.policy, Forward{})
			r := httptest.NewRequest(tt.method, tt.target, nil)
			r.RemoteAddr = tt.peer
			if tt.host != "" {
				r.Host = tt.host
			} else {
				r.Host = "127.0.0.1:8080"
			}
			for k, v := range tt.h {
				r.Header.Set(k, v)
			}
			w := httptest.NewRecorder()
			g.ForwardAuth().ServeHTTP(w, r)
			res := w.Result()
			if res.StatusCode != tt.status || res.Header.Get(HeaderVerdict) != tt.action {
				t.Errorf("got %d %s, want %d %s", res.StatusCode, res.Header.Get(HeaderVerdict), tt.status, tt.action)
			}
			if got := reasonToken(t, res.Header.Get(HeaderReason)); got != tt.reason {
				t.Errorf("reason %q, want %q", got, tt.reason)
			}
			if e := res.Header.Get(HeaderError); !strings.Contains(e, tt.err) || (tt.err == "") != (e == "") {
				t.Errorf("%s %q, want it to say %q", HeaderError, e, tt.err)
			}
			rep := g.Report()
			if rep.Records != 1 {
				t.Errorf("report: %d requests, want 1", rep.Records)
			}
			if tt.uri != "" || tt.addr != "" {
				row := rep.Crawlers[0]
				if tt.addr != "" && (len(row.Addresses) != 1 || row.Addresses[0].Value != tt.addr) {
					t.Errorf("client %v, want %s", row.Addresses, tt.addr)
				}
				if tt.uri != "" && tt.reason == "disallowed" && row.Rules[0].Examples[0].Value != tt.uri {
					t.Errorf("URI judged %q, want %q", row.Rules[0].Examples[0].Value, tt.uri)
				}
			}
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode == 200 && len(body) != 0 {
				t.Errorf("a pass has a body: %q", body)
			}
		})
	}
}

// The reason header is an RFC 9651 Item whose parameters name the crawler and the
// rule, whatever bytes the rule holds.
func TestReasonField(t *testing.T) {
	d := Decision{Verdict: Deny, Reason: Disallowed, Violation: true, Crawler: "GPTBot", Identity: Identity{Status: Verified},
		Rule: robots.Rule{Value: "/caf\xc3\xa9/\"x\"\\", Line: 7}}
	item, err := httpsfv.UnmarshalItem([]string{d.reasonField()})
	if err != nil {
		t.Fatalf("%q: %v", d.reasonField(), err)
	}
	want := map[string]any{"crawler": "GPTBot", "identity": httpsfv.Token("verified"), "line": int64(7), "rule": `Disallow: /caf%C3%A9/"x"\`}
	for k, v := range want {
		if got, ok := item.Params.Get(k); !ok || got != v {
			t.Errorf("%s = %#v, want %#v", k, got, v)
		}
	}
	if item.Value != httpsfv.Token("disallowed") {
		t.Errorf("item %#v, want the token disallowed", item.Value)
	}
}

// The middleware passes what the gate passes to the handler, and answers the rest.
func TestMiddleware(t *testing.T) {
	g := newTestGate(t, Policy{Disallowed: Refuse, Impostor: Refuse, CrawlDelay: Slow}, Forward{})
	var served int
	h := g.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { served++; w.WriteHeader(204) }))
	for _, tt := range []struct {
		peer, xff, ua, uri string
		status             int
		served             int
	}{
		{"66.249.66.1:4000", "", uaGooglebot, "/public", 204, 1},
		{"66.249.66.1:4000", "", uaGooglebot, "/private/a", 403, 0},
		{"203.0.113.9:4000", "", uaGooglebot, "/public", 403, 0},
		{"127.0.0.1:4000", "66.249.66.1", uaGooglebot, "/public", 204, 1},       // from a trusted proxy
		{"203.0.113.9:4000", "66.249.66.1", uaGooglebot, "/public", 403, 0},     // not a proxy: its own address counts
		{"203.0.113.9:4000", "", uaClaudeBot, "/a", 204, 1},                     // first request
		{"203.0.113.9:4000", "", uaClaudeBot, "/b", 429, 0},                     // within its Crawl-delay
		{"203.0.113.9:4000", "", uaBrowser, "/private/a", 204, 1},               // not a crawler
		{"127.0.0.1:4000", "not-an-address", uaGooglebot, "/private/a", 204, 1}, // fail open, logged
	} {
		served = 0
		r := httptest.NewRequest("GET", tt.uri, nil)
		r.Host = "example.com"
		r.RemoteAddr = tt.peer
		r.Header.Set("User-Agent", tt.ua)
		if tt.xff != "" {
			r.Header.Set("X-Forwarded-For", tt.xff)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tt.status || served != tt.served {
			t.Errorf("%s from %s (%s) %s: got %d, served %d; want %d, %d", tt.ua[:20], tt.peer, tt.xff, tt.uri, w.Code, served, tt.status, tt.served)
		}
		if w.Code == 429 && w.Header().Get("Retry-After") != "2" {
			t.Errorf("Retry-After %q, want 2", w.Header().Get("Retry-After"))
		}
	}
}

// FuzzForwardAuth: whatever the headers, the handler answers, never panics, and
// never passes silently: every answer has the verdict and reason headers.
func FuzzForwardAuth(f *testing.F) {
	f.Add("/private/x", "example.com", "66.249.66.1", uaGooglebot, "GET", "/v1/gate")
	f.Add("", "", "", "", "", "/v1/gate/x")
	f.Add("/%zz\x00", "EXAMPLE.COM:443", "[::1]:80, 1.2.3.4", "GPTBot", "PO ST", "/v1/gate//")
	g, err := New(Config{Sites: []Site{{Host: "example.com", File: writeRobots(f, siteRobots)}},
		Policy: Policy{Disallowed: Refuse, Impostor: Refuse, CrawlDelay: Slow}, Verifier: testVerifier})
	if err != nil {
		f.Fatal(err)
	}
	h := g.ForwardAuth()
	f.Fuzz(func(t *testing.T, uri, host, xff, ua, method, target string) {
		r := httptest.NewRequest("GET", "/v1/gate", nil)
		if u, err := r.URL.Parse(target); err == nil {
			r.URL = u
		}
		r.RemoteAddr = "127.0.0.1:1"
		r.Header["X-Forwarded-Uri"] = []string{uri}
		r.Header["X-Forwarded-Host"] = []string{host}
		r.Header["X-Forwarded-For"] = []string{xff}
		r.Header["X-Forwarded-Method"] = []string{method}
		r.Header["User-Agent"] = []string{ua}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Header().Get(HeaderVerdict) == "" || w.Header().Get(HeaderReason) == "" {
			t.Fatalf("answer %d without the gate's headers", w.Code)
		}
		if w.Code == 200 && w.Header().Get(HeaderVerdict) == "pass" && checkRequest(&Request{Method: method, Host: host, URI: uri}) != nil && w.Header().Get(HeaderError) == "" {
			t.Fatalf("passed a bad request without saying why")
		}
	})
}

// reasonToken is the reason of an X-Robots-Gate-Reason value, which must be an
// RFC 9651 Item whose value is a token.
func reasonToken(t *testing.T, v string) string {
	t.Helper()
	item, err := httpsfv.UnmarshalItem([]string{v})
	if err != nil {
		t.Fatalf("%s %q: %v", HeaderReason, v, err)
	}
	tok, ok := item.Value.(httpsfv.Token)
	if !ok {
		t.Fatalf("%s %q: not a token", HeaderReason, v)
	}
	return string(tok)
}
