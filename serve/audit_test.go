package serve

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/audit"
	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/netguard"
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
	urlset := func(locs []string) string {
		var b strings.Builder
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for _, l := range locs {
			fmt.Fprintf(&b, "<url><loc>%s</loc></url>\n", l)
		}
		b.WriteString("</urlset>\n")
		return b.String()
	}
	return testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		o := "http://" + r.Host
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
	b := readBody(t, resp, err)
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

// auditAnswer is the part of POST /v1/audit's answer (package audit's Report) the
// tests read.
type auditAnswer struct {
	Origin string       `json:"origin"`
	Agents []string     `json:"agents"`
	Limits audit.Limits `json:"limits"` // read by its UnmarshalJSON, which refuses an unknown name
	Totals struct {
		Sitemaps    int            `json:"sitemaps"`
		URLs        int            `json:"urls"`
		BlockedURLs map[string]int `json:"blocked_urls"`
	} `json:"totals"`
	Stopped string `json:"stopped"`
	Blocked []struct {
		Rule   *string  `json:"rule"`
		Line   int      `json:"line"`
		Agents []string `json:"agents"`
		URLs   int      `json:"urls"`
	} `json:"blocked"`
	Sitemaps []struct {
		URL       string `json:"url"`
		Status    string `json:"status"`
		Error     string `json:"error"`
		URLs      int    `json:"urls"`
		ErrorLine int    `json:"error_line"`
	} `json:"sitemaps"`
	Tree *struct {
		URLs    int            `json:"urls"`
		Blocked map[string]int `json:"blocked"`
	} `json:"tree"`
	Error string `json:"error"`
}

func decodeAudit(t *testing.T, body []byte) auditAnswer {
	t.Helper()
	var a auditAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		t.Fatalf("answer %.300s: %v", body, err)
	}
	return a
}

// TestAudit: POST /v1/audit of a loopback site answers the audit's report: the
// sitemap URLs each crawler may not fetch, by the rule that blocks them (as the
// site's robots.txt says: see auditSiteRobots), and each sitemap's status.
func TestAudit(t *testing.T) {
	site := auditSite(t)
	s, _ := start(t, Config{AllowPrivate: true})
	code, _, body := postAudit(t, s, auditBody(t, map[string]any{"url": site.URL, "agents": []string{"Googlebot", "bingbot", "GPTBot"}, "tree": true}), nil)
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	a := decodeAudit(t, body)
	// The broken sitemap's one URL before the XML breaks is read as well.
	const urls = siteURLs + 1
	if a.Origin != site.URL || a.Totals.URLs != urls || a.Stopped != "" {
		t.Errorf("origin %q, %d URLs, stopped %q; want %q, %d, complete", a.Origin, a.Totals.URLs, a.Stopped, site.URL, urls)
	}
	// Googlebot: its own group closes /search and /tag/; bingbot: the * group closes
	// /private/ as well; GPTBot: everything.
	// Keyed by crawler (issue 28: arrays in agent order were unreadable with jq).
	wantBlocked := map[string]int{"Googlebot": siteTags + siteSearch, "bingbot": siteTags + siteSearch + sitePrivate, "GPTBot": urls}
	if !maps.Equal(a.Totals.BlockedURLs, wantBlocked) {
		t.Errorf("blocked URLs per crawler %v, want %v", a.Totals.BlockedURLs, wantBlocked)
	}
	type block struct {
		rule   string
		line   int
		agents string
		urls   int
	}
	var got []block
	for i, b := range a.Blocked {
		if i > 0 && b.URLs > a.Blocked[i-1].URLs {
			t.Errorf("blocked rules not sorted by URLs, most first: %d after %d", b.URLs, a.Blocked[i-1].URLs)
		}
		got = append(got, block{deref(b.Rule), b.Line, strings.Join(b.Agents, ","), b.URLs})
	}
	slices.SortFunc(got, func(x, y block) int { return x.line - y.line })
	want := []block{
		{"Disallow: /search", 2, "bingbot", siteSearch},
		{"Disallow: /tag/", 3, "bingbot", siteTags},
		{"Disallow: /private/", 4, "bingbot", sitePrivate},
		{"Disallow: /search", 7, "Googlebot", siteSearch},
		{"Disallow: /tag/", 8, "Googlebot", siteTags},
		{"Disallow: /", 11, "GPTBot", urls},
	}
	if !slices.Equal(got, want) {
		t.Errorf("blocking rules by line:\n%v\nwant\n%v", got, want)
	}
	status := map[string]string{}
	for _, sm := range a.Sitemaps {
		status[strings.TrimPrefix(sm.URL, site.URL)] = sm.Status
		if strings.HasSuffix(sm.URL, "/sitemap-broken.xml") && sm.ErrorLine != 4 {
			t.Errorf("the broken sitemap's error %q at line %d, want line 4 (the unclosed <loc>)", sm.Error, sm.ErrorLine)
		}
	}
	wantStatus := map[string]string{
		"/sitemap_index.xml": "ok", "/sitemap-blog.xml": "ok", "/sitemap-more.xml.gz": "ok",
		"/sitemap-broken.xml": "invalid", "https://cdn.example.net/sitemap.xml": "cross-host",
	}
	if !maps.Equal(status, wantStatus) {
		t.Errorf("sitemap statuses %v, want %v", status, wantStatus)
	}
	if a.Tree == nil || a.Tree.URLs != urls || !maps.Equal(a.Tree.Blocked, wantBlocked) {
		t.Errorf("tree root %+v, want %d URLs, blocked %v", a.Tree, urls, wantBlocked)
	}
	// The server's limits apply when the request sets none.
	def := defaultAuditLimits()
	if a.Limits != def {
		t.Errorf("limits %+v, want the server's: %+v", a.Limits, def)
	}
}

// TestAuditRequests: what a request may ask is bounded by the server's limits; bad
// requests are 400 naming the field, requests past a limit 413 naming it.
func TestAuditRequests(t *testing.T) {
	site := auditSite(t)
	s, _ := start(t, Config{AllowPrivate: true, Audit: audit.Limits{URLs: 1000, Sitemaps: 10, FileBytes: 1 << 20, Time: 20 * time.Second}})
	many := make([]string, DefaultMaxAgents+1)
	for i := range many {
		many[i] = fmt.Sprintf("Bot%d", i)
	}
	for _, tt := range []struct {
		name string
		body string
		code int
		want string // in the answer
	}{
		{"lower limits", auditBody(t, map[string]any{"url": site.URL, "agents": []string{"Googlebot"}, "limits": map[string]any{"urls": 50, "sitemaps": 3, "depth": 1, "seconds": 5, "nesting": 8}}), 200, `"limits":{"sitemaps":3,"urls":50,"file_urls":50000,"file_bytes":1048576,"depth":1,"seconds":5,"nesting":8}`},
		{"robots.txt URL", auditBody(t, map[string]any{"url": site.URL + "/robots.txt", "agents": []string{"Googlebot"}}), 200, `"origin":"` + site.URL + `"`},
		{"host and port as typed", auditBody(t, map[string]any{"url": strings.TrimPrefix(site.URL, "http://"), "agents": []string{"Googlebot"}}), 200, `"origin":"` + site.URL + `"`},
		{"a word", `{"url":"search"}`, 400, "type a site such as example.com"},
		{"urls past the server's", auditBody(t, map[string]any{"url": site.URL, "limits": map[string]any{"urls": 1001}}), 413, "limits.urls: 1,001, more than this server's limit of 1,000"},
		{"sitemaps past the server's", auditBody(t, map[string]any{"url": site.URL, "limits": map[string]any{"sitemaps": 11}}), 413, "limits.sitemaps: 11, more than this server's limit of 10"},
		{"file bytes past the server's", auditBody(t, map[string]any{"url": site.URL, "limits": map[string]any{"file_bytes": 2 << 20}}), 413, "limits.file_bytes: 2,097,152, more than this server's limit of 1 MiB"},
		{"nesting past the server's", auditBody(t, map[string]any{"url": site.URL, "limits": map[string]any{"nesting": 33}}), 413, "limits.nesting: 33, more than this server's limit of 32"},
		{"time past the server's", auditBody(t, map[string]any{"url": site.URL, "limits": map[string]any{"seconds": 21}}), 413, "limits.seconds: 21, more than this server's limit of 20"},
		{"negative", auditBody(t, map[string]any{"url": site.URL, "limits": map[string]any{"depth": -1}}), 400, "limits.depth: -1 is negative"},
		{"negative time", auditBody(t, map[string]any{"url": site.URL, "limits": map[string]any{"seconds": -2}}), 400, "limits.seconds: -2 is negative"},
		{"time past any duration", auditBody(t, map[string]any{"url": site.URL, "limits": map[string]any{"seconds": 1e300}}), 413, "more than this server's limit of 20"},
		{"unknown limit", auditBody(t, map[string]any{"url": site.URL, "limits": map[string]any{"minutes": 1}}), 400, `unknown field \"minutes\"`},
		{"examples", auditBody(t, map[string]any{"url": site.URL, "examples": MaxAuditExamples + 1}), 400, "examples: 51"},
		// pages: the root URL fetched for its headers and meta tags, read into "stance".
		{"pages", auditBody(t, map[string]any{"url": site.URL, "agents": []string{"GPTBot"}, "pages": 1}), 200, `{"purpose":"ai-train","url":"` + site.URL + `/","agents":["GPTBot"],"fetched":`},
		{"pages past the limit", auditBody(t, map[string]any{"url": site.URL, "pages": 101}), 400, "pages: 101, want 0 to 100"},
		{"no url", `{"agents":["Googlebot"]}`, 400, "url is required"},
		{"not a URL", `{"url":"ftp://example.com/"}`, 400, "http or https"},
		{"unknown field", `{"url":"` + site.URL + `","agent":"Googlebot"}`, 400, `unknown field \"agent\"`},
		{"bad JSON", `{"url":`, 400, "reading the request"},
		{"bad dialect", auditBody(t, map[string]any{"url": site.URL, "dialect": "klingon"}), 400, "dialect"},
		{"too many agents", auditBody(t, map[string]any{"url": site.URL, "agents": many}), 413, "101 agents"},
		{"body past the limit", `{"url":"` + site.URL + `","agents":["` + strings.Repeat("a", DefaultMaxBodyBytes) + `"]}`, 413, "too large"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, _, body := postAudit(t, s, tt.body, nil)
			if code != tt.code || !strings.Contains(string(body), tt.want) {
				t.Errorf("status %d, want %d with %q in: %.400s", code, tt.code, tt.want, body)
			}
		})
	}
}

// TestAuditToken: with tokens, an audit needs one, in the API as in the tester.
func TestAuditToken(t *testing.T) {
	site := auditSite(t)
	s, _ := start(t, Config{AllowPrivate: true, Tokens: []string{"s3cret"}})
	req := auditBody(t, map[string]any{"url": site.URL, "agents": []string{"Googlebot"}})
	if code, h, _ := postAudit(t, s, req, nil); code != 401 || h.Get("WWW-Authenticate") == "" {
		t.Errorf("without a token: %d, want 401 with WWW-Authenticate", code)
	}
	if code, _, _ := postAudit(t, s, req, http.Header{"Authorization": {"Bearer wrong"}}); code != 401 {
		t.Errorf("with a wrong token: %d, want 401", code)
	}
	if code, _, body := postAudit(t, s, req, http.Header{"Authorization": {"Bearer s3cret"}}); code != 200 {
		t.Errorf("with the token: %d, want 200: %.300s", code, body)
	}
	form := url.Values{"mode": {"audit"}, "audit_url": {site.URL}, "agent": {"Googlebot"}}
	if code, page := postPage(t, s, form); code != 401 || !strings.Contains(page, "audits only for holders of an API token") {
		t.Errorf("tester audit without a token: %d, want 401 saying a token is needed", code)
	}
	form.Set("token", "s3cret")
	if code, page := postPage(t, s, form); code != 200 || !strings.Contains(page, `id="picture"`) {
		t.Errorf("tester audit with the token: %d, want 200 with the picture", code)
	}
}

// TestAuditGuard: a sitemap of an allowed site that redirects to a refused address
// is not followed (a redirect off the origin is reported cross-host, never read,
// and the guarded dialer would refuse it anyway), and nothing is fetched from that
// address. A target at a refused address is 403 before anything is fetched.
func TestAuditGuard(t *testing.T) {
	inner := testenv.Serve(t, 200, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://inner/x</loc></url></urlset>`)
	site := testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nDisallow: /private/\nSitemap: http://%s/sitemap.xml\n", r.Host)
		case "/sitemap.xml":
			http.Redirect(w, r, inner.URL+"/sitemap.xml", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	})
	// The guard as in production, except for the one site this test trusts.
	siteAddr := strings.TrimPrefix(site.URL, "http://")
	guard := netguard.Dialer(false)
	open := &net.Dialer{}
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		if addr == siteAddr {
			return open.DialContext(ctx, network, addr)
		}
		return guard.DialContext(ctx, network, addr)
	}
	s, _ := start(t, Config{Fetch: fetch.Config{DialContext: dial, AddrCheck: func(ap netip.AddrPort) error {
		if ap.String() == siteAddr {
			return nil
		}
		return netguard.Check(ap.Addr())
	}}})
	code, _, body := postAudit(t, s, auditBody(t, map[string]any{"url": site.URL, "agents": []string{"Googlebot"}}), nil)
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	a := decodeAudit(t, body)
	if len(a.Sitemaps) != 1 || a.Sitemaps[0].Status != "cross-host" || !strings.Contains(a.Sitemaps[0].Error, "redirects to "+inner.URL+"/sitemap.xml") {
		t.Errorf("sitemaps %+v, want the one sitemap cross-host: its redirect to another origin not followed", a.Sitemaps)
	}
	if inner.Hits() != 0 {
		t.Errorf("the refused address was fetched %d times", inner.Hits())
	}
	// A target the guard refuses.
	code, _, body = postAudit(t, s, auditBody(t, map[string]any{"url": inner.URL}), nil)
	if code != 403 || !strings.Contains(string(body), "refus") {
		t.Errorf("audit of a loopback target: %d %s, want 403", code, body)
	}
}

// TestAuditAdmission: MaxAudits audits run at once, the API's and the tester's
// together; past it an audit is answered 503 at once with Retry-After.
func TestAuditAdmission(t *testing.T) {
	release := make(chan struct{}) // holds the audit until the test is done with it
	slow := heldSite(t, release, map[string]string{
		"/robots.txt": "User-agent: *\nDisallow: /x\nSitemap: %[1]s/hang.xml\n",
		"/hang.xml":   `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>`,
	})
	s, reg := start(t, Config{AllowPrivate: true, MaxAudits: 1})
	done := make(chan int)
	go func() {
		code, _, _ := postAudit(t, s, auditBody(t, map[string]any{"url": slow.URL, "agents": []string{"a"}}), nil)
		done <- code
	}()
	testenv.WaitFor(t, func() bool { return slow.Hits() >= 2 }) // robots.txt, then the sitemap: the audit runs
	code, h, body := postAudit(t, s, auditBody(t, map[string]any{"url": slow.URL, "agents": []string{"a"}}), nil)
	if code != 503 || h.Get("Retry-After") != "10" || !strings.Contains(string(body), "1 audits are running") {
		t.Errorf("second audit: %d Retry-After %q %s, want 503, Retry-After 10", code, h.Get("Retry-After"), body)
	}
	if code, page := postPage(t, s, url.Values{"mode": {"audit"}, "audit_url": {slow.URL}, "agent": {"a"}}); code != 503 || !strings.Contains(page, "audits are running") {
		t.Errorf("tester audit while the API's runs: %d, want 503", code)
	}
	close(release)
	if code := <-done; code != 200 {
		t.Errorf("the first audit: %d, want 200", code)
	}
	if n := counter(t, reg, "robots_audits_rejected_total"); n != 2 {
		t.Errorf("robots_audits_rejected_total = %v, want 2", n)
	}
	if code, _, _ := postAudit(t, s, auditBody(t, map[string]any{"url": slow.URL, "agents": []string{"a"}}), nil); code != 200 {
		t.Errorf("an audit after the first ended: %d, want 200", code)
	}
}

// TestAuditTimeLimit: an audit ends at its time limit with the report of what was
// read by then, saying so.
func TestAuditTimeLimit(t *testing.T) {
	site := heldSite(t, nil, map[string]string{
		"/robots.txt": "User-agent: *\nDisallow: /x\nSitemap: %[1]s/a.xml\nSitemap: %[1]s/hang.xml\n",
		"/a.xml":      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%[1]s/x/1</loc></url><url><loc>%[1]s/y</loc></url></urlset>`,
	})
	const limit = 2 * time.Second
	s, _ := start(t, Config{AllowPrivate: true, Audit: audit.Limits{Time: limit}})
	t0 := time.Now()
	code, _, body := postAudit(t, s, auditBody(t, map[string]any{"url": site.URL, "agents": []string{"Googlebot"}}), nil)
	took := time.Since(t0)
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	// Within the limit and the margin runAudit gives the report (5 s): not the fetch
	// client's 30 s wait for the hanging sitemap.
	if took > limit+5*time.Second {
		t.Errorf("the answer took %v, more than the limit of %v and its margin", took, limit)
	}
	a := decodeAudit(t, body)
	if a.Totals.URLs != 2 || !maps.Equal(a.Totals.BlockedURLs, map[string]int{"Googlebot": 1}) {
		t.Errorf("%d URLs (blocked %v), want the 2 URLs of a.xml, 1 blocked", a.Totals.URLs, a.Totals.BlockedURLs)
	}
	for _, sm := range a.Sitemaps {
		if strings.HasSuffix(sm.URL, "/hang.xml") && (sm.Status == "ok" || sm.Error == "") {
			t.Errorf("the sitemap cut by the time limit is reported %q %q, want it not read, saying why", sm.Status, sm.Error)
		}
	}
}

// heldSite serves pages by path, each a format in which %[1]s is the site's URL;
// any other path is an empty 200. At /hang.xml it answers only once release is
// closed (never, when release is nil) or its client has left.
func heldSite(t *testing.T, release <-chan struct{}, pages map[string]string) *testenv.Server {
	t.Helper()
	return testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hang.xml" {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
		if page, ok := pages[r.URL.Path]; ok {
			fmt.Fprintf(w, page, "http://"+r.Host)
		}
	})
}

// TestAuditWriteDeadline: an audit's answer is written after the server's
// WriteTimeout, which is made for checks, when the audit takes longer: in the API
// and in the tester.
func TestAuditWriteDeadline(t *testing.T) {
	site := heldSite(t, nil, map[string]string{"/robots.txt": "User-agent: *\nDisallow: /x\nSitemap: %[1]s/hang.xml\n"})
	s, _ := start(t, Config{AllowPrivate: true, WriteTimeout: time.Second, Audit: audit.Limits{Time: 2 * time.Second}})
	if code, _, body := postAudit(t, s, auditBody(t, map[string]any{"url": site.URL, "agents": []string{"Googlebot"}}), nil); code != 200 {
		t.Errorf("API: %d %s, want the report", code, body)
	}
	if code, page := postPage(t, s, url.Values{"mode": {"audit"}, "audit_url": {site.URL}, "agent": {"Googlebot"}}); code != 200 || !strings.Contains(page, `id="audit_totals"`) {
		t.Errorf("tester: %d, want the audit's page", code)
	}
}

// TestPurposeViews: the tester's answer by purpose groups each list's crawlers by
// what decides for them, the rule or the preferences stated.
func TestPurposeViews(t *testing.T) {
	rule := "Disallow: /"
	rep := &audit.Report{Purposes: []audit.Purpose{
		{Purpose: crawlers.AITrain, Preferences: []string{"content-usage train-ai", "content-signal ai-train"},
			Blocked: []audit.PurposeCrawler{{Name: "GPTBot", Rule: &rule, Line: 7}, {Name: "CCBot", Rule: &rule, Line: 7}},
			ToldNo: []audit.PurposeCrawler{{Name: "ClaudeBot", Told: []audit.Told{{Field: "content-usage",
				Stated: robots.Stated{Label: "train-ai", Preference: robots.UsageDisallowed, Line: 3}}}}}},
		{Purpose: crawlers.Archive},
	}}
	got := purposeViews(rep)
	if len(got) != 1 {
		t.Fatalf("%d purposes shown, want 1 (archive has no crawler here)", len(got))
	}
	p := got[0]
	want := []purposeList{
		{Title: "blocked", Class: "bad", Groups: []purposeGroup{{Why: "line 7 Disallow: /", Names: []string{"GPTBot", "CCBot"}}}},
		{Title: "told no", Class: "warn", Groups: []purposeGroup{{Why: "content-usage train-ai=disallowed (line 3)", Names: []string{"ClaudeBot"}}}},
	}
	if p.Purpose != "ai-train" || p.Crawlers != 3 || p.Preferences != "content-usage train-ai, content-signal ai-train" || fmt.Sprint(p.Lists) != fmt.Sprint(want) {
		t.Errorf("got %+v\nwant lists %+v", p, want)
	}
}

// TestAuditPageIntended: the tester's audit takes what the site blocks on purpose,
// as robots audit -allow-blocked and POST /v1/audit's allow_blocked do: GPTBot's
// blocks are marked intended; an entry that is neither a purpose nor a crawler asked
// about is a 400 naming it.
func TestAuditPageIntended(t *testing.T) {
	site := auditSite(t)
	s, _ := start(t, Config{AllowPrivate: true})
	form := url.Values{"mode": {"audit"}, "action": {"audit"}, "audit_url": {site.URL}, "agent": {"Googlebot", "GPTBot"}, "allow_blocked": {"ai-train"}}
	code, page := postPage(t, s, form)
	if code != 200 || !strings.Contains(page, `for GPTBot <span class="intended">intended</span>`) || strings.Contains(page, `for Googlebot <span class="intended">`) {
		t.Errorf("status %d, want 200 with GPTBot's block marked intended and Googlebot's not; page:\n%.3000s", code, page)
	}
	if !strings.Contains(page, "blocked, intended</option>") {
		t.Errorf("the crawler switch does not say GPTBot's blocks are intended")
	}
	form.Set("allow_blocked", "ai-trian")
	if code, page := postPage(t, s, form); code != 400 || !strings.Contains(page, `&#34;ai-trian&#34; is neither a crawler asked about nor a purpose`) {
		t.Errorf("status %d, want 400 naming ai-trian; page:\n%.2000s", code, page)
	}
}
