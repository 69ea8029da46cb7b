package serve

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/gorobots/robots/internal/testenv"
)

// aiGroups are the crawlers of manyGroupsSite's groups, one group each, in order.
var aiGroups = []string{"GPTBot", "CCBot", "ClaudeBot", "Bytespider", "PerplexityBot", "Amazonbot", "Applebot", "Diffbot", "Omgilibot", "YouBot"}

// manyGroupsSite serves a robots.txt of one "Disallow: /" group per AI crawler
// (group i's rule on line 3i+2) and a sitemap of two URLs.
func manyGroupsSite(t *testing.T) *testenv.Server {
	return testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		o := "http://" + r.Host
		switch r.URL.Path {
		case "/robots.txt":
			for _, n := range aiGroups {
				fmt.Fprintf(w, "User-agent: %s\nDisallow: /\n\n", n)
			}
			fmt.Fprintf(w, "Sitemap: %s/sitemap.xml\n", o)
		case "/sitemap.xml":
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%[1]s/</loc></url><url><loc>%[1]s/page</loc></url></urlset>
`, o)
		default:
			http.NotFound(w, r)
		}
	})
}

// TestAuditPageLists: the tester's audit shows the same rule on ten lines as one
// entry naming each crawler with its line, its examples once; lint's repeated
// blocks-all names each crawler, and what a list leaves out ("and N more") opens
// in place.
func TestAuditPageLists(t *testing.T) {
	site := manyGroupsSite(t)
	s, _ := start(t, Config{AllowPrivate: true})
	form := url.Values{"mode": {"audit"}, "action": {"audit"}, "audit_url": {site.URL}, "agent": aiGroups}
	code, page := postPage(t, s, form)
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	text := strings.ReplaceAll(html.UnescapeString(page), "<wbr>", "")
	start := strings.Index(text, `id="blocked_rules"`)
	end := strings.Index(text[max(start, 0):], "</ol>")
	if start < 0 || end < 0 {
		t.Fatalf("no list of blocking rules; page:\n%.3000s", page)
	}
	rules := text[start : start+end]
	if !strings.Contains(rules, "10 lines</span> <code>Disallow: /</code> each block <strong>2 sitemap URLs</strong>") {
		t.Errorf("the ten rules are not one entry:\n%s", rules)
	}
	for i, n := range aiGroups {
		if want := fmt.Sprintf("%s (line %d)", n, 3*i+2); !strings.Contains(rules, want) {
			t.Errorf("the entry does not name %q:\n%s", want, rules)
		}
	}
	if n := strings.Count(rules, site.URL+"/page"); n != 1 {
		t.Errorf("the example %s/page is shown %d times, want once", site.URL, n)
	}
	// lint's blocks-all: eight of the ten are major crawlers; the first five named,
	// the others in the part that opens.
	fi := strings.Index(text, `id="audit_findings"`)
	if fi < 0 {
		t.Fatal("no findings")
	}
	findings := text[fi:]
	if !strings.Contains(findings, "this group disallows every URL for GPTBot (line 1), CCBot (line 4), ClaudeBot (line 7), Bytespider (line 10), PerplexityBot (line 13) and 3 more") {
		t.Errorf("blocks-all does not name each crawler:\n%.1500s", findings)
	}
	if !strings.Contains(findings, `<details class="full"><summary>show all</summary><p>`) || !strings.Contains(findings, "Diffbot (line 22)") {
		t.Errorf("the full list of blocks-all is not there to open:\n%.1500s", findings)
	}
	// By purpose: a group of more than maxPurposeNames crawlers opens in place.
	if !strings.Contains(text, `<details class="inline"><summary class="more">and `) {
		t.Errorf("no purpose list opens its other crawlers")
	}
}

// TestCrawlDelayShown: the tester shows the crawl-delay that applies, in the audit
// (with who honours or ignores it) and in the verdicts' groups.
func TestCrawlDelayShown(t *testing.T) {
	site := testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nDisallow: /private/\nCrawl-delay: 7\n\nSitemap: http://%s/sitemap.xml\n", r.Host)
		case "/sitemap.xml":
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://%s/</loc></url></urlset>
`, r.Host)
		default:
			http.NotFound(w, r)
		}
	})
	s, _ := start(t, Config{AllowPrivate: true})
	_, page := postPage(t, s, url.Values{"mode": {"audit"}, "action": {"audit"}, "audit_url": {site.URL}, "agent": {"Googlebot", "bingbot"}})
	if want := "line 3: 7s for Googlebot, bingbot (honoured by bingbot; ignored by Googlebot, as their operators say)"; !strings.Contains(html.UnescapeString(page), want) {
		t.Errorf("the audit does not say %q", want)
	}
	_, page = postPage(t, s, url.Values{"robots": {"User-agent: *\nDisallow: /x\nCrawl-delay: 2.5\n"}, "urls": {"/x"}, "agent": {"bingbot"}})
	if want := "; crawl-delay 2.5s (line 3)"; !strings.Contains(page, want) {
		t.Errorf("the verdicts' groups do not say %q", want)
	}
}
