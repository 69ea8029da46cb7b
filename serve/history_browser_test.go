package serve

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// testHistoryGeometry: the timeline of a fetched file at 1280 and 390 px (issue
// 38): every version, changed line and URL on the screen, none cut, the page no
// wider than the screen; the compare link opens the two versions in diff mode.
func testHistoryGeometry(t *testing.T, b *browser) {
	long := "/a-rather-long-directory-name/with-more-levels/and-a-file-name-without-any-break-in-it.html"
	versions := []string{
		"User-agent: *\nDisallow: /private/\n",
		"User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nUser-agent: ClaudeBot\nUser-agent: CCBot\nDisallow: /\n",
		"User-agent: *\nDisallow: /private/\nDisallow: " + long + "\n\nUser-agent: GPTBot\nUser-agent: ClaudeBot\nUser-agent: CCBot\nDisallow: /\n",
	}
	o, s, clk := startClocked(t, versions[0], 60)
	for _, v := range versions {
		o.set(200, v, http.Header{"Cache-Control": {"max-age=60"}})
		var h historyAnswer
		if code := get(t, s, "/v1/history?url="+url.QueryEscape(o.URL), &h); code != 200 {
			t.Fatalf("history: status %d %s", code, h.Error)
		}
		clk.advance(2 * time.Minute)
	}
	for _, width := range []int64{1280, 390} {
		tb := b.tab(t, width, 900, false)
		tb.do(chromedp.Navigate("http://"+s.Addr()+"/"), chromedp.WaitVisible(chromedp.CSS("#robots")))
		tb.pick("Googlebot", "GPTBot", "ClaudeBot", "CCBot")
		tb.do(chromedp.SetValue(chromedp.CSS("#fetch_url"), o.URL), chromedp.SetValue(chromedp.CSS("#urls"), "/"))
		tb.submit("#fetch")
		tb.do(chromedp.ScrollIntoView(chromedp.CSS("#history")))
		tb.shot("history-" + map[int64]string{1280: "desktop", 390: "phone"}[width])
		if n := eval[int](tb, `document.querySelectorAll("#timeline > li.version").length`); n != 3 {
			t.Fatalf("%d px: %d versions in the timeline, want 3", width, n)
		}
		// Version 3 added a rule of the * group: Googlebot loses the long URL (the
		// AI crawlers, in their own group, do not); version 2 blocked the root for
		// the three AI crawlers, named once.
		v3 := eval[string](tb, `document.querySelector("#version_3").textContent`)
		if !strings.Contains(v3, "Googlebot: allowed (no rule matched) → disallowed (line 3: Disallow: "+long+")") || strings.Contains(v3, "GPTBot:") {
			t.Errorf("%d px: version 3 says %q", width, v3)
		}
		v2 := eval[string](tb, `document.querySelector("#version_2 .vverdict").textContent`)
		who, rest, _ := strings.Cut(v2, ": ")
		if names := strings.Split(who, ", "); len(names) != 3 || !strings.Contains(who, "GPTBot") || !strings.Contains(who, "ClaudeBot") || !strings.Contains(who, "CCBot") ||
			rest != "allowed (no rule matched) → disallowed (line 7: Disallow: /)"+o.URL+"/" {
			t.Errorf("%d px: version 2's verdict change says %q", width, v2)
		}
		tb.onScreen(fmt.Sprintf("%d px", width), "#history, #history h2, #history li, #history .vhead, #history .when, #history code, #history a, #history b")
		if r := eval[[]float64](tb, `[document.documentElement.scrollWidth, innerWidth, document.querySelector("#history").getBoundingClientRect().right]`); r[0] > r[1]+1 || r[2] > r[1]+1 {
			t.Errorf("%d px: the page is %v px wide and the timeline ends at %v px on a %v px screen", width, r[0], r[2], r[1])
		}
		// The audit form's CSV button beside Audit, both on the screen.
		audit := b.tab(t, width, 900, false)
		audit.do(chromedp.Navigate("http://"+s.Addr()+"/?mode=audit"), chromedp.WaitVisible(chromedp.CSS("#audit_csv")))
		audit.onScreen(fmt.Sprintf("%d px, audit form", width), ".actions, .actions *")
		if width == 390 {
			// The compare link: the two versions in diff mode, the URLs the change decides.
			tb.do(chromedp.Click(chromedp.CSS("#version_3 .vcompare a")), chromedp.WaitVisible(chromedp.CSS("#robots_new")))
			got := eval[[]string](tb, `[document.querySelector("#robots").value, document.querySelector("#robots_new").value, String(document.querySelector("#diff").checked), document.querySelector("#urls").value]`)
			if got[0] != versions[1] || got[1] != versions[2] || got[2] != "true" || got[3] != o.URL+"/\n"+o.URL+long {
				t.Errorf("compare link: old %q, new %q, diff %s, URLs %q", got[0], got[1], got[2], got[3])
			}
		}
	}
}
