package census

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// BenchmarkWrite writes the rows of a run on the benchmarks' file (by default 75
// crawlers, lint; -agents and -nolint as for BenchmarkScan) in each format: the writers' share of BenchmarkScan, with the
// bytes written. The rows are held in memory (about 300 bytes each), which
// garbage collection scans: docs/corpus.md's instruction counts are of
// GOGC=off, the difference of -test.benchtime 3x and 1x, halved.
func BenchmarkWrite(b *testing.B) {
	var rows []Row
	_, err := Scan(context.Background(), bytes.NewReader(loadBench(b)), "bench.warc.gz", Config{Crawlers: benchCrawlers(), NoLint: *benchNoLint}, func(r *Row) error {
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

// TestWritersEncodeRows: the CSV and JSON lines writers, which encode the fetch's
// columns once for the rows of a fetch, write the bytes of encoding/csv and
// encoding/json encoding every row whole: for the rows of a scan, and for rows
// whose values need quoting or escaping, each fetch column changing alone.
func TestWritersEncodeRows(t *testing.T) {
	w, _, _ := buildCases(true)
	rows, _, _ := scanAll(t, w.bytes(), Config{Crawlers: testCrawlers})
	odd := []string{"", "a,b", `say "hi"`, "two\nlines", "cr\rlf", " lead", `\.`, "<a&b>", "line\u2028sep", "bad\xffutf8", "ü"}
	base := Row{File: "f.warc.gz", Offset: 7, URL: "https://a.example/robots.txt", Agent: "GPTBot", Access: "open"}
	rows = append(rows, base)
	for i := range reflect.TypeFor[Row]().NumField() {
		for k, s := range odd {
			r := base
			f := reflect.ValueOf(&r).Elem().Field(i)
			switch f.Kind() {
			case reflect.String:
				f.SetString(s)
			case reflect.Bool:
				f.SetBool(k%2 == 0)
			default:
				f.SetInt(int64(k - 3))
			}
			rows = append(rows, r, r, base) // a new fetch of two rows, then base again
			r.Agent = "other, \"agent\""
			rows = append(rows, r) // the same fetch as base, another crawler
		}
	}
	var csvWant, jsonWant bytes.Buffer
	cw, je := csv.NewWriter(&csvWant), json.NewEncoder(&jsonWant)
	cw.Write(columns)
	for i := range rows {
		cw.Write(rows[i].strings())
		je.Encode(&rows[i])
	}
	cw.Flush()
	for format, want := range map[string][]byte{"csv": csvWant.Bytes(), "jsonl": jsonWant.Bytes()} {
		var got bytes.Buffer
		w, err := NewWriter(format, &got)
		if err != nil {
			t.Fatal(err)
		}
		for i := range rows {
			if err := w.Write(&rows[i]); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			g, w := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
			for i := range min(len(g), len(w)) {
				if g[i] != w[i] {
					t.Errorf("%s line %d:\n got %q\nwant %q", format, i+1, g[i], w[i])
					break
				}
			}
			t.Errorf("%s: %d bytes written, want %d", format, got.Len(), len(want))
		}
	}
}

// TestCrawlerColumns: crawlerColumns are Row's last fields, and Row.sameFetch
// compares every other one.
func TestCrawlerColumns(t *testing.T) {
	rt, ct := reflect.TypeFor[Row](), reflect.TypeFor[crawlerColumns]()
	if rt.NumField() != len(columns) {
		t.Fatalf("Row has %d fields, columns %d", rt.NumField(), len(columns))
	}
	for i := range ct.NumField() {
		rf, cf := rt.Field(fetchColumns+i), ct.Field(i)
		if rf.Name != cf.Name || rf.Type != cf.Type || rf.Tag.Get("json") != cf.Tag.Get("json") {
			t.Errorf("crawlerColumns field %d is %s %s %q, Row's %s %s %q", i, cf.Name, cf.Type, cf.Tag.Get("json"), rf.Name, rf.Type, rf.Tag.Get("json"))
		}
	}
	var zero Row
	for i := range rt.NumField() {
		var r Row
		f := reflect.ValueOf(&r).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("x")
		case reflect.Bool:
			f.SetBool(true)
		default:
			f.SetInt(1)
		}
		if same := r.sameFetch(&zero); same != (i >= fetchColumns) {
			t.Errorf("a row differing in %s only: the same fetch %v, want %v", rt.Field(i).Name, same, i >= fetchColumns)
		}
	}
}
