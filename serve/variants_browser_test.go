package serve

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// testAuditVariants: the audit form's "Other hosts" and "Fetch as crawlers"
// fields, and the "Hosts and crawlers" section they bring, at 1280 and 390 px:
// every fetch listed with its answer (ClaudeBot's 403 marked), the four places
// where GPTBot and ClaudeBot are told different things, and nothing of either off
// screen or cut (a crawler's documented User-Agent is a long unbroken string).
func testAuditVariants(t *testing.T, b *browser) {
	site, shop := variantSite(t)
	s, _ := start(t, Config{AllowPrivate: true})
	shopHost := shop.Listener.Addr().String()
	for _, width := range []int64{1280, 390} {
		tb := b.tab(t, width, 900, false)
		tb.do(chromedp.Navigate("http://"+s.Addr()+"/?mode=audit"), chromedp.WaitVisible(chromedp.CSS("#audit_url")))
		tb.onScreen(fmt.Sprintf("%d px, the form", width), "#hosts, #as, label[for=hosts], label[for=as], #hosts_hint, #as_hint")
		tb.pick("GPTBot", "ClaudeBot")
		tb.do(chromedp.SetValue(chromedp.CSS("#audit_url"), site.URL), chromedp.SetValue(chromedp.CSS("#hosts"), shopHost),
			chromedp.SetValue(chromedp.CSS("#as"), "GPTBot, ClaudeBot"))
		tb.submit("#audit_run")
		tb.do(chromedp.ScrollIntoView(chromedp.CSS("#variants_title")))
		tb.shot("audit-variants-" + map[int64]string{1280: "desktop", 390: "phone"}[width])

		fetches := eval[[]string](tb, `Array.from(document.querySelectorAll("#variant_fetches > li")).map(li => li.className + " | " + li.textContent)`)
		want := []struct{ class, has string }{
			{"ok", "site " + site.URL + " 200 · file 1"},
			{"bad", "site as GPTBot " + site.URL + " 200 · file 2"},
			{"bad", "site as ClaudeBot " + site.URL + " 403 · unavailable: everything allowed"},
			{"ok", shopHost + " http://" + shopHost + " 200 · file 3"},
			{"ok", shopHost + " as GPTBot"},
			{"ok", shopHost + " as ClaudeBot"},
		}
		if len(fetches) != len(want) {
			t.Fatalf("%d px: %d fetches listed, want %d: %q", width, len(fetches), len(want), fetches)
		}
		for i, w := range want {
			if !strings.HasPrefix(fetches[i], w.class+" | ") || !strings.Contains(fetches[i], w.has) {
				t.Errorf("%d px: fetch %d is %q, want class %s and %q", width, i, fetches[i], w.class, w.has)
			}
		}
		diffs := eval[[]string](tb, `Array.from(document.querySelectorAll("#variant_diffs > li > p")).map(p => p.textContent)`)
		wantDiffs := []string{
			"GPTBot is told different things by the hosts:",
			"GPTBot receives another robots.txt than this tester on site:",
			"ClaudeBot is told different things by the hosts:",
			"ClaudeBot receives another robots.txt than this tester on site:",
		}
		if strings.Join(diffs, "\n") != strings.Join(wantDiffs, "\n") {
			t.Errorf("%d px: differences\n%s\nwant\n%s", width, strings.Join(diffs, "\n"), strings.Join(wantDiffs, "\n"))
		}
		tb.onScreen(fmt.Sprintf("%d px", width), "#variants_title, #variant_fetches li, #variant_fetches li *, #variant_diffs li, #variant_diffs li *")
		tb.pageFits(fmt.Sprintf("%d px", width))
	}
}
