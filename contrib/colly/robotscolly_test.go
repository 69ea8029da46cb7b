package robotscolly_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocolly/colly/v2"

	"github.com/gorobots/robots/contrib/colly"
	"github.com/gorobots/robots/fetch"
)

// siteRobots separates Google's reading from simpler ones: the crawler's group is
// found by the product token inside a browser-style User-Agent (falling to "*"
// would refuse everything), the longest rule wins (/private/ok/ is allowed inside
// /private), and "$" anchors the end (/doc.pdf?x=1 is allowed).
const siteRobots = `User-agent: *
Disallow: /

User-agent: TestBot
Allow: /
Disallow: /private
Allow: /private/ok/
Disallow: /*.pdf$
Crawl-delay: 0.2
`

const userAgent = "Mozilla/5.0 (compatible; TestBot/1.0; +https://example.com/bot)"

// The verdicts of RFC 9309 §2.2.2 and Google's documented reading on siteRobots.
var (
	allowed = []string{"/", "/a", "/private/ok/y", "/doc.pdf?x=1", "/jump-ok", "/b", "/jump-bad", "/c"}
	refused = []string{"/private/x", "/doc.pdf", "/private/z"} // /private/z only as a redirect target
)

type hit struct {
	path string
	ua   string
	at   time.Time
}

// site serves siteRobots and pages linking to every case, logging each request.
type site struct {
	*httptest.Server
	mu  sync.Mutex
	log []hit
}

func newSite(t *testing.T) *site {
	s := &site{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.log = append(s.log, hit{r.URL.RequestURI(), r.Header.Get("User-Agent"), time.Now()})
		s.mu.Unlock()
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, siteRobots)
		case "/jump-ok":
			http.Redirect(w, r, "/b", http.StatusFound)
		case "/jump-bad":
			http.Redirect(w, r, "/private/z", http.StatusFound)
		case "/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<html><body>")
			for _, p := range []string{"/a", "/private/x", "/private/ok/y", "/doc.pdf", "/doc.pdf?x=1", "/jump-ok", "/jump-bad", "/c"} {
				fmt.Fprintf(w, `<a href="%s">%s</a>`, p, p)
			}
			fmt.Fprint(w, "</body></html>")
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<html><body>a page</body></html>")
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) hits() []hit {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.log)
}

// TestCrawl crawls the site with colly, sync and with four workers, and with the
// proxy set after Obey (colly then replaces its transport): from the site's own log,
// every allowed URL was fetched, no refused one, robots.txt once with the crawler's
// User-Agent, and page requests at least the crawl-delay apart.
func TestCrawl(t *testing.T) {
	for _, tc := range []struct {
		name     string
		async    bool
		setProxy bool
	}{
		{"sync", false, false},
		{"four workers", true, false},
		{"SetProxyFunc after Obey", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSite(t)
			c := colly.NewCollector(colly.UserAgent(userAgent), colly.Async(tc.async))
			if tc.async {
				c.Limit(&colly.LimitRule{DomainGlob: "*", Parallelism: 4})
			}
			var mu sync.Mutex
			var refusals []string
			robotscolly.Obey(c, &fetch.Transport{Client: fetch.NewClient(fetch.Config{}), CrawlDelay: true},
				func(r *colly.Request, err error) {
					if !robotscolly.IsRefused(err) {
						t.Errorf("%s: %v; want a refusal", r.URL, err)
					}
					mu.Lock()
					refusals = append(refusals, r.URL.RequestURI())
					mu.Unlock()
				})
			if tc.setProxy {
				c.SetProxyFunc(func(*http.Request) (*url.URL, error) { return nil, nil })
			}
			c.OnError(func(r *colly.Response, err error) {
				mu.Lock()
				defer mu.Unlock()
				var de *fetch.DisallowedError
				if errors.As(err, &de) {
					if de.URL != s.URL+"/private/z" || !strings.Contains(err.Error(), "/private/z") {
						t.Errorf("refused redirect: %v; want the target /private/z named", err)
					}
					refusals = append(refusals, "redirect:"+r.Request.URL.RequestURI())
				} else {
					t.Errorf("%s: %v", r.Request.URL, err)
				}
			})
			c.OnHTML("a[href]", func(e *colly.HTMLElement) { e.Request.Visit(e.Attr("href")) })
			if err := c.Visit(s.URL + "/"); err != nil {
				t.Fatal(err)
			}
			c.Wait()

			var robotsFetches int
			var pages []string
			var times []time.Time
			for _, h := range s.hits() {
				if h.ua != userAgent {
					t.Errorf("%s asked with User-Agent %q; want the crawler's", h.path, h.ua)
				}
				if h.path == "/robots.txt" {
					robotsFetches++
					continue
				}
				pages = append(pages, h.path)
				times = append(times, h.at)
			}
			if robotsFetches != 1 {
				t.Errorf("robots.txt fetched %d times; want 1", robotsFetches)
			}
			for _, p := range allowed {
				if !slices.Contains(pages, p) {
					t.Errorf("allowed %s was not fetched (site saw %v)", p, pages)
				}
			}
			for _, p := range refused {
				if slices.Contains(pages, p) {
					t.Errorf("refused %s was fetched", p)
				}
			}
			slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
			for i := 1; i < len(times); i++ {
				// 0.2 s asked; a little less allowed for when the site logs each
				// request after the crawler let it through.
				if gap := times[i].Sub(times[i-1]); gap < 150*time.Millisecond {
					t.Errorf("requests %d and %d %v apart; want the crawl-delay, 200ms", i-1, i, gap)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			slices.Sort(refusals)
			want := []string{"/doc.pdf", "/private/x", "redirect:/jump-bad"}
			if !slices.Equal(refusals, want) {
				t.Errorf("refusals %v; want %v", refusals, want)
			}
		})
	}
}
