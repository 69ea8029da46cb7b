package fetch_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorobots/robots/fetch"
)

func TestTransport(t *testing.T) {
	var paths []string
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte("User-agent: *\nDisallow: /private\n\nUser-agent: OtherBot\nDisallow: /\n"))
		case "/jump":
			http.Redirect(w, r, "/private/secret", http.StatusFound)
		default:
			paths = append(paths, r.URL.Path)
			w.Write([]byte("page " + r.URL.Path))
		}
	})
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

	for _, p := range []string{"/private", "/private/x?y=1", "/jump"} {
		_, err = hc.Get(srv.URL + p)
		var de *fetch.DisallowedError
		if !errors.Is(err, fetch.ErrDisallowed) || !errors.As(err, &de) {
			t.Fatalf("GET %s: %v; want a *DisallowedError", p, err)
		}
		if de.Rule.Line != 2 || de.Rule.Allow || de.Agent != agent || de.RobotsURL != srv.URL+"/robots.txt" {
			t.Errorf("GET %s: %+v; want line 2 of %s/robots.txt", p, de, srv.URL)
		}
	}
	if strings.Join(paths, " ") != "/public" {
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

// TestCrawlDelay: requests to one origin are spaced by its crawl-delay, capped, and
// origins do not wait for each other.
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
		{a, 2 * time.Second, 0, 2 * time.Second},
		{a, 2 * time.Second, time.Second, 3 * time.Second},
		{b, 2 * time.Second, time.Second, 0},
		{a, 2 * time.Second, 10 * time.Second, 0},
		{b, time.Hour, 20 * time.Second, 0},
		{b, time.Hour, 20 * time.Second, 10 * time.Second}, // capped
	}
	for i, s := range steps {
		if got := fetch.Reserve(tr, s.origin, s.delay, t0.Add(s.at)); got != s.want {
			t.Errorf("step %d: wait %v; want %v", i, got, s.want)
		}
	}

	// And for real, with a delay short enough for a test.
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nCrawl-delay: 0.2\n"))
		}
	})
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
