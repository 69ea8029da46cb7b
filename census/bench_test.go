package census

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/internal/corpus"
	"github.com/gorobots/robots/internal/testenv"
	"github.com/klauspost/compress/gzip"
)

// benchWARC is a WARC.gz of the whole shared corpus laid out as Common Crawl's
// robots.txt files are (request, response and metadata records, each its own gzip
// member), every file answered 200.
var benchWARC = sync.OnceValues(func() ([]byte, error) {
	dir, err := corpus.Find(".")
	if err != nil {
		return nil, err
	}
	c, err := corpus.Load(dir)
	if err != nil {
		return nil, err
	}
	w := newWARC(true)
	for _, f := range c.Files {
		w.capture("https://"+f.Host+"/robots.txt", 200, f.Body, "Content-Type", "text/plain")
	}
	return w.bytes(), nil
})

var benchFile = flag.String("warc", "", "the WARC file the benchmarks read (default: the shared corpus as one WARC.gz)")

func loadBench(b *testing.B) []byte {
	if *benchFile != "" {
		data, err := os.ReadFile(*benchFile)
		if err != nil {
			b.Fatal(err)
		}
		return data
	}
	data, err := benchWARC()
	if err != nil {
		b.Skip("shared corpus not found:", err)
	}
	return data
}

// BenchmarkScan is the whole task on one WARC.gz: read, decide for the major
// crawlers, write Parquet (-format chooses another output, or none). Run with -cpu 1 for the per-core figure, beside
// BenchmarkDecompress and BenchmarkGzipDC.
func BenchmarkScan(b *testing.B) {
	data := loadBench(b)
	if os.Getenv("GOGC") == "" { // as robots corpus runs
		defer debug.SetGCPercent(debug.SetGCPercent(GCPercent))
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		emit, done := func(*Row) error { return nil }, func() error { return nil }
		if *benchFormat != "none" {
			w, err := NewWriter(*benchFormat, io.Discard)
			if err != nil {
				b.Fatal(err)
			}
			emit, done = w.Write, w.Close
		}
		_, err := Scan(context.Background(), bytes.NewReader(data), "bench.warc.gz", Config{Crawlers: benchCrawlers(), NoLint: *benchNoLint}, emit)
		if err != nil {
			b.Fatal(err)
		}
		if err := done(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecompress decompresses the same file with the decompressor Scan uses.
func BenchmarkDecompress(b *testing.B) {
	data := loadBench(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, zr); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGzipDC runs gzip -dc > /dev/null on the same file and reports the CPU
// time it took (user + system) as cpu-ns/op.
func BenchmarkGzipDC(b *testing.B) {
	data := loadBench(b)
	if _, err := exec.LookPath("gzip"); err != nil {
		b.Skip("no gzip")
	}
	name := b.TempDir() + "/bench.warc.gz"
	if err := os.WriteFile(name, data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	var cpu time.Duration
	for b.Loop() {
		cmd := exec.Command("gzip", "-dc", name)
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
}

var crawlDir = flag.String("crawl-dir", "", "TestWriteCrawl writes a small crawl of WARC.gz files here (docs/corpus.md's worked example)")

// TestWriteCrawl writes, with -crawl-dir, the shared corpus as four WARC.gz files
// laid out as Common Crawl's robots.txt files: request, response and metadata
// records, one gzip member each; every 50th host answers 404, every 70th 503, every
// 90th redirects to its www host. It is docs/corpus.md's worked example.
func TestWriteCrawl(t *testing.T) {
	if *crawlDir == "" {
		t.Skip("give -crawl-dir to write the example crawl")
	}
	c := testenv.Corpus(t)
	if err := os.MkdirAll(*crawlDir, 0o755); err != nil {
		t.Fatal(err)
	}
	const parts = 4
	ws := make([]*warcFile, parts)
	for i := range ws {
		ws[i] = newWARC(true)
	}
	for i, f := range c.Files {
		w := ws[i%parts]
		u := "https://" + f.Host + "/robots.txt"
		switch {
		case i%50 == 0:
			w.capture(u, 404, []byte("<html>Not Found</html>"), "Content-Type", "text/html")
		case i%70 == 0:
			w.capture(u, 503, nil)
		case i%90 == 0:
			www := "https://www." + f.Host + "/robots.txt"
			w.capture(u, 301, nil, "Location", www)
			w.capture(www, 200, f.Body, "Content-Type", "text/plain")
		default:
			w.capture(u, 200, f.Body, "Content-Type", "text/plain")
		}
	}
	for i, w := range ws {
		name := filepath.Join(*crawlDir, fmt.Sprintf("robotstxt-%05d.warc.gz", i))
		if err := os.WriteFile(name, w.bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var benchAgents = flag.String("agents", "", "BenchmarkScan's crawlers, comma-separated (default: the major ones)")

func benchCrawlers() []crawlers.Crawler {
	if *benchAgents == "" {
		return nil
	}
	var out []crawlers.Crawler
	for name := range strings.SplitSeq(*benchAgents, ",") {
		c, ok := crawlers.Lookup(name)
		if !ok {
			c = crawlers.Crawler{Name: name}
		}
		out = append(out, c)
	}
	return out
}

var benchFormat = flag.String("format", "parquet", "BenchmarkScan's output: parquet, csv, jsonl, or none (the rows made and dropped)")

var benchNoLint = flag.Bool("nolint", false, "BenchmarkScan leaves the lint column empty (Config.NoLint)")
