package census

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// Row is what a robots.txt fetch of a WARC file means for one crawler. Every
// format writes the same columns, named as the tags say.
type Row struct {
	File   string `parquet:"file" json:"file"`               // the WARC file, as named on the command line
	Offset int64  `parquet:"warc_offset" json:"warc_offset"` // of the robots.txt response record in the file
	URL    string `parquet:"url" json:"url"`                 // the record's WARC-Target-URI
	Host   string `parquet:"host" json:"host"`               // its host, lower case
	Origin string `parquet:"origin" json:"origin"`           // its origin as the access method writes it; "" when the URL has none
	Date   string `parquet:"date" json:"date"`               // the record's WARC-Date
	Status int32  `parquet:"status" json:"status"`           // the HTTP status recorded for the robots.txt URL
	// FinalStatus is the status of the last response the access method read, after
	// the redirects it followed (0 when none, or when the chain leaves the file).
	FinalStatus int32  `parquet:"final_status" json:"final_status"`
	Redirects   int32  `parquet:"redirects" json:"redirects"`       // redirects followed
	FinalURL    string `parquet:"final_url" json:"final_url"`       // the URL of the last response read
	Outcome     string `parquet:"outcome" json:"outcome"`           // success, unavailable, unreachable (fetch.Outcome); "" when unknown
	Effect      string `parquet:"effect" json:"effect"`             // rules, allow-all, disallow-all (fetch.Effect); "" when unknown
	Error       string `parquet:"error" json:"error"`               // why the fetch was not a plain answer: too many redirects, a redirect out of the file
	ContentType string `parquet:"content_type" json:"content_type"` // of the robots.txt response
	// Size is the size of the file the rules come from (of the robots.txt response
	// otherwise), as recorded.
	Size          int64  `parquet:"size" json:"size"`
	Truncated     bool   `parquet:"truncated" json:"truncated"`           // the access method read only its first 500 KiB
	WARCTruncated string `parquet:"warc_truncated" json:"warc_truncated"` // WARC-Truncated: why the crawler stored only part of it
	HTML          bool   `parquet:"html" json:"html"`                     // an HTML or XML page, not robots.txt (lint's html-page)
	License       bool   `parquet:"rsl_license" json:"rsl_license"`       // a License line (Really Simple Licensing)
	Lint          string `parquet:"lint" json:"lint"`                     // the lint codes of the file, sorted, comma-separated
	Agent         string `parquet:"agent" json:"agent"`                   // the crawler's product token
	Purpose       string `parquet:"purpose" json:"purpose"`               // its main purpose in the registry; "" when not in it
	// Access is how much of the site the crawler may fetch: blocked (entirely),
	// partly, open (lint.Access); "" when unknown.
	Access string `parquet:"access" json:"access"`
	// ContentUsage and ContentSignal are the usage preferences stated for the
	// crawler at the site's root, "label=y|n" comma-separated: Content-Usage
	// categories, Content-Signal signals (robots.Usage).
	ContentUsage  string `parquet:"content_usage" json:"content_usage"`
	ContentSignal string `parquet:"content_signal" json:"content_signal"`
}

// columns are the CSV header, in Row's order.
var columns = []string{"file", "warc_offset", "url", "host", "origin", "date", "status", "final_status", "redirects",
	"final_url", "outcome", "effect", "error", "content_type", "size", "truncated", "warc_truncated", "html",
	"rsl_license", "lint", "agent", "purpose", "access", "content_usage", "content_signal"}

// unboundedColumns are every column but warc_offset: the Parquet writer gives
// them no page statistics or bounds.
var unboundedColumns = []string{"file", "url", "host", "origin", "date", "status", "final_status", "redirects",
	"final_url", "outcome", "effect", "error", "content_type", "size", "truncated", "warc_truncated", "html",
	"rsl_license", "lint", "agent", "purpose", "access", "content_usage", "content_signal"}

func (r *Row) strings() []string { return r.appendStrings(nil) }

// crawlerColumns are Row's last columns, the only ones that differ between the
// rows of one fetch (one row per crawler); the others are the fetch's.
type crawlerColumns struct {
	Agent         string `json:"agent"`
	Purpose       string `json:"purpose"`
	Access        string `json:"access"`
	ContentUsage  string `json:"content_usage"`
	ContentSignal string `json:"content_signal"`
}

func (r *Row) crawler() crawlerColumns {
	return crawlerColumns{r.Agent, r.Purpose, r.Access, r.ContentUsage, r.ContentSignal}
}

// sameFetch reports whether r and o, o written before, are rows of one fetch: o
// takes r's crawler columns, so that the rows compare whole without a copy.
func (r *Row) sameFetch(o *Row) bool {
	o.Agent, o.Purpose, o.Access, o.ContentUsage, o.ContentSignal = r.Agent, r.Purpose, r.Access, r.ContentUsage, r.ContentSignal
	return *r == *o
}

func (c *crawlerColumns) appendStrings(dst []string) []string {
	return append(dst, c.Agent, c.Purpose, c.Access, c.ContentUsage, c.ContentSignal)
}

// fetchColumns is how many of Row's columns, from the first, are the fetch's.
var fetchColumns = len(columns) - reflect.TypeFor[crawlerColumns]().NumField()

// appendStrings appends the row's values, as text in Row's order, to dst.
func (r *Row) appendStrings(dst []string) []string {
	i := func(n int64) string { return strconv.FormatInt(n, 10) }
	b := strconv.FormatBool
	return append(dst, r.File, i(r.Offset), r.URL, r.Host, r.Origin, r.Date, i(int64(r.Status)), i(int64(r.FinalStatus)),
		i(int64(r.Redirects)), r.FinalURL, r.Outcome, r.Effect, r.Error, r.ContentType, i(r.Size), b(r.Truncated),
		r.WARCTruncated, b(r.HTML), b(r.License), r.Lint, r.Agent, r.Purpose, r.Access, r.ContentUsage, r.ContentSignal)
}

// Formats are the output formats, by name.
var Formats = []string{"parquet", "csv", "jsonl"}

// A Writer writes rows in one format. Close finishes the output (the Parquet
// footer) without closing the underlying writer.
type Writer interface {
	Write(*Row) error
	Close() error
}

// NewWriter returns a writer of rows in format ("parquet", "csv" or "jsonl") to w.
// Parquet files of every run of one version have one schema, so that they
// concatenate (DuckDB's read_parquet('*.parquet'), Spark).
func NewWriter(format string, w io.Writer) (Writer, error) {
	switch format {
	case "parquet":
		opts := []parquet.WriterOption{
			parquet.Compression(&zstd.Codec{Level: zstd.SpeedDefault}),
			parquet.CreatedBy("robots corpus", "", ""),
			parquet.PageBufferSize(parquetPage),
		}
		// Only warc_offset, which grows with the file, has page statistics and
		// bounds: the rows are in the order of the WARC file, so every page spans
		// nearly the whole range of every other column (both values of a bool, the
		// statuses, most hosts) and min/max would let no reader skip it, while
		// computing them was a third of the writer's time for the text columns, and
		// 3% of a 75-crawler run for the others (BENCHMARKS.md, "robots corpus").
		for _, c := range unboundedColumns {
			opts = append(opts, parquet.SkipPageBounds(c), parquet.SkipPageStatistics(c))
		}
		return &parquetWriter{batch: make([]Row, 0, 1024), w: parquet.NewGenericWriter[Row](w, opts...)}, nil
	case "csv":
		// csv.NewWriter buffers with bufio.NewWriter, which takes bw itself (its
		// buffer is large enough): the heads written to bw and the records of
		// csv.Writer keep their order (TestWritersEncodeRows).
		bw := bufio.NewWriter(w)
		c := &csvWriter{out: bw, w: csv.NewWriter(bw), header: true}
		c.hw = csv.NewWriter(&c.hb)
		return c, nil
	case "jsonl":
		j := &jsonWriter{w: bufio.NewWriter(w)}
		j.enc = json.NewEncoder(&j.buf)
		return j, nil
	}
	return nil, fmt.Errorf("unknown format %q (want parquet, csv or jsonl)", format)
}

// parquetPage is the size of a Parquet column's page before compression. No
// column has a dictionary: the rows of one fetch repeat every value but those of
// agent, purpose, access, content_usage and content_signal, and zstd over pages
// of plain values finds those runs for less than a dictionary's map lookup a
// value cost: the writer 0.76x the instructions of 256 KiB pages with
// dictionaries on the 12 columns of few values, in a 6% larger file
// (census.BenchmarkWrite; docs/corpus.md, "Speed"). Each column buffers at most
// one page (and a row's value) before compressing it: 2 MiB pages would write
// the file of the dictionaries' size for 1% fewer instructions but 13% more
// peak RSS, 256 KiB pages a 25% larger file.
const parquetPage = 1 << 20

// parquetRowGroup is how many rows a Parquet row group holds: a bound on the rows
// buffered (a few hundred bytes each before compression) and large enough for
// readers to skip well.
const parquetRowGroup = 128 << 10

type parquetWriter struct {
	w     *parquet.GenericWriter[Row]
	batch []Row
	n     int
}

func (p *parquetWriter) Write(r *Row) error {
	// Copied in place: append copies a Row twice, through the stack.
	n := len(p.batch)
	p.batch = p.batch[:n+1]
	p.batch[n] = *r
	if n+1 == cap(p.batch) {
		if err := p.flushBatch(); err != nil {
			return err
		}
	}
	return nil
}

func (p *parquetWriter) flushBatch() error {
	if len(p.batch) == 0 {
		return nil
	}
	if _, err := p.w.Write(p.batch); err != nil {
		return err
	}
	p.n += len(p.batch)
	p.batch = p.batch[:0]
	if p.n >= parquetRowGroup {
		p.n = 0
		return p.w.Flush()
	}
	return nil
}

func (p *parquetWriter) Close() error {
	if err := p.flushBatch(); err != nil {
		return err
	}
	return p.w.Close()
}

// The CSV and JSON lines writers encode the fetch's columns once for all the rows
// of a fetch (one a crawler, 75 by default) and write that head before each row's
// crawler columns, the bytes of encoding each row whole, as both formats encode
// each field apart: the whole of robots corpus -format csv 1.88x faster by
// default, jsonl 1.98x (docs/corpus.md, "Speed"; TestWritersEncodeRows).

type csvWriter struct {
	out    *bufio.Writer // the output, which w writes to
	w      *csv.Writer
	header bool
	record []string // the fields encoded last, reused

	fetch Row          // the row the head was encoded from
	head  []byte       // they, encoded, with the comma after them; in hb
	hb    bytes.Buffer // hw's output
	hw    *csv.Writer
}

func (c *csvWriter) Write(r *Row) error {
	if c.header {
		c.header = false
		if err := c.w.Write(columns); err != nil {
			return err
		}
	}
	if c.head == nil || !r.sameFetch(&c.fetch) {
		c.hb.Reset()
		c.record = r.appendStrings(c.record[:0])[:fetchColumns]
		if err := c.hw.Write(c.record); err != nil {
			return err
		}
		c.hw.Flush()
		c.head = c.hb.Bytes()
		c.head[len(c.head)-1] = ',' // for the newline
		c.fetch = *r
	}
	if _, err := c.out.Write(c.head); err != nil {
		return err
	}
	cr := r.crawler()
	c.record = cr.appendStrings(c.record[:0])
	return c.w.Write(c.record)
}

func (c *csvWriter) Close() error {
	if c.header {
		c.header = false
		if err := c.w.Write(columns); err != nil {
			return err
		}
	}
	c.w.Flush()
	return c.w.Error()
}

type jsonWriter struct {
	w   *bufio.Writer
	buf bytes.Buffer  // enc's output
	enc *json.Encoder // with encoding/json's defaults, as json.Marshal

	fetch Row            // the first row of the fetch written last
	cr    crawlerColumns // its crawler's, encoded through a pointer: no allocation
	whole int            // > 0: buf holds that row encoded whole, its first of the fetch
	head  []byte         // the fetch's columns, from "{" to the comma after them
	cut   bool           // head is the fetch's
}

func (j *jsonWriter) Write(r *Row) error {
	if !r.sameFetch(&j.fetch) || !j.cut && j.whole == 0 {
		// The first row of a fetch, whole: a fetch of one row (one crawler)
		// costs what it did before heads.
		j.buf.Reset()
		if err := j.enc.Encode(r); err != nil {
			return err
		}
		j.fetch, j.cr, j.whole, j.cut = *r, r.crawler(), j.buf.Len(), false
		_, err := j.w.Write(j.buf.Bytes())
		return err
	}
	if !j.cut {
		// The second row: the head is the first row's encoding but its crawler's.
		if err := j.enc.Encode(&j.cr); err != nil {
			return err
		}
		whole, tail := j.buf.Bytes()[:j.whole], j.buf.Bytes()[j.whole+1:]
		j.whole = 0
		if !bytes.HasSuffix(whole, tail) || len(whole) == len(tail) {
			return j.Write(r) // whole again; never, as TestCrawlerColumns checks
		}
		j.head, j.cut = append(j.head[:0], whole[:len(whole)-len(tail)]...), true
	}
	j.buf.Reset()
	j.cr = r.crawler()
	if err := j.enc.Encode(&j.cr); err != nil {
		return err
	}
	if _, err := j.w.Write(j.head); err != nil {
		return err
	}
	_, err := j.w.Write(j.buf.Bytes()[1:])
	return err
}

func (j *jsonWriter) Close() error { return j.w.Flush() }
