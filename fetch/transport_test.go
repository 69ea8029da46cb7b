package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/testenv"
)

// pageSite serves robotsTxt, a redirect from /jump to /private/secret, and "page
// <path>" at every other path; served lists the paths of the pages it served.
func pageSite(t *testing.T, robotsTxt string) (srv *testenv.Server, served func() []string) {
	var mu sync.Mutex
	var paths []string
	srv = serve(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte(robotsTxt))
		case "/jump":
			http.Redirect(w, r, "/private/secret", http.StatusFound)
		default:
			mu.Lock()
			paths = append(paths, r.URL.Path)
			mu.Unlock()
			w.Write([]byte("page " + r.URL.Path))
		}
	})
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(paths)
	}
}

func TestTransport(t *testing.T) {
	srv, served := pageSite(t, "User-agent: *\nDisallow: /private\n\nUser-agent: OtherBot\nDisallow: /\n")
	hc := &http.Client{Transport: &fetch.Transport{Client: newClient(t, fetch.Config{}), Agent: agent}}

	resp, err := hc.Get(srv.URL + "/public")
	if err != nil {
		t.Fatalf("allowed URL: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "page /public" {
		t.Errorf("body %q", body)
	}

	for _, tc := range []struct{ name, path string }{
		{"disallowed path", "/private"},
		{"disallowed path with query", "/private/x?y=1"},
		{"redirect to a disallowed path", "/jump"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := hc.Get(srv.URL + tc.path)
			var de *fetch.DisallowedError
			if !errors.Is(err, fetch.ErrDisallowed) || !errors.As(err, &de) {
				t.Fatalf("GET %s: %v; want a *DisallowedError", tc.path, err)
			}
			if de.Rule.Line != 2 || de.Rule.Allow || de.Agent != agent || de.RobotsURL != srv.URL+"/robots.txt" {
				t.Errorf("GET %s: %+v; want line 2 of %s/robots.txt", tc.path, de, srv.URL)
			}
		})
	}
	if paths := served(); strings.Join(paths, " ") != "/public" {
		t.Errorf("server saw %v; want only /public", paths)
	}

	// The robots.txt itself always passes, even for a crawler disallowed everywhere.
	other := &http.Client{Transport: &fetch.Transport{Client: newClient(t, fetch.Config{}), Agent: "OtherBot"}}
	if resp, err := other.Get(srv.URL + "/robots.txt"); err != nil {
		t.Errorf("robots.txt: %v", err)
	} else {
		resp.Body.Close()
	}
	if _, err := other.Get(srv.URL + "/public"); !errors.Is(err, fetch.ErrDisallowed) {
		t.Errorf("OtherBot /public: %v; want disallowed", err)
	}
}

// TestTransportUnreachable: with the origin's robots.txt answering 503, nothing is
// sent and the error names the outcome.
func TestTransportUnreachable(t *testing.T) {
	srv := serve(t, answer(503, ""))
	hc := &http.Client{Transport: &fetch.Transport{Client: newClient(t, fetch.Config{}), Agent: agent}}
	_, err := hc.Get(srv.URL + "/page")
	var de *fetch.DisallowedError
	if !errors.As(err, &de) || de.Outcome != fetch.Unreachable || de.Rule.Line != 0 {
		t.Fatalf("%v; want disallowed as unreachable", err)
	}
	if srv.Hits() != 1 {
		t.Errorf("%d requests; want only the robots.txt", srv.Hits())
	}
}

// TestCrawlDelay: requests to one origin are spaced by its crawl-delay after the
// last one sent, capped, and origins do not wait for each other.
func TestCrawlDelay(t *testing.T) {
	tr := &fetch.Transport{Agent: agent, CrawlDelay: true, MaxCrawlDelay: 10 * time.Second}
	a, b := "http://a.test", "http://b.test"
	steps := []struct {
		origin string
		delay  time.Duration
		at     time.Duration
		want   time.Duration
	}{
		{a, 2 * time.Second, 0, 0},
		{a, 2 * time.Second, 0, 2 * time.Second},           // waits; not counted as sent
		{a, 2 * time.Second, time.Second, time.Second},     // still 2 s after the one sent at 0
		{b, 2 * time.Second, time.Second, 0},               // another origin
		{a, 2 * time.Second, 2 * time.Second, 0},           // its turn: sent at 2 s
		{a, 2 * time.Second, 3 * time.Second, time.Second}, // 2 s after that
		{b, time.Hour, 20 * time.Second, 0},
		{b, time.Hour, 20 * time.Second, 10 * time.Second}, // capped
	}
	for i, s := range steps {
		if got := fetch.Claim(tr, s.origin, s.delay, t0.Add(s.at)); got != s.want {
			t.Errorf("step %d: wait %v; want %v", i, got, s.want)
		}
	}

	// And for real, with a delay short enough for a test.
	srv := delaySite(t, "0.2")
	hc := &http.Client{Transport: &fetch.Transport{Client: newClient(t, fetch.Config{}), Agent: agent, CrawlDelay: true}}
	start := time.Now()
	for range 3 {
		resp, err := hc.Get(srv.URL + "/")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if took := time.Since(start); took < 400*time.Millisecond {
		t.Errorf("3 requests with crawl-delay 0.2 took %v; want at least 400ms", took)
	}
}

// delaySite serves robots.txt with crawl-delay d for every crawler, and counts the
// other requests.
func delaySite(t *testing.T, d string) *testenv.Server {
	return serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nCrawl-delay: " + d + "\n"))
		}
	})
}

// TestCrawlDelayCancel: a request that stops waiting for its turn (its context ends,
// or its http.Client's Timeout passes) holds nothing: the next one waits only for the
// last request sent.
func TestCrawlDelayCancel(t *testing.T) {
	srv := delaySite(t, "30")
	clock := testenv.NewClock(t0)
	tr := &fetch.Transport{Client: newClient(t, fetch.Config{Now: clock.Now}), Agent: agent, CrawlDelay: true}
	hc := &http.Client{Transport: tr}
	resp, err := hc.Get(srv.URL + "/first")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/waiting/%d", srv.URL, i), nil)
			if _, err := hc.Do(req); !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("waiting request %d: %v; want its deadline", i, err)
			}
		})
	}
	// An http.Client's Timeout ends the wait the same way: the wait counts against it.
	short := &http.Client{Transport: tr, Timeout: 50 * time.Millisecond}
	var ue *url.Error
	if _, err := short.Get(srv.URL + "/timed-out"); !errors.As(err, &ue) || !ue.Timeout() {
		t.Errorf("request with a 50ms client timeout and 30 s to wait: %v; want the client's timeout", err)
	}
	wg.Wait()
	origin, _ := fetch.Origin(srv.URL)
	if got := fetch.Claim(tr, origin, 30*time.Second, t0.Add(time.Second)); got != 29*time.Second {
		t.Errorf("after seven cancelled requests, the next waits %v; want 29s (30 s after the one sent)", got)
	}
	if n := srv.Hits(); n != 2 {
		t.Errorf("%d requests reached the site; want robots.txt and /first", n)
	}
}

// TestCrawlDelayNoWait: with NoWait, a request whose origin's turn has not come
// fails at once with a *DelayError giving the time it may be sent; with
// RefuseOverMax, an origin asking for more than the cap is not fetched at all.
func TestCrawlDelayNoWait(t *testing.T) {
	srv := delaySite(t, "3")
	clock := testenv.NewClock(t0)
	hc := &http.Client{Transport: &fetch.Transport{Client: newClient(t, fetch.Config{Now: clock.Now}),
		Agent: agent, CrawlDelay: true, NoWait: true}}
	resp, err := hc.Get(srv.URL + "/a")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	clock.Set(t0.Add(time.Second))
	_, err = hc.Get(srv.URL + "/b")
	var de *fetch.DelayError
	if !errors.As(err, &de) || !de.Next.Equal(t0.Add(3*time.Second)) || de.Delay != 3*time.Second || de.URL != srv.URL+"/b" {
		t.Fatalf("second request at 1 s: %v; want a *DelayError with Next at 3 s", err)
	}
	clock.Set(t0.Add(3 * time.Second))
	if resp, err := hc.Get(srv.URL + "/c"); err != nil {
		t.Errorf("at Next: %v; want sent", err)
	} else {
		resp.Body.Close()
	}

	over := delaySite(t, "120")
	for _, tc := range []struct {
		name    string
		refuse  bool
		wantErr bool
	}{
		{"capped", false, false},
		{"refused over the cap", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hc := &http.Client{Transport: &fetch.Transport{Client: newClient(t, fetch.Config{Now: clock.Now}), Agent: agent,
				CrawlDelay: true, MaxCrawlDelay: time.Minute, RefuseOverMax: tc.refuse, NoWait: true}}
			resp, err := hc.Get(over.URL + "/x")
			if err == nil {
				resp.Body.Close()
			}
			var de *fetch.DelayError
			if got := errors.As(err, &de); got != tc.wantErr || got && (!de.Next.IsZero() || de.Delay != 2*time.Minute) {
				t.Fatalf("first request: %v; want a *DelayError without Next: %v", err, tc.wantErr)
			}
			if tc.refuse {
				return
			}
			// Spaced by the cap, not by the 120 s asked for.
			_, err = hc.Get(over.URL + "/y")
			if !errors.As(err, &de) || !de.Next.Equal(clock.Now().Add(time.Minute)) {
				t.Errorf("second request: %v; want a *DelayError with Next one minute (the cap) later", err)
			}
		})
	}
}

// TestTransportAgent: the crawler may be named by its product token or its whole
// User-Agent header, on the Transport or on the request; robots.txt is fetched with
// the request's User-Agent; a name without a product token fails before anything is
// sent, rather than falling to the rules for "*".
func TestTransportAgent(t *testing.T) {
	const header = "Mozilla/5.0 (compatible; TestBot/1.0; +https://example.com/bot)"
	type seen struct{ path, ua string }
	var mu sync.Mutex
	var log []seen
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		log = append(log, seen{r.URL.Path, r.Header.Get("User-Agent")})
		mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: TestBot\nDisallow: /private\n\nUser-agent: *\nDisallow: /\n"))
		}
	})
	for _, tc := range []struct {
		name      string
		agent     string // Transport.Agent
		requestUA string // the request's User-Agent header
		wantUA    string // sent with robots.txt and the page
		refused   bool   // no product token
	}{
		{"token", "TestBot", "", "TestBot", false},
		{"header", header, "", header, false},
		{"request header", "", header, header, false},
		{"token and request header", "TestBot", "TestBot/2.0 (+https://example.com)", "TestBot/2.0 (+https://example.com)", false},
		{"no token in Agent", "+++ 1.0", header, "", true},
		{"no agent at all", "", "", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			log = nil
			mu.Unlock()
			hc := &http.Client{Transport: &fetch.Transport{Client: newClient(t, fetch.Config{}), Agent: tc.agent}}
			get := func(path string) error {
				req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
				if tc.requestUA != "" {
					req.Header.Set("User-Agent", tc.requestUA)
				}
				resp, err := hc.Do(req)
				if err == nil {
					resp.Body.Close()
				}
				return err
			}
			errPublic, errPrivate := get("/public"), get("/private")
			if tc.refused {
				if errPublic == nil || errors.Is(errPublic, fetch.ErrDisallowed) {
					t.Errorf("/public: %v; want an error naming the missing product token", errPublic)
				}
				if len(log) != 0 {
					t.Errorf("the site saw %v; want nothing", log)
				}
				return
			}
			if errPublic != nil || !errors.Is(errPrivate, fetch.ErrDisallowed) {
				t.Errorf("/public: %v, /private: %v; want allowed, disallowed (the TestBot group)", errPublic, errPrivate)
			}
			want := []seen{{"/robots.txt", tc.wantUA}, {"/public", tc.wantUA}}
			if !slices.Equal(log, want) {
				t.Errorf("the site saw %v; want %v", log, want)
			}
		})
	}
}

// TestRedirectRefused: a redirect to a disallowed URL fails with an error naming the
// target, and the target is not fetched.
func TestRedirectRefused(t *testing.T) {
	srv, served := pageSite(t, rulesBody)
	hc := &http.Client{Transport: &fetch.Transport{Client: newClient(t, fetch.Config{}), Agent: agent}}
	_, err := hc.Get(srv.URL + "/jump")
	var de *fetch.DisallowedError
	if !errors.As(err, &de) || de.URL != srv.URL+"/private/secret" || !strings.Contains(err.Error(), srv.URL+"/private/secret") {
		t.Fatalf("%v; want a *DisallowedError naming %s/private/secret", err, srv.URL)
	}
	if paths := served(); len(paths) != 0 {
		t.Errorf("the site served %v; want nothing but robots.txt and the redirect", paths)
	}
}
