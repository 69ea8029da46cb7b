package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
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

// TestCorpusSameBaseName: inputs of one base name in different directories each
// get their own output (the second was skipped as "already written"), named the
// same way by every run and by each -index task; the same input given twice is
// read once.
func TestCorpusSameBaseName(t *testing.T) {
	dir := t.TempDir()
	one, two := filepath.Join(dir, "crawl-1", "x.warc.gz"), filepath.Join(dir, "crawl-2", "x.warc.gz")
	os.MkdirAll(filepath.Dir(one), 0o755)
	os.MkdirAll(filepath.Dir(two), 0o755)
	os.WriteFile(one, corpusWARC(t, "one.example", "200", "User-agent: GPTBot\nDisallow: /\n"), 0o644)
	os.WriteFile(two, corpusWARC(t, "two.example", "404", ""), 0o644)
	other := filepath.Join(dir, "y.warc.gz")
	os.WriteFile(other, corpusWARC(t, "three.example", "503", ""), 0o644)

	hashed := func(in string) string {
		sum := sha256.Sum256([]byte(in))
		return "x-" + hex.EncodeToString(sum[:4]) + ".csv"
	}
	out := filepath.Join(dir, "out")
	_, stderr, err := runCorpusCmd(t, "-out", out, "-format", "csv", "-agent", "GPTBot", one, two, other, one)
	if err != nil {
		t.Fatalf("corpus: %v\n%s", err, stderr)
	}
	want := map[string]string{ // file → host access effect
		hashed(one): "one.example blocked rules",
		hashed(two): "two.example open allow-all",
		"y.csv":     "three.example blocked disallow-all",
	}
	ents, _ := os.ReadDir(out)
	if len(ents) != len(want) {
		t.Errorf("%d outputs, want %d: %v", len(ents), len(want), ents)
	}
	for name, line := range want {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, stderr)
		}
		rows := readCSV(t, string(data))
		if len(rows) != 1 || rows[0]["host"]+" "+rows[0]["access"]+" "+rows[0]["effect"] != line {
			t.Errorf("%s: %v, want %q", name, rows, line)
		}
	}
	if !strings.Contains(stderr, "3 inputs read, 1 already written") {
		t.Errorf("summary (the repeated input read once): %s", stderr)
	}

	// A task of a batch job names its output as the whole run does: the second
	// input's task, alone, finds its output written.
	_, stderr, err = runCorpusCmd(t, "-out", out, "-format", "csv", "-index", "1", one, two, other)
	if err != nil || !strings.Contains(stderr, "0 inputs read, 1 already written") {
		t.Errorf("-index 1: %v\n%s", err, stderr)
	}
	os.Remove(filepath.Join(out, hashed(two)))
	_, stderr, err = runCorpusCmd(t, "-out", out, "-format", "csv", "-index", "1", one, two, other)
	if err != nil || !strings.Contains(stderr, "1 inputs read, 0 already written") {
		t.Errorf("-index 1 after removing its output: %v\n%s", err, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, hashed(two))); err != nil {
		t.Errorf("-index 1 did not write %s: %v", hashed(two), err)
	}
}
