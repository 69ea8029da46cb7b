package robots

import (
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/gorobots/robots/internal/testenv"
)

// BenchmarkCorpusMemSize reports where the bytes of a parsed corpus file go, per file,
// after what a server does with every origin it caches: one decision on "/" for
// Googlebot and its crawl-delay (bench/cmd/capacity measures the same through the
// service, Result and cache included). MemSize's parts: the body, the struct, the
// token and group tables, the compiled rule sets (their indexes apart), the indexes,
// the crawl-delay tables and the detailed reading. Issue 33's memory per cached origin.
//
//	go test -run '^$' -bench CorpusMemSize .
func BenchmarkCorpusMemSize(b *testing.B) {
	dir := testenv.CorpusDir(b)
	names, _ := filepath.Glob(filepath.Join(dir, "robots", "*.txt"))
	if len(names) == 0 {
		b.Skip("no corpus files in", dir)
	}
	bodies := make([][]byte, len(names))
	for i, n := range names {
		body, err := os.ReadFile(n)
		if err != nil {
			b.Fatal(err)
		}
		bodies[i] = body
	}
	var rs []*Robots
	for range b.N {
		rs = rs[:0]
		for _, body := range bodies {
			r := Parse(body)
			r.CheckAgents([]string{"Googlebot"}, "http://example.com/")
			r.CrawlDelay("Googlebot")
			rs = append(rs, r)
		}
	}
	var total, body, tables, sets, indexes, delays, details int
	for _, r := range rs {
		total += r.MemSize()
		body += len(r.body)
		tables += int(unsafe.Sizeof(*r)) + cap(r.tokens)*int(unsafe.Sizeof(tokenSet{})) +
			cap(r.groups)*int(unsafe.Sizeof(group{})) + cap(r.setGroup)*4
		progs := []string{r.star.prog.load()}
		for i := range r.tokens {
			progs = append(progs, r.tokens[i].ref.prog.load())
		}
		for _, p := range progs {
			if p == "" {
				continue // not compiled
			}
			if ix := progIndex(p); ix != 0 {
				sets += ix
				indexes += len(p) - ix
			} else {
				sets += len(p)
			}
		}
		if t := r.delays.Load(); t != nil && t != &noDelays {
			delays += int(unsafe.Sizeof(*t)) + cap(*t)*int(unsafe.Sizeof(delay{}))
		}
		if d := r.detail.Load(); d != nil {
			details++
		}
	}
	n := float64(len(rs))
	b.ReportMetric(float64(total)/n, "B/file")
	b.ReportMetric(float64(body)/n, "body-B/file")
	b.ReportMetric(float64(tables)/n, "tables-B/file")
	b.ReportMetric(float64(sets)/n, "sets-B/file")
	b.ReportMetric(float64(indexes)/n, "index-B/file")
	b.ReportMetric(float64(delays)/n, "delays-B/file")
	b.ReportMetric(float64(details), "detailed-files")
}
