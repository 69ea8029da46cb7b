package fetch_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/rsl"
)

// signalSite states its stance on AI use every way there is: robots.txt (Content-Usage
// and an RSL License line), an RSL licence, tdmrep.json, and pages with X-Robots-Tag
// headers, robots meta tags and TDMRep meta tags.
func signalSite(t *testing.T) string {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nAllow: /\nContent-Usage: train-ai=n, search=y\nContent-Usage: /blog/ train-ai=y\nLicense: http://"+r.Host+"/license.xml\n")
		case "/license.xml":
			w.Header().Set("Content-Type", rsl.MediaType)
			io.WriteString(w, `<rsl xmlns="https://rslstandard.org/rsl"><content url="/"><license>
<permits type="usage">ai-train search</permits><payment type="crawl"><amount currency="USD">0.01</amount></payment>
</license></content></rsl>`)
		case tdmrepPath:
			io.WriteString(w, `[{"location":"/blog/","tdm-reservation":1,"tdm-policy":"https://example.com/tdm.json"},{"location":"/","tdm-reservation":0}]`)
		case "/blog/post":
			w.Header().Set("Content-Type", "text/html")
			w.Header().Add("X-Robots-Tag", "GPTBot: noindex")
			io.WriteString(w, `<html><head><meta name="robots" content="nosnippet"><meta name="tdm-reservation" content="0"></head><body>post</body></html>`)
		case "/about":
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Tdm-Reservation", "1")
			io.WriteString(w, `<html><head><meta name="gptbot" content="noarchive"></head><body>about</body></html>`)
		default:
			http.NotFound(w, r)
		}
	})
	return srv.URL
}

const tdmrepPath = "/.well-known/tdmrep.json"

// TestTransportPage: one call gives every signal of a response for the crawler.
func TestTransportPage(t *testing.T) {
	base := signalSite(t)
	tr := &fetch.Transport{Client: newClient(t, fetch.Config{}), Agent: "GPTBot/1.2"}
	get := func(path string) fetch.Page {
		resp, err := (&http.Client{Transport: tr}).Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		p, err := tr.Page(resp, body)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := get("/blog/post")
	if p.Usage.Category(robots.TrainAI).Preference != robots.UsageAllowed {
		t.Errorf("/blog/post train-ai %v, want allowed (line 4)", p.Usage.Category(robots.TrainAI))
	}
	if len(p.Licenses) != 4 || p.Licenses[0].Usage != rsl.AITrain || p.Licenses[0].Terms.Answer != rsl.Permitted || p.Licenses[1].Terms.Answer != rsl.Prohibited {
		t.Errorf("licences %+v", p.Licenses)
	}
	// The page's meta (0) supersedes tdmrep.json's rule for /blog/ (1).
	if p.TDM.String() != "not reserved (meta)" {
		t.Errorf("TDM %s", p.TDM)
	}
	if !p.Rules.NoIndex || !p.Rules.NoSnippet {
		t.Errorf("rules %+v, want noindex (X-Robots-Tag GPTBot:) and nosnippet (meta robots)", p.Rules)
	}
	p = get("/about")
	if p.Usage.Category(robots.TrainAI).Preference != robots.UsageDisallowed {
		t.Errorf("/about train-ai %v", p.Usage.Category(robots.TrainAI))
	}
	if p.TDM.String() != "reserved (header)" || !p.Rules.NoArchive || p.Rules.NoIndex || len(p.Problems) != 0 {
		t.Errorf("/about: TDM %s, rules %+v, problems %q", p.TDM, p.Rules, p.Problems)
	}
	if !strings.Contains(p.Licenses[0].Terms.Licenses[0].Verdict.Reason, "crawl 0.01 USD") {
		t.Errorf("payment: %q", p.Licenses[0].Terms.Licenses[0].Verdict.Reason)
	}
}
