package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusWARC is a WARC.gz of robots.txt responses, one gzip member a record: for
// each host, the status and the body.
func corpusWARC(t *testing.T, fetches ...string) []byte {
	t.Helper()
	var out bytes.Buffer
	for i := 0; i+2 < len(fetches)+1; i += 3 {
		host, status, body := fetches[i], fetches[i+1], fetches[i+2]
		block := fmt.Sprintf("HTTP/1.1 %s X\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n%s", status, len(body), body)
		rec := fmt.Sprintf("WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://%s/robots.txt\r\nWARC-Date: 2026-10-01T00:00:00Z\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", host, len(block), block)
		zw := gzip.NewWriter(&out)
		zw.Write([]byte(rec))
		zw.Close()
	}
	return out.Bytes()
}

func runCorpusCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), append([]string{"corpus"}, args...), strings.NewReader(""), &stdout, &stderr)
	return stdout.String(), stderr.String(), err
}

func readCSV(t *testing.T, data string) []map[string]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, c := range recs[0] {
			m[c] = r[i]
		}
		rows = append(rows, m)
	}
	return rows
}

// TestCorpusCommand runs robots corpus over local files and an https:// URL: one
// output per input, written again only when missing (a resumed run skips what is
// done), -index choosing one input, -agent choosing the crawlers.
func TestCorpusCommand(t *testing.T) {
	dir := t.TempDir()
	a := corpusWARC(t, "a.example", "200", "User-agent: GPTBot\nDisallow: /\n", "b.example", "404", "")
	b := corpusWARC(t, "c.example", "503", "")
	os.WriteFile(filepath.Join(dir, "a.warc.gz"), a, 0o644)
	os.WriteFile(filepath.Join(dir, "b.warc.gz"), b, 0o644)

	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/crawl/remote.warc.gz" {
			http.NotFound(w, r)
			return
		}
		w.Write(corpusWARC(t, "d.example", "200", "User-agent: *\nDisallow: /x\n"))
	}))
	defer srv.Close()
	ca := filepath.Join(dir, "ca.pem")
	os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644)

	out := filepath.Join(dir, "out")
	list := filepath.Join(dir, "list.txt")
	os.WriteFile(list, []byte(srv.URL+"/crawl/remote.warc.gz\n"), 0o644)
	_, stderr, err := runCorpusCmd(t, "-out", out, "-format", "csv", "-agent", "GPTBot,Googlebot", "-cacert", ca, "-list", list,
		filepath.Join(dir, "a.warc.gz"), filepath.Join(dir, "b.warc.gz"))
	if err != nil {
		t.Fatalf("corpus: %v\n%s", err, stderr)
	}
	want := map[string][]string{ // file → host agent access effect, in order
		"a.csv":      {"a.example GPTBot blocked rules", "a.example Googlebot open rules", "b.example GPTBot open allow-all", "b.example Googlebot open allow-all"},
		"b.csv":      {"c.example GPTBot blocked disallow-all", "c.example Googlebot blocked disallow-all"},
		"remote.csv": {"d.example GPTBot partly rules", "d.example Googlebot partly rules"},
	}
	for name, lines := range want {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, stderr)
		}
		var got []string
		for _, r := range readCSV(t, string(data)) {
			got = append(got, strings.Join([]string{r["host"], r["agent"], r["access"], r["effect"]}, " "))
		}
		if strings.Join(got, "\n") != strings.Join(lines, "\n") {
			t.Errorf("%s:\n%s\nwant\n%s", name, strings.Join(got, "\n"), strings.Join(lines, "\n"))
		}
	}
	if !strings.Contains(stderr, "3 inputs read") {
		t.Errorf("summary: %s", stderr)
	}

	// Resume: a removed output is written again, the others are skipped.
	os.Remove(filepath.Join(out, "b.csv"))
	_, stderr, err = runCorpusCmd(t, "-out", out, "-format", "csv", "-cacert", ca, "-list", list,
		filepath.Join(dir, "a.warc.gz"), filepath.Join(dir, "b.warc.gz"))
	if err != nil || !strings.Contains(stderr, "1 inputs read, 2 already written") {
		t.Errorf("resumed run: %v\n%s", err, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "b.csv")); err != nil {
		t.Errorf("b.csv not written again: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(out, ".partial-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}

	// -index keeps one input; without -out the rows go to standard output.
	stdout, stderr, err := runCorpusCmd(t, "-format", "jsonl", "-agent", "GPTBot", "-index", "1",
		filepath.Join(dir, "a.warc.gz"), filepath.Join(dir, "b.warc.gz"))
	if err != nil || strings.Count(stdout, "\n") != 1 || !strings.Contains(stdout, `"host":"c.example"`) {
		t.Errorf("-index 1: %v\n%s\n%s", err, stdout, stderr)
	}

	// An input that cannot be read fails the run (exit 2), after the others.
	_, stderr, err = runCorpusCmd(t, "-format", "csv", filepath.Join(dir, "missing.warc.gz"), filepath.Join(dir, "a.warc.gz"))
	if code := exitCode(err, &bytes.Buffer{}); code != 2 || !strings.Contains(stderr, "missing.warc.gz") {
		t.Errorf("missing input: exit %d, %s", code, stderr)
	}
}
