package sitemap

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

const head = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"

func gz(s string) string {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.String()
}

func urls(n int) string {
	var b strings.Builder
	b.WriteString(head + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := range n {
		fmt.Fprintf(&b, "<url><loc>https://example.com/%d</loc></url>\n", i)
	}
	b.WriteString("</urlset>\n")
	return b.String()
}

// entryReader is what Reader and the reference slowReader have in common.
type entryReader interface {
	Next() (Entry, error)
	Kind() Kind
	Gzip() bool
}

// The two readers: the scanner of the package, and encoding/xml's decoder.
var readers = []struct {
	name string
	open func(io.Reader, Limits) (entryReader, error)
}{
	{"scanner", func(r io.Reader, lim Limits) (entryReader, error) { return NewReader(r, lim) }},
	{"encoding-xml", func(r io.Reader, lim Limits) (entryReader, error) { return newSlowReader(r, lim) }},
}

// readAll reads every entry of in with the package's Reader.
func readAll(in string, lim Limits) (locs []string, kind Kind, gzipped bool, err error) {
	return readWith(readers[0].open, in, lim)
}

// readWith reads every entry of in and returns the locs (an entry with an error as
// "!" and the error), the kind and the error that ended the reading (nil at
// io.EOF).
func readWith(open func(io.Reader, Limits) (entryReader, error), in string, lim Limits) (locs []string, kind Kind, gzipped bool, err error) {
	r, err := open(strings.NewReader(in), lim)
	if err != nil {
		return nil, "", false, err
	}
	for {
		e, err := r.Next()
		if err == io.EOF {
			return locs, r.Kind(), r.Gzip(), nil
		}
		if err != nil {
			return locs, r.Kind(), r.Gzip(), err
		}
		if e.Err != nil {
			locs = append(locs, "!"+e.Err.Error())
			continue
		}
		locs = append(locs, e.Loc)
	}
}

func TestReader(t *testing.T) {
	ex := func(n int) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf("https://example.com/%d", i))
		}
		return out
	}
	long := "https://example.com/" + strings.Repeat("a", MaxLocBytes)
	tests := []struct {
		name  string
		in    string
		lim   Limits
		locs  []string
		kind  Kind
		gzip  bool
		err   error  // matched with errors.Is; nil: read to the end
		line  int    // of a *SyntaxError, when err is one
		atTok string // the byte offset of a *SyntaxError is within the line holding it
	}{
		{name: "urlset", in: urls(3), locs: ex(3), kind: URLSet},
		{name: "empty urlset", in: head + "<urlset></urlset>", kind: URLSet},
		{name: "index", in: head + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://example.com/a.xml</loc><lastmod>2026-01-01</lastmod></sitemap>
  <sitemap><loc> https://example.com/b.xml.gz
  </loc></sitemap>
</sitemapindex>`, locs: []string{"https://example.com/a.xml", "https://example.com/b.xml.gz"}, kind: Index},
		{name: "gzip", in: gz(urls(3)), locs: ex(3), kind: URLSet, gzip: true},
		{name: "entities and CDATA", in: head + `<urlset><url><loc>https://example.com/?a=1&amp;b=2</loc></url><url><loc><![CDATA[https://example.com/?c&d]]></loc></url></urlset>`,
			locs: []string{"https://example.com/?a=1&b=2", "https://example.com/?c&d"}, kind: URLSet},
		{name: "no namespace, no declaration", in: `<urlset><url><loc>https://example.com/0</loc></url></urlset>`, locs: ex(1), kind: URLSet},
		{name: "extensions skipped", in: head + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
<url><loc>https://example.com/0</loc><image:image><image:loc>https://example.com/i.jpg</image:loc></image:image></url>
</urlset>`, locs: ex(1), kind: URLSet},
		{name: "loc of the wrong parent skipped", in: head + `<urlset><sitemap><loc>https://example.com/x.xml</loc></sitemap><url><loc>https://example.com/0</loc></url></urlset>`, locs: ex(1), kind: URLSet},
		{name: "url without loc", in: head + `<urlset><url><lastmod>2026-01-01</lastmod></url></urlset>`, locs: []string{"!" + ErrNoLoc.Error()}, kind: URLSet},
		{name: "loc too long", in: head + `<urlset><url><loc>` + long + `</loc></url></urlset>`, locs: []string{"!" + ErrLongLoc.Error()}, kind: URLSet},
		{name: "comments and trailing space", in: head + "<!-- made by hand -->\n" + `<urlset><url><loc>https://example.com/0</loc></url></urlset>` + "\n<!-- end -->\n\n", locs: ex(1), kind: URLSet},

		// The limits of sitemaps.org and smaller ones.
		{name: "50,000 URLs", in: urls(MaxURLs), locs: ex(MaxURLs), kind: URLSet},
		{name: "50,001 URLs", in: urls(MaxURLs + 1), locs: ex(MaxURLs), kind: URLSet, err: ErrTooManyURLs},
		{name: "URL limit", in: urls(5), lim: Limits{URLs: 4}, locs: ex(4), kind: URLSet, err: ErrTooManyURLs},
		{name: "byte limit", in: urls(100), lim: Limits{Bytes: int64(len(urls(1)))}, locs: ex(1), kind: URLSet, err: ErrTooLarge},
		{name: "byte limit exactly", in: urls(2), lim: Limits{Bytes: int64(len(urls(2)))}, locs: ex(2), kind: URLSet},
		{name: "byte limit gzip", in: gz(urls(100)), lim: Limits{Bytes: int64(len(urls(1)))}, locs: ex(1), kind: URLSet, gzip: true, err: ErrTooLarge},

		// Broken files: the line and byte where the XML breaks.
		{name: "wrong closing tag", in: head + "<urlset>\n<url><loc>https://example.com/0</loc></url>\n<url><loc>https://example.com/1</loc></urll>\n</urlset>\n",
			locs: ex(1), kind: URLSet, err: errSyntax, line: 4, atTok: "</urll>"},
		{name: "truncated", in: head + "<urlset>\n<url><loc>https://example.com/0</loc></url>\n<url><loc>https://exa",
			locs: ex(1), kind: URLSet, err: errSyntax, line: 4, atTok: "https://exa"},
		{name: "bad entity", in: head + "<urlset>\n<url><loc>https://example.com/?a&b</loc></url>\n</urlset>",
			kind: URLSet, err: errSyntax, line: 3, atTok: "&b"},
		{name: "HTML page", in: "<!DOCTYPE html>\n<html><body>Not found</body></html>", err: ErrNotSitemap, line: 2, atTok: "<html>"},
		{name: "RSS feed", in: head + "<rss version=\"2.0\"><channel></channel></rss>", err: ErrNotSitemap, line: 2, atTok: "<rss"},
		{name: "text", in: "https://example.com/a\nhttps://example.com/b\n", err: errSyntax, line: 1},
		{name: "empty", in: "", err: errSyntax, line: 1},
		{name: "content after the root", in: head + "<urlset></urlset>\n<urlset></urlset>", kind: URLSet, err: errSyntax, line: 3},
		{name: "not UTF-8", in: `<?xml version="1.0" encoding="ISO-8859-1"?>` + "\n<urlset></urlset>", err: errSyntax, line: 1},
		{name: "truncated gzip", in: gz(urls(1000))[:30], gzip: true, err: errSyntax, line: 1},
		{name: "bad gzip header", in: "\x1f\x8b\x00garbage", err: errSyntax, line: 1},

		// Nesting: an extension's elements are at depth 4; MaxDepth is the limit.
		{name: "nested to the limit", in: head + "<urlset><url><loc>https://example.com/0</loc>" +
			strings.Repeat("<x>", MaxDepth-2) + strings.Repeat("</x>", MaxDepth-2) + "</url>\n</urlset>", locs: ex(1), kind: URLSet},
		{name: "nested past the limit", in: head + "<urlset><url><loc>https://example.com/0</loc></url>\n<url>" +
			strings.Repeat("<x>", MaxDepth-2) + "<deep>" + strings.Repeat("<x>", 1000),
			locs: ex(1), kind: URLSet, err: ErrTooDeep, line: 3, atTok: "<deep>"},
		{name: "nesting limit 4: an extension's deepest element", lim: Limits{Nesting: 4}, in: head + `<urlset xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
<url><loc>https://example.com/0</loc><image:image><image:loc>https://example.com/i.jpg</image:loc></image:image></url>
</urlset>`, locs: ex(1), kind: URLSet},
		{name: "nesting limit 4: one deeper", lim: Limits{Nesting: 4}, in: head + `<urlset>
<url><loc>https://example.com/0</loc></url>
<url><loc>https://example.com/1</loc><a><b><c></c></b></a></url>
</urlset>`, locs: ex(1), kind: URLSet, err: ErrTooDeep, line: 4, atTok: "<c>"},
	}
	for _, rd := range readers {
		for _, tc := range tests {
			t.Run(rd.name+"/"+tc.name, func(t *testing.T) {
				locs, kind, gzipped, err := readWith(rd.open, tc.in, tc.lim)
				if !slices.Equal(locs, tc.locs) {
					if len(locs) > 5 || len(tc.locs) > 5 {
						t.Errorf("got %d entries, want %d", len(locs), len(tc.locs))
					} else {
						t.Errorf("entries %q, want %q", locs, tc.locs)
					}
				}
				if kind != tc.kind || gzipped != tc.gzip {
					t.Errorf("kind %q gzip %v, want %q %v", kind, gzipped, tc.kind, tc.gzip)
				}
				switch {
				case tc.err == nil:
					if err != nil {
						t.Errorf("error %v, want none", err)
					}
					return
				case tc.err == errSyntax:
					var se *SyntaxError
					if !errors.As(err, &se) {
						t.Fatalf("error %v, want a *SyntaxError", err)
					}
				case !errors.Is(err, tc.err):
					t.Fatalf("error %v, want %v", err, tc.err)
				}
				var se *SyntaxError
				if tc.line == 0 {
					return
				}
				if !errors.As(err, &se) {
					t.Fatalf("error %v is not a *SyntaxError", err)
				}
				if se.Line != tc.line {
					t.Errorf("error at line %d, want %d: %v", se.Line, tc.line, err)
				}
				// The byte offset is on the line it names, at or past the token that breaks.
				lines := strings.SplitAfter(tc.in, "\n")
				start := int64(len(strings.Join(lines[:tc.line-1], "")))
				end := start + int64(len(lines[tc.line-1]))
				if tc.atTok != "" {
					start += int64(strings.Index(lines[tc.line-1], tc.atTok))
				}
				if se.Offset < start || se.Offset > end {
					t.Errorf("error at byte %d, want within [%d, %d]: %v", se.Offset, start, end, err)
				}
				if !strings.Contains(err.Error(), fmt.Sprintf("line %d, byte %d", se.Line, se.Offset)) {
					t.Errorf("error %q does not say where", err)
				}
			})
		}
	}
}

// errSyntax stands for "any *SyntaxError" in the table.
var errSyntax = errors.New("syntax error")

// TestErrorsSticky: after an error, Next keeps returning it.
func TestErrorsSticky(t *testing.T) {
	r, err := NewReader(strings.NewReader(urls(3)), Limits{URLs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := r.Next(); !errors.Is(err, ErrTooManyURLs) {
			t.Fatalf("Next = %v, want ErrTooManyURLs", err)
		}
	}
	if r.Count() != 1 {
		t.Errorf("Count = %d, want 1", r.Count())
	}
}

// FuzzReader: any input, plain or gzip, reads without panicking, within the limits,
// and a file that reads to its end reads the same again.
func FuzzReader(f *testing.F) {
	f.Add([]byte(urls(3)), false)
	f.Add([]byte(head+`<sitemapindex><sitemap><loc>https://example.com/a.xml</loc></sitemap></sitemapindex>`), false)
	f.Add([]byte(urls(2)), true)
	f.Add([]byte("<urlset><url><loc>x</loc></urll></urlset>"), false)
	f.Add([]byte("<urlset><url><loc><![CDATA[a]]>&amp;</loc></url></urlset>"), false)
	f.Fuzz(func(t *testing.T, data []byte, compress bool) {
		in := string(data)
		if compress {
			in = gz(in)
		}
		lim := Limits{URLs: 20, Bytes: 4096}
		locs, _, _, err := readAll(in, lim)
		if len(locs) > lim.URLs {
			t.Fatalf("%d entries, limit %d", len(locs), lim.URLs)
		}
		for _, l := range locs {
			if len(l) > MaxLocBytes+1 {
				t.Fatalf("entry of %d bytes", len(l))
			}
		}
		var se *SyntaxError
		if errors.As(err, &se) && (se.Line < 1 || se.Offset < 0) {
			t.Fatalf("syntax error at line %d byte %d", se.Line, se.Offset)
		}
		again, _, _, err2 := readAll(in, lim)
		if !slices.Equal(locs, again) || (err == nil) != (err2 == nil) {
			t.Fatalf("two readings differ")
		}
	})
}

// FuzzFastSlow: the package's scanner and encoding/xml's decoder read the same
// entries from every input and fail on the same inputs, with the same kind of
// error (a syntax error, a limit).
func FuzzFastSlow(f *testing.F) {
	for _, s := range []string{
		urls(3), head + `<sitemapindex><sitemap><loc>https://example.com/a.xml</loc></sitemap></sitemapindex>`,
		"<urlset><url><loc>x</loc></urll></urlset>", "<urlset><url><loc><![CDATA[a]]]>&amp;&#x41;&#66;</loc></url></urlset>",
		"<!DOCTYPE urlset [<!ENTITY a 'b'> <!-- c -->]>\n<urlset a='1' b=\"2\"/>", "<?xml version='1.1'?><urlset/>",
		"<urlset><!-- a -- b --></urlset>", "<urlset><url><loc>\r\n a\rb </loc></url></urlset>",
		"\xef\xbb\xbf<urlset><url><image:loc>x</image:loc><loc>y</loc></url></urlset>", "<urlset>]]></urlset>",
		"<a:urlset xmlns:a='u'><a:url><a:loc>z</a:loc></a:url></a:urlset>", "<urlset><url><loc>\x01</loc></url></urlset>",
		"<urlset>\n<url><loc>&#0;</loc></url></urlset>", "<urlset><url a=b></url></urlset>", "<?xml encoding=\"latin1\"?><urlset/>",
		"<urlset><ürl><loc>a</loc></ürl></urlset>", "<urlset><url><loc>a</loc></url><\u00b7x/></urlset>",
		"<urlset><url><loc>a&#xD800;&#xFFFE;</loc></url></urlset>", "<urlset><url><loc>a\u0085</loc></url></urlset>\u0085",
		"<urlset><url><loc/><loc>b</loc></url></urlset>", "<!><urlset/>>", "<!DOCTYPE a [<!ELEMENT a ANY><!-- -> -->]><urlset/>",
		"<urlset ><url  ><loc\n>a</loc ></url\t></urlset >", "<urlset a='<'/>", "<urlset a='x'b='y'/>",
		"<?xml?><urlset/>", "<?xml version=\"1.0\"encoding='ascii'?><urlset/>", "<?1?><urlset/>",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := Limits{URLs: 20, Bytes: 4096}
		fast, kf, _, ef := readWith(readers[0].open, string(data), lim)
		slow, ks, _, es := readWith(readers[1].open, string(data), lim)
		if !slices.Equal(fast, slow) {
			t.Fatalf("entries differ:\nscanner      %q\nencoding/xml %q\n(errors %v / %v)", fast, slow, ef, es)
		}
		if kf != ks {
			t.Fatalf("kind %q, encoding/xml %q", kf, ks)
		}
		class := func(err error) string {
			var se *SyntaxError
			switch {
			case err == nil:
				return "none"
			case errors.Is(err, ErrTooManyURLs):
				return "urls"
			case errors.Is(err, ErrTooLarge):
				return "bytes"
			case errors.As(err, &se):
				return "syntax"
			}
			return "other: " + err.Error()
		}
		if class(ef) != class(es) {
			t.Fatalf("error %v, encoding/xml %v", ef, es)
		}
	})
}

// BenchmarkReader reads a file of 50,000 URLs with the package's scanner and with
// encoding/xml's decoder.
func BenchmarkReader(b *testing.B) {
	in := urls(MaxURLs)
	for _, rd := range readers {
		b.Run(rd.name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				r, _ := rd.open(strings.NewReader(in), Limits{})
				for {
					if _, err := r.Next(); err != nil {
						break
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*MaxURLs), "ns/url")
		})
	}
}

// TestTooDeepNamesLimit: the error of a file nested too deep says which limit,
// so that a report can tell the site owner.
func TestTooDeepNamesLimit(t *testing.T) {
	in := `<urlset><url><loc>https://example.com/0</loc><a><b></b></a></url></urlset>`
	for _, tc := range []struct {
		lim  Limits
		want string
	}{
		{Limits{Nesting: 3}, "line 1, byte 48: <b>: elements nested deeper than the limit of 3"},
		{Limits{}, ""}, // MaxDepth: the file is fine
	} {
		_, _, _, err := readAll(in, tc.lim)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("nesting %d: error %q, want %q", tc.lim.Nesting, got, tc.want)
		}
	}
}
