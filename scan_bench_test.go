package robots_test

import (
	"testing"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/internal/testenv"
)

// BenchmarkScanLines reads the lines of every corpus file (up to DefaultMaxBytes)
// with the line scanner alone: in a loop (impl=loop, as CheckOnce reads them) and
// through its callback (impl=callback, as Parse reads them), so that they compare in
// one run. (The reference the scanner is tested against, scanref_test.go, is written
// to be obvious, not fast: it is not measured.)
func BenchmarkScanLines(b *testing.B) {
	c := testenv.Corpus(b)
	bodies := make([]string, len(c.Files))
	for i, f := range c.Files {
		bodies[i] = string(f.Body[:min(len(f.Body), robots.DefaultMaxBytes)])
	}
	for _, impl := range []struct {
		name string
		scan func(string) (int, int)
	}{
		{"impl=loop", robots.ScanSum},
		{"impl=callback", robots.ScanSumCallback},
	} {
		b.Run(impl.name, func(b *testing.B) {
			lines := 0
			m := testenv.StartMeter(b)
			for range b.N {
				for _, s := range bodies {
					n, _ := impl.scan(s)
					lines += n
				}
			}
			m.Report(float64(lines)/float64(b.N), "lines/s", "lines/cpu-s")
		})
	}
}
