package lint

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/gorobots/robots"
)

// TestIsHTML checks that IsHTML says what the html-page finding says, on pages,
// on files with markup that are robots.txt, and on every 5th corpus file.
func TestIsHTML(t *testing.T) {
	bodies := []string{
		"<!DOCTYPE html>\n<html><body>Not Found</body></html>\n",
		"\xEF\xBB\xBF  <html>\n<p>x</p>\n",
		"<?xml version=\"1.0\"?>\n<error/>\n",
		"<!-- a comment -->\nUser-agent: *\nDisallow: /\n",
		"<html>\n<body>User-agent: *\nDisallow: /x\n",
		"<pre>\nUser-agent: *\nDisallow: /\n</pre>\n",
		"User-agent: *\nDisallow: /\n",
		"<",
		"",
	}
	for _, cf := range corpusFiles(t, corpusStride) {
		bodies = append(bodies, string(cf.body))
	}
	pages := 0
	for _, body := range bodies {
		want := slices.ContainsFunc(Check("f", []byte(body)), func(f Finding) bool { return f.Code == HTMLPage })
		if got := IsHTML([]byte(body)); got != want {
			t.Errorf("IsHTML = %v, html-page found: %v, of\n%.300s", got, want, body)
		}
		if want {
			pages++
		}
	}
	if pages < 3 {
		t.Errorf("%d pages among the bodies, want 3 at least: the test compared too little", pages)
	}
}

// TestPlainHTTPURL checks that every value plainHTTPURL accepts is one url.Parse
// reads without error as an http or https URL with a host (checkSitemap's finding
// then says nothing), on the sitemap and license values of every corpus file, and
// on values written to be near misses.
func TestPlainHTTPURL(t *testing.T) {
	values := []string{
		"https://www.example.com/sitemap.xml", "HTTP://EXAMPLE.COM", "http://", "https://", "https:///x",
		"http://a/b?c=d&e=f", "http://a?x", "http://a:80/x", "http://a/%zz", "http://a b/", "http://[::1]/",
		"http://user@host/", "http://a/b#c", "http://a/b\x7f", "http://-/", "ftp://a/b", "https://a/_x~y",
		"https://a_b/", "http://a.b.c/d/e.xml.gz",
	}
	for _, cf := range corpusFiles(t, 1) {
		for l := range robots.Lines(cf.body) {
			if l.Kind == robots.KindSitemap || l.Kind == robots.KindOther {
				values = append(values, l.Value)
			}
		}
	}
	plain := 0
	for _, v := range values {
		if !plainHTTPURL(v) {
			continue
		}
		plain++
		u, err := url.Parse(v)
		if err != nil || u.Host == "" || !strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https") {
			t.Fatalf("plainHTTPURL(%q) = true, but url.Parse gives %#v, %v", v, u, err)
		}
	}
	if plain < 1000 {
		t.Fatalf("only %d plain URLs among %d values: the test compared too little", plain, len(values))
	}
}
