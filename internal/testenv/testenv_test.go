package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gorobots/robots/internal/corpus"
)

// recorder is a testing.TB that records how it was ended instead of ending.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper() {}
func (r *recorder) Skipf(format string, args ...any) {
	r.skipped = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }

// run calls f with a recorder on a goroutine of its own, as the testing package
// runs a test, so that Skipf and Fatalf can end it with runtime.Goexit.
func run(f func(tb testing.TB)) *recorder {
	r := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r
}

func TestMissing(t *testing.T) {
	tests := []struct {
		name        string
		ci          string
		wantSkipped string
		wantFailed  string
	}{
		{"skipped outside CI", "", "skipping: redis-server is not installed", ""},
		{"CI other than true skips", "1", "skipping: redis-server is not installed", ""},
		{"fails under CI=true", "true", "", "redis-server is not installed (required when CI=true)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("CI", tt.ci)
			r := run(func(tb testing.TB) { Missing(tb, "%s is not installed", "redis-server") })
			if r.skipped != tt.wantSkipped || r.failed != tt.wantFailed {
				t.Errorf("Missing: skipped %q, failed %q; want skipped %q, failed %q",
					r.skipped, r.failed, tt.wantSkipped, tt.wantFailed)
			}
		})
	}
}

func TestCorpusDir(t *testing.T) {
	good := t.TempDir()
	if err := os.Mkdir(filepath.Join(good, "robots"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		env, ci string
		wantDir string // "" when tb must fail
		wantErr string // part of the failure message
	}{
		{"$ROBOTS_CORPUS is used", good, "true", good, ""},
		{"$ROBOTS_CORPUS without robots/ fails", t.TempDir(), "", "", "robots: no such file"},
		{"$ROBOTS_CORPUS that does not exist fails", filepath.Join(good, "nothing"), "", "", "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(corpus.EnvDir, tt.env)
			t.Setenv("CI", tt.ci)
			var got string
			r := run(func(tb testing.TB) { got = CorpusDir(tb) })
			if got != tt.wantDir {
				t.Errorf("CorpusDir = %q; want %q", got, tt.wantDir)
			}
			if r.skipped != "" || (tt.wantErr == "") != (r.failed == "") || !strings.Contains(r.failed, tt.wantErr) {
				t.Errorf("CorpusDir: skipped %q, failed %q; want a failure saying %q", r.skipped, r.failed, tt.wantErr)
			}
		})
	}
}

// TestCorpusAbsent runs from a directory with no shared/corpus above it: the test
// is skipped outside CI and fails under CI=true, each time naming $ROBOTS_CORPUS.
func TestCorpusAbsent(t *testing.T) {
	dir := t.TempDir()
	if _, err := corpus.Find(dir); err == nil {
		t.Skipf("a shared/corpus exists above %s: cannot test its absence here", dir)
	}
	t.Chdir(dir)
	t.Setenv(corpus.EnvDir, "")
	for _, ci := range []string{"", "true"} {
		t.Setenv("CI", ci)
		r := run(func(tb testing.TB) { CorpusDir(tb) })
		msg, want := r.skipped, "skipping: no shared corpus"
		if ci == "true" {
			msg, want = r.failed, "no shared corpus"
		}
		if !strings.HasPrefix(msg, want) || !strings.Contains(msg, "$ROBOTS_CORPUS") {
			t.Errorf("CI=%q: skipped %q, failed %q; want %q naming $ROBOTS_CORPUS", ci, r.skipped, r.failed, want)
		}
	}
}
