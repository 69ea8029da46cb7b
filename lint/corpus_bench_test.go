package lint

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gorobots/robots"
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

var benchFile = flag.String("file", "", "the robots.txt file BenchmarkFile lints")

// BenchmarkFile lints the file given with -file: what one file costs, as
// docs/corpus.md quotes it for the costliest of the corpus (instructions of a run
// of 3 less a run of 1, halved, under cachegrind).
//
//	go test -c -o /tmp/lint.test ./lint
//	valgrind --tool=cachegrind /tmp/lint.test -test.run '^$' -test.bench File -test.benchtime 3x -file F
func BenchmarkFile(b *testing.B) {
	if *benchFile == "" {
		b.Skip("give -file")
	}
	data, err := os.ReadFile(*benchFile)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		Check("robots.txt", data)
	}
}

var benchBodies = flag.String("bodies", "", "a directory of robots.txt bodies BenchmarkBodies lints")

// BenchmarkBodies lints every file of the directory given with -bodies as robots
// corpus does: parsed once (the access method's reading), then CheckWith with
// Options.Parsed. docs/corpus.md ("lint's share") quotes it under cachegrind for the
// bodies of one Common Crawl robots.txt WARC file, less a run with -parseonly.
//
//	go test -c -o /tmp/lint.test ./lint
//	GOGC=off valgrind --tool=cachegrind /tmp/lint.test -test.run '^$' -test.bench Bodies -test.benchtime 1x -bodies DIR [-parseonly]
func BenchmarkBodies(b *testing.B) {
	if *benchBodies == "" {
		b.Skip("give -bodies")
	}
	ents, err := os.ReadDir(*benchBodies)
	if err != nil {
		b.Fatal(err)
	}
	var bodies [][]byte
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(*benchBodies, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		bodies = append(bodies, data)
	}
	for b.Loop() {
		for _, body := range bodies {
			r := robots.Parse(body)
			if !*parseOnly {
				CheckWith("robots.txt", body, Options{Parsed: r})
			}
		}
	}
}

var parseOnly = flag.Bool("parseonly", false, "BenchmarkBodies only parses: the part to subtract")
