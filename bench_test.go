package robots_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/internal/corpus"
	"github.com/gorobots/robots/internal/testenv"
)

// The benchmarks and the memory and allocation tests run over the shared corpus
// (../shared/corpus, or $ROBOTS_CORPUS): 19,480 real robots.txt files, 91,492 real
// crawled URLs and 1,315 real crawler tokens. The comparison with other libraries is
// in the bench/ module.

// parsedCases parses the file of every case once and returns the cases with them.
func parsedCases(tb testing.TB) ([]corpus.Case, map[int]*robots.Robots) {
	c := testenv.Corpus(tb)
	cases := c.Cases()
	parsed := map[int]*robots.Robots{}
	for _, cs := range cases {
		if _, ok := parsed[cs.File]; !ok {
			parsed[cs.File] = robots.Parse(c.Files[cs.File].Body)
		}
	}
	return cases, parsed
}

// decision is one prepared decision: the parsed file, the URL and the agent.
type decision struct {
	r          *robots.Robots
	url, agent string
}

var (
	decisionsOnce sync.Once
	decisionsData []decision
)

// decisions returns the real cases with their files parsed, prepared once since a
// benchmark function runs several times.
func decisions(tb testing.TB) []decision {
	cases, parsed := parsedCases(tb) // skips or fails the caller when there is no corpus
	decisionsOnce.Do(func() {
		decisionsData = make([]decision, len(cases))
		for i, cs := range cases {
			// Allocated in case order, as a crawler's URL is fresh in memory: the
			// slices of urls.txt, read in the shuffled order, each miss the cache.
			decisionsData[i] = decision{parsed[cs.File], strings.Clone(cs.URL), cs.Agent}
		}
	})
	return decisionsData
}

// BenchmarkParse parses every corpus file once per op. MB/s counts the bytes Parse
// reads: each file up to DefaultMaxBytes (three files are longer).
func BenchmarkParse(b *testing.B) {
	c := testenv.Corpus(b)
	n := c.Bytes(robots.DefaultMaxBytes)
	b.SetBytes(n)
	m := testenv.StartMeter(b)
	for range b.N {
		for _, f := range c.Files {
			robots.Parse(f.Body)
		}
	}
	m.Report(float64(n)/1e6, "", "MB/cpu-s")
	b.ReportMetric(float64(len(c.Files)*b.N)/b.Elapsed().Seconds(), "files/s")
}

// BenchmarkAllowed decides the real URLs of urls.txt against their hosts' files,
// parsed beforehand; one op is one decision.
func BenchmarkAllowed(b *testing.B) {
	benchmarkDecisions(b, func(d *decision) { d.r.Allowed(d.agent, d.url) })
}

// BenchmarkCheck is BenchmarkAllowed with the reason (Check).
func BenchmarkCheck(b *testing.B) {
	benchmarkDecisions(b, func(d *decision) { d.r.Check(d.agent, d.url) })
}

// benchmarkDecisions makes one decision per op, going round the prepared ones.
func benchmarkDecisions(b *testing.B, decide func(*decision)) {
	ds := decisions(b)
	m := testenv.StartMeter(b)
	for i := range b.N {
		decide(&ds[i%len(ds)])
	}
	m.Decisions(1)
}

// BenchmarkAllowedParallel shares the parsed files between goroutines, as a crawler
// with many workers does.
func BenchmarkAllowedParallel(b *testing.B) {
	ds := decisions(b)
	var (
		mu   sync.Mutex
		next int
	)
	m := testenv.StartMeter(b)
	b.RunParallel(func(pb *testing.PB) {
		mu.Lock()
		i := next * 7919 // start the goroutines at different cases
		next++
		mu.Unlock()
		for pb.Next() {
			d := &ds[i%len(ds)]
			d.r.Allowed(d.agent, d.url)
			i++
		}
	})
	m.Decisions(1)
}

// BenchmarkParseAndAllowed parses the host's file and makes one decision, as a
// caller that keeps nothing between decisions would.
func BenchmarkParseAndAllowed(b *testing.B) {
	benchmarkCases(b, func(body []byte, cs *corpus.Case) { robots.Parse(body).Allowed(cs.Agent, cs.URL) })
}

// BenchmarkCheckOnce decides each case straight from its host's file, without
// parsing it first (CheckOnce); one op is one decision.
func BenchmarkCheckOnce(b *testing.B) {
	benchmarkCases(b, func(body []byte, cs *corpus.Case) { robots.CheckOnce(body, cs.Agent, cs.URL) })
}

// benchmarkCases decides one case from its host's file per op, going round the
// cases.
func benchmarkCases(b *testing.B, decide func(body []byte, cs *corpus.Case)) {
	c := testenv.Corpus(b)
	cases := c.Cases()
	m := testenv.StartMeter(b)
	for i := range b.N {
		cs := &cases[i%len(cases)]
		decide(c.Files[cs.File].Body, cs)
	}
	m.Decisions(1)
}
