package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/testenv"
)

// switchable serves what its current handler says, so that one origin can answer
// differently over a test.
type switchable struct {
	mu sync.Mutex
	h  http.HandlerFunc
}

func (s *switchable) set(h http.HandlerFunc) { s.mu.Lock(); s.h = h; s.mu.Unlock() }
func (s *switchable) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	h := s.h
	s.mu.Unlock()
	h(w, r)
}

// TestLifetime: 24 hours by default, Cache-Control max-age within the bounds.
func TestLifetime(t *testing.T) {
	tests := []struct {
		name   string
		header string
		cfg    fetch.Config
		want   time.Duration
	}{
		{"default", "", fetch.Config{}, 24 * time.Hour},
		{"max-age shortens", "max-age=3600", fetch.Config{}, time.Hour},
		{"max-age lengthens", "public, max-age=172800", fetch.Config{}, 48 * time.Hour},
		{"below the minimum", "max-age=5", fetch.Config{}, fetch.DefaultMinTTL},
		{"above the maximum", "max-age=99999999", fetch.Config{}, fetch.DefaultMaxTTL},
		{"no-cache", "no-cache", fetch.Config{}, fetch.DefaultMinTTL},
		{"custom bounds", "max-age=5", fetch.Config{MinTTL: time.Second, MaxTTL: 12 * time.Hour}, 5 * time.Second},
		{"custom maximum", "max-age=172800", fetch.Config{MinTTL: time.Second, MaxTTL: 12 * time.Hour}, 12 * time.Hour},
		{"policy TTL", "", fetch.Config{Policy: fetch.Policy{TTL: 7 * 24 * time.Hour}}, 7 * 24 * time.Hour},
		{"invalid max-age", "max-age=soon", fetch.Config{}, 24 * time.Hour},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := serve(t, answer(200, rulesBody, "Cache-Control", tc.header))
			c := newClient(t, tc.cfg)
			res := mustGet(t, c, srv.URL+"/", t0)
			if got := res.ExpiresAt.Sub(t0); got != tc.want {
				t.Errorf("lifetime %v; want %v", got, tc.want)
			}
			// Fresh until it expires, fetched again at expiry.
			mustGet(t, c, srv.URL+"/", t0.Add(tc.want-time.Nanosecond))
			if n := srv.Hits(); n != 1 {
				t.Errorf("%d fetches before expiry; want 1", n)
			}
			res = mustGet(t, c, srv.URL+"/", t0.Add(tc.want))
			if n := srv.Hits(); n != 2 || !res.FetchedAt.Equal(t0.Add(tc.want)) {
				t.Errorf("at expiry: %d fetches, fetched at %v; want 2, %v", n, res.FetchedAt, t0.Add(tc.want))
			}
		})
	}
}

// TestRFC9309Lifetime: "Crawlers SHOULD NOT use the cached version for more than 24
// hours, unless the robots.txt is unreachable" (RFC 9309 §2.4). Under rfc9309 a file
// fetched, or found unavailable, lives at most 24 hours whatever max-age says, while
// Google's reading lets max-age lengthen it; an unreachable origin keeps the copy's
// rules past the 24 hours.
func TestRFC9309Lifetime(t *testing.T) {
	rfc := fetch.Config{Dialect: robots.RFC9309}
	tests := []struct {
		name   string
		cfg    fetch.Config
		status int
		header string
		want   time.Duration
	}{
		{"rfc9309: max-age=172800 capped at 24 h", rfc, 200, "max-age=172800", 24 * time.Hour},
		{"rfc9309: max-age over a week capped at 24 h", rfc, 200, "max-age=99999999", 24 * time.Hour},
		{"rfc9309: max-age may shorten", rfc, 200, "max-age=3600", time.Hour},
		{"rfc9309: no header", rfc, 200, "", 24 * time.Hour},
		{"rfc9309: a 404 with max-age=172800 capped at 24 h", rfc, 404, "max-age=172800", 24 * time.Hour},
		{"rfc9309: a longer MaxTTL does not lift the cap", fetch.Config{Dialect: robots.RFC9309, MaxTTL: 30 * 24 * time.Hour}, 200, "max-age=172800", 24 * time.Hour},
		{"rfc9309: a partial Policy keeps the cap", fetch.Config{Dialect: robots.RFC9309, Policy: fetch.Policy{TTL: time.Hour}}, 200, "max-age=172800", 24 * time.Hour},
		{"google: max-age=172800 lengthens to 48 h", fetch.Config{}, 200, "max-age=172800", 48 * time.Hour},
		{"RFC9309Policy for google files", fetch.Config{Policy: fetch.RFC9309Policy()}, 200, "max-age=172800", 24 * time.Hour},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := serve(t, answer(tc.status, rulesBody, "Cache-Control", tc.header))
			res := mustGet(t, newClient(t, tc.cfg), srv.URL+"/", t0)
			if got := res.ExpiresAt.Sub(t0); got != tc.want {
				t.Errorf("lifetime %v; want %v", got, tc.want)
			}
		})
	}

	t.Run("rfc9309: unreachable keeps the rules past 24 h", func(t *testing.T) {
		sw := &switchable{h: answer(200, rulesBody, "Cache-Control", "max-age=172800")}
		srv := serve(t, sw.serve)
		c := newClient(t, rfc)
		mustGet(t, c, srv.URL+"/", t0)
		sw.set(answer(503, ""))
		for _, at := range []time.Duration{24 * time.Hour, 72 * time.Hour, 40 * 24 * time.Hour} {
			res := mustGet(t, c, srv.URL+"/", t0.Add(at))
			private, public := verdicts(res)
			if res.Outcome != fetch.Unreachable || !res.Stale || private || !public {
				t.Errorf("at +%v: %v stale %v, /private allowed %v, /public allowed %v; want the copy's rules",
					at, res.Outcome, res.Stale, private, public)
			}
		}
		if n := srv.Hits(); n != 4 {
			t.Errorf("%d fetches; want 4 (the file kept no longer than 24 h, then each retry)", n)
		}
	})
}

// TestNegativeCaching: a 404 is cached like a file.
func TestNegativeCaching(t *testing.T) {
	srv := serve(t, answer(404, "not found"))
	c := newClient(t, fetch.Config{})
	for _, at := range []time.Duration{0, time.Hour, 23 * time.Hour} {
		res := mustGet(t, c, srv.URL+"/", t0.Add(at))
		if res.Outcome != fetch.Unavailable || !res.Allowed(agent, "/private") {
			t.Fatalf("at +%v: %v %v; want unavailable, allowed", at, res.Outcome, res.Effect)
		}
	}
	if n := srv.Hits(); n != 1 {
		t.Errorf("%d fetches; want 1", n)
	}
}

// TestStaleCopy: when a refresh finds the origin unreachable, the cached copy keeps
// applying, and the origin is retried with backoff; when it answers again, its new
// answer applies.
func TestStaleCopy(t *testing.T) {
	sw := &switchable{h: answer(200, rulesBody)}
	srv := serve(t, sw.serve)
	c := newClient(t, fetch.Config{}) // retry backoff: 1 min doubling to 1 h
	res := mustGet(t, c, srv.URL+"/", t0)
	if res.Outcome != fetch.Success {
		t.Fatalf("first fetch: %v", res.Outcome)
	}
	if res.Body != rulesBody {
		t.Errorf("first fetch: Body %q; want the file served, %q", res.Body, rulesBody)
	}

	sw.set(answer(500, ""))
	now := t0.Add(25 * time.Hour)
	waits := []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute,
		16 * time.Minute, 32 * time.Minute, time.Hour, time.Hour}
	for i, wait := range waits {
		res = mustGet(t, c, srv.URL+"/", now)
		private, public := verdicts(res)
		if res.Outcome != fetch.Unreachable || !res.Stale || res.Effect != fetch.ObeyRules || private || !public {
			t.Fatalf("failure %d: outcome %v stale %v effect %v private %v public %v; want the copy in use",
				i+1, res.Outcome, res.Stale, res.Effect, private, public)
		}
		if res.Body != rulesBody {
			t.Errorf("failure %d: Body %q; want the copy's, %q", i+1, res.Body, rulesBody)
		}
		if res.Failures != i+1 || !res.FailingSince.Equal(t0.Add(25*time.Hour)) || !res.LastSuccess.Equal(t0) {
			t.Errorf("failure %d: failures %d since %v last success %v", i+1, res.Failures, res.FailingSince, res.LastSuccess)
		}
		if got := res.ExpiresAt.Sub(now); got != wait {
			t.Errorf("failure %d: retry after %v; want %v", i+1, got, wait)
		}
		now = res.ExpiresAt
	}
	// The copy survives far past 30 days of failures.
	now = t0.Add(60 * 24 * time.Hour)
	res = mustGet(t, c, srv.URL+"/", now)
	if !res.Stale || res.Allowed(agent, "/private") {
		t.Errorf("after 60 days: stale %v, /private allowed %v; want the copy", res.Stale, res.Allowed(agent, "/private"))
	}

	sw.set(answer(404, ""))
	now = res.ExpiresAt
	res = mustGet(t, c, srv.URL+"/", now)
	if res.Outcome != fetch.Unavailable || res.Stale || res.Failures != 0 || !res.Allowed(agent, "/private") {
		t.Errorf("recovered: %v stale %v failures %d; want unavailable, fresh, allowed", res.Outcome, res.Stale, res.Failures)
	}
	if res.Body != "" {
		t.Errorf("404: Body %q; want none (no file in effect)", res.Body)
	}
	if got := res.ExpiresAt.Sub(now); got != fetch.DefaultTTL {
		t.Errorf("recovered: lifetime %v; want %v", got, fetch.DefaultTTL)
	}

	// A cached 404 is a copy too: a later 503 keeps allowing everything.
	sw.set(answer(503, ""))
	now = res.ExpiresAt
	res = mustGet(t, c, srv.URL+"/", now)
	if res.Outcome != fetch.Unreachable || !res.Stale || res.Effect != fetch.AllowAll {
		t.Errorf("503 after 404: %v stale %v effect %v; want the 404's allow-all", res.Outcome, res.Stale, res.Effect)
	}
}

// TestStaleCopyServerGone: a server that stops answering at all counts as 5xx.
func TestStaleCopyServerGone(t *testing.T) {
	srv := serve(t, answer(200, rulesBody))
	c := newClient(t, fetch.Config{})
	mustGet(t, c, srv.URL+"/", t0)
	srv.Close()
	res := mustGet(t, c, srv.URL+"/", t0.Add(25*time.Hour))
	if res.Outcome != fetch.Unreachable || !res.Stale || res.Allowed(agent, "/private/x") || !res.Allowed(agent, "/public") {
		t.Errorf("outcome %v stale %v; want the copy in use", res.Outcome, res.Stale)
	}
}

// TestUnreachableWithoutCopy: everything is disallowed until the origin has been
// unreachable for 30 days; then everything is allowed.
func TestUnreachableWithoutCopy(t *testing.T) {
	srv := serve(t, answer(500, ""))
	for _, tc := range []struct {
		name    string
		at      time.Duration
		allowed bool
	}{
		{"first failure", 0, false},
		{"29 days", 29 * 24 * time.Hour, false},
		{"30 days", 30 * 24 * time.Hour, false},
		{"30 days and an hour", 30*24*time.Hour + time.Hour, true},
		{"40 days", 40 * 24 * time.Hour, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Each case fails first at t0, then asks again after tc.at.
			c := newClient(t, fetch.Config{})
			mustGet(t, c, srv.URL+"/", t0)
			res := mustGet(t, c, srv.URL+"/", t0.Add(tc.at))
			if res.Outcome != fetch.Unreachable || res.Stale || res.Allowed(agent, "/public") != tc.allowed {
				t.Errorf("after %v: outcome %v stale %v allowed %v; want unreachable, allowed %v",
					tc.at, res.Outcome, res.Stale, res.Allowed(agent, "/public"), tc.allowed)
			}
			if !res.FailingSince.Equal(t0) {
				t.Errorf("after %v: failing since %v; want %v", tc.at, res.FailingSince, t0)
			}
		})
	}
}

// TestRetryAfter: 503 and 429 are retried sooner than other failures, or when
// Retry-After says, within the bounds.
func TestRetryAfter(t *testing.T) {
	tests := []struct {
		status int
		header string
		want   time.Duration
	}{
		{503, "", fetch.DefaultRetryMin},
		{429, "", fetch.DefaultRetryMin},
		{503, "120", 2 * time.Minute},
		{503, "5", fetch.DefaultRetryMin},
		{429, "86400", fetch.DefaultRetryMax},
		{503, t0.Add(10 * time.Minute).Format(http.TimeFormat), 10 * time.Minute},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.status, " ", tc.header), func(t *testing.T) {
			srv := serve(t, answer(tc.status, "", "Retry-After", tc.header))
			c := newClient(t, fetch.Config{})
			// After several failures, a 503 still is retried as Retry-After says.
			var res *fetch.Result
			now := t0
			for range 3 {
				res = mustGet(t, c, srv.URL+"/", now)
				if got := res.ExpiresAt.Sub(now); got != tc.want && tc.header == "" {
					t.Errorf("retry after %v; want %v", got, tc.want)
				}
				now = res.ExpiresAt
			}
			if tc.header != "" && res.Failures != 3 {
				t.Errorf("failures %d; want 3", res.Failures)
			}
			if first := mustGet(t, newClient(t, fetch.Config{}), srv.URL+"/", t0); first.ExpiresAt.Sub(t0) != tc.want {
				t.Errorf("retry after %v; want %v", first.ExpiresAt.Sub(t0), tc.want)
			}
		})
	}
}

// TestSingleflight: concurrent requests for one origin make one fetch; the others
// wait for it and get the same result.
func TestSingleflight(t *testing.T) {
	const callers = 8
	var waits atomic.Int64
	var c *fetch.Client
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		// Answer once every caller has joined the flight, not after a while.
		// (Not testenv.WaitFor: this is the server's goroutine, not the test's; the
		// test fails on the counts below if they never all join.)
		origin := "http://" + r.Host
		for end := time.Now().Add(testenv.WaitTimeout); fetch.FlightCallers(c, origin) < callers && time.Now().Before(end); {
			time.Sleep(time.Millisecond)
		}
		w.Write([]byte(rulesBody))
	})
	c = newClient(t, fetch.Config{Observer: fetch.Observer{
		FlightWait: func(string) { waits.Add(1) },
	}})
	results := make([]*fetch.Result, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() { results[i] = mustGet(t, c, srv.URL+fmt.Sprintf("/page%d", i), t0) })
	}
	wg.Wait()
	if n := srv.Hits(); n != 1 {
		t.Errorf("%d fetches; want 1", n)
	}
	if waits.Load() != callers-1 {
		t.Errorf("%d waits; want %d", waits.Load(), callers-1)
	}
	for i, r := range results {
		if r != results[0] {
			t.Errorf("caller %d got another result", i)
		}
	}
}

// TestWaiterCancel: a caller whose context ends stops waiting, and the fetch goes on
// for the others.
func TestWaiterCancel(t *testing.T) {
	srv, release := heldServer(t)
	c := newClient(t, fetch.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := fetch.GetAt(c, ctx, srv.URL+"/", t0)
		errc <- err
	}()
	testenv.WaitFor(t, func() bool { return srv.Hits() > 0 })
	cancel()
	if err := <-errc; err != context.Canceled {
		t.Fatalf("cancelled caller: %v; want context.Canceled", err)
	}
	close(release)
	res := mustGet(t, c, srv.URL+"/", t0)
	if res.Outcome != fetch.Success || srv.Hits() != 1 {
		t.Errorf("after cancel: %v, %d fetches; want success from the one fetch", res.Outcome, srv.Hits())
	}
}

// TestObserver: hits, misses and fetches are reported.
func TestObserver(t *testing.T) {
	srv := serve(t, answer(200, rulesBody))
	var hits, misses, fetched atomic.Int64
	var took time.Duration
	c := newClient(t, fetch.Config{Observer: fetch.Observer{
		CacheHit:  func(string) { hits.Add(1) },
		CacheMiss: func(string) { misses.Add(1) },
		Fetched:   func(r *fetch.Result, d time.Duration) { fetched.Add(1); took = d },
	}})
	for range 3 {
		mustGet(t, c, srv.URL+"/", t0)
	}
	if hits.Load() != 2 || misses.Load() != 1 || fetched.Load() != 1 || took <= 0 {
		t.Errorf("hits %d misses %d fetched %d took %v; want 2 1 1 >0", hits.Load(), misses.Load(), fetched.Load(), took)
	}
}

// TestMemoryStoreBound: the default store drops the least recently used entries
// past its byte bound.
func TestMemoryStoreBound(t *testing.T) {
	s := fetch.NewMemoryStore(4096)
	ctx := context.Background()
	for i := range 100 {
		e := &fetch.Result{Origin: fmt.Sprintf("http://h%d.test", i), Body: string(make([]byte, 1000))}
		s.Save(ctx, e)
	}
	if n := s.Len(); n < 1 || n > 3 {
		t.Errorf("%d entries of ~1.3 KB kept in 4 KB", n)
	}
	if e, _ := s.Load(ctx, "http://h99.test"); e == nil {
		t.Error("the newest entry was dropped")
	}
	if e, _ := s.Load(ctx, "http://h0.test"); e != nil {
		t.Error("the oldest entry was kept")
	}
	s.Save(ctx, &fetch.Result{Origin: "http://huge.test", Body: string(make([]byte, 5000))})
	if e, _ := s.Load(ctx, "http://huge.test"); e != nil {
		t.Error("an entry larger than the bound was kept")
	}
}

// TestParseOptions: files are parsed with the client's parse options.
func TestParseOptions(t *testing.T) {
	// The 1996 draft: the first matching rule wins, so "Disallow: /" decides.
	srv := serve(t, answer(200, "User-agent: *\nDisallow: /\nAllow: /public\n"))
	res := mustGet(t, newClient(t, fetch.Config{Dialect: robots.Legacy1996}), srv.URL+"/", t0)
	if res.Allowed(agent, "/public") {
		t.Error("legacy1996: /public allowed; want disallowed by the first rule")
	}
	res = mustGet(t, newClient(t, fetch.Config{}), srv.URL+"/", t0)
	if !res.Allowed(agent, "/public") {
		t.Error("google: /public disallowed; want allowed by the longer rule")
	}
}

// TestCopyOutlivesStore: a store that loses an entry (here: one too small to keep
// any) does not lose the copy the client still holds.
func TestCopyOutlivesStore(t *testing.T) {
	sw := &switchable{h: answer(200, rulesBody)}
	srv := serve(t, sw.serve)
	c := newClient(t, fetch.Config{Store: fetch.NewMemoryStore(1)})
	mustGet(t, c, srv.URL+"/", t0)
	sw.set(answer(503, ""))
	res := mustGet(t, c, srv.URL+"/", t0.Add(25*time.Hour))
	if !res.Stale || res.Allowed(agent, "/private") || !res.Allowed(agent, "/public") {
		t.Errorf("stale %v effect %v; want the copy in use", res.Stale, res.Effect)
	}
}

// TestAddrCheck: entries record the addresses of every hop, and a client with
// AddrCheck ignores store entries fetched from an address it refuses, or that
// do not say where they come from, and fetches itself instead; a URL whose host is
// an address it refuses is refused without a dial.
func TestAddrCheck(t *testing.T) {
	good := serve(t, answer(200, rulesBody))
	bad := serve(t, answer(200, "User-agent: *\nDisallow: /\n"))
	hop := serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, bad.URL+"/robots.txt", http.StatusMovedPermanently)
	})
	badAddr := bad.Listener.Addr().String()
	store := fetch.NewMemoryStore(0)
	writer := newClient(t, fetch.Config{Store: store})
	for _, srv := range []*testenv.Server{good, bad, hop} {
		mustGet(t, writer, srv.URL+"/", t0)
	}
	e, _ := store.Load(context.Background(), "http://"+hop.Listener.Addr().String())
	if e == nil || !slices.Equal(e.Addrs, []string{hop.Listener.Addr().String(), badAddr}) {
		t.Fatalf("redirected entry: addrs %v; want the redirector's and the target's", e)
	}
	// An entry written before addresses were recorded.
	old := *e
	old.Origin, old.RobotsURL, old.Addrs = "http://old.test", "http://old.test/robots.txt", nil
	store.Save(context.Background(), &old)

	errRefusedBad := errors.New("refused")
	refuseBad := func(ap netip.AddrPort) error {
		if ap.String() == badAddr {
			return errRefusedBad
		}
		return nil
	}
	var dials []string
	var mu sync.Mutex
	reader := newClient(t, fetch.Config{Store: store, AddrCheck: refuseBad,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			mu.Lock()
			dials = append(dials, addr)
			mu.Unlock()
			if addr == "old.test:80" {
				return nil, errors.New("old.test has no server in this test")
			}
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		}})
	for _, tc := range []struct {
		name    string
		url     string
		fetches bool
		refused bool
	}{
		// fetched from an address the check accepts: the stored entry serves
		{"accepted address", good.URL, false, false},
		// a literal address the check refuses: refused as the dialer would, unasked
		{"refused literal", bad.URL, false, true},
		// a refused address on the second hop: fetched again
		{"refused second hop", hop.URL, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			dials = nil
			mu.Unlock()
			res := mustGet(t, reader, tc.url+"/", t0.Add(time.Minute))
			mu.Lock()
			fetched := len(dials) > 0
			mu.Unlock()
			if fetched != tc.fetches {
				t.Errorf("%s: fetched %v; want %v", tc.url, fetched, tc.fetches)
			}
			if got := errors.Is(res.Err, errRefusedBad); got != tc.refused {
				t.Errorf("%s: Err %v; refused %v, want %v", tc.url, res.Err, got, tc.refused)
			}
			if stored := res.FetchedAt.Equal(t0); stored != (!tc.fetches && !tc.refused) {
				t.Errorf("%s: fetched at %v; want the %s", tc.url, res.FetchedAt, map[bool]string{true: "reader's fetch", false: "stored entry"}[tc.fetches])
			}
		})
	}
	if _, err := fetch.GetAt(reader, context.Background(), "http://old.test/", t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(dials, "old.test:80") {
		t.Errorf("an entry without addresses was used; want it ignored (dials %v)", dials)
	}
}

// TestOriginIsACopy: the result, kept in the cache, holds its own copy of the origin
// (the start of its RobotsURL), not a substring of the URL asked about: a server's URLs are substrings of whole
// request bodies, which the cache would otherwise keep alive as long as the result.
func TestOriginIsACopy(t *testing.T) {
	srv := serve(t, answer(200, rulesBody))
	c := newClient(t, fetch.Config{})
	body := []byte(`{"urls":["` + srv.URL + `/a/b?c"]}`) // as a request body holds it
	u := string(body[10 : 10+len(srv.URL)+6])
	res := mustGet(t, c, u, t0)
	if res.Origin != srv.URL {
		t.Fatalf("origin %q; want %q", res.Origin, srv.URL)
	}
	start := uintptr(unsafe.Pointer(unsafe.StringData(u)))
	if p := uintptr(unsafe.Pointer(unsafe.StringData(res.Origin))); p >= start && p < start+uintptr(len(u)) {
		t.Errorf("the result's origin is a substring of the URL asked about")
	}
	if again := mustGet(t, c, u, t0); again != res {
		t.Errorf("a second lookup gave another result")
	}
	// One string for both: looking the origin up and answering with both its fields
	// read one place in memory.
	if res.RobotsURL != srv.URL+"/robots.txt" || unsafe.StringData(res.Origin) != unsafe.StringData(res.RobotsURL) {
		t.Errorf("robots_url %q; want %q, with the origin at its start (one string)", res.RobotsURL, srv.URL+"/robots.txt")
	}
}
