package fetch_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/rsl"
)

// licenseSite serves the robots.txt of rslstandard.org/guide/ai-preferences
// (Content-Usage: train-ai=n beside a License line) with that page's licence, and
// licences that cannot be read. hits counts the requests for each path.
func licenseSite(t *testing.T, hits map[string]*atomic.Int32) string {
	for _, p := range []string{"/license.xml", "/big.xml", "/missing.xml", "/page.xml", "/feed.xml"} {
		hits[p] = &atomic.Int32{}
	}
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if h := hits[r.URL.Path]; h != nil {
			h.Add(1)
		}
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-Agent: *\nAllow: /\n\nContent-Usage: train-ai=n\nLicense: http://"+r.Host+"/license.xml\n")
			if r.Header.Get("User-Agent") == "Broken/1.0" {
				io.WriteString(w, "License: http://"+r.Host+"/big.xml\nLicense: http://"+r.Host+"/missing.xml\nLicense: http://"+r.Host+"/page.xml\n")
			}
		case "/license.xml":
			w.Header().Set("Content-Type", rsl.MediaType)
			w.Header().Set("Cache-Control", "max-age=3600")
			io.WriteString(w, `<rsl xmlns="https://rslstandard.org/rsl">
  <content url="/">
    <license>
      <permits type="usage">train-ai</permits>
      <payment type="subscription">
        <custom>https://your-website.com/contact-form.html</custom>
      </payment>
    </license>
  </content>
</rsl>`)
		case "/big.xml": // 50 MB, of which the client reads one byte past the limit
			w.Header().Set("Content-Type", rsl.MediaType)
			io.WriteString(w, `<rsl xmlns="https://rslstandard.org/rsl">`)
			pad := strings.Repeat("<!-- padding -->", 1<<12)
			for i := 0; i < 50<<20/len(pad); i++ {
				if _, err := io.WriteString(w, pad); err != nil {
					return
				}
			}
		case "/page.xml":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<html><body>Welcome</body></html>")
		default:
			http.NotFound(w, r)
		}
	})
	return srv.URL
}

// TestTransportLicense: a crawler gets the RSL terms of a response in one call; the
// licence is fetched once (cached by URL for its max-age); a licence that cannot be
// fetched or read makes the combined answer unknown unless another permits.
func TestTransportLicense(t *testing.T) {
	hits := map[string]*atomic.Int32{}
	base := licenseSite(t, hits)
	tr := &fetch.Transport{Client: newClient(t, fetch.Config{}), Agent: "GPTBot/1.0"}
	for _, path := range []string{"/blog/a", "/blog/b"} {
		resp, err := (&http.Client{Transport: tr}).Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		terms, err := tr.License(resp, rsl.Query{Usage: rsl.AITrain})
		if err != nil {
			t.Fatal(err)
		}
		if terms.Answer != rsl.Permitted || len(terms.Licenses) != 1 || terms.Licenses[0].Verdict.Payments[0].Type != "subscription" {
			t.Errorf("%s ai-train: %+v, want permitted on a subscription", path, terms)
		}
		terms, _ = tr.License(resp, rsl.Query{Usage: rsl.Search})
		if terms.Answer != rsl.Prohibited {
			t.Errorf("%s search: %s, want prohibited (only train-ai is permitted)", path, terms.Answer)
		}
		// The same response's Content-Usage: train-ai=n: the two signals disagree.
		u, _ := tr.Usage(resp)
		if u.Category(robots.TrainAI).Preference != robots.UsageDisallowed {
			t.Errorf("Content-Usage train-ai %v", u.Category(robots.TrainAI))
		}
	}
	if n := hits["/license.xml"].Load(); n != 1 {
		t.Errorf("the licence was fetched %d times, want 1 (cached for its max-age)", n)
	}

	// Licences that cannot be read: a 50 MB one, a 404, an HTML page.
	broken := &fetch.Transport{Client: newClient(t, fetch.Config{}), Agent: "Broken/1.0"}
	resp, err := (&http.Client{Transport: broken}).Get(base + "/x")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	terms, err := broken.License(resp, rsl.Query{Usage: rsl.Search})
	if err != nil {
		t.Fatal(err)
	}
	if terms.Answer != rsl.Unknown || len(terms.Licenses) != 4 {
		t.Fatalf("search with unreadable licences: %+v, want unknown from 4 licences", terms)
	}
	for i, want := range []string{"", "larger than 1 MiB", "no licence at that URL: status 404", "served as text/html"} {
		if got := terms.Licenses[i].Error; want != "" && !strings.Contains(got, want) || want == "" && got != "" {
			t.Errorf("licence %d: error %q, want %q", i, got, want)
		}
	}
	// The readable licence still permits ai-train: permitted whatever the others are.
	if terms, _ := broken.License(resp, rsl.Query{Usage: rsl.AITrain}); terms.Answer != rsl.Permitted {
		t.Errorf("ai-train: %s, want permitted", terms.Answer)
	}
	c := newClient(t, fetch.Config{})
	if _, err := c.License(context.Background(), base+"/big.xml"); !errors.Is(err, rsl.ErrTooLarge) {
		t.Errorf("50 MB licence: %v, want rsl.ErrTooLarge", err)
	}
	if _, err := c.License(context.Background(), "/license.xml"); err == nil {
		t.Error("a relative licence URL: no error")
	}
}

// TestLicenseLinesBounded: a robots.txt of many License lines costs at most
// MaxLicenseLines licence fetches; the others are reported, not fetched.
func TestLicenseLinesBounded(t *testing.T) {
	var fetched atomic.Int32
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			for i := range 50 {
				io.WriteString(w, "License: http://"+r.Host+"/l"+strings.Repeat("x", i)+".xml\n")
			}
			return
		}
		fetched.Add(1)
		http.NotFound(w, r)
	})
	c := newClient(t, fetch.Config{})
	terms, err := c.LicenseTerms(context.Background(), srv.URL+"/a", rsl.Query{Usage: rsl.Search})
	if err != nil {
		t.Fatal(err)
	}
	if n := fetched.Load(); n != fetch.MaxLicenseLines || len(terms.Licenses) != 50 || terms.Answer != rsl.Unknown ||
		!strings.Contains(terms.Licenses[49].Error, "past the first 10 License lines") {
		t.Errorf("%d fetched, %d answers, %s; last %q", n, len(terms.Licenses), terms.Answer, terms.Licenses[49].Error)
	}
}
