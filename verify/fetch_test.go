package verify_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/verify"
)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// listServer serves one range list over HTTP on loopback, as an operator does:
// with an ETag and Cache-Control, answering If-None-Match with 304. Each request
// it answers is sent on seen.
type listServer struct {
	*httptest.Server
	body     atomic.Value // string
	fail     atomic.Bool
	requests atomic.Int32
	seen     chan string // "200", "304", "500"
}

func newListServer(t *testing.T, body string) *listServer {
	s := &listServer{seen: make(chan string, 16)}
	s.body.Store(body)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		b := s.body.Load().(string)
		etag := fmt.Sprintf(`"%d"`, len(b))
		switch {
		case s.fail.Load():
			http.Error(w, "down", http.StatusInternalServerError)
			s.seen <- "500"
		case r.Header.Get("If-None-Match") == etag:
			w.WriteHeader(http.StatusNotModified)
			s.seen <- "304"
		default:
			w.Header().Set("ETag", etag)
			w.Header().Set("Cache-Control", "public, max-age=3600")
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, b)
			s.seen <- "200"
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *listServer) next(t *testing.T) string {
	t.Helper()
	select {
	case got := <-s.seen:
		return got
	case <-time.After(10 * time.Second):
		t.Fatal("no request reached the list server")
		return ""
	}
}

const exampleList = `{"creationTime": "2026-11-01T00:00:00", "prefixes": [{"ipv4Prefix": "203.0.113.0/24"}]}`

func TestFetchedList(t *testing.T) {
	srv := newListServer(t, exampleList)
	clk := &clock{t: time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)}
	v, err := verify.New(verify.Options{
		Crawlers: []crawlers.Crawler{{Name: "ExampleBot", Verify: crawlers.Verification{Ranges: []string{srv.URL + "/examplebot.json"}}}},
		Now:      clk.now,
		Limits:   verify.Limits{MaxStale: 48 * time.Hour},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	check := func(addr string, want verify.Status) {
		t.Helper()
		got := v.Verify(ctx, verify.Request{Addr: netip.MustParseAddr(addr), UserAgent: "ExampleBot/1.0"})
		if got.Status != want {
			t.Errorf("Verify(%s) = %+v, want %s", addr, got, want)
		}
	}

	// First use loads the list; later requests use it with no request.
	check("203.0.113.5", verify.Verified)
	if got := srv.next(t); got != "200" {
		t.Fatalf("first fetch answered %s", got)
	}
	for range 100 {
		check("203.0.113.5", verify.Verified)
		check("198.51.100.5", verify.Impostor)
	}
	if n := srv.requests.Load(); n != 1 {
		t.Errorf("%d requests for 201 verifications within the list's lifetime, want 1", n)
	}

	// Past max-age (an hour) the next Verify refreshes in the background, with
	// If-None-Match: a 304 keeps the list.
	clk.add(61 * time.Minute)
	check("203.0.113.5", verify.Verified)
	if got := srv.next(t); got != "304" {
		t.Errorf("refresh answered %s, want a conditional request answered 304", got)
	}

	// A changed list replaces the old one.
	srv.body.Store(`{"prefixes": [{"ipv4Prefix": "198.51.100.0/24"}]}`)
	clk.add(61 * time.Minute)
	if err := v.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	<-srv.seen
	check("198.51.100.5", verify.Verified)
	check("203.0.113.5", verify.Impostor)

	// The server fails: the list held is used, stale, up to MaxStale.
	srv.fail.Store(true)
	clk.add(2 * time.Hour)
	if err := v.Refresh(ctx); err == nil || !strings.Contains(err.Error(), "500") {
		t.Errorf("Refresh with the server down: %v", err)
	}
	<-srv.seen
	check("198.51.100.5", verify.Verified)
	clk.add(47 * time.Hour)
	check("198.51.100.5", verify.CannotTell)
	check("203.0.113.5", verify.CannotTell) // never an impostor on a list too old to trust
}

// A list larger than MaxListBytes, or one that does not parse, is refused with
// an error naming the URL; the crawler then cannot be told.
func TestFetchedListBad(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"too large", `{"prefixes": [` + strings.Repeat(`{"ipv4Prefix": "203.0.113.0/24"},`, 200) + `{}]}`, "larger than 4096 bytes"},
		{"not a prefix", `{"prefixes": [{"ipv4Prefix": "203.0.113.0/33"}]}`, "prefixes[0]"},
		{"empty", `{"prefixes": []}`, "no \"prefixes\""},
		{"html", "<html>moved</html>", "line 1"},
		{"mapped /0", "::ffff:0.0.0.0/80\n", "shorter than /96"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newListServer(t, tt.body)
			v, err := verify.New(verify.Options{
				Crawlers: []crawlers.Crawler{{Name: "ExampleBot", Verify: crawlers.Verification{Ranges: []string{srv.URL + "/r.json"}}}},
				Limits:   verify.Limits{MaxListBytes: 4096},
			})
			if err != nil {
				t.Fatal(err)
			}
			err = v.Refresh(context.Background())
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), srv.URL) {
				t.Errorf("Refresh: %v; want an error naming %s and %q", err, srv.URL, tt.want)
			}
			got := v.Verify(context.Background(), verify.Request{Addr: netip.MustParseAddr("192.0.2.1"), UserAgent: "ExampleBot/1"})
			if got.Status != verify.CannotTell {
				t.Errorf("got %+v, want cannot-tell", got)
			}
		})
	}
}

// Options.Lists can point a registry URL at another URL (here the loopback
// server), as the tests of robots logs do.
func TestListsToURL(t *testing.T) {
	srv := newListServer(t, exampleList)
	v, err := verify.New(verify.Options{
		Lists:    map[string]string{"https://openai.com/gptbot.json": srv.URL + "/gptbot.json"},
		Resolver: fakeDNS{},
	})
	if err != nil {
		t.Fatal(err)
	}
	ua := "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
	got := v.Verify(context.Background(), verify.Request{Addr: netip.MustParseAddr("203.0.113.77"), UserAgent: ua})
	if got.Crawler != "GPTBot" || got.Status != verify.Verified || !strings.Contains(got.Detail, "https://openai.com/gptbot.json") {
		t.Errorf("got %+v", got)
	}
}

// Many requests at once on first use: one fetch, every answer from it.
func TestFetchedListConcurrent(t *testing.T) {
	srv := newListServer(t, exampleList)
	v, err := verify.New(verify.Options{
		Crawlers: []crawlers.Crawler{{Name: "ExampleBot", Verify: crawlers.Verification{Ranges: []string{srv.URL + "/r.json"}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var wrong atomic.Int32
	for i := range 50 {
		wg.Go(func() {
			addr, want := "203.0.113.5", verify.Verified
			if i%2 == 1 {
				addr, want = "198.51.100.5", verify.Impostor
			}
			if got := v.Verify(context.Background(), verify.Request{Addr: netip.MustParseAddr(addr), UserAgent: "ExampleBot/1"}); got.Status != want {
				wrong.Add(1)
			}
		})
	}
	wg.Wait()
	if n := srv.requests.Load(); n != 1 || wrong.Load() != 0 {
		t.Errorf("%d fetches, %d wrong answers; want 1 and 0", n, wrong.Load())
	}
}

// blockingDNS answers as fakeDNS, for the address block once release is closed.
type blockingDNS struct {
	fakeDNS
	block   string
	release chan struct{}
}

func (b blockingDNS) LookupAddr(ctx context.Context, addr string) ([]string, error) {
	if addr == b.block {
		<-b.release
	}
	return b.fakeDNS.LookupAddr(ctx, addr)
}

// With NoWait, Verify never waits on the network: a list not loaded yet and an
// address not looked up answer cannot-tell at once and are loaded in the
// background; once Wait returns, the answers are there.
func TestNoWait(t *testing.T) {
	listRelease := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-listRelease
		fmt.Fprint(w, `{"prefixes": [{"ipv4Prefix": "66.249.66.0/27"}]}`)
	}))
	defer srv.Close()
	dns := blockingDNS{block: "203.0.113.9", release: make(chan struct{})}
	v, err := verify.New(verify.Options{NoWait: true, Resolver: dns,
		Lists: map[string]string{"Googlebot": srv.URL + "/googlebot.json"}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	in := verify.Request{Addr: netip.MustParseAddr("66.249.66.1"), UserAgent: googlebotUA}
	out := verify.Request{Addr: netip.MustParseAddr("203.0.113.9"), UserAgent: googlebotUA}

	// The list server and the resolver hold every answer: Verify returns anyway.
	if got := v.Verify(ctx, in); got.Status != verify.CannotTell || !strings.Contains(got.Detail, "being loaded") {
		t.Errorf("before the list is loaded: %+v", got)
	}
	close(listRelease)
	v.Wait()
	if got := v.Verify(ctx, in); got.Status != verify.Verified {
		t.Errorf("after the list is loaded: %+v", got)
	}
	if got := v.Verify(ctx, out); got.Status != verify.CannotTell || !strings.Contains(got.Detail, "being looked up") {
		t.Errorf("before DNS answers: %+v", got)
	}
	close(dns.release)
	v.Wait()
	if got := v.Verify(ctx, out); got.Status != verify.Impostor {
		t.Errorf("after DNS answered no such name: %+v", got)
	}
}
