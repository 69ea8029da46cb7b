package robots_test

import (
	"testing"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/internal/testenv"
)

// BenchmarkScanLines reads and classifies every line of every corpus file (up to
// DefaultMaxBytes) with Lines, the reader alone. (The reference the reader is tested
// against, scanref_test.go, is written to be obvious, not fast: it is not measured.)
func BenchmarkScanLines(b *testing.B) {
	c := testenv.Corpus(b)
	bodies := make([][]byte, len(c.Files))
	for i, f := range c.Files {
		bodies[i] = f.Body[:min(len(f.Body), robots.DefaultMaxBytes)]
	}
	lines := 0
	m := testenv.StartMeter(b)
	for range b.N {
		for _, body := range bodies {
			for range robots.Lines(body) {
				lines++
			}
		}
	}
	m.Report(float64(lines)/float64(b.N), "lines/s", "lines/cpu-s")
}
