package fetch_test

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorobots/robots/fetch"
)

// TestPeekOrigins: PeekOrigins finds what Peek finds for a URL, by the URL's origin
// as Origin spells it, and nothing by any other string; never a result past its
// ExpiresAt; it never fetches, and reports each hit to the Observer. More origins
// than it looks up in one step (64) are looked up in several.
func TestPeekOrigins(t *testing.T) {
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
	res := make([]*fetch.Result, 1)
	if c.PeekOrigins([]string{origin}, res); res[0] != nil {
		t.Fatalf("before any Get: %v; want nothing", res[0])
	}
	got, err := c.Get(t.Context(), srv.URL+"/x")
	if err != nil {
		t.Fatal(err)
	}
	hits.Store(0)
	keys := []struct {
		name, key string
		found     bool
	}{
		{"the origin", origin, true},
		{"a URL of it", srv.URL + "/x", false},
		{"the origin with a slash", origin + "/", false},
		{"another spelling", "HTTP://" + origin[len("http://"):], false},
		{"empty", "", false},
	}
	var origins []string
	var want []bool
	for i := range 150 { // the keys above in turn, then others: several steps of 64
		k := keys[i%len(keys)]
		if i >= 2*len(keys) {
			k.key, k.found = fmt.Sprintf("http://other%d.test", i), false
		}
		origins = append(origins, k.key)
		want = append(want, k.found)
	}
	origins = append(origins, origin) // the last one too
	want = append(want, true)
	res = make([]*fetch.Result, len(origins))
	c.PeekOrigins(origins, res)
	nfound := 0
	for i, r := range res {
		if want[i] {
			nfound++
		}
		if want[i] && r != got || !want[i] && r != nil {
			t.Errorf("origins[%d] %q: %p; want %v (Get's %p when found)", i, origins[i], r, want[i], got)
		}
	}
	if n := hits.Load(); int(n) != nfound {
		t.Errorf("%d hits reported; want %d", n, nfound)
	}
	now.Store(got.ExpiresAt.UnixNano())
	if c.PeekOrigins([]string{origin}, res[:1]); res[0] != nil {
		t.Errorf("at ExpiresAt: %v; want nothing (stale)", res[0])
	}
	if n := fetches.Load(); n != 1 {
		t.Errorf("%d fetches, want 1 (PeekOrigins never fetches)", n)
	}
}
