package robots

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gorobots/robots/internal/testenv"
)

// checkScan fails t where the reader (through Lines) and the reference disagree on body.
func checkScan(t *testing.T, name string, body string) {
	t.Helper()
	got, want := slices.Collect(Lines([]byte(body))), refScan(body)
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Fatalf("%s: line %d = %+v, reference %+v", name, i+1, got[i], want[i])
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%s: %d lines, reference %d", name, len(got), len(want))
	}
}

// TestScanCorpus compares the reader with the reference on every file of the corpus.
func TestScanCorpus(t *testing.T) {
	c := testenv.Corpus(t)
	for _, f := range c.Files {
		checkScan(t, f.Host, string(f.Body))
	}
}

// FuzzScan compares the reader with the reference on arbitrary bodies.
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
			classify(&got, 3, text, 0, 0, false, hash, Google)
			if got != want {
				t.Errorf("%q over a used Line = %+v, want %+v", text, got, want)
			}
		})
	}
}

// TestQuickNames: a line that reader.next recognises by its first words is read as
// classify reads it in full (fieldOf), in every dialect, and the other rows of
// fieldNames are left to classify.
func TestQuickNames(t *testing.T) {
	for _, f := range fieldNames {
		for _, d := range Dialects() {
			// The name in mixed case, and a line too short to hold a word of its own.
			name := []byte(f.name)
			for i := 0; i < len(name); i += 2 {
				name[i] = strings.ToUpper(string(name[i]))[0]
			}
			for _, text := range []string{string(name) + ": v\nx", string(name) + ":"} {
				rd := newReader(text, d)
				_, _, kind, n, _ := rd.next()
				row := fieldOf(string(name), d)
				if n == 0 {
					continue // read by classify
				}
				if row == nil || row.kind != kind || row.typo || n != len(f.name) {
					t.Errorf("%s: %q read as %s of name length %d; fieldOf gives %+v", d, text, kind, n, row)
				}
			}
		}
	}
	// Each initial's first name that is not a misspelling is recognised by its words,
	// in the dialects that read it: the lines most files are made of take no more.
	seen := map[byte]bool{}
	for _, f := range fieldNames {
		if f.typo || seen[f.name[0]] {
			continue
		}
		seen[f.name[0]] = true
		for _, d := range Dialects() {
			rd := newReader(f.name+":", d)
			if _, _, kind, n, _ := rd.next(); f.dialects>>d&1 != 0 && (kind != f.kind || n != len(f.name)) {
				t.Errorf("%s: %q not recognised by its words (%s, %d)", d, f.name+":", kind, n)
			}
		}
	}
}
