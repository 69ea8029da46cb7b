package serve

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// purposesFile gives the tester's new parts something to show: Content-Usage and
// Content-Signal that contradict each other for every crawler (train-ai=n against
// ai-train=yes), a crawler (ExampleBot) whose usage depends on the reading (the
// Content-Usage line between the user-agent lines), and GPTBot blocked.
const purposesFile = "User-agent: *\nContent-Usage: train-ai=n\nUser-agent: ExampleBot\nAllow: /\nContent-Signal: ai-train=yes, search=yes, ai-input=yes\n\n" +
	"User-agent: GPTBot\nDisallow: /\n"

// testPurposesGeometry (issue 36): the tester's answers per purpose, the readings
// note beside a verdict, the Generate step and what it wrote, and the audit's answers
// per purpose, at 1280 px and on a 390 px phone: there, with their contradictions
// named, and nothing cut or off screen (tab.onScreen, tab.fits: geometry_browser_test.go).
func testPurposesGeometry(t *testing.T, b *browser) {
	s, _ := start(t, Config{AllowPrivate: true})
	urls := "https://www.example.com/blog/2026/11/a-rather-long-article-title-about-crawlers-and-their-purposes\nhttps://www.example.com/\n"
	for _, width := range []int64{1280, 390} {
		tb := b.tab(t, width, 900, false)
		tb.do(chromedp.Navigate("http://"+s.Addr()+"/"), chromedp.WaitVisible(chromedp.CSS("#robots")))
		tb.pick("Googlebot", "GPTBot", "ClaudeBot")
		tb.do(chromedp.SetValue(chromedp.CSS("#robots"), purposesFile), chromedp.SetValue(chromedp.CSS("#urls"), urls),
			chromedp.SetValue(chromedp.CSS("#more_agents"), "ExampleBot"))
		tb.submit("#run")

		// The answers per purpose: a table per URL, the contradiction named.
		if n := eval[int](tb, `document.querySelectorAll("#by_purpose table.stance").length`); n != 2 {
			t.Fatalf("%d px: %d tables of answers per purpose, want one per URL (2)", width, n)
		}
		if c := eval[string](tb, `(document.querySelector("#by_purpose .contradiction") || {}).textContent || ""`); !strings.Contains(c, "Content-Usage says train-ai=n (line 2); Content-Signal says ai-train=yes (line 5)") {
			t.Errorf("%d px: contradiction %q, want Content-Usage's train-ai=n against Content-Signal's ai-train=yes", width, c)
		}
		// ExampleBot's verdicts say the readings differ.
		if r := eval[[]string](tb, `Array.from(document.querySelectorAll("#verdicts small.readings")).map(e => e.textContent)`); len(r) == 0 || !strings.Contains(r[0], "readings differ: rfc9309 reads") {
			t.Errorf("%d px: readings notes %q, want ExampleBot's", width, r)
		}
		tb.do(chromedp.ScrollIntoView(chromedp.CSS("#by_purpose")))
		tb.shot(fmt.Sprintf("purposes-%d", width))
		tb.onScreen(fmt.Sprintf("%d px", width), "#by_purpose, #by_purpose h2, #by_purpose h3, #by_purpose p, table.stance th, table.stance td, table.stance li, table.stance span")
		if width == 1280 {
			// On a desktop screen the verdicts' columns, readings notes included, and
			// the answers' tables show whole; on a phone the verdicts scroll in their
			// box (testLayoutGeometry) and the answers are stacked.
			tb.onScreen("1280 px", "#verdicts small.readings, #verdicts td.cell")
			for i := range 2 {
				tb.fits("1280 px", fmt.Sprintf("#by_purpose .stance-url:nth-of-type(%d) table.stance", i+1))
			}
		} else {
			tb.pageFits("390 px")
		}

		// Generate: a stance per purpose, written into the editor's file and compared.
		tb.do(chromedp.Evaluate[chromedp.Void](`document.querySelector("#generate_step").open = true`),
			chromedp.SetValue(chromedp.CSS("#stance_ai-train"), "ai-train=no"),
			chromedp.SetValue(chromedp.CSS("#stance_search"), "search=allow"))
		tb.onScreen(fmt.Sprintf("%d px, the Generate step", width), "#generate_step, #generate_step summary, #generate_step label, #generate_step select, #generate_step .hint, #generate")
		tb.submit("#generate")
		if g := eval[string](tb, `(document.querySelector("#generated strong") || {}).textContent || ""`); !strings.HasPrefix(g, "Written: the stance search=allow,ai-train=no") {
			t.Fatalf("%d px: generated %q, want the stance written", width, g)
		}
		if n := eval[int](tb, `document.querySelectorAll("#file-b tr.add").length`); n == 0 {
			t.Errorf("%d px: no line of the new version marked added", width)
		}
		if h := eval[string](tb, `document.querySelector("#by_purpose_title").textContent`); !strings.HasPrefix(h, "By purpose, in the new version") {
			t.Errorf("%d px: answers per purpose titled %q, want the new version's", width, h)
		}
		tb.shot(fmt.Sprintf("purposes-generated-%d", width))
		tb.onScreen(fmt.Sprintf("%d px, after Generate", width), "#generated, #generated strong, #generated p, #generated li, #changes_title, ul.delta li, ul.delta code, #file-b h2")
		// Nothing of the results panel is cut at its edge (the lines "What changed"
		// lists were, on a phone).
		if w := eval[[]float64](tb, `[document.querySelector(".results").scrollWidth, document.querySelector(".results").clientWidth]`); w[0] > w[1]+1 {
			wide := eval[[]string](tb, `Array.from(document.querySelectorAll(".results *")).filter(e => e.getBoundingClientRect().right > document.querySelector(".results").getBoundingClientRect().right + 1 && !(e.parentElement.closest(".table-scroll, .code, .stance-box"))).slice(0, 8).map(e => e.tagName + "." + e.className + " " + JSON.stringify(e.textContent.slice(0, 30)))`)
			t.Errorf("%d px: after Generate the results are %v px wide in a panel of %v: %q", width, w[0], w[1], wide)
		}
		tb.pageFits(fmt.Sprintf("%d px, after Generate", width))
	}

	// The audit's answers per purpose, with the RSL licence and TDMRep of a loopback
	// site, on a phone.
	site := signalsSite(t)
	phone := b.tab(t, 390, 844, false)
	phone.do(chromedp.Navigate("http://"+s.Addr()+"/?mode=audit"), chromedp.WaitVisible(chromedp.CSS("#audit_url")))
	phone.pick("Googlebot", "GPTBot")
	phone.do(chromedp.SetValue(chromedp.CSS("#audit_url"), site.URL))
	phone.submit("#audit_run")
	if n := eval[int](phone, `document.querySelectorAll("#by_purpose table.stance tbody tr").length`); n == 0 {
		t.Fatalf("the audit shows no answer per purpose")
	}
	if src := eval[string](phone, `document.querySelector("#by_purpose").textContent`); !strings.Contains(src, "rsl") || !strings.Contains(src, "permits ai-train") {
		t.Errorf("the audit's answers per purpose do not say what the RSL licence permits")
	}
	phone.do(chromedp.ScrollIntoView(chromedp.CSS("#by_purpose")))
	phone.shot("purposes-audit-390")
	phone.onScreen("390 px, audit", "#by_purpose, #by_purpose h2, #by_purpose h3, table.stance th, table.stance td, table.stance li, table.stance p, table.stance span")
	phone.pageFits("390 px, audit")
}
