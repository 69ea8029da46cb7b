package fetch_test

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorobots/robots/fetch"
)

// TestPeek: Peek finds the result Get fetched for any URL of its origin (the origin
// itself too, as serve asks for a batch's origins), and nothing for another origin or
// a URL that is none; never a result past its ExpiresAt; it never fetches, and reports
// each hit to the Observer.
func TestPeek(t *testing.T) {
	var fetches atomic.Int32
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		w.Write([]byte(rulesBody))
	})
	var now atomic.Int64
	now.Store(t0.UnixNano())
	var hits atomic.Int32
	c := newClient(t, fetch.Config{
		Now:      func() time.Time { return time.Unix(0, now.Load()) },
		Observer: fetch.Observer{CacheHit: func(string) { hits.Add(1) }},
	})
	origin, err := fetch.Origin(srv.URL + "/x")
	if err != nil {
		t.Fatal(err)
	}
	if res, ok := c.Peek(origin); ok || res != nil {
		t.Fatalf("before any Get: %v; want nothing", res)
	}
	got, err := c.Get(t.Context(), srv.URL+"/x")
	if err != nil {
		t.Fatal(err)
	}
	hits.Store(0)
	for _, tc := range []struct {
		name, url string
		found     bool
	}{
		{"the origin", origin, true},
		{"a URL of it", srv.URL + "/y?q", true},
		{"another spelling of it", "HTTP://" + origin[len("http://"):] + "/", true},
		{"another origin", "http://other.test/x", false},
		{"not a URL", "", false},
	} {
		res, ok := c.Peek(tc.url)
		if ok != tc.found || tc.found && res != got || !tc.found && res != nil {
			t.Errorf("%s (%q): %p, %v; want found %v (Get's %p)", tc.name, tc.url, res, ok, tc.found, got)
		}
	}
	if n := hits.Load(); n != 3 {
		t.Errorf("%d hits reported; want 3", n)
	}
	now.Store(got.ExpiresAt.UnixNano())
	if res, ok := c.Peek(origin); ok || res != nil {
		t.Errorf("at ExpiresAt: %v; want nothing (stale)", res)
	}
	if n := fetches.Load(); n != 1 {
		t.Errorf("%d fetches, want 1 (Peek never fetches)", n)
	}
}
