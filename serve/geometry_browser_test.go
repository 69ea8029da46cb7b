package serve

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// Geometry of the tester's layouts at 1280 px and on a 390 px phone (issue 38):
// not only that things are there, but that nothing is cut or off screen. Each
// check compares bounding boxes with the viewport and with the box that holds
// them, and scrollWidth with clientWidth.

// offScreen lists the elements matching sel that end past the viewport's right
// edge or start left of it, or that are cut: their content wider than their box
// where they hide the overflow (overflow hidden or clip, text-overflow ellipsis).
const offScreen = `((sel) => {
	const out = [];
	document.querySelectorAll(sel).forEach(e => {
		const r = e.getBoundingClientRect();
		if (r.width === 0 && r.height === 0) return;
		const name = (e.id ? "#" + e.id : e.tagName.toLowerCase() + "." + e.className) + " " + JSON.stringify((e.textContent || "").trim().slice(0, 30));
		if (r.right > innerWidth + 1 || r.left < -1) out.push(name + " spans " + Math.round(r.left) + "-" + Math.round(r.right) + " of " + innerWidth + " px");
		const s = getComputedStyle(e);
		const hides = s.overflowX === "hidden" || s.overflowX === "clip" || s.textOverflow === "ellipsis";
		if (hides && e.scrollWidth > e.clientWidth + 1) out.push(name + " is cut: " + e.scrollWidth + " px of content in " + e.clientWidth);
	});
	return out;
})`

// boxFits says whether the scroll box around sel shows its whole width, and the
// page no horizontal scroll: "" when both hold.
const boxFits = `((sel) => {
	const t = document.querySelector(sel);
	if (!t) return sel + " missing";
	const box = t.closest(".table-scroll") || t.parentElement;
	if (box.scrollWidth > box.clientWidth + 1) return sel + " is " + box.scrollWidth + " px wide in a box of " + box.clientWidth + ": its last columns are off screen";
	const r = box.getBoundingClientRect();
	if (r.right > innerWidth + 1) return "the box of " + sel + " ends at " + Math.round(r.right) + " px, past " + innerWidth;
	if (document.documentElement.scrollWidth > innerWidth + 1) return "the page is " + document.documentElement.scrollWidth + " px wide at " + innerWidth;
	return "";
})`

// onScreen fails the test, each message prefixed with where, for every element
// matching sel that is off screen or cut (offScreen).
func (tb *tab) onScreen(where, sel string) {
	tb.t.Helper()
	for _, msg := range eval[[]string](tb, offScreen+"("+strconv.Quote(sel)+")") {
		tb.t.Errorf("%s: %s", where, msg)
	}
}

// fits fails the test, the message prefixed with where, unless the scroll box
// around sel shows its whole width and the page does not scroll sideways (boxFits).
func (tb *tab) fits(where, sel string) {
	tb.t.Helper()
	if msg := eval[string](tb, boxFits+"("+strconv.Quote(sel)+")"); msg != "" {
		tb.t.Errorf("%s: %s", where, msg)
	}
}

// pageFits fails the test, the message prefixed with where, when the page is wider
// than the viewport (by more than a pixel of rounding), naming up to eight elements
// that end past its edge outside a scroll box.
func (tb *tab) pageFits(where string) {
	tb.t.Helper()
	if w := eval[[]float64](tb, `[document.documentElement.scrollWidth, innerWidth]`); w[0] > w[1]+1 {
		wide := eval[[]string](tb, `Array.from(document.querySelectorAll("body *")).filter(e => e.getBoundingClientRect().right > innerWidth + 1 && !(e.parentElement.closest(".table-scroll, .code"))).slice(0, 8).map(e => e.tagName + "." + e.className + "#" + e.id + " " + Math.round(e.getBoundingClientRect().right))`)
		tb.t.Errorf("%s: the page is %v px wide at %v: %q", where, w[0], w[1], wide)
	}
}

// usageFile states usage preferences for every crawler, so that each verdict cell
// carries a usage line, and gives GPTBot a group of its own: two columns.
const usageFile = "User-agent: *\nAllow: /\nDisallow: /private/\nContent-Usage: train-ai=n, search=y\n" +
	"Content-Signal: ai-train=no, search=yes, ai-input=yes\n\nUser-agent: GPTBot\nDisallow: /private/\nContent-Usage: /blog/ train-ai=y\n"

// testLayoutGeometry: at 1280 px, a verdict table whose cells carry usage lines
// shows every column within its box (the second crawler's column went off screen);
// at 390 px the audit's "Crawlers by purpose" table cuts no crawler's name and
// stays on the screen, as does every table and list of the results.
func testLayoutGeometry(t *testing.T, b *browser) {
	s, _ := start(t, Config{AllowPrivate: true})
	urls := "https://www.example.com/blog/2026/11/a-rather-long-article-title-about-crawlers\nhttps://www.example.com/private/account/settings\nhttps://www.example.com/\n"
	for _, width := range []int64{1280, 390} {
		tb := b.tab(t, width, 900, false)
		tb.do(chromedp.Navigate("http://"+s.Addr()+"/"), chromedp.WaitVisible(chromedp.CSS("#robots")))
		tb.pick("Googlebot", "GPTBot")
		tb.do(chromedp.SetValue(chromedp.CSS("#robots"), usageFile), chromedp.SetValue(chromedp.CSS("#urls"), urls))
		tb.submit("#run")
		if n := eval[int](tb, `document.querySelectorAll("#verdicts th.col").length`); n != 2 {
			t.Fatalf("%d px: %d verdict columns, want 2 (GPTBot's own group, Googlebot's the * group)", width, n)
		}
		if u := eval[int](tb, `Array.from(document.querySelectorAll("#verdicts td")).filter(td => /train-ai|ai-train/.test(td.textContent)).length`); u == 0 {
			t.Errorf("%d px: no verdict cell shows its usage line", width)
		}
		if width == 1280 {
			// On a desktop screen every column shows, none scrolled off.
			tb.fits("1280 px", "#verdicts")
			tb.onScreen("1280 px", "#verdicts th.col, #verdicts th.col *, #verdicts td.cell, .results h2, .results .source")
			continue
		}
		// On a phone the columns scroll inside their box, which stays on the screen,
		// as the page does.
		if r := eval[[]float64](tb, `[document.querySelector("#verdicts").closest(".table-scroll").getBoundingClientRect().right, document.documentElement.scrollWidth, innerWidth]`); r[0] > r[2]+1 || r[1] > r[2]+1 {
			t.Errorf("390 px: the verdicts' box ends at %v px, the page is %v px wide, on a %v px screen", r[0], r[1], r[2])
		}
		tb.onScreen("390 px", ".results h2, .results .source")
	}

	site := auditSite(t)
	phone := b.tab(t, 390, 844, false)
	phone.do(chromedp.Navigate("http://"+s.Addr()+"/?mode=audit"), chromedp.WaitVisible(chromedp.CSS("#audit_url")))
	phone.pick("Googlebot", "GPTBot")
	phone.do(chromedp.SetValue(chromedp.CSS("#audit_url"), site.URL))
	phone.submit("#audit_run")
	phone.do(chromedp.ScrollIntoView(chromedp.CSS("#purposes")))
	phone.shot("layout-geometry-phone-purposes")
	names := eval[[]string](phone, `Array.from(document.querySelectorAll("#purposes .plist p")).map(p => p.textContent)`)
	if len(names) == 0 || !strings.Contains(strings.Join(names, " "), "Googlebot") {
		t.Fatalf("the purposes table names %q, want Googlebot among them", names)
	}
	phone.fits("390 px", "#purposes")
	phone.onScreen("390 px", "#purposes th, #purposes td, #purposes p, #purposes span, #blocked_rules")
}
