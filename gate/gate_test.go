package gate

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/testenv"
)

// siteRobots is the robots.txt of the tests' site; the expected rules and lines
// below are read from it.
const siteRobots = `User-agent: *
Disallow: /private/
Allow: /private/open

User-agent: GPTBot
Disallow: /

User-agent: ClaudeBot
Crawl-delay: 2
Disallow: /nope
`

// The User-Agent headers of the fleet, as their operators document them.
const (
	uaGooglebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	uaGPTBot    = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
	uaClaudeBot = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"
	uaBrowser   = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36"
)

// Addresses of the fleet: the verifier of the tests knows the crawlers' ranges.
var (
	googleAddr   = netip.MustParseAddr("66.249.66.1")
	openAIAddr   = netip.MustParseAddr("20.171.207.1")
	otherAddr    = netip.MustParseAddr("203.0.113.9")
	unknownAddr  = netip.MustParseAddr("198.51.100.7")
	testVerifier = rangeVerifier{
		"Googlebot": {netip.MustParsePrefix("66.249.64.0/19")},
		"GPTBot":    {netip.MustParsePrefix("20.171.206.0/23")},
	}
)

// rangeVerifier verifies the crawlers it has ranges for by the client address:
// inside, verified; outside, an impostor. It cannot tell about the others, and
// about any client at unknownAddr (as when a list could not be read).
type rangeVerifier map[string][]netip.Prefix

func (v rangeVerifier) Verify(_ context.Context, r *Request) Identity {
	id := Identity{Crawler: robots.ProductToken(r.UserAgent)}
	ranges, ok := v[id.Crawler]
	if !ok || r.Addr == unknownAddr {
		return id
	}
	id.Method = "ip-range"
	for _, p := range ranges {
		if p.Contains(r.Addr) {
			id.Status = Verified
			return id
		}
	}
	id.Status = Spoofed
	return id
}

func writeRobots(t testing.TB, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// clock is a settable clock for the gate.
type clock struct{ t atomic.Int64 }

func (c *clock) now() time.Time          { return time.Unix(0, c.t.Load()) }
func (c *clock) advance(d time.Duration) { c.t.Add(int64(d)) }
func newClock() *clock {
	c := &clock{}
	c.t.Store(time.Date(2026, 11, 28, 4, 0, 0, 0, time.UTC).UnixNano())
	return c
}
func req(ua string, addr netip.Addr, uri string) *Request {
	return &Request{Method: "GET", Scheme: "https", Host: "example.com", URI: uri, Addr: addr, UserAgent: ua}
}

func TestDecide(t *testing.T) {
	file := writeRobots(t, siteRobots)
	deny := Policy{Disallowed: Refuse, CrawlDelay: Slow, Impostor: Refuse}
	type want struct {
		verdict   Verdict
		reason    Reason
		violation bool
		crawler   string
		line      int
		status    Status
	}
	tests := []struct {
		name   string
		policy Policy
		r      *Request
		want   want
	}{
		{"browser", deny, req(uaBrowser, otherAddr, "/private/x"), want{Pass, NotACrawler, false, "", 0, CannotTell}},
		{"allowed", deny, req(uaGooglebot, googleAddr, "/public"), want{Pass, Allowed, false, "Googlebot", 0, Verified}},
		{"disallowed denied", deny, req(uaGooglebot, googleAddr, "/private/x"), want{Deny, Disallowed, true, "Googlebot", 2, Verified}},
		{"disallowed logged", Policy{}, req(uaGooglebot, googleAddr, "/private/x"), want{Pass, Disallowed, true, "Googlebot", 2, Verified}},
		{"longer allow wins", deny, req(uaGooglebot, googleAddr, "/private/open?x=1"), want{Pass, Allowed, false, "Googlebot", 3, Verified}},
		{"own group", deny, req(uaGPTBot, openAIAddr, "/public"), want{Deny, Disallowed, true, "GPTBot", 6, Verified}},
		{"robots.txt passes", deny, req(uaGPTBot, openAIAddr, "/robots.txt"), want{Pass, RobotsTxt, false, "GPTBot", 0, Verified}},
		{"robots.txt passes an impostor", deny, req(uaGPTBot, otherAddr, "/robots.txt?x"), want{Pass, RobotsTxt, false, "GPTBot", 0, Spoofed}},
		{"impostor denied", deny, req(uaGooglebot, otherAddr, "/public"), want{Deny, Impostor, true, "Googlebot", 0, Spoofed}},
		{"impostor logged", Policy{Disallowed: Refuse}, req(uaGooglebot, otherAddr, "/public"), want{Pass, Impostor, true, "Googlebot", 0, Spoofed}},
		{"impostor logged, judged as claimed", Policy{Disallowed: Refuse}, req(uaGooglebot, otherAddr, "/private/"), want{Deny, Disallowed, true, "Googlebot", 2, Spoofed}},
		{"cannot tell is judged as claimed", deny, req(uaGooglebot, unknownAddr, "/private/x"), want{Deny, Disallowed, true, "Googlebot", 2, CannotTell}},
		{"cannot tell is never an impostor", deny, req(uaGooglebot, unknownAddr, "/public"), want{Pass, Allowed, false, "Googlebot", 0, CannotTell}},
		{"cannot tell, logged", Policy{Disallowed: Refuse, LogUnverified: true}, req(uaGooglebot, unknownAddr, "/private/x"), want{Pass, Disallowed, true, "Googlebot", 2, CannotTell}},
		{"not enforced", Policy{Disallowed: Refuse, Crawlers: []string{"GPTBot"}}, req(uaGooglebot, googleAddr, "/private/x"), want{Pass, NotEnforced, false, "Googlebot", 0, Verified}},
		{"enforced by name", Policy{Disallowed: Refuse, Crawlers: []string{"gptbot"}}, req(uaGPTBot, openAIAddr, "/x"), want{Deny, Disallowed, true, "GPTBot", 6, Verified}},
		{"enforced by purpose", Policy{Disallowed: Refuse, Purposes: []crawlers.Purpose{crawlers.AITrain}}, req(uaGPTBot, openAIAddr, "/x"), want{Deny, Disallowed, true, "GPTBot", 6, Verified}},
		{"purpose not enforced", Policy{Disallowed: Refuse, Purposes: []crawlers.Purpose{crawlers.AITrain}}, req(uaGooglebot, googleAddr, "/private/x"), want{Pass, NotEnforced, false, "Googlebot", 0, Verified}},
		{"impostor of a crawler not enforced", Policy{Impostor: Refuse, Crawlers: []string{"GPTBot"}}, req(uaGooglebot, otherAddr, "/public"), want{Deny, Impostor, true, "Googlebot", 0, Spoofed}},
		{"token the registry lacks", Policy{Disallowed: Refuse, Crawlers: []string{"ExampleBot"}}, req("ExampleBot/3.1 (+https://example.org/bot)", otherAddr, "/private/a"), want{Deny, Disallowed, true, "ExampleBot", 2, CannotTell}},
		{"unknown host", Policy{}, &Request{Method: "GET", Host: "other.example", URI: "/", UserAgent: uaGooglebot, Addr: googleAddr}, want{Deny, UnknownHost, false, "", 0, CannotTell}},
		{"host with port, any case", deny, &Request{Method: "GET", Host: "EXAMPLE.com.:8443", URI: "/private/", UserAgent: uaGooglebot, Addr: googleAddr}, want{Deny, Disallowed, true, "Googlebot", 2, Verified}},
		{"bad URI, fail open", deny, req(uaGooglebot, googleAddr, "private"), want{Pass, BadRequest, false, "", 0, CannotTell}},
		{"bad URI, fail closed", Policy{FailClosed: true}, req(uaGooglebot, googleAddr, "private"), want{Deny, BadRequest, false, "", 0, CannotTell}},
		{"no method", Policy{FailClosed: true}, &Request{Host: "example.com", URI: "/"}, want{Deny, BadRequest, false, "", 0, CannotTell}},
		{"control byte in URI", Policy{FailClosed: true}, req(uaGooglebot, googleAddr, "/a\nb"), want{Deny, BadRequest, false, "", 0, CannotTell}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := New(Config{Sites: []Site{{Host: "example.com", File: file}}, Policy: tt.policy, Verifier: testVerifier})
			if err != nil {
				t.Fatal(err)
			}
			d := g.Decide(context.Background(), tt.r)
			got := want{d.Verdict, d.Reason, d.Violation, d.Crawler, d.Rule.Line, d.Identity.Status}
			if got != tt.want {
				t.Errorf("got %+v, want %+v (err %v)", got, tt.want, d.Err)
			}
			if (tt.want.reason == BadRequest || tt.want.reason == UnknownHost) && d.Err == nil {
				t.Errorf("reason %s without an error", d.Reason)
			}
		})
	}
}

// A crawler that honours Crawl-delay and comes sooner is limited for the rest of
// its delay; one that does not honour it is not judged by it.
func TestCrawlDelay(t *testing.T) {
	file := writeRobots(t, siteRobots)
	c := newClock()
	for _, act := range []Action{Slow, Log, Refuse} {
		t.Run(act.String(), func(t *testing.T) {
			g, err := New(Config{Sites: []Site{{Host: "example.com", File: file}}, Policy: Policy{CrawlDelay: act}, Now: c.now})
			if err != nil {
				t.Fatal(err)
			}
			steps := []struct {
				after   time.Duration
				verdict Verdict
				reason  Reason
				retry   time.Duration
			}{
				{0, Pass, Allowed, 0},
				{500 * time.Millisecond, Pass, TooFast, 1500 * time.Millisecond}, // 2 s asked
				{1600 * time.Millisecond, Pass, Allowed, 0},
				{2 * time.Second, Pass, Allowed, 0},
			}
			if act != Log {
				steps[1].verdict = map[Action]Verdict{Slow: Limit, Refuse: Deny}[act]
			} else {
				// A logged request was made: the next, 1.6 s after it, is too
				// soon as well (as robots logs counts requests in an access log).
				steps[2].reason = TooFast
			}
			for i, s := range steps {
				c.advance(s.after)
				d := g.Decide(context.Background(), req(uaClaudeBot, otherAddr, "/page"))
				if d.Verdict != s.verdict || d.Reason != s.reason {
					t.Fatalf("request %d: got %s %s, want %s %s", i, d.Verdict, d.Reason, s.verdict, s.reason)
				}
				if d.Verdict == Limit && d.RetryAfter != s.retry {
					t.Errorf("request %d: retry after %v, want %v", i, d.RetryAfter, s.retry)
				}
				if d.CrawlDelay != 2*time.Second {
					t.Errorf("request %d: crawl-delay %v, want 2s", i, d.CrawlDelay)
				}
			}
			// GPTBot's group has no Crawl-delay, and Googlebot, judged by the "*"
			// group, would ignore one: neither is paced.
			for range 3 {
				if d := g.Decide(context.Background(), req(uaGooglebot, otherAddr, "/page")); d.Reason != Allowed {
					t.Fatalf("Googlebot: got %s", d.Reason)
				}
			}
		})
	}
}

// A file changed less than Grace ago still allows what it allowed; a local file is
// read again when it changes.
func TestGraceAfterChange(t *testing.T) {
	file := writeRobots(t, "User-agent: *\nDisallow: /old\n")
	c := newClock()
	g, err := New(Config{Sites: []Site{{Host: "example.com", File: file}}, Policy: Policy{Disallowed: Refuse}, Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	check := func(uri string, verdict Verdict, reason Reason, line int) {
		t.Helper()
		d := g.Decide(context.Background(), req(uaGooglebot, otherAddr, uri))
		if d.Verdict != verdict || d.Reason != reason || d.Rule.Line != line {
			t.Errorf("%s: got %s %s line %d, want %s %s line %d", uri, d.Verdict, d.Reason, d.Rule.Line, verdict, reason, line)
		}
	}
	check("/new", Pass, Allowed, 0)
	check("/old", Deny, Disallowed, 2)
	if err := os.WriteFile(file, []byte("User-agent: *\nAllow: /\nDisallow: /new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.advance(FileCheckInterval)
	check("/new", Pass, Grace, 3)
	check("/old", Pass, Allowed, 2)
	c.advance(DefaultGrace)
	check("/new", Deny, Disallowed, 3)
}

// upstream serves robots.txt with the status and body it is set to.
type upstream struct {
	status atomic.Int32
	body   atomic.Value
}

func (u *upstream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/robots.txt" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "max-age=0")
	w.WriteHeader(int(u.status.Load()))
	w.Write([]byte(u.body.Load().(string)))
}

// Fetched from an upstream: unreachable is passed by default and refused with
// FailClosed, except for a verified search crawler; an old copy is used when the
// file cannot be read again, and spares verified search crawlers.
func TestUpstream(t *testing.T) {
	up := &upstream{}
	up.status.Store(503)
	up.body.Store(siteRobots)
	srv := httptest.NewServer(up)
	defer srv.Close()
	c := newClock()
	newGate := func(p Policy) *Gate {
		client := fetch.NewClient(fetch.Config{Now: c.now, MinTTL: time.Second, MaxTTL: time.Second, RetryMin: time.Second, RetryMax: time.Second})
		g, err := New(Config{Sites: []Site{{Host: "example.com", Origin: srv.URL}}, Policy: p, Verifier: testVerifier, Client: client, Now: c.now})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	open, closed := newGate(Policy{Disallowed: Refuse}), newGate(Policy{Disallowed: Refuse, FailClosed: true})
	for _, tt := range []struct {
		name    string
		g       *Gate
		r       *Request
		verdict Verdict
		spared  bool
	}{
		{"fail open", open, req(uaGPTBot, openAIAddr, "/x"), Pass, false},
		{"fail closed", closed, req(uaGPTBot, openAIAddr, "/x"), Deny, false},
		{"fail closed spares verified search", closed, req(uaGooglebot, googleAddr, "/private/x"), Pass, true},
		{"fail closed refuses a search crawler it cannot tell about", closed, req(uaGooglebot, unknownAddr, "/private/x"), Deny, false},
	} {
		d := tt.g.Decide(context.Background(), tt.r)
		if d.Reason != Unreachable || d.Verdict != tt.verdict || d.Spared != tt.spared || d.Err == nil {
			t.Errorf("%s: got %s %s spared=%v err=%v, want %s unreachable spared=%v", tt.name, d.Verdict, d.Reason, d.Spared, d.Err, tt.verdict, tt.spared)
		}
	}
	// The file comes; then the upstream fails again: the copy decides, marked stale.
	up.status.Store(200)
	c.advance(time.Hour)
	if d := closed.Decide(context.Background(), req(uaGPTBot, openAIAddr, "/x")); d.Verdict != Deny || d.Reason != Disallowed || d.Stale {
		t.Fatalf("fresh file: got %s %s stale=%v", d.Verdict, d.Reason, d.Stale)
	}
	up.status.Store(500)
	c.advance(time.Hour)
	d := closed.Decide(context.Background(), req(uaGPTBot, openAIAddr, "/x"))
	if d.Verdict != Deny || d.Reason != Disallowed || !d.Stale || d.Rule.Line != 6 {
		t.Errorf("stale, GPTBot: got %s %s stale=%v line %d, want deny disallowed stale line 6", d.Verdict, d.Reason, d.Stale, d.Rule.Line)
	}
	d = closed.Decide(context.Background(), req(uaGooglebot, googleAddr, "/private/x"))
	if d.Verdict != Pass || d.Reason != Disallowed || !d.Stale || !d.Spared || !d.Violation {
		t.Errorf("stale, verified Googlebot: got %s %s stale=%v spared=%v, want pass disallowed stale spared", d.Verdict, d.Reason, d.Stale, d.Spared)
	}
}

func TestNewErrors(t *testing.T) {
	file := writeRobots(t, siteRobots)
	for _, tt := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"no site", Config{}, "no site"},
		{"missing file", Config{Sites: []Site{{Host: "a.example", File: filepath.Join(t.TempDir(), "none")}}}, "no such file"},
		{"file and origin", Config{Sites: []Site{{Host: "a.example", File: file, Origin: "https://a.example"}}}, "not both"},
		{"bad host", Config{Sites: []Site{{Host: "a.example/x", File: file}}}, "not a host name"},
		{"twice", Config{Sites: []Site{{Host: "a.example", File: file}, {Host: "A.example", File: file}}}, "twice"},
		{"bad origin", Config{Sites: []Site{{Host: "a.example", Origin: "gopher://a.example"}}}, "origin"},
		{"429 for disallowed", Config{Sites: []Site{{Host: "a.example", File: file}}, Policy: Policy{Disallowed: Slow}}, "Crawl-delay"},
	} {
		_, err := New(tt.cfg)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error saying %q", tt.name, err, tt.want)
		}
	}
}

var _ = testenv.InCI

// blockingVerifier waits for its context to end, as verification does while a
// range list or a DNS answer does not come; it reports how long it was given.
type blockingVerifier struct{ given chan time.Duration }

func (v blockingVerifier) Verify(ctx context.Context, r *Request) Identity {
	deadline, ok := ctx.Deadline()
	if !ok {
		v.given <- -1
	} else {
		v.given <- time.Until(deadline)
	}
	<-ctx.Done()
	return Identity{Crawler: robots.ProductToken(r.UserAgent)}
}

// A decision waits at most FetchWait for verification: a slow one cannot hold
// the proxy's request, and what it could not tell is "cannot tell".
func TestVerificationWait(t *testing.T) {
	v := blockingVerifier{given: make(chan time.Duration, 1)}
	g, err := New(Config{Sites: []Site{{Host: "example.com", File: writeRobots(t, siteRobots)}}, Verifier: v,
		FetchWait: 50 * time.Millisecond, Policy: Policy{Disallowed: Refuse}})
	if err != nil {
		t.Fatal(err)
	}
	d := g.Decide(context.Background(), req(uaGPTBot, openAIAddr, "/x"))
	if given := <-v.given; given <= 0 || given > 50*time.Millisecond {
		t.Errorf("verification was given %v, want at most FetchWait (50ms)", given)
	}
	if d.Verdict != Deny || d.Reason != Disallowed || d.Identity.Status != CannotTell {
		t.Errorf("got %s %s %s, want deny disallowed cannot-tell", d.Verdict, d.Reason, d.Identity.Status)
	}
}
