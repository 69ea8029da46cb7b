// Command warcpeers measures, on one WARC.gz file, what reading it costs with each
// WARC reader the module proxy serves, beside decompressing it alone and beside
// census.Scan, the whole task of robots corpus (BENCHMARKS.md, "robots corpus").
// Run each mode under cachegrind (bench/cachegrind-corpus.sh) or time it:
//
//	warcpeers -mode gunzip|ia|nlnwa|census FILE.warc.gz
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	iawarc "github.com/internetarchive/gowarc"
	"github.com/klauspost/compress/gzip"
	"github.com/nlnwa/gowarc/v3"

	"github.com/gorobots/robots/census"
	"github.com/gorobots/robots/crawlers"
)

func main() {
	mode := flag.String("mode", "gunzip", "gunzip (decompress only), ia (internetarchive/gowarc), nlnwa (nlnwa/gowarc/v3) or census (census.Scan, GPTBot, no lint)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: warcpeers -mode MODE FILE.warc.gz")
		os.Exit(2)
	}
	data, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	n, err := run(*mode, data)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%s: %d\n", *mode, n)
}

// run reads data in mode and returns a count that shows the work was done: bytes
// decompressed, payload bytes read, or rows.
func run(mode string, data []byte) (int64, error) {
	switch mode {
	case "gunzip":
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return 0, err
		}
		return io.Copy(io.Discard, zr)
	case "ia":
		r, err := iawarc.NewReader(bytes.NewReader(data))
		if err != nil {
			return 0, err
		}
		var n int64
		for {
			rec, err := r.ReadRecord()
			if err == io.EOF {
				return n, nil
			}
			if err != nil {
				return n, err
			}
			rec.Content.Seek(0, io.SeekStart)
			m, _ := io.Copy(io.Discard, rec.Content)
			n += m
			rec.Content.Close()
		}
	case "nlnwa":
		r, err := gowarc.NewWarcFileReaderFromStream(bufio.NewReader(bytes.NewReader(data)), 0)
		if err != nil {
			return 0, err
		}
		var n int64
		for {
			rec, err := r.Next()
			if err == io.EOF {
				return n, nil
			}
			if err != nil {
				return n, err
			}
			if blk, ok := rec.WarcRecord.Block().(gowarc.HttpResponseBlock); ok {
				p, _ := blk.PayloadBytes()
				m, _ := io.Copy(io.Discard, p)
				n += m
			}
			rec.Close()
		}
	case "census":
		gpt, _ := crawlers.Lookup("GPTBot")
		st, err := census.Scan(context.Background(), bytes.NewReader(data), "bench", census.Config{Crawlers: []crawlers.Crawler{gpt}, NoLint: true},
			func(*census.Row) error { return nil })
		return st.Rows, err
	}
	return 0, fmt.Errorf("unknown mode %q", mode)
}
