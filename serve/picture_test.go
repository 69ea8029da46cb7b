package serve

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/gorobots/robots/internal/testenv"
)

func TestStepOf(t *testing.T) {
	for _, tt := range []struct {
		blocked, n, want int
		text             string
	}{
		{0, 0, 0, "none blocked"},
		{0, 10, 0, "none blocked"},
		{1, 1000, 1, "<1% blocked"},
		{24, 100, 1, "24% blocked"},
		{25, 100, 2, "25% blocked"},
		{49, 100, 2, "49% blocked"},
		{50, 100, 3, "50% blocked"},
		{75, 100, 4, "75% blocked"},
		{99, 100, 4, "99% blocked"},
		{100, 100, 5, "all blocked"},
	} {
		t.Run(fmt.Sprintf("%d of %d", tt.blocked, tt.n), func(t *testing.T) {
			if got := stepOf(tt.blocked, tt.n); got != tt.want {
				t.Errorf("stepOf = %d, want %d", got, tt.want)
			}
			if got := blockedText(tt.blocked, tt.n); got != tt.text {
				t.Errorf("blockedText = %q, want %q", got, tt.text)
			}
		})
	}
}

// TestLayoutPicture: each branch's height is its share of its parent's URLs, each
// depth a column; names show where they fit; the pages of a branch are drawn as one
// when there are more than maxLeaves of them.
func TestLayoutPicture(t *testing.T) {
	leaf := func(path string, blocked ...int) *branch {
		return &branch{Name: strings.Trim(path[strings.LastIndexByte(strings.TrimSuffix(path, "/"), '/')+1:], "/"), Path: path, URLs: 1, Blocked: blocked}
	}
	blog := &branch{Name: "blog", Path: "/blog/", URLs: 150, Blocked: []int{0, 150}}
	for i := range 150 {
		blog.Children = append(blog.Children, leaf(fmt.Sprintf("/blog/p%d", i), 0, 1))
	}
	root := &branch{Name: "example.com", Path: "/", URLs: 300, Blocked: []int{100, 300}, Children: []*branch{
		blog,
		{Name: "search", Path: "/search", URLs: 100, Blocked: []int{100, 100}},
		{Name: "a-section-with-a-very-long-name-indeed", Path: "/a-section-with-a-very-long-name-indeed/", URLs: 48, Blocked: []int{0, 48}},
		leaf("/about", 0, 1), leaf("/contact", 0, 1),
	}}
	p := layoutPicture(root, []string{"Googlebot", "GPTBot"}, 0)
	byPath := map[string]pictureNode{}
	for _, n := range p.Nodes {
		byPath[n.Path+" "+n.Name] = n
	}
	colWidth := float64(pictureWidth-pictureRootWidth) / 2 // two levels under the site
	h := float64(p.Height)
	for _, tt := range []struct {
		key         string
		x, y, w, hh float64
		label, cls  string
	}{
		{"/ example.com", 0, 0, pictureRootWidth, h, "example.com", "s2"},
		{"/blog/ /blog", pictureRootWidth, 0, colWidth, h * 150 / 300, "/blog", "s0"},
		{"/search /search", pictureRootWidth, h * 150 / 300, colWidth, h * 100 / 300, "/search", "s5"},
		{"/a-section-with-a-very-long-name-indeed/ /a-section-with-a-very-long-name-indeed", pictureRootWidth, h * 250 / 300, colWidth, h * 48 / 300, "/a-section-with-a-very-long-name-inde…", "s0"}, // (280-10)/7 = 38 characters,
		{"/blog/ 150 pages", pictureRootWidth + colWidth, 0, colWidth, h * 150 / 300, "150 pages", "s0"},
	} {
		t.Run(tt.key, func(t *testing.T) {
			n, ok := byPath[tt.key]
			if !ok {
				t.Fatalf("%s not drawn; drawn: %v", tt.key, keys(byPath))
			}
			if n.X != round1(tt.x) || n.Y != round1(tt.y) || n.W != round1(tt.w) || n.H != round1(tt.hh) {
				t.Errorf("%s at (%v,%v) %v×%v, want (%v,%v) %v×%v", tt.key, n.X, n.Y, n.W, n.H, round1(tt.x), round1(tt.y), round1(tt.w), round1(tt.hh))
			}
			if n.Label != tt.label || n.Class != tt.cls {
				t.Errorf("%s labelled %q in %s, want %q in %s", tt.key, n.Label, n.Class, tt.label, tt.cls)
			}
		})
	}
	// /about and /contact are two pages of the site (not more than maxLeaves): drawn
	// one by one, too thin for a name.
	if n := byPath["/about /about"]; n.H != round1(h/300) || n.Label != "" {
		t.Errorf("/about drawn %v high labelled %q, want %v and no label", n.H, n.Label, round1(h/300))
	}
	if len(p.Nodes) != 7 {
		t.Errorf("%d branches drawn, want 7 (site, 3 sections, 2 pages, the blog's pages as one)", len(p.Nodes))
	}
	if len(p.Rows) != len(p.Nodes) {
		t.Errorf("the table has %d rows for %d branches", len(p.Rows), len(p.Nodes))
	}
	if d := p.Branches[byPath["/blog/ 150 pages"].ID]; d.Path != "/blog/ · 150 pages" || d.URLs != 150 || d.Blocked[1] != 150 || len(d.Samples) != 0 {
		t.Errorf("the blog's pages: %+v", d)
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestAuditPage: the tester's audit mode answers with the picture drawn in the page
// (SVG, coloured for the first crawler), its data for app.js, the table and the
// report's lists; without JavaScript all of it is there.
func TestAuditPage(t *testing.T) {
	site := auditSite(t)
	s, _ := start(t, Config{AllowPrivate: true})
	_, page := getPage(t, s, "/?mode=audit")
	if !strings.Contains(page, `id="audit_url"`) || strings.Contains(page, `id="robots"`) || !strings.Contains(page, `name="mode" value="audit"`) {
		t.Errorf("GET /?mode=audit is not the audit form")
	}
	if !strings.Contains(page, "This server reads at most 200,000 sitemap URLs in 100 files (50,000 URLs and 50 MiB per file, indexes nested 3 deep) in 1 min.") {
		t.Errorf("the audit form does not state the server's limits")
	}
	code, page := postPage(t, s, url.Values{"mode": {"audit"}, "audit_url": {site.URL}, "agent": {"Googlebot", "bingbot", "GPTBot"}})
	if code != 200 {
		t.Fatalf("status %d: %.2000s", code, page)
	}
	for _, tc := range []struct{ path, cls string }{{"/blog/", "s0"}, {"/tag/", "s5"}, {"/search", "s5"}, {"/private/", "s0"}} {
		t.Run("drawn "+tc.path, func(t *testing.T) {
			re := regexp.MustCompile(`<g class="node (s[0-5])" id="n\d+" data-name="[^"]*" data-path="` + regexp.QuoteMeta(tc.path) + `"`)
			m := re.FindStringSubmatch(page)
			if m == nil || m[1] != tc.cls {
				t.Errorf("%s drawn as %v, want class %s (for Googlebot)", tc.path, m, tc.cls)
			}
		})
	}
	m := regexp.MustCompile(`(?s)<script type="application/json" id="audit_data">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no #audit_data in the page")
	}
	var data auditData
	if err := json.Unmarshal([]byte(m[1]), &data); err != nil {
		t.Fatalf("#audit_data: %v", err)
	}
	if strings.Join(data.Agents, ",") != "Googlebot,bingbot,GPTBot" || len(data.Branches) == 0 {
		t.Errorf("#audit_data: agents %q, %d branches", data.Agents, len(data.Branches))
	}
	for _, b := range data.Branches {
		if b.Path != "/search" {
			continue
		}
		if len(b.Samples) == 0 {
			t.Fatal("no samples for /search")
		}
		v := b.Samples[0].Verdicts
		if len(v) != 3 || v[0] != (sampleVerdict{false, "Disallow: /search", 7}) || v[1] != (sampleVerdict{false, "Disallow: /search", 2}) || v[2] != (sampleVerdict{false, "Disallow: /", 11}) {
			t.Errorf("/search's first sample %+v, want disallowed by line 7 (Googlebot), 2 (bingbot), 11 (GPTBot)", b.Samples[0])
		}
	}
	for _, want := range []string{
		`<option value="0" selected>Googlebot · 30 URLs blocked</option>`,
		`<option value="2">GPTBot · all 78 URLs blocked</option>`,
		`<span class="line">line 11</span> <code>Disallow: /</code> blocks <strong>78 sitemap URLs</strong> for GPTBot`,
		`<span class="status bad">invalid</span>`,
		`this group disallows every URL for GPTBot`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, tt := range []struct {
		name string
		form url.Values
		code int
		want string
	}{
		{"no site", url.Values{"mode": {"audit"}, "agent": {"Googlebot"}}, 400, "enter the site to audit"},
		{"no crawler", url.Values{"mode": {"audit"}, "audit_url": {site.URL}}, 400, "pick at least one crawler"},
		{"not a web site", url.Values{"mode": {"audit"}, "audit_url": {"ftp://example.com/"}, "agent": {"Googlebot"}}, 400, "http or https"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, page := postPage(t, s, tt.form)
			if code != tt.code || !strings.Contains(page, tt.want) || !strings.Contains(page, "Not audited.") {
				t.Errorf("status %d, want %d saying %q: %.1500s", code, tt.code, tt.want, page)
			}
		})
	}
}

// getPage gets a page of the tester and returns the status and the page.
func getPage(t *testing.T, s *Server, path string) (int, string) {
	t.Helper()
	resp, err := http.Get("http://" + s.Addr() + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// TestAuditPageUnreachable: while robots.txt answers 503 every sitemap URL is
// disallowed by the fetch status, not by a line: the page says so, and gives app.js
// the fetch's effect to say it beside each sample.
func TestAuditPageUnreachable(t *testing.T) {
	var site *testenv.Server
	site = testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.Error(w, "busy", http.StatusServiceUnavailable)
		case "/sitemap.xml":
			fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%[1]s/a</loc></url><url><loc>%[1]s/b/c</loc></url></urlset>`, site.URL)
		}
	})
	s, _ := start(t, Config{AllowPrivate: true})
	code, page := postPage(t, s, url.Values{"mode": {"audit"}, "audit_url": {site.URL}, "agent": {"Googlebot"}})
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	for _, want := range []string{
		`<div class="source bad" id="source">`,
		"status 503",
		"crawlers treat every URL of the site as disallowed",
		`"effect":"disallow-all"`,
		`robots.txt could not be fetched, which blocks <strong>2 sitemap URLs</strong> for Googlebot`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
