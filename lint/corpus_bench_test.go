package lint

import (
	"slices"
	"testing"
	"time"

	"github.com/gorobots/robots/internal/corpus"
)

// BenchmarkCorpus lints every file of the shared corpus (../shared/corpus), the
// work of robots corpus's lint column (BENCHMARKS.md, "robots corpus"): ns/file is
// the mean cost of one real robots.txt, worst-ns and median-ns those of the
// costliest and the median file (the costliest are files of a thousand wildcard
// rules, bounded by MaxCoverChecks), worst/median their ratio.
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
	each := make([]time.Duration, len(c.Files))
	for b.Loop() {
		for i, f := range c.Files {
			start := time.Now()
			Check("robots.txt", f.Body)
			each[i] = time.Since(start)
		}
	}
	slices.Sort(each)
	worst, median := each[len(each)-1], each[len(each)/2]
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(c.Files)), "ns/file")
	b.ReportMetric(float64(worst.Nanoseconds()), "worst-ns")
	b.ReportMetric(float64(median.Nanoseconds()), "median-ns")
	b.ReportMetric(float64(worst)/float64(median), "worst/median")
}
