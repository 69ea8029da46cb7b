package lint

import (
	"testing"

	"github.com/gorobots/robots/internal/corpus"
)

// BenchmarkCorpus lints every file of the shared corpus (../shared/corpus), the
// work of robots corpus's lint column (BENCHMARKS.md, "robots corpus"); ns/file is
// the mean cost of one real robots.txt.
//
//	go test -run '^$' -bench Corpus ./lint
func BenchmarkCorpus(b *testing.B) {
	dir, err := corpus.Find(".")
	if err != nil {
		b.Skip("shared corpus not found:", err)
	}
	c, err := corpus.Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, f := range c.Files {
		size += int64(len(f.Body))
	}
	b.SetBytes(size)
	for b.Loop() {
		for _, f := range c.Files {
			Check("robots.txt", f.Body)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(c.Files)), "ns/file")
}
