package robots_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorobots/robots"
)

// Worst cases are benchmarks too: files within the size limit written to make a
// decision expensive, beside the corpus. Each shape reports its time per decision as a
// multiple of the median time of one real corpus decision, measured in the same run
// (x-median); BenchmarkAdversarial logs the worst (go test -run '^$' -bench
// Adversarial -v .).

// adversary is one adversarial file and the paths decided against it.
type adversary struct {
	name    string
	body    string
	dialect robots.Dialect
	usage   bool // decide with Usage (the Content-Usage lines) rather than Check
	once    bool // decide with CheckOnce, from the body
	paths   map[string]string
}

// randWord is n bytes drawn from [a-z0-9].
func randWord(rng *rand.Rand, n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
}

// fill writes User-agent: * and then lines made by line until the file would pass
// the size limit.
func fill(line func() string) string {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for {
		l := line() + "\n"
		if b.Len()+len(l) > robots.DefaultMaxBytes {
			return b.String()
		}
		b.WriteString(l)
	}
}

var (
	adversariesOnce sync.Once
	adversariesData []adversary
)

// adversaries returns the adversarial shapes, built once.
func adversaries() []adversary {
	adversariesOnce.Do(func() {
		rng := rand.New(rand.NewPCG(33, 1))
		paths := map[string]string{
			"40B":   "/" + randWord(rng, 39),
			"1000B": "/" + randWord(rng, 999),
			"16KB":  "/" + randWord(rng, 16<<10-1),
		}
		// A path of the shape "/aaaaaaa…" that shares the first bytes of the "$" and
		// long-prefix rules below.
		shared := map[string]string{
			"40B":   "/aaaaaaa" + randWord(rng, 32),
			"1000B": "/aaaaaaa" + randWord(rng, 992),
		}
		star := func() string { return "Disallow: /*" + randWord(rng, 5) } // the file: 28,442 lines
		deep := func() string {                                            // ten pieces of two bytes after "*"
			var b strings.Builder
			b.WriteString("Disallow: /")
			for range 10 {
				b.WriteString("*" + randWord(rng, 2))
			}
			return b.String()
		}
		adversariesData = []adversary{
			{name: "wild", body: fill(star), paths: paths},
			{name: "wild-once", body: fill(star), once: true, paths: paths},
			{name: "wild-rfc9309", body: fill(star), dialect: robots.RFC9309, paths: paths},
			{name: "wild-dollar", body: fill(func() string { return "Disallow: /*" + randWord(rng, 5) + "$" }), paths: paths},
			{name: "dollar", body: fill(func() string { return "Disallow: /aaaaaaa" + randWord(rng, 5) + "$" }), paths: shared},
			{name: "prefix", body: fill(func() string { return "Disallow: /aaaaaaa" + randWord(rng, 5) }), paths: shared},
			{name: "prefix-legacy1996", body: fill(func() string { return "Disallow: /aaaaaaa" + randWord(rng, 5) }), dialect: robots.Legacy1996, paths: shared},
			{name: "deep", body: fill(deep), paths: paths},
			{name: "usage", body: fill(func() string { return "Content-Usage: /*" + randWord(rng, 5) + " train-ai=y" }), usage: true, paths: paths},
		}
	})
	return adversariesData
}

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
	for _, adv := range adversaries() {
		r := robots.ParseString(adv.body, robots.WithDialect(adv.dialect))
		for _, pname := range []string{"40B", "1000B", "16KB"} {
			path, ok := adv.paths[pname]
			if !ok {
				continue
			}
			url := "https://example.com" + path
			name := fmt.Sprintf("%s/path=%s", adv.name, pname)
			b.Run(name, func(b *testing.B) {
				decide := func() { r.Check("Googlebot", url) }
				switch {
				case adv.usage:
					decide = func() { r.Usage("Googlebot", url) }
				case adv.once:
					body := []byte(adv.body)
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
