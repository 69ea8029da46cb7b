package robotscolly_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/gocolly/colly/v2"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/contrib/colly"
	"github.com/gorobots/robots/fetch"
)

// TestUsage crawls a site that states usage preferences in robots.txt and in the
// headers of some pages: for each response, robotscolly.Usage gives robots.txt's
// lines combined most restrictively with the page's own header.
func TestUsage(t *testing.T) {
	const robotsTxt = "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=y, search=y\nContent-Signal: ai-train=no\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, robotsTxt)
			return
		case "/blog/private":
			w.Header().Set("Content-Usage", "train-ai=n")
		case "/jump":
			http.Redirect(w, r, "/blog/private", http.StatusFound)
			return
		case "/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<a href="/about">a</a><a href="/blog/post">b</a><a href="/jump">c</a>`)
			return
		}
		fmt.Fprint(w, "page")
	}))
	t.Cleanup(srv.Close)

	c := colly.NewCollector(colly.UserAgent(userAgent))
	tr := &fetch.Transport{Client: fetch.NewClient(fetch.Config{})}
	robotscolly.Obey(c, tr, nil)
	var mu sync.Mutex
	got := map[string]string{}
	c.OnResponse(func(r *colly.Response) {
		u, err := robotscolly.Usage(tr, r)
		if err != nil {
			t.Errorf("%s: %v", r.Request.URL, err)
			return
		}
		train, search := u.Category(robots.TrainAI), u.Category(robots.Search)
		mu.Lock()
		defer mu.Unlock()
		got[r.Request.URL.Path] = fmt.Sprintf("train-ai=%s@%d header=%v search=%s signal ai-train=%s",
			train.Preference, train.Line, train.Header, search.Preference, u.Signal(robots.SignalAITrain).Preference)
	})
	c.OnHTML("a[href]", func(e *colly.HTMLElement) { e.Request.Visit(e.Attr("href")) })
	if err := c.Visit(srv.URL + "/"); err != nil {
		t.Fatal(err)
	}
	c.Wait()
	want := map[string]string{
		"/":          "train-ai=disallowed@2 header=false search=unknown signal ai-train=disallowed",
		"/about":     "train-ai=disallowed@2 header=false search=unknown signal ai-train=disallowed",
		"/blog/post": "train-ai=allowed@3 header=false search=allowed signal ai-train=disallowed",
		// /jump redirects there: the page's header disallows what robots.txt allows.
		"/blog/private": "train-ai=disallowed@0 header=true search=allowed signal ai-train=disallowed",
	}
	for path, w := range want {
		if got[path] != w {
			t.Errorf("%s: %s\n%*s want %s", path, got[path], len(path), "", w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("responses %v, want %d", got, len(want))
	}
}
