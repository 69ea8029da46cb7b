package robots

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gorobots/robots/internal/testenv"
)

// collectLines returns every line scan passes to its callback.
func collectLines(scan func(string, func(*Line) bool), s string) []Line {
	var out []Line
	scan(s, func(l *Line) bool {
		out = append(out, *l)
		return true
	})
	return out
}

// checkScan fails t where scanLines and the reference scanner disagree on body.
func checkScan(t *testing.T, name string, body string) {
	t.Helper()
	got, want := collectLines(scanLines, body), collectLines(scanLinesRef, body)
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Fatalf("%s: line %d = %+v, reference %+v", name, i+1, got[i], want[i])
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%s: %d lines, reference %d", name, len(got), len(want))
	}
}

// TestScanCorpus compares the scanner with the reference on every file of the corpus.
func TestScanCorpus(t *testing.T) {
	c := testenv.Corpus(t)
	for _, f := range c.Files {
		checkScan(t, f.Host, string(f.Body))
	}
}

// FuzzScan compares the scanner with the reference on arbitrary bodies.
func FuzzScan(f *testing.F) {
	f.Add([]byte("a: b # c\r\n#x\rUser-agent: *\n\nDisallow: /#\x00#"))
	f.Add([]byte("\xef\xbbuser-agentx:a\r\r\ndisallow\t/x\nALLOW :/p \x0b\nsitemap:\x00x\n site-map: y"))
	f.Add([]byte("disallow:/a\r\nallow: /b\r\nuser-agent: g\r\nuseragent: h\r\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		checkScan(t, "fuzz", string(body))
	})
}

// TestClassifyOverwrites: classify writes each field of the Line rather than zeroing
// it first, so what it gives must not depend on what the Line held before (a field
// added to Line and left unwritten on some path would fail here).
func TestClassifyOverwrites(t *testing.T) {
	var stale Line
	v := reflect.ValueOf(&stale).Elem()
	for i := range v.NumField() {
		switch f := v.Field(i); f.Kind() {
		case reflect.Bool:
			f.SetBool(true)
		case reflect.String:
			f.SetString("stale")
		case reflect.Int, reflect.Uint8:
			if f.CanInt() {
				f.SetInt(99)
			} else {
				f.SetUint(99)
			}
		default:
			t.Fatalf("Line.%s: a %s field this test cannot fill", v.Type().Field(i).Name, f.Kind())
		}
	}
	for _, text := range []string{
		"", "   ", "# comment", "Disallow: /a", "disallow:", "ALLOW: /b # c", "User-agent: x",
		"user-agentx: y", "Sitemap: https://e/s.xml", "crawl-delay: 5", "foo: bar", "Disallow /x",
		"a b c", "nocolon", ": value", " Disallow : /x ", "Disallow: /a\x00b",
	} {
		t.Run(fmt.Sprintf("%q", text), func(t *testing.T) {
			hash := strings.IndexByte(text, '#')
			want := refClassify(3, text)
			got := stale
			classify(&got, 3, text, false, hash)
			if got != want {
				t.Errorf("%q over a used Line = %+v, want %+v", text, got, want)
			}
		})
	}
}
