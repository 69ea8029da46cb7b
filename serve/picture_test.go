package serve

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
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

// tb makes a branch of the picture's tests: n URLs under path, blocked for the one
// crawler, with children.
func tb(path string, n, blocked int, children ...*branch) *branch {
	name := strings.Trim(path, "/")
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return &branch{Name: name, Path: path, URLs: n, Blocked: []int{blocked}, Children: children}
}

// pages makes n one-URL children of path, none blocked.
func pages(path string, n int) []*branch {
	var out []*branch
	for i := range n {
		out = append(out, tb(fmt.Sprintf("%sp%d", path, i), 1, 0))
	}
	return out
}

// TestLayoutPicture: the geometry of small trees, worked out by hand. The picture is
// pictureWidth (680) wide; the site's column 120; the others share the remaining 560.
// Its height is 18 per branch of the fullest column, from 300 to 520. Each branch's
// height is its share of its siblings' URLs; siblings thinner than 15 are drawn
// together, last, and that area is made 15 high when its share is less (the others
// sharing the remaining height by URLs); a branch with no children drawn reaches the
// right edge (x+w = 680).
func TestLayoutPicture(t *testing.T) {
	type rect struct {
		name       string // the node's Name
		x, y, w, h float64
		label      string
	}
	for _, tt := range []struct {
		name   string
		root   *branch
		height int
		want   []rect // in the order drawn: a parent before its children, largest first
	}{
		{"siblings by size, each reaching the right edge", tb("/", 10, 0, tb("/b", 4, 0), tb("/a/", 6, 0)), 300, []rect{
			{"example.com", 0, 0, 120, 300, "example.com"},
			{"/a", 120, 0, 560, 180, "/a"}, // 6/10 of 300
			{"/b", 120, 180, 560, 120, "/b"},
		}},
		{"thin siblings drawn together", tb("/", 100, 0, tb("/s", 60, 0), tb("/t", 30, 0), tb("/u", 4, 0), tb("/v", 3, 0), tb("/w", 2, 0), tb("/x", 1, 0)), 300, []rect{
			// Shares 180, 90, 12, 9, 6, 3: /u, /v, /w, /x are thinner than 15 and take
			// their share together, 10/100 of 300 = 30.
			{"example.com", 0, 0, 120, 300, "example.com"},
			{"/s", 120, 0, 560, 180, "/s"},
			{"/t", 120, 180, 560, 90, "/t"},
			{"4 more branches", 120, 270, 560, 30, "4 more branches"},
		}},
		{"the together area made 15 high", tb("/", 300, 0, tb("/a", 200, 0), tb("/b", 94, 0), tb("/c", 3, 0), tb("/d", 3, 0)), 300, []rect{
			// /c and /d: 6/300 of 300 = 6, made 15; /a and /b share 285 by 200:94.
			{"example.com", 0, 0, 120, 300, "example.com"},
			{"/a", 120, 0, 560, 285 * 200.0 / 294, "/a"},                      // 193.9
			{"/b", 120, 285 * 200.0 / 294, 560, 285 * 94.0 / 294, "/b"},       // 91.1
			{"2 more branches", 120, 285, 560, 15, "2 more branches, 6 URLs"}, // one line: both fit
		}},
		{"one thin sibling drawn alone, 15 high", tb("/", 100, 0, tb("/a", 97, 0), tb("/b", 3, 3)), 300, []rect{
			{"example.com", 0, 0, 120, 300, "example.com"},
			{"/a", 120, 0, 560, 285, "/a"},
			{"/b", 120, 285, 560, 15, "/b"},
		}},
		{"the same rule a level down", tb("/", 100, 0, tb("/blog/", 80, 0, pages("/blog/", 80)...), tb("/about", 20, 0)), 520, []rect{
			// 80 posts in the fullest column: 18×80 is over 520. /blog/ is 80/100 of 520
			// = 416; each post would be 5.2 high: all 80 are drawn together, in the
			// third column (two columns of 280 after the site's).
			{"example.com", 0, 0, 120, 520, "example.com"},
			{"/blog", 120, 0, 280, 416, "/blog"},
			{"80 pages", 400, 0, 280, 416, "80 pages"},
			{"/about", 120, 416, 560, 104, "/about"},
		}},
		{"the audit's folded siblings drawn together", tb("/", 100, 0, tb("/a", 70, 0), tb("/b", 20, 0), &branch{Name: "others", Path: "/", URLs: 10, Blocked: []int{0}, Other: true}), 300, []rect{
			// The folded 10 URLs take 10/100 of 300 = 30, last, whatever their size.
			{"example.com", 0, 0, 120, 300, "example.com"},
			{"/a", 120, 0, 560, 210, "/a"},
			{"/b", 120, 210, 560, 60, "/b"},
			{"more branches", 120, 270, 560, 30, "more branches"},
		}},
		{"long names shortened to their width", tb("/", 10, 0, tb("/a-section-with-a-much-longer-name/", 9, 0, tb("/a-section-with-a-much-longer-name/x-a-page-with-a-long-name", 9, 0)), tb("/b", 1, 0)), 300, []rect{
			// /b, 30 high, is drawn alone; the section's column is 280 wide: (280-10)/8 =
			// 33 characters, the section's 34 long.
			{"example.com", 0, 0, 120, 300, "example.com"},
			{"/a-section-with-a-much-longer-name", 120, 0, 280, 270, "/a-section-with-a-much-longer-na…"},
			{"/x-a-page-with-a-long-name", 400, 0, 280, 270, "/x-a-page-with-a-long-name"},
			{"/b", 120, 270, 560, 30, "/b"},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.root.Name = "example.com"
			p := layoutPicture(tt.root, []string{"Googlebot"}, 0)
			if p.Height != tt.height {
				t.Errorf("height %d, want %d", p.Height, tt.height)
			}
			var got []rect
			for _, n := range p.Nodes {
				got = append(got, rect{n.Name, n.X, n.Y, n.W, n.H, n.Label})
			}
			var want []rect
			for _, r := range tt.want {
				want = append(want, rect{r.name, round1(r.x), round1(r.y), round1(r.w), round1(r.h), r.label})
			}
			if !slices.Equal(got, want) {
				t.Errorf("drawn\n%v\nwant\n%v", got, want)
			}
			checkCovered(t, p)
		})
	}
}

// TestLayoutPictureCovers: on trees of every shape, the areas drawn cover the box
// with no gap and no overlap, and each is labelled (siblings too thin to label being
// drawn together).
func TestLayoutPictureCovers(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 1))
	var grow func(path string, depth int) *branch
	grow = func(path string, depth int) *branch {
		b := tb(path, 0, 0)
		if depth < 4 && r.IntN(3) > 0 {
			for i := range r.IntN(40) {
				b.Children = append(b.Children, grow(fmt.Sprintf("%s%d/", path, i), depth+1))
			}
		}
		for _, c := range b.Children {
			b.URLs += c.URLs
			b.Blocked[0] += c.Blocked[0]
		}
		if b.URLs == 0 || r.IntN(4) == 0 {
			n := 1 + r.IntN(1+r.IntN(500))
			b.URLs += n
			b.Blocked[0] += r.IntN(n + 1)
		}
		return b
	}
	for i := range 200 {
		root := grow("/", 0)
		root.Name = "example.com"
		p := layoutPicture(root, []string{"Googlebot"}, 0)
		t.Run(strconv.Itoa(i), func(t *testing.T) { checkCovered(t, p) })
	}
}

// checkCovered checks that p's areas tile its box: the site's spans the height; the
// children of an area stack from its top to its bottom in the next column; an area
// with none drawn reaches the right edge; every area is labelled.
func checkCovered(t *testing.T, p *picture) {
	t.Helper()
	const eps = 0.25 // coordinates are rounded to 0.1
	kids := map[string][]pictureNode{}
	for _, n := range p.Nodes {
		kids[n.Parent] = append(kids[n.Parent], n)
		if n.Label == "" || n.H < labelMinHeight-eps {
			t.Errorf("%s (%s) drawn %v high, labelled %q", n.Name, n.ID, n.H, n.Label)
		}
	}
	if r := kids[""]; len(r) != 1 || r[0].X != 0 || r[0].Y != 0 || r[0].H != float64(p.Height) {
		t.Fatalf("the site drawn %+v, want one area from the top to %d", r, p.Height)
	}
	for _, n := range p.Nodes {
		cs := kids[n.ID]
		if len(cs) == 0 {
			if math.Abs(n.X+n.W-pictureWidth) > eps {
				t.Errorf("%s ends at x=%v, not at the right edge %d", n.Name, n.X+n.W, pictureWidth)
			}
			continue
		}
		y := n.Y
		for _, c := range cs {
			if math.Abs(c.Y-y) > eps || math.Abs(c.X-(n.X+n.W)) > eps {
				t.Errorf("%s drawn at (%v,%v), want (%v,%v) under %s", c.Name, c.X, c.Y, n.X+n.W, y, n.Name)
			}
			y = c.Y + c.H
		}
		if math.Abs(y-(n.Y+n.H)) > eps*float64(len(cs)) {
			t.Errorf("%s's branches end at y=%v, %s at %v: a band of %v left empty", n.Name, y, n.Name, n.Y+n.H, n.Y+n.H-y)
		}
	}
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
	if !strings.Contains(page, "This server reads at most 200,000 sitemap URLs in 100 files (50,000 URLs and 50 MiB per file, XML elements nested 32 deep, indexes nested 3 deep) in 1 min.") {
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
	b := readBody(t, resp, err)
	return resp.StatusCode, string(b)
}

// TestAuditPageUnreachable: while robots.txt answers 503 every sitemap URL is
// disallowed by the fetch status, not by a line: the page says so, and gives app.js
// the fetch's effect to say it beside each sample.
func TestAuditPageUnreachable(t *testing.T) {
	site := testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.Error(w, "busy", http.StatusServiceUnavailable)
		case "/sitemap.xml":
			fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://%[1]s/a</loc></url><url><loc>http://%[1]s/b/c</loc></url></urlset>`, r.Host)
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

// TestLayoutPictureFlat: a flat site, sixty pages at the root of one URL each, of
// which the last three are blocked: those three are drawn one by one, and the
// pages drawn together are the open ones, not a lump that hides the blocked.
func TestLayoutPictureFlat(t *testing.T) {
	root := tb("/", 0, 0)
	root.Name = "news.example"
	blocked := map[string]bool{}
	for i := range 60 {
		c := tb(fmt.Sprintf("/story-%d", i), 1, 0)
		if i >= 57 {
			c.Blocked[0] = 1
			blocked[c.Path] = true
		}
		root.Children = append(root.Children, c)
		root.URLs++
		root.Blocked[0] += c.Blocked[0]
	}
	p := layoutPicture(root, []string{"Googlebot"}, 0)
	drawn := map[string]bool{}
	for _, n := range p.Nodes {
		if n.Depth == 1 && n.Name != "" && blocked[n.Path] {
			drawn[n.Path] = true
		}
		if n.Depth == 1 && strings.Contains(n.Name, "pages") && n.Blocked != "0" {
			t.Errorf("the lump %q holds %s blocked URLs", n.Name, n.Blocked)
		}
	}
	if len(drawn) != 3 {
		t.Errorf("blocked pages drawn one by one: %v, want the 3 of %v", drawn, blocked)
	}
	checkCovered(t, p)
}
