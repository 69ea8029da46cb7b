// Package testenv is what the tests and benchmarks of every package of the module
// (and of the bench module) share: the rule for what a test may skip, the shared
// corpus, the real programs some tests run (redis-server, vsftpd), loopback HTTP
// servers that count their requests, and the CPU-time meter of the benchmarks.
//
// One rule for a missing requirement: outside CI the test is skipped with a message
// that says what is missing and how to provide it; with CI=true it fails, because CI
// provides everything (see .ci/run).
package testenv

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/gorobots/robots/internal/corpus"
)

// InCI reports whether the tests run in CI (CI=true), where nothing may be missing.
func InCI() bool { return os.Getenv("CI") == "true" }

// Missing ends tb because something it needs is not there: with CI=true it fails,
// otherwise it is skipped. The message says what is missing and how to provide it.
func Missing(tb testing.TB, format string, args ...any) {
	tb.Helper()
	msg := fmt.Sprintf(format, args...)
	if InCI() {
		tb.Fatalf("%s (required when CI=true)", msg)
	}
	tb.Skipf("skipping: %s", msg)
}

// CorpusDir returns the directory of the shared corpus: $ROBOTS_CORPUS when set,
// else the first shared/corpus beside the test's directory or one of its parents
// (corpus.Find). Where there is none, tb is ended by Missing; a $ROBOTS_CORPUS that
// names no corpus fails tb.
func CorpusDir(tb testing.TB) string {
	tb.Helper()
	dir, err := corpus.Find(".")
	if errors.Is(err, corpus.ErrNotFound) {
		Missing(tb, "no shared corpus beside the repository (set $%s to its directory)", corpus.EnvDir)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return dir
}

var (
	corpusOnce sync.Once
	corpusVal  *corpus.Corpus
	corpusErr  error
)

// Corpus returns the shared corpus, read once per test binary. Where it is absent,
// tb is ended as by CorpusDir.
func Corpus(tb testing.TB) *corpus.Corpus {
	tb.Helper()
	dir := CorpusDir(tb)
	corpusOnce.Do(func() { corpusVal, corpusErr = corpus.Load(dir) })
	if corpusErr != nil {
		tb.Fatal(corpusErr)
	}
	return corpusVal
}
