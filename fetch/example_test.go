package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/gorobots/robots/fetch"
)

// A site for the examples: its robots.txt keeps crawlers out of /private/.
func exampleSite() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
			return
		}
		fmt.Fprint(w, "a page")
	}))
}

// One line turns an http.Client into a polite crawler: requests that robots.txt
// disallows fail before they are sent.
func ExampleTransport() {
	site := exampleSite()
	defer site.Close()

	hc := &http.Client{Transport: &fetch.Transport{Client: fetch.NewClient(fetch.Config{}), Agent: "ExampleBot", CrawlDelay: true}}

	resp, err := hc.Get(site.URL + "/public/page.html")
	if err == nil {
		fmt.Println("public:", resp.Status)
		resp.Body.Close()
	}
	_, err = hc.Get(site.URL + "/private/page.html")
	var refused *fetch.DisallowedError
	if errors.As(err, &refused) {
		fmt.Println("private:", errors.Is(err, fetch.ErrDisallowed), "by line", refused.Rule.Line, refused.Rule)
	}
	// Output:
	// public: 200 OK
	// private: true by line 2 Disallow: /private/
}

func ExampleClient_Check() {
	site := exampleSite()
	defer site.Close()

	c := fetch.NewClient(fetch.Config{})
	d, err := c.Check(context.Background(), "ExampleBot", site.URL+"/private/a.html")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Allowed, d.Rule, d.Result.Outcome, d.Result.Status)
	// Output: false Disallow: /private/ success 200
}

func ExampleOrigin() {
	origin, _ := fetch.Origin("HTTPS://www.Exämple.com:443/path?q=1")
	fmt.Println(origin)
	fmt.Println(origin + "/robots.txt")
	// Output:
	// https://www.xn--exmple-cua.com
	// https://www.xn--exmple-cua.com/robots.txt
}

// Replay reads a fetch recorded elsewhere (a web archive's WARC records) as the
// client reads one it makes: here a redirect to the www host, then the file.
func ExampleClient_Replay() {
	recorded := []*fetch.Recorded{
		{Status: 301, Header: http.Header{"Location": {"https://www.example.com/robots.txt"}}},
		{Status: 200, Header: http.Header{"Content-Type": {"text/plain"}}, Body: "User-agent: *\nDisallow: /private/\n"},
	}
	next := 0
	res, err := fetch.NewClient(fetch.Config{}).Replay("https://example.com/robots.txt", func(url string) (*fetch.Recorded, error) {
		if next == len(recorded) {
			return nil, errors.New("not recorded: " + url)
		}
		next++
		return recorded[next-1], nil
	})
	if err != nil {
		panic(err)
	}
	for _, h := range res.Hops {
		fmt.Println(h.Status, h.URL)
	}
	fmt.Println(res.Outcome, res.Effect, res.Allowed("ExampleBot", "https://www.example.com/private/x"))
	// Output:
	// 301 https://example.com/robots.txt
	// 200 https://www.example.com/robots.txt
	// success rules false
}
