package robots_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/internal/adversary"
)

// Worst cases are benchmarks too: files within the size limit written to make a
// decision expensive, beside the corpus. Each shape reports its time per decision as a
// multiple of the median time of one real corpus decision, measured in the same run
// (x-median); BenchmarkAdversarial logs the worst (go test -run '^$' -bench
// Adversarial -v .). The files are internal/adversary's, which bench/cmd/worstpeer
// also decides with Google's C++ parser.

var (
	medianOnce sync.Once
	medianNs   float64
)

// corpusMedian returns the median time of one corpus decision (Check, pre-parsed, its
// rule set compiled), each of a sample of the cases timed over repetitions.
func corpusMedian(b *testing.B) float64 {
	ds := decisions(b)
	medianOnce.Do(func() {
		const reps = 16
		var ts []float64
		for i := 0; i < len(ds); i += 7 {
			d := &ds[i]
			d.r.Check(d.agent, d.url)
			start := time.Now()
			for range reps {
				d.r.Check(d.agent, d.url)
			}
			ts = append(ts, float64(time.Since(start).Nanoseconds())/reps)
		}
		slices.Sort(ts)
		medianNs = ts[len(ts)/2]
	})
	return medianNs
}

// BenchmarkAdversarial decides paths of 40 bytes, 1,000 bytes and 16 KB against
// adversarial files of about 500 KiB, pre-parsed, their rule sets compiled: many
// wildcard rules "/*xxxxx" (in Google's and RFC 9309's reading), many "$" rules,
// many rules sharing their first bytes (also in the 1996 draft's reading), deep
// chains of '*', and many Content-Usage lines; and the wildcard file decided from its
// body (CheckOnce, which reads the whole body). One op is one decision (Check or
// CheckOnce) or one Usage. x-median is the time of one op over the corpus median (BenchmarkCorpusMedian).
func BenchmarkAdversarial(b *testing.B) {
	median := corpusMedian(b)
	worst, worstName := 0.0, ""
	for _, adv := range adversary.Files() {
		r := robots.ParseString(adv.Body, robots.WithDialect(adv.Dialect))
		for _, pname := range adversary.PathNames {
			path, ok := adv.Paths[pname]
			if !ok {
				continue
			}
			url := "https://example.com" + path
			name := fmt.Sprintf("%s/path=%s", adv.Name, pname)
			b.Run(name, func(b *testing.B) {
				decide := func() { r.Check("Googlebot", url) }
				switch {
				case adv.Usage:
					decide = func() { r.Usage("Googlebot", url) }
				case adv.Once:
					body := []byte(adv.Body)
					decide = func() { robots.CheckOnce(body, "Googlebot", url) }
				}
				decide() // compiles the rule set
				b.ResetTimer()
				for range b.N {
					decide()
				}
				ratio := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / median
				b.ReportMetric(ratio, "x-median")
				if ratio > worst {
					worst, worstName = ratio, name
				}
			})
		}
	}
	b.Logf("corpus median %.0f ns per decision; worst-to-median ratio %.0fx (%s)", median, worst, worstName)
}

// BenchmarkCorpusMedian reports the median time of one corpus decision, which
// BenchmarkAdversarial divides by.
func BenchmarkCorpusMedian(b *testing.B) {
	median := corpusMedian(b)
	for range b.N {
	}
	b.ReportMetric(median, "ns/decision")
}
