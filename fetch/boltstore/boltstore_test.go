package boltstore_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/fetch/boltstore"
	"github.com/gorobots/robots/fetch/internal/fetchtest"
	"github.com/gorobots/robots/internal/testenv"
)

// open opens the store at path, failing the test if it cannot, and closes it when
// the test ends.
func open(t *testing.T, path string, opts ...boltstore.Option) *boltstore.Store {
	t.Helper()
	s, err := boltstore.Open(path, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestContract(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "cache.db"))
	fetchtest.TestStore(t, s)
}

func TestSharedErrors(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "cache.db"))
	fetchtest.TestSharedErrors(t, s)
}

// TestSurvivesRestart: a client started on the same file after a restart uses the
// entries of the one before, without fetching.
func TestSurvivesRestart(t *testing.T) {
	srv := testenv.Serve(t, 200, "User-agent: *\nDisallow: /private\n")
	path := filepath.Join(t.TempDir(), "cache.db")
	t0 := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

	for run := range 2 {
		s, err := boltstore.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		now := t0.Add(time.Duration(run) * time.Hour)
		c := fetch.NewClient(fetch.Config{Store: s, Timeout: 2 * time.Second, Now: func() time.Time { return now }})
		res, err := c.Get(t.Context(), srv.URL+"/")
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != fetch.Success || res.Allowed("TestBot", "/private") || !res.FetchedAt.Equal(t0) {
			t.Errorf("run %d: %v, /private allowed %v, fetched at %v; want the first run's success",
				run, res.Outcome, res.Allowed("TestBot", "/private"), res.FetchedAt)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if n := srv.Hits(); n != 1 {
		t.Errorf("%d fetches over two runs; want 1", n)
	}
}

func TestOpenErrors(t *testing.T) {
	if _, err := boltstore.Open(filepath.Join(t.TempDir(), "missing-dir", "cache.db")); err == nil {
		t.Error("Open in a missing directory succeeded")
	}
}

// TestOpenLocked: a second Open of a file in use fails at once with ErrLocked,
// not after a long wait with bbolt's bare "timeout".
func TestOpenLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.db")
	open(t, path)
	start := time.Now()
	_, err := boltstore.Open(path) // flock locks are per open file, so this process counts as another
	if !errors.Is(err, boltstore.ErrLocked) {
		t.Fatalf("second Open: %v; want ErrLocked", err)
	}
	if waited := time.Since(start); waited > 10*boltstore.OpenTimeout {
		t.Errorf("second Open took %v; want about OpenTimeout (%v)", waited, boltstore.OpenTimeout)
	}
	if !strings.Contains(err.Error(), path) {
		t.Errorf("error %q does not name the file %s", err, path)
	}
}

// TestHealth: a store is usable while open and its file exists, not after Close
// or once the file is gone.
func TestHealth(t *testing.T) {
	var _ fetch.HealthChecker = (*boltstore.Store)(nil)
	for _, tc := range []struct {
		name  string
		after func(s *boltstore.Store, path string)
		ok    bool
	}{
		{"open", func(*boltstore.Store, string) {}, true},
		{"closed", func(s *boltstore.Store, _ string) { s.Close() }, false},
		{"file removed", func(_ *boltstore.Store, path string) { os.Remove(path) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cache.db")
			s := open(t, path)
			tc.after(s, path)
			if err := s.Health(t.Context()); (err == nil) != tc.ok {
				t.Errorf("Health: %v; want ok %v", err, tc.ok)
			}
		})
	}
}

// result returns a success of origin with a body of n bytes, expiring at expires.
func result(origin string, n int, fetched, expires time.Time) *fetch.Result {
	body := strings.Repeat("Disallow: /a\n", n/13+1)[:n]
	return &fetch.Result{
		Origin: origin, RobotsURL: origin + "/robots.txt", Outcome: fetch.Success, Effect: fetch.ObeyRules,
		Status: 200, Body: body, BytesRead: int64(n), WireBytes: int64(n), Addrs: []string{"192.0.2.1:80"},
		FetchedAt: fetched, ExpiresAt: expires, LastSuccess: fetched,
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

func has(t *testing.T, s *boltstore.Store, origin string) bool {
	t.Helper()
	r, err := s.Load(t.Context(), origin)
	if err != nil {
		t.Fatal(err)
	}
	return r != nil
}

// TestBound fills a store bounded at 4 MiB with 10 MiB of entries (24 KiB bodies,
// stored as about 33 KiB of JSON) of 325 origins: the file never passes the bound
// and the entries stay within their three quarters of it; expired entries are
// evicted before any other, and origins used all along survive while the oldest
// unused ones go.
func TestBound(t *testing.T) {
	const maxBytes = 4 << 20
	path := filepath.Join(t.TempDir(), "cache.db")
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	s := open(t, path, boltstore.WithMaxBytes(maxBytes), boltstore.WithNow(func() time.Time { return now }))
	ctx := t.Context()
	save := func(r *fetch.Result) {
		t.Helper()
		if err := s.Save(ctx, r); err != nil {
			t.Fatal(err)
		}
		s.WaitCompaction() // one the save started in the background
		if n := fileSize(t, path); n > maxBytes {
			t.Fatalf("after saving %s: file of %d bytes, over the bound of %d", r.Origin, n, maxBytes)
		}
		if st := s.Stats(); st.Bytes > maxBytes*3/4 {
			t.Fatalf("after saving %s: entries of %d bytes, over three quarters of the bound (%d)", r.Origin, st.Bytes, maxBytes*3/4)
		}
	}
	origin := func(kind string, i int) string { return fmt.Sprintf("https://%s-%d.example", kind, i) }
	const body = 24 << 10
	for i := range 20 {
		save(result(origin("expired", i), body, now, now.Add(time.Minute)))
	}
	for i := range 5 {
		save(result(origin("hot", i), body, now, now.Add(24*time.Hour)))
	}
	now = now.Add(2 * time.Minute) // the first twenty have expired

	firstEviction := true
	for i := range 300 {
		now = now.Add(time.Second)
		save(result(origin("fill", i), body, now, now.Add(24*time.Hour)))
		if i%5 == 0 {
			for h := range 5 {
				has(t, s, origin("hot", h)) // counts as a use
			}
		}
		if st := s.Stats(); st.Evicted > 0 && firstEviction {
			firstEviction = false
			// The first eviction frees 10% of the entries' share (about ten entries):
			// expired ones only, while there are some.
			for j := range i + 1 {
				if !has(t, s, origin("fill", j)) {
					t.Errorf("first eviction (after fill-%d): fill-%d evicted while expired entries were held", i, j)
				}
			}
			if int(st.Evicted) > 20 {
				t.Errorf("first eviction: %d entries evicted; want at most the 20 expired", st.Evicted)
			}
		}
	}
	for i := range 20 {
		if has(t, s, origin("expired", i)) {
			t.Errorf("%s held after the fill; expired entries go first", origin("expired", i))
		}
	}
	for h := range 5 {
		if !has(t, s, origin("hot", h)) {
			t.Errorf("%s evicted; it was used every five saves", origin("hot", h))
		}
	}
	for _, i := range []int{0, 100, 200} {
		if has(t, s, origin("fill", i)) {
			t.Errorf("fill-%d held; older than the entries the bound leaves room for", i)
		}
	}
	if !has(t, s, origin("fill", 299)) {
		t.Error("the last entry saved was evicted")
	}
	st := s.Stats()
	t.Logf("after 325 saves of 33 KiB: %+v", st)
	// 4 MiB × 3/4 in 33 KiB entries (their history's latest version is the entry's
	// own body, not stored again), less what eviction frees below that: 86 to 95.
	if st.Entries < 80 || st.Entries > 100 {
		t.Errorf("%d entries held; want about 90 (three quarters of 4 MiB in 33 KiB entries)", st.Entries)
	}
	if st.Compactions > 325/4 {
		t.Errorf("%d compactions in 325 saves; freed pages should be reused", st.Compactions)
	}
	fetchtest.TestStore(t, s) // the contract holds for a store that evicts
}

// TestOpenShrinks: a file over the bound given to Open (written with a larger one,
// or by an earlier version without the meta bucket) is brought under it, keeping
// the entries saved last.
func TestOpenShrinks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.db")
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	clock := boltstore.WithNow(func() time.Time { return now })
	s, err := boltstore.Open(path, boltstore.WithMaxBytes(16<<20), clock)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 150 {
		now = now.Add(time.Second)
		if err := s.Save(t.Context(), result(fmt.Sprintf("https://o%d.example", i), 24<<10, now, now.Add(time.Hour))); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	before := fileSize(t, path)
	s, err = boltstore.Open(path, boltstore.WithMaxBytes(4<<20), clock)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st := s.Stats()
	if after := fileSize(t, path); before <= 4<<20 || after > 4<<20 || st.FileBytes != after {
		t.Errorf("file of %d bytes reopened with a bound of 4 MiB: %d bytes (stats %d); want under the bound", before, after, st.FileBytes)
	}
	if !has(t, s, "https://o149.example") || has(t, s, "https://o0.example") {
		t.Error("after shrinking: want the last saved entry held and the first gone")
	}
	if st.Compactions != 1 {
		t.Errorf("%d compactions; want 1", st.Compactions)
	}
}

// TestConcurrentCompaction: loads and saves from several goroutines while the
// store evicts and compacts in the background (run with -race): every load returns
// nil or the origin's own entry, saves fail only with ErrCompacting, and once the
// compactions end the file is under the bound.
func TestConcurrentCompaction(t *testing.T) {
	const maxBytes = 4 << 20
	path := filepath.Join(t.TempDir(), "cache.db")
	s := open(t, path, boltstore.WithMaxBytes(maxBytes))
	now := time.Now()
	var wg sync.WaitGroup
	var refused atomic.Int64 // saves made while the file was compacted
	for w := range 4 {
		wg.Go(func() {
			for i := range 60 {
				origin := fmt.Sprintf("https://w%d-%d.example", w, i)
				err := s.Save(t.Context(), result(origin, 24<<10, now, now.Add(time.Hour)))
				if errors.Is(err, boltstore.ErrCompacting) {
					refused.Add(1)
				} else if err != nil {
					t.Error(err)
					return
				}
				for j := max(0, i-5); j <= i; j++ {
					o := fmt.Sprintf("https://w%d-%d.example", (w+1)%4, j)
					r, err := s.Load(t.Context(), o)
					if err != nil || (r != nil && r.Origin != o) {
						t.Errorf("Load(%s) = %v, %v", o, r, err)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	s.WaitCompaction()
	st := s.Stats()
	t.Logf("%+v; %d saves refused during compactions", st, refused.Load())
	if n := fileSize(t, path); n > maxBytes || st.Compactions == 0 {
		t.Errorf("file of %d bytes after 240 saves of 33 KiB, %d compactions; want under %d, with compactions", n, st.Compactions, maxBytes)
	}
}

func TestHistory(t *testing.T) {
	fetchtest.TestHistory(t, open(t, filepath.Join(t.TempDir(), "cache.db")))
}

// TestHistoryKept: an origin's history survives a restart and is evicted with its
// entry.
func TestHistoryKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.db")
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	s, err := boltstore.Open(path, boltstore.WithMaxBytes(boltstore.MinMaxBytes))
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	for i, at := range []time.Duration{0, time.Hour} {
		r := result("https://kept.example", 1000+i, now.Add(at), now.Add(at+time.Minute))
		if err := s.Save(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s = open(t, path, boltstore.WithMaxBytes(boltstore.MinMaxBytes))
	hist, err := s.History(ctx, "https://kept.example")
	if err != nil || len(hist) != 2 || len(hist[0].Body) != 1001 || len(hist[1].Body) != 1000 {
		t.Fatalf("after a restart: %d versions, %v; want 2 (bodies of 1001 and 1000 bytes)", len(hist), err)
	}
	// Entries of 100 KiB (about 135 KiB as JSON) until kept.example, expired, is
	// evicted: 40 of them are more than the entries' three quarters of 4 MiB.
	for i := range 40 {
		if err := s.Save(ctx, result(fmt.Sprintf("https://fill-%d.example", i), 100<<10, now, now.Add(24*time.Hour))); err != nil {
			t.Fatal(err)
		}
		s.WaitCompaction()
	}
	if r, _ := s.Load(ctx, "https://kept.example"); r != nil {
		t.Fatal("kept.example still held after 40 saves of 100 KiB in a 4 MiB store")
	}
	if hist, err := s.History(ctx, "https://kept.example"); err != nil || len(hist) != 0 {
		t.Errorf("history of an evicted entry: %d versions, %v; want none", len(hist), err)
	}
}

// TestHistoryOnce: the history's latest version is the entry's body, not stored a
// second time: an origin of a 60,000-byte file takes its entry's bytes (the body
// as base64, 80,000) and little more.
func TestHistoryOnce(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "cache.db"))
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	if err := s.Save(t.Context(), result("https://once.example", 60000, now, now.Add(time.Hour))); err != nil {
		t.Fatal(err)
	}
	if b := s.Stats().Bytes; b < 80000 || b > 82000 {
		t.Errorf("entry of a 60,000-byte file with its history: %d bytes; want 80,000 to 82,000 (the body once)", b)
	}
	hist, err := s.History(t.Context(), "https://once.example")
	if err != nil || len(hist) != 1 || len(hist[0].Body) != 60000 {
		t.Fatalf("history: %d versions, %v; want one of 60,000 bytes", len(hist), err)
	}
}
