package serve

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/fetch/boltstore"
)

type statusJSON struct {
	Status string `json:"status"`
	Error  string `json:"error"`
}

// TestReadyz: /readyz follows the store (503 once the bbolt file is closed), while
// /healthz, the liveness check, stays 200 whatever the store does.
func TestReadyz(t *testing.T) {
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "cache.bolt"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, _ := start(t, Config{Fetch: fetch.Config{Store: st}})
	mem, _ := start(t, Config{Fetch: fetch.Config{Store: fetch.NewMemoryStore(0)}})

	for _, tc := range []struct {
		name   string
		srv    *Server
		before func()
		path   string
		code   int
		status string
		errHas string
	}{
		{"memory store ready", mem, nil, "/readyz", 200, "ok", ""},
		{"bbolt open: ready", s, nil, "/readyz", 200, "ok", ""},
		{"bbolt open: live", s, nil, "/healthz", 200, "ok", ""},
		{"bbolt closed: not ready", s, func() { st.Close() }, "/readyz", http.StatusServiceUnavailable, "unavailable", "store: boltstore"},
		{"bbolt closed: still live", s, nil, "/healthz", 200, "ok", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.before != nil {
				tc.before()
			}
			var a statusJSON
			if code := get(t, tc.srv, tc.path, &a); code != tc.code || a.Status != tc.status || !strings.Contains(a.Error, tc.errHas) {
				t.Errorf("GET %s: %d %+v; want %d, status %q, error containing %q", tc.path, code, a, tc.code, tc.status, tc.errHas)
			}
		})
	}
}
