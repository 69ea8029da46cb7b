package audit

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/gorobots/robots/internal/testenv"
)

// TestRunSimple: a site of three URLs; "*" disallows /search, GPTBot everything.
func TestRunSimple(t *testing.T) {
	var base string
	srv := testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte("User-agent: *\nDisallow: /search\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: " + base + "/sm.xml\n"))
		case "/sm.xml":
			w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>` + base + `/a</loc></url>
<url><loc>` + base + `/search?q=1</loc></url>
<url><loc>` + base + `/blog/x</loc></url>
</urlset>`))
		default:
			http.NotFound(w, r)
		}
	})
	base = srv.URL
	rep, err := Run(context.Background(), srv.URL, Config{Agents: []string{"Googlebot", "GPTBot", "bingbot"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rep.Totals.URLs, 3; got != want {
		t.Errorf("URLs = %d, want %d", got, want)
	}
	if got, want := rep.Totals.BlockedURLs, []int{1, 3, 1}; !slices.Equal(got, want) {
		t.Errorf("BlockedURLs = %v, want %v", got, want)
	}
	if len(rep.Blocked) != 2 {
		t.Fatalf("Blocked = %+v, want 2 rules", rep.Blocked)
	}
	b := rep.Blocked[0] // GPTBot's Disallow: / blocks all three
	if *b.Rule != "Disallow: /" || b.Line != 5 || b.URLs != 3 || !slices.Equal(b.Agents, []string{"GPTBot"}) {
		t.Errorf("Blocked[0] = %+v", b)
	}
	b = rep.Blocked[1]
	if *b.Rule != "Disallow: /search" || b.Line != 2 || b.URLs != 1 || !slices.Equal(b.Agents, []string{"Googlebot", "bingbot"}) ||
		!slices.Equal(b.Examples, []string{base + "/search?q=1"}) {
		t.Errorf("Blocked[1] = %+v", b)
	}
	if len(rep.Sitemaps) != 1 || rep.Sitemaps[0].Status != StatusOK || rep.Sitemaps[0].Line != 7 ||
		len(rep.Sitemaps[0].Blocked) != 1 || !slices.Equal(rep.Sitemaps[0].Blocked[0].Agents, []string{"GPTBot"}) {
		t.Errorf("Sitemaps = %+v", rep.Sitemaps)
	}
}
