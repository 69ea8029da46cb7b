package audit_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/gorobots/robots/audit"
)

// A site whose robots.txt blocks its own search pages, which its sitemap lists.
func Example() {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "User-agent: *\nDisallow: /search\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: %s/sitemap.xml\n", srv.URL)
	})
	mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>%[1]s/</loc></url>
  <url><loc>%[1]s/search?q=shoes</loc></url>
  <url><loc>%[1]s/blog/hello</loc></url>
</urlset>`, srv.URL)
	})

	rep, err := audit.Run(context.Background(), srv.URL, audit.Config{Agents: []string{"Googlebot", "bingbot", "GPTBot"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d URLs, blocked per crawler %v\n", rep.Totals.URLs, rep.Totals.BlockedURLs)
	for _, b := range rep.Blocked {
		fmt.Printf("line %d %q blocks %d sitemap URLs for %v\n", b.Line, *b.Rule, b.URLs, b.Agents)
	}
	// Output:
	// 3 URLs, blocked per crawler [1 1 3]
	// line 5 "Disallow: /" blocks 3 sitemap URLs for [GPTBot]
	// line 2 "Disallow: /search" blocks 1 sitemap URLs for [Googlebot bingbot]
}
