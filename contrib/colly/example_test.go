package robotscolly_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/gocolly/colly/v2"

	"github.com/gorobots/robots/contrib/colly"
	"github.com/gorobots/robots/fetch"
)

// A collector that obeys robots.txt: the product token is taken from its
// User-Agent, and refusals are reported rather than silently skipped.
func ExampleObey() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: ExampleBot\nDisallow: /private/\n")
		case "/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<a href="/public/a.html">a</a> <a href="/private/b.html">b</a>`)
		default:
			fmt.Fprint(w, "a page")
		}
	}))
	defer site.Close()

	c := colly.NewCollector(colly.UserAgent("Mozilla/5.0 (compatible; ExampleBot/1.0; +https://example.com/bot)"))
	robotscolly.Obey(c, &fetch.Transport{Client: fetch.NewClient(fetch.Config{}), CrawlDelay: true},
		func(r *colly.Request, err error) { fmt.Println("refused", r.URL.Path) })
	c.OnResponse(func(r *colly.Response) { fmt.Println("fetched", r.Request.URL.Path) })
	c.OnHTML("a[href]", func(e *colly.HTMLElement) { e.Request.Visit(e.Attr("href")) })
	c.Visit(site.URL + "/")
	// Output:
	// fetched /
	// fetched /public/a.html
	// refused /private/b.html
}
