package lint

import (
	"slices"
	"testing"
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
