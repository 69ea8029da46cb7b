package serve

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
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
	tb := b.tab(t, 1280, 900, false)
	tb.do(chromedp.Navigate("http://"+s.Addr()+"/?mode=audit"), chromedp.WaitVisible(chromedp.CSS("#audit_url")))
	tb.pick("Googlebot", "bingbot", "GPTBot")
	tb.do(chromedp.SetValue(chromedp.CSS("#audit_url"), strings.TrimPrefix(site.URL, "http://")))
	tb.submit("#audit_run")
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

	// A branch's URL list says when it is a sample and how to see the rest.
	tb.do(chromedp.Click(chromedp.CSS(`#picture g.node[data-path="/search"]`)), chromedp.WaitVisible(chromedp.CSS("#samples")))
	tb.shot("layout-04-audit-branch")
	if got := eval[string](tb, `document.querySelector("#samples caption").textContent`); !strings.Contains(got, "of its 10 URLs (the audit keeps a few examples per branch") {
		t.Errorf("the /search branch's list says %q, want how many of its 10 URLs it shows and why", got)
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
