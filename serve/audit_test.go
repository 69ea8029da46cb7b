package serve

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gorobots/robots/internal/testenv"
)

// auditSiteRobots is the loopback site's robots.txt: /search and /tag/ closed to
// every crawler, /private/ to all but Googlebot's own group (which closes only
// /search), and GPTBot closed out of everything.
const auditSiteRobots = `User-agent: *
Disallow: /search
Disallow: /tag/
Disallow: /private/

User-agent: Googlebot
Disallow: /search
Disallow: /tag/

User-agent: GPTBot
Disallow: /

Sitemap: %[1]s/sitemap_index.xml
`

// The site's URLs by section, as its sitemaps list them.
const (
	siteBlog    = 40 // /blog/post-N: open to all but GPTBot
	siteTags    = 20 // /tag/tN/: closed to all (line 3, or line 8 for Googlebot)
	siteSearch  = 10 // /search?q=N: closed to all (line 2, or line 7 for Googlebot)
	sitePrivate = 6  // /private/pN: closed to bingbot (line 4), open to Googlebot
	siteAbout   = 1  // /about
	siteURLs    = siteBlog + siteTags + siteSearch + sitePrivate + siteAbout
)

// auditSite serves a site for audits on loopback: robots.txt, a sitemap index
// listing a plain sitemap (blog, about), a gzipped one (tags, search, private), a
// broken one, and a sitemap on another host (listed, not read).
func auditSite(t *testing.T) *testenv.Server {
	t.Helper()
	var site *testenv.Server
	urlset := func(locs []string) string {
		var b strings.Builder
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for _, l := range locs {
			fmt.Fprintf(&b, "<url><loc>%s</loc></url>\n", l)
		}
		b.WriteString("</urlset>\n")
		return b.String()
	}
	site = testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		o := site.URL
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, auditSiteRobots, o)
		case "/sitemap_index.xml":
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>%[1]s/sitemap-blog.xml</loc></sitemap>
<sitemap><loc>%[1]s/sitemap-more.xml.gz</loc></sitemap>
<sitemap><loc>%[1]s/sitemap-broken.xml</loc></sitemap>
<sitemap><loc>https://cdn.example.net/sitemap.xml</loc></sitemap>
</sitemapindex>
`, o)
		case "/sitemap-blog.xml":
			var locs []string
			for i := range siteBlog {
				locs = append(locs, fmt.Sprintf("%s/blog/post-%d", o, i))
			}
			locs = append(locs, o+"/about")
			io.WriteString(w, urlset(locs))
		case "/sitemap-more.xml.gz":
			var locs []string
			for i := range siteTags {
				locs = append(locs, fmt.Sprintf("%s/tag/t%d/", o, i))
			}
			for i := range siteSearch {
				locs = append(locs, fmt.Sprintf("%s/search?q=%d", o, i))
			}
			for i := range sitePrivate {
				locs = append(locs, fmt.Sprintf("%s/private/p%d", o, i))
			}
			var b bytes.Buffer
			zw := gzip.NewWriter(&b)
			io.WriteString(zw, urlset(locs))
			zw.Close()
			w.Header().Set("Content-Type", "application/gzip")
			w.Write(b.Bytes())
		case "/sitemap-broken.xml":
			io.WriteString(w, "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>"+o+"/x</loc></url>\n<url><loc>oops</url>\n")
		default:
			http.NotFound(w, r)
		}
	})
	return site
}

// postAudit posts a request to POST /v1/audit and returns the status and body.
func postAudit(t *testing.T, s *Server, body string, header http.Header) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest("POST", "http://"+s.Addr()+"/v1/audit", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, b
}

func auditBody(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
