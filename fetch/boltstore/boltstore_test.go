package boltstore_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/fetch/boltstore"
	"github.com/gorobots/robots/fetch/internal/fetchtest"
	"github.com/gorobots/robots/internal/testenv"
)

func TestContract(t *testing.T) {
	s, err := boltstore.Open(filepath.Join(t.TempDir(), "cache.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fetchtest.TestStore(t, s)
}

func TestSharedErrors(t *testing.T) {
	s, err := boltstore.Open(filepath.Join(t.TempDir(), "cache.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
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
	s, err := boltstore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	start := time.Now()
	_, err = boltstore.Open(path) // flock locks are per open file, so this process counts as another
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
			s, err := boltstore.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			tc.after(s, path)
			if err := s.Health(t.Context()); (err == nil) != tc.ok {
				t.Errorf("Health: %v; want ok %v", err, tc.ok)
			}
		})
	}
}
