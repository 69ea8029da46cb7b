package serve

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/gorobots/robots/internal/testenv"
)

// The tester's layout as a site owner meets it at 1280 px and on a phone (issue
// 28), each state kept as a screenshot in $ROBOTS_ARTIFACTS.

// layoutFile gives Googlebot, bingbot, GPTBot and CCBot groups of their own, so
// that the verdicts have five columns; twelve crawlers share the * group.
const layoutFile = "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /tmp/\n\n" +
	"User-agent: bingbot\nDisallow: /search\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /\n"

// layoutCrawlers are the crawlers of the layout states: four with groups of their
// own, twelve that get the * group.
var layoutCrawlers = []string{"Googlebot", "bingbot", "GPTBot", "CCBot",
	"DuckDuckBot", "Applebot", "YandexBot", "Baiduspider", "Slurp", "SeznamBot", "Yeti", "PetalBot",
	"MojeekBot", "Exabot", "coccocbot", "Naverbot"}

// nestedScrolls lists the elements inside the results panel that scroll
// vertically on their own: a list that scrolls inside a panel that scrolls.
const nestedScrolls = `Array.from(document.querySelectorAll(".results .table-scroll, .results .finding-list, .results .branches-scroll"))
	.filter(e => e.scrollHeight > e.clientHeight + 1).map(e => e.id || e.className)`

// testLayout: at 1280 px a URL list with a bad line among good ones is tested, the
// bad line shown in its place; the header of the column of twelve crawlers keeps
// "+N more" on one line; no list scrolls inside the results panel. On a 390 px
// phone the five verdict columns scroll inside their box, not the page.
func testLayout(t *testing.T, b *browser) {
	s, _ := start(t, Config{})
	tb := b.tab(t, 1280, 900, false)
	tb.do(chromedp.Navigate("http://"+s.Addr()+"/"), chromedp.WaitVisible(chromedp.CSS("#robots")))
	tb.pick(layoutCrawlers...)
	urls := "/private/a\n/search?q=x\nsearch\n/tmp/b\n/about\n/blog/post-1\n/blog/post-2\n/shop/item?id=7\n/tag/go\n/"
	tb.do(chromedp.SetValue(chromedp.CSS("#robots"), layoutFile), chromedp.SetValue(chromedp.CSS("#urls"), urls))
	tb.submit("#run")
	tb.shot("layout-01-1280")

	if got := eval[[]string](tb, `Array.from(document.querySelectorAll("#verdicts tbody th.url")).map(th => th.textContent)`); len(got) != 10 || got[2] != "search" {
		t.Errorf("rows %q, want the ten lines in order, the bad one third", got)
	}
	if got := eval[string](tb, `document.querySelector("#verdicts tr.bad-url td").textContent`); !strings.Contains(got, "not tested") || !strings.Contains(got, "line 3 of the URL list") {
		t.Errorf("the bad line's row says %q, want not tested at line 3", got)
	}
	more := eval[[]int](tb, `Array.from(document.querySelectorAll("#verdicts .agents .more")).map(e => e.getClientRects().length)`)
	if len(more) == 0 {
		t.Errorf("no \"+N more\" in the verdict header, want one for the twelve crawlers of the * group")
	}
	for _, n := range more {
		if n != 1 {
			t.Errorf("a \"+N more\" of the verdict header wraps onto %d lines", n)
		}
	}
	if got := eval[[]string](tb, nestedScrolls); len(got) > 0 {
		t.Errorf("lists scrolling inside the results panel: %q", got)
	}

	phone := b.tab(t, 390, 844, false)
	phone.do(chromedp.Navigate("http://"+s.Addr()+"/"), chromedp.WaitVisible(chromedp.CSS("#robots")))
	phone.pick(layoutCrawlers...)
	phone.do(chromedp.SetValue(chromedp.CSS("#robots"), layoutFile), chromedp.SetValue(chromedp.CSS("#urls"), urls))
	phone.submit("#run")
	phone.do(chromedp.ScrollIntoView(chromedp.CSS("#verdicts")))
	phone.shot("layout-02-phone-verdicts")
	if w := eval[[]int](phone, `[document.documentElement.scrollWidth, innerWidth]`); w[0] > w[1] {
		t.Errorf("the page is %d px wide on a %d px phone: the verdict table overflows it", w[0], w[1])
	}
	if r := eval[float64](phone, `document.querySelector("#verdicts").closest(".table-scroll").getBoundingClientRect().right`); r > 390 {
		t.Errorf("the verdict table's box ends at %v px, past the 390 px phone", r)
	}
}

// testLayoutAudit: the audit at 1280 px. The sitemaps table shows its Status column
// whole (the table needs no sideways scroll), URLs wrap only after the host, a
// sitemap read in full is "ok" in green even when one crawler may not fetch it
// (GPTBot, here), the index shows the URLs of its sitemaps, and no list scrolls
// inside the results panel.
func testLayoutAudit(t *testing.T, b *browser) {
	site := auditSite(t)
	s, _ := start(t, Config{AllowPrivate: true})
	tb := auditTab(t, b, s, strings.TrimPrefix(site.URL, "http://"), "Googlebot", "bingbot", "GPTBot")
	tb.do(chromedp.ScrollIntoView(chromedp.CSS("#sitemaps")))
	tb.shot("layout-03-audit-sitemaps")

	if got := eval[string](tb, `document.querySelector("#source").textContent`); !strings.Contains(got, "No scheme given: "+site.URL+"/ chosen") {
		t.Errorf("the audit's source says %q, want the scheme it chose for %s", got, strings.TrimPrefix(site.URL, "http://"))
	}
	box := eval[[]float64](tb, `(() => { const b = document.querySelector("#sitemaps").closest(".table-scroll"); return [b.scrollWidth, b.clientWidth]; })()`)
	if box[0] > box[1] {
		t.Errorf("the sitemaps table is %v px wide in a box of %v: its Status column is cut", box[0], box[1])
	}
	if got := eval[[]string](tb, `Array.from(document.querySelectorAll("#sitemaps td.url")).map(td => td.innerHTML).filter(h => /:\/\/?<wbr>/.test(h))`); len(got) > 0 {
		t.Errorf("URLs that may wrap inside scheme://: %q", got)
	}
	type row struct{ URL, Status, Class, Color, Ok, URLs string }
	rows := eval[[]row](tb, `Array.from(document.querySelectorAll("#sitemaps tbody tr")).map(tr => { const s = tr.querySelector(".status");
		return {URL: tr.querySelector("td.url").textContent, Status: s.textContent, Class: s.className, Color: getComputedStyle(s).color,
			Ok: getComputedStyle(document.documentElement).getPropertyValue("--ok").trim(), URLs: tr.querySelector("td.urls").textContent}; })`)
	if len(rows) == 0 {
		t.Fatal("no sitemap rows")
	}
	for _, r := range rows {
		if r.Status == "ok" && (r.Class != "status ok" || !sameColor(r.Color, r.Ok)) {
			t.Errorf("%s: ok drawn as %q in %s, want green (%s)", r.URL, r.Class, r.Color, r.Ok)
		}
		if strings.Contains(r.URL, "sitemap_index.xml") && (r.URLs == "0" || r.URLs == "") {
			t.Errorf("the index shows %q URLs, want those of its sitemaps", r.URLs)
		}
	}
	if got := eval[[]string](tb, nestedScrolls); len(got) > 0 {
		t.Errorf("lists scrolling inside the results panel: %q", got)
	}

	// The picture: every area drawn has its label inside it, and those without
	// branches drawn reach the right edge.
	tb.do(chromedp.ScrollIntoView(chromedp.CSS("#picture_title")))
	tb.shot("layout-05-audit-picture")
	checkPictureLabels(t, tb)

	// A branch's URL list says when it is a sample and how to see the rest.
	tb.do(chromedp.Click(chromedp.CSS(`#picture g.node[data-path="/search"]`)), chromedp.WaitVisible(chromedp.CSS("#samples")))
	tb.shot("layout-04-audit-branch")
	if got := eval[string](tb, `document.querySelector("#samples caption").textContent`); !strings.Contains(got, "of its 10 URLs (the audit keeps a few examples per branch") {
		t.Errorf("the /search branch's list says %q, want how many of its 10 URLs it shows and why", got)
	}
}

// unlabelledAreas lists the areas of the picture whose label is missing or does not
// fit inside them, and those that stop short of the picture's right edge with no
// branches drawn to their right.
const unlabelledAreas = `(() => {
	const svg = document.querySelector("#picture").getBoundingClientRect(), out = [];
	const nodes = Array.from(document.querySelectorAll("#picture g.node"));
	for (const g of nodes) {
		const r = g.querySelector("rect").getBoundingClientRect(), t = g.querySelector("text:not(.fig)");
		const name = g.id + " " + g.dataset.name;
		if (!t || !t.textContent.trim()) { out.push(name + ": no label (" + r.height.toFixed(1) + " px high)"); continue; }
		const b = t.getBoundingClientRect();
		if (b.width < 1 || b.left < r.left - 1 || b.right > r.right + 1 || b.top < r.top - 1 || b.bottom > r.bottom + 1)
			out.push(name + ": label " + JSON.stringify(t.textContent) + " outside its area");
		if (!nodes.some(c => c.dataset.parent === g.id) && r.right < svg.right - 6)
			out.push(name + ": ends " + (svg.right - r.right).toFixed(0) + " px short of the right edge");
	}
	return out;
})()`

// auditTab opens the tester's audit mode in a 1280×900 tab and audits site for the
// agents.
func auditTab(t *testing.T, b *browser, s *Server, site string, agents ...string) *tab {
	t.Helper()
	tb := b.tab(t, 1280, 900, false)
	tb.do(chromedp.Navigate("http://"+s.Addr()+"/?mode=audit"), chromedp.WaitVisible(chromedp.CSS("#audit_url")))
	tb.pick(agents...)
	tb.do(chromedp.SetValue(chromedp.CSS("#audit_url"), site))
	tb.submit("#audit_run")
	return tb
}

// checkPictureLabels: every area of the audit's picture is labelled, the label
// inside it, and the picture is drawn to its right edge.
func checkPictureLabels(t *testing.T, tb *tab) {
	t.Helper()
	if n := eval[int](tb, `document.querySelectorAll("#picture g.node").length`); n < 2 {
		t.Errorf("%d areas drawn", n)
	}
	for _, s := range eval[[]string](tb, unlabelledAreas) {
		t.Errorf("the picture: %s", s)
	}
}

// testLayoutAuditBig: the picture of a site of 3,700 URLs (bigSite): every area
// labelled, the thin branches drawn together as one labelled area, and a click on it
// lists every one of them, a page at a time.
func testLayoutAuditBig(t *testing.T, b *browser) {
	site := bigSite(t)
	s, _ := start(t, Config{AllowPrivate: true})
	tb := auditTab(t, b, s, site, "Googlebot", "GPTBot", "CCBot")
	tb.do(chromedp.ScrollIntoView(chromedp.CSS("#picture_title")))
	tb.shot("layout-06-audit-big-picture")
	checkPictureLabels(t, tb)
	if n := eval[int](tb, `document.querySelectorAll("#picture g.node.more").length`); n == 0 {
		t.Error("no branches drawn together in the picture of 3,700 URLs")
	}

	// A site of 1,000 shop items and 50 pages of docs: the docs' pages, each too thin
	// to draw, are drawn as one area, "50 pages"; a click on it lists every one of
	// them, 20 at a time.
	docs := testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/sitemap.xml" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+"\n")
		for c := range 10 {
			for i := range 100 {
				fmt.Fprintf(w, "<url><loc>http://%s/shop/cat-%d/item-%d</loc></url>\n", r.Host, c, i)
			}
		}
		for i := range 50 {
			fmt.Fprintf(w, "<url><loc>http://%s/docs/page-%d</loc></url>\n", r.Host, i)
		}
		io.WriteString(w, "</urlset>\n")
	})
	tb = auditTab(t, b, s, docs.URL, "Googlebot")
	checkPictureLabels(t, tb)
	id := eval[string](tb, `(Array.from(document.querySelectorAll("#picture g.node.more")).filter(g => g.dataset.name === "50 pages")[0] || {}).id || ""`)
	if id == "" {
		t.Fatalf("the docs' pages are not drawn as one area \"50 pages\": %q", eval[[]string](tb, `Array.from(document.querySelectorAll("#picture g.node")).map(g => g.dataset.name)`))
	}
	tb.do(chromedp.Click(chromedp.CSS("#"+id)), chromedp.WaitVisible(chromedp.CSS(".sub-branches")))
	count := func() int { return eval[int](tb, `document.querySelectorAll(".sub-branches li").length`) }
	if got := count(); got != 20 {
		t.Errorf("the 50 pages drawn together list %d at first, want 20", got)
	}
	if got := eval[string](tb, `document.querySelector(".more-branches").textContent`); got != "Show 20 more (20 of 50 shown)" {
		t.Errorf("the button under the list says %q", got)
	}
	for i := 0; i < 5 && eval[bool](tb, `!document.querySelector(".more-branches").hidden`); i++ {
		tb.do(chromedp.Click(chromedp.CSS(".more-branches")))
	}
	tb.do(chromedp.ScrollIntoView(chromedp.CSS("#branch_detail")))
	tb.shot("layout-07-audit-branch-list")
	if got := count(); got != 50 {
		t.Errorf("the list shows %d pages after showing them all, want 50", got)
	}
	if got := eval[[]string](tb, `Array.from(document.querySelectorAll(".sub-branches li button")).slice(0, 2).map(b => b.textContent)`); len(got) != 2 || !strings.HasPrefix(got[0], "/docs/page-") {
		t.Errorf("the list begins %q, want the docs' pages", got)
	}
}

// sameColor compares a computed rgb() colour with a CSS hex colour.
func sameColor(rgb, hex string) bool {
	var r, g, b int
	if _, err := fmt.Sscanf(hex, "#%02x%02x%02x", &r, &g, &b); err != nil {
		return false
	}
	return strings.ReplaceAll(rgb, " ", "") == fmt.Sprintf("rgb(%d,%d,%d)", r, g, b)
}
