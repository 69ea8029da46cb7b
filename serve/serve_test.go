package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/fetch/boltstore"
	"github.com/gorobots/robots/internal/netguard"
	"github.com/gorobots/robots/internal/testenv"
	"github.com/gorobots/robots/internal/verdictjson"
	"github.com/gorobots/robots/lint"
)

// origin is a real HTTP server on loopback standing for a web site; it counts
// robots.txt requests and serves what the test sets.
type origin struct {
	*httptest.Server
	mu      sync.Mutex
	status  int
	body    string
	header  http.Header
	fetches atomic.Int32
	gate    chan struct{} // when set, robots.txt requests wait for it to close
}

func newOrigin(t *testing.T, status int, body string) *origin {
	o := &origin{status: status, body: body, header: http.Header{}}
	o.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		o.fetches.Add(1)
		o.mu.Lock()
		status, body, gate := o.status, o.body, o.gate
		for k, v := range o.header {
			w.Header()[k] = v
		}
		o.mu.Unlock()
		if gate != nil {
			<-gate
		}
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(o.Close)
	return o
}

func (o *origin) set(status int, body string, header http.Header) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.status, o.body = status, body
	if header == nil {
		header = http.Header{}
	}
	o.header = header
}

// clock is a settable clock for the fetch client.
type clock struct{ ns atomic.Int64 }

func newClock() *clock {
	c := &clock{}
	c.ns.Store(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC).UnixNano())
	return c
}
func (c *clock) now() time.Time          { return time.Unix(0, c.ns.Load()).UTC() }
func (c *clock) advance(d time.Duration) { c.ns.Add(int64(d)) }

// startClocked starts an origin whose robots.txt is body with a lifetime of maxAge
// seconds (Cache-Control), and a server that fetches from private addresses and
// reads the time of the clock it returns.
func startClocked(t *testing.T, body string, maxAge int) (*origin, *Server, *clock) {
	t.Helper()
	o := newOrigin(t, 200, "")
	o.set(200, body, http.Header{"Cache-Control": {fmt.Sprintf("max-age=%d", maxAge)}})
	clk := newClock()
	s, _ := start(t, Config{AllowPrivate: true, Fetch: fetch.Config{Now: clk.now}})
	return o, s, clk
}

// start opens a server on a free loopback port and closes it at the end of the test.
func start(t *testing.T, cfg Config) (*Server, *prometheus.Registry) {
	t.Helper()
	cfg.Addr = "127.0.0.1:0"
	if cfg.Registry == nil {
		cfg.Registry = prometheus.NewRegistry()
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s, cfg.Registry
}

// checkAnswer is a verdict as the API documents it (see verdict.go): the verdict's
// own fields, and its origin under "robots" (GET /v1/check) or by index into the
// answer's "origins" (POST /v1/check; batchAnswer.resolve fills it in).
type checkAnswer struct {
	URL          string  `json:"url"`
	Input        string  `json:"input"`
	Agent        string  `json:"agent"`
	Allowed      *bool   `json:"allowed"`
	Rule         *string `json:"rule"`
	Line         int     `json:"line"`
	Origin       *int    `json:"origin"`
	Error        string  `json:"error"`
	originAnswer `json:"robots"`
}

// originAnswer is how an origin's robots.txt was fetched.
type originAnswer struct {
	OriginURL  string              `json:"origin"`
	RobotsURL  string              `json:"robots_url"`
	Outcome    string              `json:"outcome"`
	Effect     string              `json:"effect"`
	Status     int                 `json:"status"`
	Stale      bool                `json:"stale"`
	FetchedAt  *string             `json:"fetched_at"`
	ExpiresAt  *string             `json:"expires_at"`
	CrawlDelay map[string]*float64 `json:"crawl_delay"`
}

// batchAnswer is the answer of POST /v1/check.
type batchAnswer struct {
	Agent   string         `json:"agent"` // the crawler, when the batch names one
	Origins []originAnswer `json:"origins"`
	Results []checkAnswer  `json:"results"`
}

// resolve gives each result its origin's fields, from the index it refers to.
func (b *batchAnswer) resolve(t *testing.T) {
	t.Helper()
	for i, r := range b.Results {
		if r.Origin == nil {
			continue
		}
		if *r.Origin < 0 || *r.Origin >= len(b.Origins) {
			t.Fatalf("result %d refers to origin %d of %d", i, *r.Origin, len(b.Origins))
		}
		b.Results[i].originAnswer = b.Origins[*r.Origin]
	}
}

func get(t *testing.T, s *Server, path string, v any) int {
	t.Helper()
	resp, err := http.Get("http://" + s.Addr() + path)
	if err != nil {
		t.Fatal(err)
	}
	return decode(t, resp, v)
}

func post(t *testing.T, s *Server, path, body string, v any) int {
	t.Helper()
	resp, err := http.Post("http://"+s.Addr()+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return decode(t, resp, v)
}

// readBody fails t if the request failed (err), else reads and closes resp's body.
func readBody(t *testing.T, resp *http.Response, err error) []byte {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decode(t *testing.T, resp *http.Response, v any) int {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("answer %s: %v", b, err)
	}
	return resp.StatusCode
}

func checkPath(agents []string, u string) string {
	q := url.Values{"agent": agents, "url": {u}}
	return "/v1/check?" + q.Encode()
}

// The file of SPEC §5's examples, with a crawl-delay and a sitemap.
const specFile = `User-agent: *
Allow: /p
Disallow: /
Crawl-delay: 2.5

User-agent: FooBot
Allow: /folder
Disallow: /folder
Allow: /page
Disallow: /*.htm
Allow: /$
Disallow: /bar

User-agent: FooBot-Image
Disallow: /images/

Sitemap: https://example.com/sitemap.xml
`

func TestCheck(t *testing.T) {
	o := newOrigin(t, 200, specFile)
	s, _ := start(t, Config{AllowPrivate: true})
	tests := []struct {
		agents  []string
		path    string
		allowed bool
		line    int
		rule    string
		delay   *float64
	}{
		// SPEC §5 examples (longest match; allow wins ties; $ anchors).
		{[]string{"Googlebot"}, "/page", true, 2, "Allow: /p", ptr(2.5)},
		{[]string{"FooBot"}, "/folder/page", true, 7, "Allow: /folder", nil},
		{[]string{"FooBot"}, "/page.htm", false, 10, "Disallow: /*.htm", nil},
		{[]string{"FooBot"}, "/", true, 11, "Allow: /$", nil},
		{[]string{"foobot"}, "/bar/x", false, 12, "Disallow: /bar", nil},
		{[]string{"FooBot"}, "/other", true, 0, "", nil}, // no rule matches: allowed, "rule": null
		// Several tokens of one crawler (merge_agents): the groups naming any of them
		// apply together.
		{[]string{"FooBot-Image", "FooBot"}, "/images/a.png", false, 15, "Disallow: /images/", nil},
		{[]string{"FooBot-Image", "FooBot"}, "/bar", false, 12, "Disallow: /bar", nil},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.agents, "+")+tt.path, func(t *testing.T) {
			var a checkAnswer
			u := o.URL + tt.path
			path := checkPath(tt.agents, u)
			if len(tt.agents) > 1 {
				path += "&merge_agents=true"
			}
			if code := get(t, s, path, &a); code != 200 {
				t.Fatalf("status %d (%s), want 200", code, a.Error)
			}
			if a.Allowed == nil || *a.Allowed != tt.allowed || a.Line != tt.line {
				t.Errorf("allowed %v line %d, want %v line %d", deref(a.Allowed), a.Line, tt.allowed, tt.line)
			}
			if got := deref(a.Rule); got != tt.rule {
				t.Errorf("rule %q, want %q", got, tt.rule)
			}
			if a.URL != u || a.RobotsURL != o.URL+"/robots.txt" || a.Outcome != "success" || a.Status != 200 {
				t.Errorf("url %q robots_url %q outcome %q status %d, want %q %q success 200", a.URL, a.RobotsURL, a.Outcome, a.Status, u, o.URL+"/robots.txt")
			}
			name := strings.Join(tt.agents, ",")
			if a.Agent != name {
				t.Errorf("agent %q, want %q", a.Agent, name)
			}
			if d, ok := a.CrawlDelay[name]; !ok || (d == nil) != (tt.delay == nil) || d != nil && *d != *tt.delay {
				t.Errorf("crawl_delay %v, want {%q: %v}", a.CrawlDelay, name, tt.delay)
			}
			if a.FetchedAt == nil || a.ExpiresAt == nil {
				t.Errorf("fetched_at %v expires_at %v, want both", a.FetchedAt, a.ExpiresAt)
			}
		})
	}
	if n := o.fetches.Load(); n != 1 {
		t.Errorf("origin fetched %d times for %d checks, want 1", n, len(tests))
	}
}

func ptr[T any](v T) *T { return &v }

func deref[T any](p *T) (v T) {
	if p != nil {
		v = *p
	}
	return v
}

func TestBatch(t *testing.T) {
	ok := newOrigin(t, 200, "User-agent: *\nDisallow: /private/\n")
	missing := newOrigin(t, 404, "not found")
	down := newOrigin(t, 503, "down")
	s, _ := start(t, Config{AllowPrivate: true})

	urls := []string{
		ok.URL + "/a", down.URL + "/a", missing.URL + "/private/a", ok.URL + "/private/b",
		"not a url", down.URL + "/b", missing.URL + "/c", ok.URL + "/private/",
	}
	// SPEC §2: 2xx obey the rules; 4xx allow everything; 5xx disallow everything.
	want := []struct {
		allowed bool
		outcome string
	}{
		{true, "success"}, {false, "unreachable"}, {true, "unavailable"}, {false, "success"},
		{}, {false, "unreachable"}, {true, "unavailable"}, {false, "success"},
	}
	body, _ := json.Marshal(map[string]any{"agent": "Googlebot", "urls": urls})
	var ans batchAnswer
	if code := post(t, s, "/v1/check", string(body), &ans); code != 200 {
		t.Fatalf("status %d, want 200", code)
	}
	ans.resolve(t)
	if len(ans.Origins) != 3 {
		t.Errorf("%d origins, want 3 (each once)", len(ans.Origins))
	}
	if len(ans.Results) != len(urls) {
		t.Fatalf("%d results for %d URLs", len(ans.Results), len(urls))
	}
	for i, r := range ans.Results {
		if r.URL != urls[i] {
			t.Errorf("result %d is for %q, want %q (request order)", i, r.URL, urls[i])
		}
		if urls[i] == "not a url" {
			if r.Error == "" || r.Allowed != nil {
				t.Errorf("result %d: %+v, want an error and no verdict", i, r)
			}
			continue
		}
		if r.Allowed == nil || *r.Allowed != want[i].allowed || r.Outcome != want[i].outcome {
			t.Errorf("result %d (%s): allowed %v outcome %q, want %v %q", i, urls[i], deref(r.Allowed), r.Outcome, want[i].allowed, want[i].outcome)
		}
	}
	for name, o := range map[string]*origin{"ok": ok, "missing": missing, "down": down} {
		if n := o.fetches.Load(); n != 1 {
			t.Errorf("origin %s fetched %d times, want 1", name, n)
		}
	}

	// "agents" instead of "agent".
	body, _ = json.Marshal(map[string]any{"agents": []string{"Googlebot"}, "urls": []string{ok.URL + "/private/x"}})
	ans = batchAnswer{}
	if code := post(t, s, "/v1/check", string(body), &ans); code != 200 || len(ans.Results) != 1 || deref(ans.Results[0].Allowed) {
		t.Errorf("agents form: status %d, results %+v; want one disallowed", code, ans.Results)
	}
}

func TestRobots(t *testing.T) {
	o := newOrigin(t, 200, specFile)
	s, _ := start(t, Config{AllowPrivate: true})
	var a struct {
		RobotsURL string `json:"robots_url"`
		Outcome   string `json:"outcome"`
		Status    int    `json:"status"`
		Groups    []struct {
			Line   int `json:"line"`
			Agents []struct {
				Name string `json:"name"`
			} `json:"agents"`
			Rules      []struct{ Line int } `json:"rules"`
			CrawlDelay *float64             `json:"crawl_delay"`
		} `json:"groups"`
		Sitemaps []string `json:"sitemaps"`
	}
	if code := get(t, s, "/v1/robots?url="+url.QueryEscape(o.URL+"/x"), &a); code != 200 {
		t.Fatalf("status %d", code)
	}
	if a.RobotsURL != o.URL+"/robots.txt" || a.Outcome != "success" || a.Status != 200 {
		t.Errorf("robots_url %q outcome %q status %d", a.RobotsURL, a.Outcome, a.Status)
	}
	// specFile has three groups, at lines 1, 6 and 14, with 2, 6 and 1 rules.
	wantLines, wantRules := []int{1, 6, 14}, []int{2, 6, 1}
	if len(a.Groups) != 3 {
		t.Fatalf("%d groups, want 3", len(a.Groups))
	}
	for i, g := range a.Groups {
		if g.Line != wantLines[i] || len(g.Rules) != wantRules[i] {
			t.Errorf("group %d: line %d with %d rules, want line %d with %d", i, g.Line, len(g.Rules), wantLines[i], wantRules[i])
		}
	}
	if a.Groups[0].CrawlDelay == nil || *a.Groups[0].CrawlDelay != 2.5 || a.Groups[0].Agents[0].Name != "*" {
		t.Errorf("group 0: %+v, want agent * with crawl_delay 2.5", a.Groups[0])
	}
	if len(a.Sitemaps) != 1 || a.Sitemaps[0] != "https://example.com/sitemap.xml" {
		t.Errorf("sitemaps %q", a.Sitemaps)
	}

	// A failed fetch says what kind of failure it was: here nothing listens.
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	var f struct {
		Outcome   string `json:"outcome"`
		Error     string `json:"error"`
		ErrorKind string `json:"error_kind"`
	}
	if code := get(t, s, "/v1/robots?url="+url.QueryEscape(closedURL+"/x"), &f); code != 200 {
		t.Fatalf("closed port: status %d", code)
	}
	if f.Outcome != "unreachable" || f.ErrorKind != "connect" || f.Error == "" {
		t.Errorf("closed port: outcome %q error_kind %q error %q, want unreachable, connect and the error", f.Outcome, f.ErrorKind, f.Error)
	}
}

func TestErrors(t *testing.T) {
	o := newOrigin(t, 200, "User-agent: *\nDisallow: /\n")
	s, _ := start(t, Config{AllowPrivate: true, MaxURLs: 3, MaxBodyBytes: 1 << 10})
	many, _ := json.Marshal(map[string]any{"agent": "a", "urls": []string{o.URL, o.URL, o.URL, o.URL}})
	tests := []struct {
		name, method, path, body string
		code                     int
		msg                      string // a part of the error message
	}{
		{"no agent", "GET", "/v1/check?url=" + url.QueryEscape(o.URL), "", 400, "agent is required"},
		{"no url", "GET", "/v1/check?agent=a", "", 400, "url is required"},
		{"relative url", "GET", "/v1/check?agent=a&url=/x", "", 400, "an absolute URL is needed"},
		{"bad scheme", "GET", "/v1/check?agent=a&url=mailto:x@example.com", "", 400, `scheme "mailto" has no robots.txt`},
		{"long url", "GET", "/v1/check?agent=a&url=" + o.URL + "/" + strings.Repeat("x", MaxURLBytes), "", 400, "limit"},
		{"bad json", "POST", "/v1/check", "{", 400, "request body"},
		{"no urls", "POST", "/v1/check", `{"agent":"a"}`, 400, "urls is required"},
		{"too many urls", "POST", "/v1/check", string(many), 413, "more than the limit of 3"},
		{"body too large", "POST", "/v1/check", `{"agent":"a","urls":["` + strings.Repeat("x", 2<<10) + `"]}`, 413, "too large"},
		{"lint body too large", "POST", "/v1/lint", strings.Repeat("Disallow: /\n", 200), 413, "too large"},
		{"unknown endpoint", "GET", "/v1/nothing", "", 404, "no API endpoint"},
		{"wrong method", "DELETE", "/v1/check", "", 405, "DELETE /v1/check: method not allowed (allowed: GET, HEAD, POST)"},
		{"wrong method for lint", "GET", "/v1/lint", "", 405, "allowed: POST"},
		{"unknown dialect", "GET", "/v1/check?agent=a&dialect=bing&url=" + url.QueryEscape(o.URL), "", 400, `dialect: unknown dialect "bing"`},
		{"unknown dialect in a batch", "POST", "/v1/check", `{"agent":"a","urls":["` + o.URL + `"],"dialect":"bing"}`, 400, `dialect: unknown dialect "bing"`},
		{"merge_agents not a bool", "POST", "/v1/check", `{"agent":"a","urls":["` + o.URL + `"],"merge_agents":"yes"}`, 400, "merge_agents"},
		{"two agents in a GET", "GET", "/v1/check?agent=a&agent=b&url=" + url.QueryEscape(o.URL), "", 400, "one agent per GET /v1/check"},
		{"not a URL", "GET", "/v1/check?agent=a&url=search", "", 400, `"search": not a URL`},
		// Unknown fields are refused, as POST /v1/audit refuses them.
		{"unknown field in a batch", "POST", "/v1/check", `{"agent":"a","urls":["` + o.URL + `"],"agnets":["b"]}`, 400, `unknown field "agnets"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, "http://"+s.Addr()+tt.path, strings.NewReader(tt.body))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var e struct{ Error string }
			code := decode(t, resp, &e)
			if code != tt.code || !strings.Contains(e.Error, tt.msg) {
				t.Errorf("%d %q, want %d with %q", code, e.Error, tt.code, tt.msg)
			}
			if allow := resp.Header.Get("Allow"); (code == 405) != (allow != "") {
				t.Errorf("status %d with Allow %q: a 405, and only a 405, names the methods", code, allow)
			}
		})
	}
}

func TestTokens(t *testing.T) {
	o := newOrigin(t, 200, "User-agent: *\nDisallow: /\n")
	s, _ := start(t, Config{AllowPrivate: true, Tokens: []string{"s3cret", "other"}})
	path := checkPath([]string{"a"}, o.URL+"/")
	for _, tt := range []struct {
		name string
		auth string
		code int
	}{
		{"no header", "", 401},
		{"wrong token", "Bearer wrong", 401},
		{"no scheme", "s3cret", 401},
		{"first token", "Bearer s3cret", 200},
		{"second token", "Bearer other", 200},
		// RFC 9110 §11.1: the scheme is case-insensitive.
		{"lower-case scheme", "bearer s3cret", 200},
		{"upper-case scheme", "BEARER other", 200},
		{"other scheme", "Basic s3cret", 401},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", "http://"+s.Addr()+path, nil)
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var a checkAnswer
			if code := decode(t, resp, &a); code != tt.code {
				t.Errorf("Authorization %q: status %d, want %d", tt.auth, code, tt.code)
			}
		})
	}
	// The page and health check stay open.
	for _, p := range []string{"/healthz", "/"} {
		t.Run("open "+p, func(t *testing.T) {
			resp, err := http.Get("http://" + s.Addr() + p)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Errorf("GET %s without token: %d, want 200", p, resp.StatusCode)
			}
		})
	}
}

// TestLint: the API gives exactly the findings of package lint, as JSON.
func TestLint(t *testing.T) {
	s, _ := start(t, Config{})
	body := "User-agent: *\nDisalow: /x\nCrawl-delay: soon\n"
	var got []lint.Finding
	if code := post(t, s, "/v1/lint", body, &got); code != 200 {
		t.Fatalf("status %d", code)
	}
	want := lint.Check("robots.txt", []byte(body))
	if len(want) == 0 {
		t.Fatal("lint finds nothing in a file with a misspelling and a bad crawl-delay")
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("findings %+v, want %+v", got, want)
	}
}

// TestMaxAge: Cache-Control max-age sets the lifetime; past it the file is fetched again.
func TestMaxAge(t *testing.T) {
	o, s, clk := startClocked(t, "User-agent: *\nDisallow: /old/\n", 120)
	var a checkAnswer
	get(t, s, checkPath([]string{"a"}, o.URL+"/old/x"), &a)
	if deref(a.Allowed) || deref(a.FetchedAt) != "2026-11-21T12:00:00Z" || deref(a.ExpiresAt) != "2026-11-21T12:02:00Z" {
		t.Fatalf("first check: allowed %v fetched_at %v expires_at %v; want false, 12:00:00, 12:02:00", deref(a.Allowed), deref(a.FetchedAt), deref(a.ExpiresAt))
	}
	o.set(200, "User-agent: *\nDisallow: /new/\n", nil)
	clk.advance(119 * time.Second)
	get(t, s, checkPath([]string{"a"}, o.URL+"/old/x"), &a)
	if deref(a.Allowed) || o.fetches.Load() != 1 {
		t.Errorf("within max-age: allowed %v after %d fetches; want the cached file (false, 1 fetch)", deref(a.Allowed), o.fetches.Load())
	}
	clk.advance(2 * time.Second)
	get(t, s, checkPath([]string{"a"}, o.URL+"/old/x"), &a)
	if !deref(a.Allowed) || o.fetches.Load() != 2 || deref(a.FetchedAt) != "2026-11-21T12:02:01Z" {
		t.Errorf("past max-age: allowed %v after %d fetches, fetched_at %v; want the new file (true, 2 fetches, 12:02:01)", deref(a.Allowed), o.fetches.Load(), deref(a.FetchedAt))
	}
	// The default lifetime without max-age is 24 hours (SPEC §2).
	if deref(a.ExpiresAt) != "2026-11-22T12:02:01Z" {
		t.Errorf("expires_at %v, want 24 hours later", deref(a.ExpiresAt))
	}
}

// TestFailedRefreshKeepsCopy: when a refresh finds the origin unreachable, the
// cached copy keeps deciding (SPEC §2).
func TestFailedRefreshKeepsCopy(t *testing.T) {
	o, s, clk := startClocked(t, "User-agent: *\nDisallow: /private/\n", 60)
	var a checkAnswer
	get(t, s, checkPath([]string{"a"}, o.URL+"/public"), &a)
	o.set(503, "busy", nil)
	clk.advance(61 * time.Second)
	for _, tt := range []struct {
		path    string
		allowed bool
	}{{"/public", true}, {"/private/x", false}} {
		t.Run(tt.path, func(t *testing.T) {
			var a checkAnswer
			get(t, s, checkPath([]string{"a"}, o.URL+tt.path), &a)
			if deref(a.Allowed) != tt.allowed || a.Outcome != "unreachable" || a.Status != 503 || !a.Stale || a.Effect != "rules" {
				t.Errorf("%s after a failed refresh: %+v; want allowed %v by the cached copy (outcome unreachable, status 503, stale)", tt.path, a, tt.allowed)
			}
		})
	}
	if n := o.fetches.Load(); n != 2 {
		t.Errorf("%d fetches, want 2", n)
	}
}

// TestSingleflight: 30 concurrent checks of one origin make one fetch.
func TestSingleflight(t *testing.T) {
	const n = 30
	o := newOrigin(t, 200, "User-agent: *\nDisallow: /x\n")
	gate := make(chan struct{})
	o.gate = gate
	s, reg := start(t, Config{AllowPrivate: true})
	var wg sync.WaitGroup
	answers := make([]checkAnswer, n)
	codes := make([]int, n)
	for i := range n {
		wg.Go(func() {
			codes[i] = get(t, s, checkPath([]string{"a"}, fmt.Sprintf("%s/x%d", o.URL, i)), &answers[i])
		})
	}
	// Hold the fetch until every request has missed the cache and waits.
	deadline := time.Now().Add(10 * time.Second)
	for counter(t, reg, "robots_cache_misses_total") < n && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	close(gate)
	wg.Wait()
	for i := range n {
		if codes[i] != 200 || deref(answers[i].Allowed) {
			t.Errorf("request %d: status %d allowed %v, want 200 false", i, codes[i], deref(answers[i].Allowed))
		}
	}
	if f := o.fetches.Load(); f != 1 {
		t.Errorf("%d fetches for %d concurrent checks, want 1", f, n)
	}
	if w := counter(t, reg, "robots_singleflight_waits_total"); w != n-1 {
		t.Errorf("robots_singleflight_waits_total = %v, want %d", w, n-1)
	}
	if f := counter(t, reg, "robots_fetches_total"); f != 1 {
		t.Errorf("robots_fetches_total = %v, want 1", f)
	}
}

// counter sums a metric's series.
func counter(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	sum := 0.0
	for _, m := range series(t, reg, name) {
		sum += metricValue(m)
	}
	return sum
}

// series gathers reg and returns the series of the metric called name (none if
// it has none).
func series(t *testing.T, reg *prometheus.Registry, name string) []*dto.Metric {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var ms []*dto.Metric
	for _, mf := range mfs {
		if mf.GetName() == name {
			ms = append(ms, mf.GetMetric()...)
		}
	}
	return ms
}

func metricValue(m *dto.Metric) float64 {
	switch {
	case m.Counter != nil:
		return m.Counter.GetValue()
	case m.Histogram != nil:
		return float64(m.Histogram.GetSampleCount())
	}
	return 0
}

func TestMetricsEndpoint(t *testing.T) {
	o := newOrigin(t, 200, "User-agent: *\nDisallow: /x\n")
	s, _ := start(t, Config{AllowPrivate: true})
	var a checkAnswer
	get(t, s, checkPath([]string{"a"}, o.URL+"/x"), &a)
	get(t, s, checkPath([]string{"a"}, o.URL+"/y"), &a)
	resp, err := http.Get("http://" + s.Addr() + "/metrics")
	b := readBody(t, resp, err)
	for _, want := range []string{
		`robots_http_requests_total{code="200",handler="check"} 2`,
		`robots_decisions_total{verdict="allowed"} 1`,
		`robots_decisions_total{verdict="disallowed"} 1`,
		`robots_fetches_total{outcome="success"} 1`,
		`robots_cache_hits_total 1`,
		`robots_cache_misses_total 1`,
		`robots_singleflight_waits_total 0`,
		`robots_fetch_duration_seconds_count 1`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

// TestRefused: without AllowPrivate the server fetches nothing from loopback, by
// literal address, by a name that resolves to loopback, or by a redirect.
func TestRefused(t *testing.T) {
	private := newOrigin(t, 200, "User-agent: *\nDisallow: /\n")
	_, port, _ := net.SplitHostPort(private.Listener.Addr().String())
	// A "public" site that redirects its robots.txt to the private one. The test's
	// dialer stands in for public DNS: public.test goes to the redirecting server;
	// every other address goes through the guard.
	redirector := httptest.NewServer(http.RedirectHandler("http://localhost:"+port+"/robots.txt", http.StatusMovedPermanently))
	defer redirector.Close()
	guarded := netguard.Dialer(false)
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		if strings.HasPrefix(addr, "public.test:") {
			var d net.Dialer
			return d.DialContext(ctx, network, redirector.Listener.Addr().String())
		}
		return guarded.DialContext(ctx, network, addr)
	}
	s, _ := start(t, Config{Fetch: fetch.Config{DialContext: dial}})

	for _, tc := range []struct{ name, target string }{
		{"literal loopback", private.URL + "/x"},
		{"literal IPv6 loopback", "http://[::1]:" + port + "/x"},
		{"name of loopback", "http://localhost:" + port + "/x"},
		{"redirect to localhost", "http://public.test/x"},
		{"link-local metadata address", "http://169.254.169.254/latest/meta-data/"},
		{"private address", "http://10.0.0.1/x"},
		// Read as a browser reads them (the URL Standard's IPv4 parser), then refused.
		{"hex loopback", "http://0x7f000001:" + port + "/x"},
		{"decimal loopback", "http://2130706433:" + port + "/x"},
		{"short loopback", "http://127.1:" + port + "/x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var a checkAnswer
			code := get(t, s, checkPath([]string{"a"}, tc.target), &a)
			// The refusal names what lifts it (issue 28).
			if code != 403 || !strings.Contains(a.Error, "refusing to connect") || !strings.Contains(a.Error, "-allow-private") {
				t.Errorf("%s: status %d %q, want 403 refusing to connect, naming -allow-private", tc.target, code, a.Error)
			}
		})
	}
	if n := private.fetches.Load(); n != 0 {
		t.Errorf("the private origin was fetched %d times, want 0", n)
	}
	// A refusal is not cached as "unreachable": asked again, the answer is the same,
	// by name and through a redirect.
	for _, tc := range []struct{ name, target string }{
		{"again by name", "http://localhost:" + port + "/y"},
		{"again through a redirect", "http://public.test/y"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var a checkAnswer
			if code := get(t, s, checkPath([]string{"a"}, tc.target), &a); code != 403 {
				t.Errorf("second ask of %s: status %d, want 403", tc.target, code)
			}
		})
	}
}

// TestRefusedSharedStore: a replica started with AllowPrivate, sharing the store of
// one that refused an origin, fetches the origin and decides by its file, rather than
// reading a cached "unreachable, disallow all".
func TestRefusedSharedStore(t *testing.T) {
	o := newOrigin(t, 200, "User-agent: *\nDisallow: /private/\n")
	_, port, _ := net.SplitHostPort(o.Listener.Addr().String())
	target := "http://localhost:" + port
	store := fetch.NewMemoryStore(0)
	guarded, _ := start(t, Config{Fetch: fetch.Config{Store: store}})
	open, _ := start(t, Config{Fetch: fetch.Config{Store: store}, AllowPrivate: true})

	var a checkAnswer
	if code := get(t, guarded, checkPath([]string{"a"}, target+"/public/x"), &a); code != 403 {
		t.Fatalf("guarded replica: status %d %q, want 403", code, a.Error)
	}
	if code := get(t, open, checkPath([]string{"a"}, target+"/public/x"), &a); code != 200 || !deref(a.Allowed) || a.Outcome != "success" {
		t.Errorf("replica with AllowPrivate: status %d allowed %v outcome %q, want 200, allowed by the file", code, deref(a.Allowed), a.Outcome)
	}
	if code := get(t, open, checkPath([]string{"a"}, target+"/private/x"), &a); code != 200 || deref(a.Allowed) {
		t.Errorf("replica with AllowPrivate: /private/x status %d allowed %v, want 200, disallowed", code, deref(a.Allowed))
	}
	if n := o.fetches.Load(); n != 1 {
		t.Errorf("%d fetches of the origin, want 1 (by the replica with AllowPrivate)", n)
	}
	// The other way round: the guarded replica does not serve what the other one
	// fetched from a private address, although the store holds it fresh.
	if code := get(t, guarded, checkPath([]string{"a"}, target+"/public/x"), &a); code != 403 {
		t.Errorf("guarded replica after the other fetched: status %d, want 403", code)
	}
	var rb struct{ Error string }
	if code := get(t, guarded, "/v1/robots?url="+url.QueryEscape(target+"/"), &rb); code != 403 {
		t.Errorf("guarded replica, /v1/robots: status %d, want 403", code)
	}
}

// TestRestart: with the embedded store, a restarted server decides from what it
// stored without fetching again.
func TestRestart(t *testing.T) {
	o := newOrigin(t, 200, "User-agent: *\nDisallow: /private/\n")
	path := filepath.Join(t.TempDir(), "cache.bolt")
	run := func() checkAnswer {
		st, err := boltstore.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		s, err := New(Config{Addr: "127.0.0.1:0", AllowPrivate: true, Fetch: fetch.Config{Store: st}})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Open(); err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		var a checkAnswer
		if code := get(t, s, checkPath([]string{"a"}, o.URL+"/private/x"), &a); code != 200 {
			t.Fatalf("status %d: %s", code, a.Error)
		}
		return a
	}
	first := run()
	second := run()
	if deref(second.Allowed) || deref(second.FetchedAt) != deref(first.FetchedAt) {
		t.Errorf("after restart: allowed %v fetched_at %v, want false and the first fetch's %v", deref(second.Allowed), deref(second.FetchedAt), deref(first.FetchedAt))
	}
	if n := o.fetches.Load(); n != 1 {
		t.Errorf("%d fetches across a restart, want 1", n)
	}
}

func TestCloseWaitsForRequests(t *testing.T) {
	o := newOrigin(t, 200, "User-agent: *\nDisallow: /x\n")
	gate := make(chan struct{})
	o.gate = gate
	s, err := New(Config{Addr: "127.0.0.1:0", AllowPrivate: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	done := make(chan int)
	go func() {
		var a checkAnswer
		done <- get(t, s, checkPath([]string{"a"}, o.URL+"/x"), &a)
	}()
	for o.fetches.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	closed := make(chan error)
	go func() { closed <- s.Close() }()
	time.Sleep(50 * time.Millisecond)
	close(gate)
	if code := <-done; code != 200 {
		t.Errorf("request in progress during Close: status %d, want 200", code)
	}
	if err := <-closed; err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := http.Get("http://" + s.Addr() + "/healthz"); err == nil {
		t.Error("server still answers after Close")
	}
}

// TestTesterFetch: the web tester shows the fetched file itself, also when the store
// keeps nothing (here one too small for any entry): the body comes with the result.
func TestTesterFetch(t *testing.T) {
	const file = "User-agent: *\nDisallow: /only-in-the-fetched-file/\n"
	o := newOrigin(t, 200, file)
	s, _ := start(t, Config{AllowPrivate: true, Fetch: fetch.Config{Store: fetch.NewMemoryStore(1)}})
	resp, err := http.PostForm("http://"+s.Addr()+"/", url.Values{
		"fetch_url": {o.URL + "/"},
		"agent":     {"Googlebot"},
		"urls":      {"/only-in-the-fetched-file/x"},
	})
	b := readBody(t, resp, err)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	if n := strings.Count(string(b), "Disallow: /only-in-the-fetched-file/"); n < 1 {
		t.Errorf("the page does not show the fetched file's line %q", "Disallow: /only-in-the-fetched-file/")
	}
}

// TestTesterDialect: the tester reads a pasted file as the chosen interpretation
// (SPEC §6: the 1996 draft takes the first matching rule).
func TestTesterDialect(t *testing.T) {
	s, _ := start(t, Config{AllowPrivate: true})
	post := func(dialect string) (int, string) {
		resp, err := http.PostForm("http://"+s.Addr()+"/", url.Values{
			"robots":  {"User-agent: *\nDisallow: /a\nAllow: /a/b\n"},
			"agent":   {"Googlebot"},
			"urls":    {"/a/b"},
			"dialect": {dialect},
		})
		b := readBody(t, resp, err)
		return resp.StatusCode, string(b)
	}
	tests := []struct {
		name, dialect, want string
	}{
		{"default", "", `class="v allowed" href="#a3"`},
		{"google", "google", `class="v allowed" href="#a3"`},
		{"legacy1996", "legacy1996", `class="v disallowed" href="#a2"`},
		{"legacy1994", "legacy1994", `class="v disallowed" href="#a2"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, page := post(tt.dialect)
			if code != 200 || !strings.Contains(page, tt.want) {
				t.Errorf("dialect %q: status %d, page lacks %q", tt.dialect, code, tt.want)
			}
		})
	}
	t.Run("unknown", func(t *testing.T) {
		if code, _ := post("bing"); code != http.StatusBadRequest {
			t.Errorf("unknown dialect: status %d, want 400", code)
		}
	})
}

// TestAPIContract: the shapes of the command contract (issue 12) in the API: URLs as
// people type them are decided as a browser requests them, several crawlers get a
// verdict each, dialect is honoured, and a batch gives each origin once.
func TestAPIContract(t *testing.T) {
	o := newOrigin(t, 200, "User-agent: Googlebot\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /caf%C3%A9/\nAllow: /caf%C3%A9/x\nDisallow: /caf\n")
	s, _ := start(t, Config{AllowPrivate: true})

	t.Run("non-ASCII URL", func(t *testing.T) {
		var a checkAnswer
		typed := o.URL + "/café/menu?q=é"
		if code := get(t, s, checkPath([]string{"OtherBot"}, typed), &a); code != 200 {
			t.Fatalf("status %d %q", code, a.Error)
		}
		// The browser requests /caf%C3%A9/menu: Disallow: /caf%C3%A9/ (line 8) is the
		// longest match.
		want := o.URL + "/caf%C3%A9/menu?q=%C3%A9"
		if a.URL != want || a.Input != typed || deref(a.Allowed) || deref(a.Rule) != "Disallow: /caf%C3%A9/" || a.Line != 8 {
			t.Errorf("got url %q input %q allowed %v rule %q line %d; want %q, %q, false, Disallow: /caf%%C3%%A9/, 8", a.URL, a.Input, deref(a.Allowed), deref(a.Rule), a.Line, want, typed)
		}
	})

	t.Run("several crawlers", func(t *testing.T) {
		var ans batchAnswer
		body := `{"agents":["Googlebot","GPTBot"],"urls":["` + o.URL + `/a"]}`
		if code := post(t, s, "/v1/check", body, &ans); code != 200 {
			t.Fatalf("status %d", code)
		}
		if len(ans.Results) != 2 || ans.Results[0].Agent != "Googlebot" || !deref(ans.Results[0].Allowed) ||
			ans.Results[1].Agent != "GPTBot" || deref(ans.Results[1].Allowed) || ans.Results[1].Line != 5 {
			t.Errorf("results %+v; want Googlebot allowed, then GPTBot disallowed by line 5", ans.Results)
		}
		// merge_agents: one crawler obeying both groups; "Allow: /" and "Disallow: /"
		// tie and allow wins (SPEC §5).
		ans = batchAnswer{}
		body = `{"agents":["Googlebot","GPTBot"],"merge_agents":true,"urls":["` + o.URL + `/a"]}`
		if code := post(t, s, "/v1/check", body, &ans); code != 200 || len(ans.Results) != 1 ||
			ans.Agent != "Googlebot,GPTBot" || !deref(ans.Results[0].Allowed) {
			t.Errorf("merged: status %d results %+v; want one verdict for Googlebot,GPTBot, allowed", code, ans.Results)
		}
	})

	t.Run("dialect", func(t *testing.T) {
		// /caf%C3%A9/x: Google takes the longest match (Allow: /caf%C3%A9/x, line 9);
		// the 1996 draft the first that matches (Disallow: /caf%C3%A9/, line 8).
		for _, tt := range []struct {
			name    string
			dialect string
			allowed bool
			line    int
		}{{"default", "", true, 9}, {"google", "google", true, 9}, {"legacy1996", "legacy1996", false, 8}} {
			t.Run(tt.name, func(t *testing.T) {
				var a checkAnswer
				path := checkPath([]string{"OtherBot"}, o.URL+"/caf%C3%A9/x") + "&dialect=" + tt.dialect
				if code := get(t, s, path, &a); code != 200 || deref(a.Allowed) != tt.allowed || a.Line != tt.line {
					t.Errorf("dialect %q: status %d allowed %v line %d; want %v by line %d", tt.dialect, code, deref(a.Allowed), a.Line, tt.allowed, tt.line)
				}
				var ans batchAnswer
				body := `{"agent":"OtherBot","dialect":"` + tt.dialect + `","urls":["` + o.URL + `/caf%C3%A9/x"]}`
				if code := post(t, s, "/v1/check", body, &ans); code != 200 || len(ans.Results) != 1 ||
					deref(ans.Results[0].Allowed) != tt.allowed || ans.Results[0].Line != tt.line {
					t.Errorf("batch, dialect %q: status %d results %+v; want %v by line %d", tt.dialect, code, ans.Results, tt.allowed, tt.line)
				}
			})
		}
	})

	t.Run("each origin once", func(t *testing.T) {
		// 1,000 URLs over 5 origins (names of one loopback server), as a crawler
		// sends them: the repeated origin fields are given once, so a result is
		// well under 100 bytes.
		_, port, _ := net.SplitHostPort(o.Listener.Addr().String())
		var urls []string
		for i := range 1000 {
			urls = append(urls, fmt.Sprintf("http://127.0.0.%d:%s/p/%d", 1+i%5, port, i))
		}
		body, _ := json.Marshal(map[string]any{"agent": "Googlebot", "urls": urls})
		resp, err := http.Post("http://"+s.Addr()+"/v1/check", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var ans batchAnswer
		if err := json.Unmarshal(raw, &ans); err != nil {
			t.Fatalf("%v: %s", err, raw)
		}
		if ans.Agent != "Googlebot" || len(ans.Results) > 0 && ans.Results[0].Agent != "" {
			t.Errorf("agent %q at the top; want the one crawler named once, at the top, and not in each result", ans.Agent)
		}
		if len(ans.Origins) != 5 || len(ans.Results) != 1000 {
			t.Fatalf("%d origins and %d results, want 5 and 1000", len(ans.Origins), len(ans.Results))
		}
		if per := len(raw) / len(urls); per >= 100 {
			t.Errorf("%d bytes per result, want well under 100", per)
		} else {
			t.Logf("%d bytes for %d results: %d per result", len(raw), len(urls), per)
		}
	})
}

// TestFetchShape: a fetch has one shape and one set of names, fetch.Report's, in
// GET /v1/robots as in the robots command; times are UTC to the second.
func TestFetchShape(t *testing.T) {
	o := newOrigin(t, 200, "User-agent: *\nDisallow: /private/\n")
	s, _ := start(t, Config{AllowPrivate: true})
	var a map[string]any
	if code := get(t, s, "/v1/robots?url="+url.QueryEscape(o.URL+"/x"), &a); code != 200 {
		t.Fatalf("status %d: %v", code, a)
	}
	for _, k := range []string{"origin", "robots_url", "status", "outcome", "effect", "stale", "hops", "bytes_read", "wire_bytes", "truncated", "fetched_at", "expires_at", "last_success"} {
		if _, ok := a[k]; !ok {
			t.Errorf("no %q in %v", k, a)
		}
	}
	for _, k := range []string{"bytes", "err_kind", "fetch_error_kind"} {
		if _, ok := a[k]; ok {
			t.Errorf("old name %q in %v", k, a)
		}
	}
	if at, _ := a["fetched_at"].(string); !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`).MatchString(at) {
		t.Errorf("fetched_at %q, want RFC 3339 in UTC to the second", at)
	}
}

// TestAdmission: at most MaxBatches checks are answered at once (issue 14, item 5;
// single checks too since issue 34); past it a batch or a single check is answered
// 503 with Retry-After at once, while /healthz goes on; once a batch ends, the next
// is admitted.
func TestAdmission(t *testing.T) {
	o := newOrigin(t, 200, "User-agent: *\nDisallow: /private/\n")
	gate := make(chan struct{})
	o.mu.Lock()
	o.gate = gate
	o.mu.Unlock()
	s, reg := start(t, Config{AllowPrivate: true, MaxBatches: 1})
	body := `{"agent":"a","urls":["` + o.URL + `/private/x"]}`
	first := make(chan int, 1)
	go func() {
		var ans batchAnswer
		first <- post(t, s, "/v1/check", body, &ans)
	}()
	testenv.WaitFor(t, func() bool { return o.fetches.Load() == 1 }) // the first batch holds its place, waiting for the origin

	resp, err := http.Post("http://"+s.Addr()+"/v1/check", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var e struct{ Error string }
	if code := decode(t, resp, &e); code != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !strings.Contains(e.Error, "limit") {
		t.Errorf("second batch: %d, Retry-After %q, %q; want 503 with Retry-After and the limit named", code, resp.Header.Get("Retry-After"), e.Error)
	}
	if code := get(t, s, checkPath([]string{"a"}, o.URL+"/x"), &e); code != http.StatusServiceUnavailable || !strings.Contains(e.Error, "-max-batches") {
		t.Errorf("single check during the batch: %d %q, want 503 naming -max-batches", code, e.Error)
	}
	var h map[string]any
	if code := get(t, s, "/healthz", &h); code != 200 {
		t.Errorf("/healthz during the batch: %d, want 200", code)
	}
	close(gate)
	if code := <-first; code != 200 {
		t.Errorf("first batch: %d, want 200", code)
	}
	var ans batchAnswer
	if code := post(t, s, "/v1/check", body, &ans); code != 200 || len(ans.Results) != 1 || deref(ans.Results[0].Allowed) {
		t.Errorf("batch after the first ended: %d %+v, want 200 and one disallowed", code, ans.Results)
	}
	if n := counter(t, reg, "robots_batches_rejected_total"); n != 2 {
		t.Errorf("robots_batches_rejected_total = %v, want 2", n)
	}
}

// TestSameOrigin: a page of another site cannot use a local instance through a
// visitor's browser (issue 14, item 7): cross-site requests that fetch or post are
// refused, and on a loopback listener a Host that is not loopback (DNS rebinding)
// is refused; programs, which send no Origin, are not affected.
func TestSameOrigin(t *testing.T) {
	o := newOrigin(t, 200, "User-agent: *\nDisallow: /private/\n")
	s, _ := start(t, Config{AllowPrivate: true})
	check := checkPath([]string{"a"}, o.URL+"/x")
	batch := `{"agent":"a","urls":["` + o.URL + `/x"]}`
	for _, tt := range []struct {
		name, method, path, body string
		header                   map[string]string
		host                     string
		code                     int
	}{
		{"program GET", "GET", check, "", nil, "", 200},
		{"program POST", "POST", "/v1/check", batch, nil, "", 200},
		{"same-origin POST", "POST", "/v1/check", batch, map[string]string{"Origin": "http://" + s.Addr(), "Sec-Fetch-Site": "same-origin"}, "", 200},
		{"cross-site form POST", "POST", "/v1/check", batch, map[string]string{"Origin": "https://evil.example", "Content-Type": "text/plain"}, "", 403},
		{"cross-site tester POST", "POST", "/", "fetch_url=https://example.com/", map[string]string{"Origin": "https://evil.example", "Content-Type": "application/x-www-form-urlencoded"}, "", 403},
		{"cross-site GET that fetches", "GET", check, "", map[string]string{"Sec-Fetch-Site": "cross-site"}, "", 403},
		{"opaque origin", "POST", "/v1/lint", "User-agent: *", map[string]string{"Origin": "null"}, "", 403},
		{"own form under no-referrer", "POST", "/v1/lint", "User-agent: *", map[string]string{"Origin": "null", "Sec-Fetch-Site": "same-origin"}, "", 200},
		{"cross-site GET of the page", "GET", "/", "", map[string]string{"Sec-Fetch-Site": "cross-site"}, "", 200},
		{"cross-site GET of the audit page", "GET", "/?mode=audit", "", map[string]string{"Sec-Fetch-Site": "cross-site"}, "", 200},
		{"cross-site audit", "POST", "/v1/audit", `{"url":"` + o.URL + `"}`, map[string]string{"Sec-Fetch-Site": "cross-site", "Content-Type": "text/plain"}, "", 403},
		{"cross-site tester audit", "POST", "/", "mode=audit&audit_url=https://example.com/&agent=Googlebot", map[string]string{"Origin": "https://evil.example", "Content-Type": "application/x-www-form-urlencoded"}, "", 403},
		{"cross-site health", "GET", "/healthz", "", map[string]string{"Sec-Fetch-Site": "cross-site"}, "", 200},
		{"same-site page on another port", "POST", "/v1/lint", "User-agent: *", map[string]string{"Origin": "http://127.0.0.1:1", "Sec-Fetch-Site": "same-site"}, "", 403},
		{"same-site without Origin", "GET", check, "", map[string]string{"Sec-Fetch-Site": "same-site"}, "", 403},
		{"same-site from its own origin", "POST", "/v1/lint", "User-agent: *", map[string]string{"Origin": "http://" + s.Addr(), "Sec-Fetch-Site": "same-site"}, "", 200},
		{"rebound name", "GET", "/healthz", "", nil, "evil.example:8080", 421},
		{"localhost", "GET", "/healthz", "", nil, "localhost:8080", 200},
		{"IPv6 loopback", "GET", "/healthz", "", nil, "[::1]:8080", 200},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, "http://"+s.Addr()+tt.path, strings.NewReader(tt.body))
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			if tt.host != "" {
				req.Host = tt.host
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.code {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.code)
			}
			// A refusal of the API is JSON, as its every error; of a page, text.
			if resp.StatusCode >= 400 && strings.HasPrefix(tt.path, "/v1/") {
				var e struct{ Error string }
				if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") || json.Unmarshal(body, &e) != nil || e.Error == "" {
					t.Errorf("refusal %s %q, want JSON {\"error\": …}", ct, body)
				}
			}
		})
	}
}

// TestCheckUsage: GET and POST /v1/check carry "usage" where a Content-Usage or
// Content-Signal line applies (the attach draft's example file: /test train-ai=n by
// line 4, /ai-ok/test train-ai=y by line 5, none for /never/test, which may not be
// fetched), and leave it out otherwise, for files that state none too.
func TestCheckUsage(t *testing.T) {
	o := newOrigin(t, 200, "User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\nContent-Signal: ai-train=no\n")
	plain := newOrigin(t, 200, "User-agent: *\nDisallow: /x\n")
	s, _ := start(t, Config{AllowPrivate: true})
	type usageAnswer struct {
		URL   string             `json:"url"`
		Usage *verdictjson.Usage `json:"usage"`
	}
	said := func(u *verdictjson.Usage) string {
		if u == nil {
			return "none"
		}
		return robots.Usage{ContentUsage: u.ContentUsage, ContentSignal: u.ContentSignal}.String() + fmt.Sprintf(" %v", u.Lines)
	}
	want := map[string]string{
		o.URL + "/test":        "train-ai=n (line 4), ai-train=no (line 6) [4 6]",
		o.URL + "/ai-ok/test":  "train-ai=y (line 5), ai-train=no (line 6) [5 6]",
		o.URL + "/never/test":  "none",
		plain.URL + "/a":       "none",
		plain.URL + "/x/never": "none",
	}
	// The lines a verdict names are stated once, beside it.
	type stated struct {
		Origin *int `json:"origin"`
		robots.UsageLine
	}
	statedText := func(ls []stated) string {
		var out []string
		for _, l := range ls {
			o := "-"
			if l.Origin != nil {
				o = strconv.Itoa(*l.Origin)
			}
			out = append(out, fmt.Sprintf("%s:%d %q %q %v", o, l.Line, l.Path, l.Statement, l.Signal))
		}
		return strings.Join(out, "; ")
	}
	wantStated := map[string]string{
		o.URL + "/test":       `-:4 "" "train-ai=n" false; -:6 "" "ai-train=no" true`,
		o.URL + "/ai-ok/test": `-:5 "/ai-ok/" "train-ai=y" false; -:6 "" "ai-train=no" true`,
	}
	for u, w := range want {
		var a struct {
			usageAnswer
			Lines []stated `json:"usage_lines"`
		}
		if code := get(t, s, checkPath([]string{"SomeBot"}, u), &a); code != 200 || said(a.Usage) != w || statedText(a.Lines) != wantStated[u] {
			t.Errorf("GET %s: status %d, usage %s, lines %s; want %s, lines %s", u, code, said(a.Usage), statedText(a.Lines), w, wantStated[u])
		}
	}
	var urls []string
	for u := range want {
		urls = append(urls, u)
	}
	body, _ := json.Marshal(map[string]any{"agent": "SomeBot", "urls": urls})
	var ans struct {
		Origins []originAnswer `json:"origins"`
		Results []usageAnswer  `json:"results"`
		Lines   []stated       `json:"usage_lines"`
	}
	if code := post(t, s, "/v1/check", string(body), &ans); code != 200 || len(ans.Results) != len(want) {
		t.Fatalf("POST: status %d, %d results", code, len(ans.Results))
	}
	oi := slices.IndexFunc(ans.Origins, func(a originAnswer) bool { return a.OriginURL == o.URL })
	if got, w := statedText(ans.Lines), fmt.Sprintf(`%[1]d:4 "" "train-ai=n" false; %[1]d:5 "/ai-ok/" "train-ai=y" false; %[1]d:6 "" "ai-train=no" true`, oi); got != w {
		t.Errorf("POST: usage_lines %s, want %s (each once, with its origin)", got, w)
	}
	for _, r := range ans.Results {
		if said(r.Usage) != want[r.URL] {
			t.Errorf("POST %s: usage %s; want %s", r.URL, said(r.Usage), want[r.URL])
		}
	}
	// GET /v1/robots: each group's usage lines, read.
	var file struct {
		Groups []struct {
			Usage []robots.UsageLine `json:"usage"`
		} `json:"groups"`
	}
	if code := get(t, s, "/v1/robots?url="+url.QueryEscape(o.URL), &file); code != 200 || len(file.Groups) != 1 {
		t.Fatalf("GET /v1/robots: status %d, %d groups", code, len(file.Groups))
	}
	var lines []string
	for _, l := range file.Groups[0].Usage {
		lines = append(lines, fmt.Sprintf("%d %q %q", l.Line, l.Path, l.Statement))
	}
	if got, w := strings.Join(lines, "; "), `4 "" "train-ai=n"; 5 "/ai-ok/" "train-ai=y"; 6 "" "ai-train=no"`; got != w {
		t.Errorf("GET /v1/robots: usage lines %s, want %s", got, w)
	}
}

// TestCheckSchemeless: a URL typed without a scheme, host:port/path, is checked as
// "robots check", fetch and audit read it (a port other than 443: http), with the
// input kept, in GET and POST /v1/check alike.
func TestCheckSchemeless(t *testing.T) {
	o := newOrigin(t, 200, "User-agent: *\nDisallow: /private/\n")
	s, _ := start(t, Config{AllowPrivate: true})
	hostPort := strings.TrimPrefix(o.URL, "http://")
	resp, err := http.Get("http://" + s.Addr() + checkPath([]string{"a"}, hostPort+"/private/x"))
	var v struct {
		URL, Input string
		Allowed    bool
		Rule       string
	}
	if code := decode(t, resp, &v); err != nil || code != 200 || v.URL != o.URL+"/private/x" || v.Input != hostPort+"/private/x" || v.Allowed || v.Rule != "Disallow: /private/" {
		t.Errorf("GET: %v %d %+v, want %s/private/x disallowed by Disallow: /private/", err, code, v, o.URL)
	}
	resp, err = http.Post("http://"+s.Addr()+"/v1/check", "application/json", strings.NewReader(`{"agent":"a","urls":["`+hostPort+`/open"]}`))
	var b struct {
		Results []struct {
			URL     string
			Allowed bool
		}
	}
	if code := decode(t, resp, &b); err != nil || code != 200 || len(b.Results) != 1 || b.Results[0].URL != o.URL+"/open" || !b.Results[0].Allowed {
		t.Errorf("POST: %v %d %+v, want %s/open allowed", err, code, b, o.URL)
	}
}

// TestLintLargeFile: POST /v1/lint of a file larger than the 500 KiB crawlers read
// lints that part and says the file is too large, with its size, as "robots lint"
// says: 85,300 lines of 10 bytes (833 KiB, a file of issue 38), not a 413.
func TestLintLargeFile(t *testing.T) {
	s, _ := start(t, Config{})
	body := "User-agent: *\n" + strings.Repeat("# padding\n", 85_300)
	resp, err := http.Post("http://"+s.Addr()+"/v1/lint", "text/plain", strings.NewReader(body))
	var fs []struct {
		Line    int
		Code    string
		Message string
	}
	code := decode(t, resp, &fs)
	if err != nil || code != 200 {
		t.Fatalf("%v %d, want 200", err, code)
	}
	// The first 512,000 bytes end in line 1 + (512,000-14)/10 + 1 = 51,200 (cut).
	want := fmt.Sprintf("the file is %d bytes; crawlers read only the first 512000 (500 KiB), which end on line 51200", len(body))
	found := false
	for _, f := range fs {
		if f.Code == "file-too-large" {
			found = true
			if !strings.HasPrefix(f.Message, want) || f.Line != 51200 {
				t.Errorf("file-too-large at line %d: %q, want line 51200: %q", f.Line, f.Message, want)
			}
		}
	}
	if !found {
		t.Errorf("no file-too-large finding among %d", len(fs))
	}
}

// TestCheckReadings: GET and POST /v1/check say beside the answer when Google's
// reading and RFC 9309's (with draft-ietf-aipref-attach) give the crawler other usage
// preferences: the file tells ExampleBot train-ai=n in Google's reading, where
// the Content-Usage line does not end the user-agent lines, and nothing in RFC 9309's,
// where it is a rule that does. OtherBot is told the same by both: no "readings".
func TestCheckReadings(t *testing.T) {
	o := newOrigin(t, 200, "User-Agent: *\nContent-Usage: train-ai=n\n\nUser-Agent: ExampleBot\nAllow: /\n")
	s, _ := start(t, Config{AllowPrivate: true})
	type answer struct {
		Agent    string             `json:"agent"`
		Usage    *verdictjson.Usage `json:"usage"`
		Readings *string            `json:"readings"`
	}
	text := func(a answer) string {
		r := "-"
		if a.Readings != nil {
			r = *a.Readings
		}
		return fmt.Sprintf("usage %v, readings %s", a.Usage != nil, r)
	}
	for _, tc := range []struct {
		agent, dialect, want string
	}{
		{"ExampleBot", "", "usage true, readings readings differ: rfc9309 reads no preference"},
		{"ExampleBot", "rfc9309", "usage false, readings readings differ: google reads train-ai=n (line 2)"},
		{"OtherBot", "", "usage true, readings -"},
		{"OtherBot", "rfc9309", "usage true, readings -"},
	} {
		var a answer
		path := checkPath([]string{tc.agent}, o.URL+"/x")
		if tc.dialect != "" {
			path += "&dialect=" + tc.dialect
		}
		if code := get(t, s, path, &a); code != 200 || text(a) != tc.want {
			t.Errorf("GET %s %s: status %d, %s; want %s", tc.agent, tc.dialect, code, text(a), tc.want)
		}
	}
	var ans struct {
		Results []answer `json:"results"`
	}
	body := `{"agents":["ExampleBot","OtherBot"],"urls":["` + o.URL + `/x"]}`
	if code := post(t, s, "/v1/check", body, &ans); code != 200 || len(ans.Results) != 2 {
		t.Fatalf("POST: status %d, %d results", code, len(ans.Results))
	}
	if got, w := text(ans.Results[0])+"; "+text(ans.Results[1]), "usage true, readings readings differ: rfc9309 reads no preference; usage true, readings -"; got != w {
		t.Errorf("POST: %s; want %s", got, w)
	}
}
