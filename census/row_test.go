package census

import (
	"bytes"
	"context"
	"testing"
)

// BenchmarkWrite writes the rows of a default run on the benchmarks' file (75
// crawlers, lint) in each format: the writers' share of BenchmarkScan, with the
// bytes written. The rows are held in memory (about 300 bytes each), which
// garbage collection scans: docs/corpus.md's instruction counts are of
// GOGC=off, the difference of -test.benchtime 3x and 1x, halved.
func BenchmarkWrite(b *testing.B) {
	var rows []Row
	_, err := Scan(context.Background(), bytes.NewReader(loadBench(b)), "bench.warc.gz", Config{}, func(r *Row) error {
		rows = append(rows, *r)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	for _, format := range Formats {
		b.Run(format, func(b *testing.B) {
			var n countWriter
			for b.Loop() {
				w, err := NewWriter(format, &n)
				if err != nil {
					b.Fatal(err)
				}
				for i := range rows {
					if err := w.Write(&rows[i]); err != nil {
						b.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)/float64(b.N), "out-bytes/op")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(rows)), "ns/row")
		})
	}
}

// countWriter counts the bytes written to it.
type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }
