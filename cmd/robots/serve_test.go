package main

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorobots/robots/internal/redistest"
	"github.com/gorobots/robots/internal/testenv"
)

// checkJSON is the part of a GET /v1/check answer these tests read: the verdict,
// and how its origin's robots.txt was fetched (under "robots").
type checkJSON struct {
	Allowed     *bool  `json:"allowed"`
	Error       string `json:"error"`
	fetchedJSON `json:"robots"`
}

type fetchedJSON struct {
	Outcome   string `json:"outcome"`
	FetchedAt string `json:"fetched_at"`
}

func checkVia(t *testing.T, addr, agent, u string) checkJSON {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/v1/check?" + url.Values{"agent": {agent}, "url": {u}}.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var a checkJSON
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil || resp.StatusCode != 200 || a.Allowed == nil {
		t.Fatalf("check via %s: status %d, %+v, %v", addr, resp.StatusCode, a, err)
	}
	return a
}

// TestServeReplicasShareRedis: two server processes sharing one real Redis, or a
// real three-master Redis Cluster given in go-redis's cluster URL form, fetch an
// origin once while it is fresh; both stop gracefully on SIGTERM.
func TestServeReplicasShareRedis(t *testing.T) {
	for _, tc := range []struct {
		name  string
		start func(t *testing.T) string
	}{
		{"single", func(t *testing.T) string { return redistest.Start(t).URL() + "/0" }},
		{"cluster", func(t *testing.T) string { return redistest.StartCluster(t, 3).URL() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			redisURL := tc.start(t)
			origin := testenv.Serve(t, 200, "User-agent: *\nDisallow: /private/\n")

			a := startServe(t, nil, "-addr", "127.0.0.1:0", "-redis", redisURL, "-allow-private")
			b := startServe(t, nil, "-addr", "127.0.0.1:0", "-redis", redisURL, "-allow-private")

			first := checkVia(t, a.addr, "Googlebot", origin.URL+"/private/x")
			second := checkVia(t, b.addr, "Googlebot", origin.URL+"/public")
			if *first.Allowed || !*second.Allowed || first.Outcome != "success" || second.Outcome != "success" {
				t.Errorf("verdicts %+v and %+v, want disallowed then allowed, both from a successful fetch", first, second)
			}
			if n := origin.Hits(); n != 1 {
				t.Errorf("origin fetched %d times by two replicas, want 1", n)
			}
			if first.FetchedAt != second.FetchedAt {
				t.Errorf("fetched_at %s and %s, want the one shared fetch", first.FetchedAt, second.FetchedAt)
			}

			for _, p := range []*serveProc{a, b} {
				p.cmd.Process.Signal(syscall.SIGTERM)
				done := make(chan error, 1)
				go func() { <-p.done; done <- p.cmd.Wait() }()
				select {
				case err := <-done:
					if err != nil {
						t.Errorf("robots serve after SIGTERM: %v, want exit status 0", err)
					}
				case <-time.After(15 * time.Second):
					t.Error("robots serve did not stop within 15s of SIGTERM")
				}
			}
		})
	}
}

// TestServeEmbeddedStore: the default store is a bbolt file in -data; a restarted
// process decides from it without fetching again.
func TestServeEmbeddedStore(t *testing.T) {
	origin := testenv.Serve(t, 200, "User-agent: *\nDisallow: /private/\n")
	dir := t.TempDir()
	var fetchedAt []string
	for range 2 {
		p := startServe(t, nil, "-addr", "127.0.0.1:0", "-data", dir, "-allow-private")
		a := checkVia(t, p.addr, "Googlebot", origin.URL+"/private/x")
		if *a.Allowed {
			t.Errorf("allowed, want disallowed by Disallow: /private/")
		}
		fetchedAt = append(fetchedAt, a.FetchedAt)
		p.stop(t)
	}
	if n := origin.Hits(); n != 1 || fetchedAt[0] != fetchedAt[1] {
		t.Errorf("%d fetches, fetched_at %q; want 1 fetch kept across the restart", n, fetchedAt)
	}
}

// TestServeStoreInUse: a second server on the same embedded store says at once
// that the store is in use and how to choose another, instead of waiting.
func TestServeStoreInUse(t *testing.T) {
	dir := t.TempDir()
	startServe(t, nil, "-addr", "127.0.0.1:0", "-data", dir)
	exe, err := exec.LookPath("robots")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	out, err := exec.Command(exe, "serve", "-addr", "127.0.0.1:0", "-data", dir).CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("second serve: %v, output %s; want exit status 2", err, out)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("second serve took %v to fail; want at once", took)
	}
	for _, want := range []string{"in use by another process", filepath.Join(dir, "cache.bolt"), "-data DIR", "-redis URL"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("second serve said %q; want it to mention %q", out, want)
		}
	}
}

// TestServeReadyzRedis: /readyz fails while the shared Redis is down and passes
// again once it is back; /healthz stays 200 throughout.
func TestServeReadyzRedis(t *testing.T) {
	rs := redistest.Start(t)
	addr := startServe(t, nil, "-addr", "127.0.0.1:0", "-redis", rs.URL()+"/0").addr
	probe := func(path string) int {
		t.Helper()
		resp, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := probe("/readyz"); code != 200 {
		t.Fatalf("/readyz with Redis up: %d, want 200", code)
	}
	rs.Stop()
	if code := probe("/readyz"); code != http.StatusServiceUnavailable {
		t.Errorf("/readyz with Redis down: %d, want 503", code)
	}
	if code := probe("/healthz"); code != 200 {
		t.Errorf("/healthz with Redis down: %d, want 200 (liveness does not follow the store)", code)
	}
	rs.Start()
	deadline := time.Now().Add(10 * time.Second)
	for probe("/readyz") != 200 {
		if time.Now().After(deadline) {
			t.Fatal("/readyz still failing 10 s after Redis came back")
		}
		time.Sleep(100 * time.Millisecond)
	}
}
