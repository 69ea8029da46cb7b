package fetch_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/testenv"
)

// TestStats: Stats counts the origins held in memory and their bytes, and the
// fetches in progress while they are.
func TestStats(t *testing.T) {
	gate := make(chan struct{})
	slow := testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		<-gate
		w.Write([]byte("User-agent: *\nDisallow: /\n"))
	})
	fast := testenv.Serve(t, 200, "User-agent: *\nDisallow: /private\n")
	c := fetch.NewClient(fetch.Config{Timeout: 5 * time.Second})
	if got := c.Stats(); got != (fetch.Stats{}) {
		t.Errorf("new client: %+v; want all zero", got)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.Get(t.Context(), slow.URL+"/")
	}()
	deadline := time.Now().Add(5 * time.Second)
	for c.Stats().InFlight != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("Stats while one fetch waits: %+v; want InFlight 1", c.Stats())
		}
		time.Sleep(time.Millisecond)
	}
	close(gate)
	<-done
	if _, err := c.Get(t.Context(), fast.URL+"/"); err != nil {
		t.Fatal(err)
	}
	got := c.Stats()
	if got.Origins != 2 || got.Bytes <= 0 || got.InFlight != 0 {
		t.Errorf("after two fetches: %+v; want 2 origins, some bytes, none in flight", got)
	}
}
