package robots_test

import (
	"testing"

	"github.com/gorobots/robots"
)

// BenchmarkScanLines reads the lines of every corpus file (up to DefaultMaxBytes)
// with the line scanner alone: in a loop (impl=loop, as DecideOnce reads them),
// through its callback (impl=callback, as Parse reads them) and with the reference
// scanner the fast one is tested against (impl=ref), so that they compare in one run.
func BenchmarkScanLines(b *testing.B) {
	c := loadCorpus(b)
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
		{"impl=ref", robots.ScanSumRef},
	} {
		b.Run(impl.name, func(b *testing.B) {
			lines := 0
			m := startMeter(b)
			for range b.N {
				for _, s := range bodies {
					n, _ := impl.scan(s)
					lines += n
				}
			}
			m.report(float64(lines)/float64(b.N), "lines/s", "lines/cpu-s")
		})
	}
}
