package audit

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/gorobots/robots/internal/testenv"
)

// The site of TestSite: a robots.txt, a sitemap index listing two sitemaps of
// 50,000 URLs each (the second gzip-compressed), a broken sitemap, a missing one, a
// sitemap Googlebot may not fetch, and sitemaps on another origin (a second loopback
// server), one listed by robots.txt and one by the index.
const siteRobots = `User-agent: *
Disallow: /search
Disallow: /tag/
Allow: /tag/featured/

User-agent: GPTBot
User-agent: CCBot
Disallow: /

User-agent: Googlebot
Disallow: /private/
Disallow: /search

Sitemap: {A}/sitemap_index.xml
Sitemap: {B}/sitemap.xml
`

// The lines of siteRobots' rules.
const (
	lineStarSearch   = 2
	lineStarTag      = 3
	lineAllowFeature = 4
	lineAllSlash     = 8
	lineGooglePriv   = 11
	lineGoogleSearch = 12
	lineSitemapIndex = 14
	lineSitemapB     = 15
)

const siteURLs = 100000

// sitePath is the path of generated URL i: ten sections by i mod 10.
func sitePath(i int) string {
	switch i % 10 {
	case 0, 1, 2, 3:
		return fmt.Sprintf("/blog/post-%d", i)
	case 4:
		return fmt.Sprintf("/search?q=%d", i)
	case 5:
		return fmt.Sprintf("/tag/t%d", i)
	case 6:
		return fmt.Sprintf("/tag/featured/t%d", i)
	case 7:
		return fmt.Sprintf("/private/doc-%d", i)
	case 8:
		return fmt.Sprintf("/products/p-%d", i)
	}
	return fmt.Sprintf("/about/a%d", i)
}

// brokenSitemap lists three URLs, then an element closed by the wrong tag on line 6.
const brokenSitemap = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>{A}/broken/0</loc></url>
<url><loc>{A}/broken/1</loc></url>
<url><loc>{A}/broken/2</loc></url>
<url><loc>{A}/broken/3</loc></urll>
</urlset>
`

const brokenLine = 6

func urlset(base string, from, to int) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := from; i < to; i++ {
		// & in a query is written &amp;, as XML wants.
		fmt.Fprintf(&b, "  <url>\n    <loc>%s%s</loc>\n    <lastmod>2026-11-01</lastmod>\n  </url>\n", base, strings.ReplaceAll(sitePath(i), "&", "&amp;"))
	}
	b.WriteString("</urlset>\n")
	return b.Bytes()
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// crossSitemap is the sitemap on origin B that A's robots.txt lists: one URL of A
// (crossPath), one of B.
const crossSitemap = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>{A}/search?q=cross</loc></url>
<url><loc>{B}/own-page</loc></url>
</urlset>
`

const crossPath = "/search?q=cross"

// startSite serves the site on two loopback origins and returns their URLs.
func startSite(t *testing.T) (string, string) {
	var a string
	other := testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte("User-agent: *\nDisallow:\n"))
		case "/sitemap.xml":
			// Cross-submitted: A's robots.txt lists this sitemap on B, which lists one
			// URL of A and one of its own.
			w.Write([]byte(strings.NewReplacer("{A}", a, "{B}", "http://"+r.Host).Replace(crossSitemap)))
		default:
			t.Errorf("the other origin was asked for %s: a sitemap an index of A lists on B must not be read", r.URL.Path)
			http.NotFound(w, r)
		}
	})
	b := other.URL
	files := map[string][]byte{}
	site := testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		body, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(body)
	})
	a = site.URL
	expand := func(s string) []byte {
		return []byte(strings.NewReplacer("{A}", a, "{B}", b).Replace(s))
	}
	files["/robots.txt"] = expand(siteRobots)
	files["/sitemap_index.xml"] = expand(`<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>{A}/sitemap-1.xml</loc></sitemap>
  <sitemap><loc>{A}/sitemap-2.xml.gz</loc><lastmod>2026-11-01</lastmod></sitemap>
  <sitemap><loc>{A}/broken.xml</loc></sitemap>
  <sitemap><loc>{A}/missing.xml</loc></sitemap>
  <sitemap><loc>{A}/private/sitemap-3.xml</loc></sitemap>
  <sitemap><loc>{B}/from-index.xml</loc></sitemap>
  <sitemap><loc>{A}/sitemap-1.xml</loc></sitemap>
</sitemapindex>
`)
	files["/sitemap-1.xml"] = urlset(a, 0, siteURLs/2)
	files["/sitemap-2.xml.gz"] = gzipped(urlset(a, siteURLs/2, siteURLs))
	files["/broken.xml"] = expand(brokenSitemap)
	files["/private/sitemap-3.xml"] = expand(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
</urlset>
`)
	return a, b
}

var siteAgents = []string{"Googlebot", "bingbot", "GPTBot", "CCBot", "DuckDuckBot"}

// siteBlocked is what siteRobots says for agent and path, worked out by hand from
// its groups: GPTBot and CCBot have "Disallow: /"; Googlebot its own group
// (/private/, /search); every other crawler the "*" group (/search, /tag/ but
// /tag/featured/). It returns the deciding line, 0 when allowed.
func siteBlocked(agent, path string) int {
	switch agent {
	case "GPTBot", "CCBot":
		return lineAllSlash
	case "Googlebot":
		switch {
		case strings.HasPrefix(path, "/private/"):
			return lineGooglePriv
		case strings.HasPrefix(path, "/search"):
			return lineGoogleSearch
		}
		return 0
	}
	switch {
	case strings.HasPrefix(path, "/search"):
		return lineStarSearch
	case strings.HasPrefix(path, "/tag/featured/"):
		return 0
	case strings.HasPrefix(path, "/tag/"):
		return lineStarTag
	}
	return 0
}

// TestSite audits the site and checks the report exactly against what the URLs
// and the rules were made to give.
func TestSite(t *testing.T) {
	a, b := startSite(t)
	rep, err := Run(context.Background(), a+"/robots.txt", Config{Agents: siteAgents, Examples: 3})
	if err != nil {
		t.Fatal(err)
	}

	// Every generated URL and the broken sitemap's first three, decided by hand.
	// The cross-submitted sitemap on B is read second, before the index's sitemaps.
	paths := []string{crossPath}
	for i := range siteURLs {
		paths = append(paths, sitePath(i))
	}
	paths = append(paths, "/broken/0", "/broken/1", "/broken/2")
	wantPerAgent := make([]int, len(siteAgents))
	wantRule := map[int]map[string]int{} // line → agent → URLs
	wantAny := 0
	for _, p := range paths {
		any := false
		for i, ag := range siteAgents {
			if line := siteBlocked(ag, p); line != 0 {
				any = true
				wantPerAgent[i]++
				if wantRule[line] == nil {
					wantRule[line] = map[string]int{}
				}
				wantRule[line][ag]++
			}
		}
		if any {
			wantAny++
		}
	}

	tot := rep.Totals
	if tot.URLs != len(paths) || tot.OffOriginURLs != 1 || tot.InvalidURLs != 0 {
		t.Errorf("totals: %d URLs, %d off origin, %d invalid; want %d, 1 (B's own page), 0", tot.URLs, tot.OffOriginURLs, tot.InvalidURLs, len(paths))
	}
	if !slices.Equal(tot.BlockedURLs, wantPerAgent) {
		t.Errorf("blocked per crawler %v, want %v (%v)", tot.BlockedURLs, wantPerAgent, siteAgents)
	}
	if tot.BlockedAny != wantAny {
		t.Errorf("blocked for some crawler: %d, want %d", tot.BlockedAny, wantAny)
	}
	// The blocks: one per rule line, with the crawlers it blocks the same URLs for,
	// most URLs first, then by line.
	type block struct {
		rule   string
		line   int
		agents string
		urls   int
	}
	var want []block
	ruleText := map[int]string{lineStarSearch: "Disallow: /search", lineStarTag: "Disallow: /tag/", lineAllSlash: "Disallow: /",
		lineGooglePriv: "Disallow: /private/", lineGoogleSearch: "Disallow: /search"}
	for line, per := range wantRule {
		var ags []string
		n := -1
		for _, ag := range siteAgents {
			if c, ok := per[ag]; ok {
				if n >= 0 && c != n {
					t.Fatalf("line %d blocks different counts for different crawlers: the test's site should not", line)
				}
				n = c
				ags = append(ags, ag)
			}
		}
		want = append(want, block{ruleText[line], line, strings.Join(ags, ","), n})
	}
	slices.SortFunc(want, func(x, y block) int {
		if x.urls != y.urls {
			return y.urls - x.urls
		}
		return x.line - y.line
	})
	var got []block
	for _, bl := range rep.Blocked {
		r := "<nil>"
		if bl.Rule != nil {
			r = *bl.Rule
		}
		got = append(got, block{r, bl.Line, strings.Join(bl.Agents, ","), bl.URLs})
		// The examples: the first URLs in sitemap order that the rule blocks.
		var wantEx []string
		for _, p := range paths {
			if len(wantEx) == 3 {
				break
			}
			if siteBlocked(bl.Agents[0], p) == bl.Line {
				wantEx = append(wantEx, a+p)
			}
		}
		if !slices.Equal(bl.Examples, wantEx) {
			t.Errorf("line %d: examples %v, want %v", bl.Line, bl.Examples, wantEx)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("blocked:\n got %v\nwant %v", got, want)
	}
	if want[0].urls != siteURLs+4 || want[1].urls != siteURLs/10+1 {
		t.Fatalf("the test's expectations are off: %v", want)
	}

	// The sitemaps, in the order found, with their status.
	type sm struct {
		url, status, kind, source string
		line, entries, urls, http int
		gzip                      bool
	}
	wantMaps := []sm{
		{a + "/sitemap_index.xml", StatusOK, "sitemapindex", SourceRobots, lineSitemapIndex, 7, 0, 200, false},
		{b + "/sitemap.xml", StatusOK, "urlset", SourceRobots, lineSitemapB, 2, 1, 200, false},
		{a + "/sitemap-1.xml", StatusOK, "urlset", SourceIndex, 3, siteURLs / 2, siteURLs / 2, 200, false},
		{a + "/sitemap-2.xml.gz", StatusOK, "urlset", SourceIndex, 4, siteURLs / 2, siteURLs / 2, 200, true},
		{a + "/broken.xml", StatusInvalid, "urlset", SourceIndex, 5, 3, 3, 200, false},
		{a + "/missing.xml", StatusUnreachable, "", SourceIndex, 6, 0, 0, 404, false},
		{a + "/private/sitemap-3.xml", StatusOK, "urlset", SourceIndex, 7, 0, 0, 200, false},
		{b + "/from-index.xml", StatusCrossHost, "", SourceIndex, 8, 0, 0, 0, false},
	}
	var gotMaps []sm
	for _, s := range rep.Sitemaps {
		gotMaps = append(gotMaps, sm{s.URL, s.Status, s.Kind, s.Source, s.Line, s.Entries, s.URLs, s.HTTPStatus, s.Gzip})
	}
	if !slices.Equal(gotMaps, wantMaps) {
		t.Errorf("sitemaps:\n got %v\nwant %v", gotMaps, wantMaps)
	}
	// One count per thing (issue 28): a sitemap that answered 404 was requested, not
	// read.
	if tot.Sitemaps != 6 || tot.SitemapsFailed != 1 {
		t.Errorf("%d sitemaps read, %d failed; want 6 (the index, B's cross-submitted sitemap, two urlsets, broken, private) and 1 (missing)", tot.Sitemaps, tot.SitemapsFailed)
	}
	for _, s := range rep.Sitemaps {
		switch s.URL {
		case a + "/broken.xml":
			// The XML breaks at line 6, within that line's bytes.
			start := len(strings.Join(strings.SplitN(strings.ReplaceAll(brokenSitemap, "{A}", a), "\n", brokenLine)[:brokenLine-1], "\n")) + 1
			end := start + len(strings.Split(strings.ReplaceAll(brokenSitemap, "{A}", a), "\n")[brokenLine-1])
			if s.ErrorLine != brokenLine || s.ErrorByte < int64(start) || s.ErrorByte > int64(end) {
				t.Errorf("broken.xml: error at line %d byte %d, want line %d, byte in [%d, %d]: %s", s.ErrorLine, s.ErrorByte, brokenLine, start, end, s.Error)
			}
			if !strings.Contains(s.Error, "urll") {
				t.Errorf("broken.xml: error %q does not name the wrong tag", s.Error)
			}
		case a + "/private/sitemap-3.xml":
			// Googlebot by its own group, GPTBot and CCBot by "Disallow: /".
			wantB := []SitemapBlock{{Agents: []string{"Googlebot"}, Line: lineGooglePriv}, {Agents: []string{"GPTBot", "CCBot"}, Line: lineAllSlash}}
			checkSitemapBlocks(t, s, wantB)
		case b + "/sitemap.xml", b + "/from-index.xml":
			if len(s.Blocked) != 0 {
				t.Errorf("%s: cross-host sitemap judged by this origin's robots.txt: %v", s.URL, s.Blocked)
			}
			if s.CrossHost != (s.URL == b+"/sitemap.xml") {
				t.Errorf("%s: cross_host %v, want true only for the sitemap read by cross-submission", s.URL, s.CrossHost)
			}
		default:
			checkSitemapBlocks(t, s, []SitemapBlock{{Agents: []string{"GPTBot", "CCBot"}, Line: lineAllSlash}})
		}
	}
	if !rep.BlocksAny() {
		t.Error("BlocksAny() = false")
	}
	if br := rep.Broken(); len(br) != 2 || br[0].URL != a+"/broken.xml" || br[1].URL != a+"/missing.xml" {
		t.Errorf("Broken() = %v, want broken.xml and missing.xml", br)
	}
	if rep.Stopped != "" || rep.SitemapFallback {
		t.Errorf("stopped %q, fallback %v; want a complete audit of the Sitemap lines", rep.Stopped, rep.SitemapFallback)
	}

	// The tree's first level: each section with its URLs and blocked counts.
	sections := map[string]struct {
		urls    int
		blocked []int
	}{}
	for _, p := range paths {
		seg, _, dir := strings.Cut(strings.TrimPrefix(p, "/"), "/")
		if i := strings.IndexAny(seg, "?#"); i >= 0 {
			seg, dir = seg[:i], false
		}
		name := "/" + seg
		if dir {
			name += "/"
		}
		s := sections[name]
		if s.blocked == nil {
			s.blocked = make([]int, len(siteAgents))
		}
		s.urls++
		for i, ag := range siteAgents {
			if siteBlocked(ag, p) != 0 {
				s.blocked[i]++
			}
		}
		sections[name] = s
	}
	if rep.Tree.URLs != len(paths) || !slices.Equal(rep.Tree.Blocked, wantPerAgent) {
		t.Errorf("tree root: %d URLs, blocked %v; want %d, %v", rep.Tree.URLs, rep.Tree.Blocked, len(paths), wantPerAgent)
	}
	if len(rep.Tree.Children) != len(sections) {
		t.Errorf("tree root has %d children, want %d sections", len(rep.Tree.Children), len(sections))
	}
	last := siteURLs + 1
	for _, c := range rep.Tree.Children {
		w, ok := sections[c.Path]
		if !ok {
			t.Errorf("tree: unexpected node %q", c.Path)
			continue
		}
		if c.URLs != w.urls || !slices.Equal(c.Blocked, w.blocked) {
			t.Errorf("tree %s: %d URLs, blocked %v; want %d, %v", c.Path, c.URLs, c.Blocked, w.urls, w.blocked)
		}
		if c.URLs > last {
			t.Errorf("tree: %s (%d URLs) after a smaller sibling", c.Path, c.URLs)
		}
		last = c.URLs
		for _, s := range c.Samples {
			p := strings.TrimPrefix(s.URL, a)
			for i, ag := range siteAgents {
				if line := siteBlocked(ag, p); s.Allowed[i] != (line == 0) || line != 0 && s.Lines[i] != line {
					t.Errorf("tree %s: sample %s for %s: allowed %v line %d; want line %d", c.Path, s.URL, ag, s.Allowed[i], s.Lines[i], line)
				}
			}
		}
	}
}

func checkSitemapBlocks(t *testing.T, s Sitemap, want []SitemapBlock) {
	t.Helper()
	if len(s.Blocked) != len(want) {
		t.Errorf("%s: blocked for %+v, want %+v", s.URL, s.Blocked, want)
		return
	}
	for i, w := range want {
		g := s.Blocked[i]
		if !slices.Equal(g.Agents, w.Agents) || g.Line != w.Line || g.Rule == nil {
			t.Errorf("%s: blocked[%d] = %v line %d, want %v line %d", s.URL, i, g.Agents, g.Line, w.Agents, w.Line)
		}
	}
}
