package fetch_test

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorobots/robots/fetch"
)

// TestPeekOrigin: PeekOrigin finds what Peek finds for a URL, by the URL's origin as
// Origin spells it, and nothing by any other string; never a result past its
// ExpiresAt, and it never fetches.
func TestPeekOrigin(t *testing.T) {
	var fetches atomic.Int32
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		w.Write([]byte(rulesBody))
	})
	var now atomic.Int64
	now.Store(t0.UnixNano())
	c := newClient(t, fetch.Config{Now: func() time.Time { return time.Unix(0, now.Load()) }})
	origin, err := fetch.Origin(srv.URL + "/x")
	if err != nil {
		t.Fatal(err)
	}
	if res, ok := c.PeekOrigin(origin); ok || res != nil {
		t.Fatalf("before any Get: %v, %v; want nothing", res, ok)
	}
	got, err := c.Get(t.Context(), srv.URL+"/x")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, key string
		found     bool
	}{
		{"the origin", origin, true},
		{"a URL of it", srv.URL + "/x", false},
		{"the origin with a slash", origin + "/", false},
		{"another spelling", "HTTP://" + origin[len("http://"):], false},
		{"empty", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, ok := c.PeekOrigin(tc.key)
			if ok != tc.found || tc.found && res != got || !tc.found && res != nil {
				t.Errorf("PeekOrigin(%q) = %p, %v; want %v (Get's %p when found)", tc.key, res, ok, tc.found, got)
			}
			if viaURL, _ := c.Peek(srv.URL + "/y"); tc.found && viaURL != got {
				t.Errorf("Peek of a URL of the origin = %p, want %p", viaURL, got)
			}
		})
	}
	now.Store(got.ExpiresAt.UnixNano())
	if res, ok := c.PeekOrigin(origin); ok || res != nil {
		t.Errorf("at ExpiresAt: %v, %v; want nothing (stale)", res, ok)
	}
	if n := fetches.Load(); n != 1 {
		t.Errorf("%d fetches, want 1 (PeekOrigin never fetches)", n)
	}
}
