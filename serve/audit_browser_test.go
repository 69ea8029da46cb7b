package serve

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/gorobots/robots/internal/testenv"
)

// testAudit: the audit mode against a loopback site (auditSite): the picture shows
// /search and /tag/ blocked for Googlebot and /blog/ open; the crawler switch
// recolours it; clicking a branch, or Enter on it, lists its URLs' verdicts with the
// deciding lines; the table beside it says the same.
func testAudit(t *testing.T, b *browser) {
	site := auditSite(t)
	s, _ := start(t, Config{AllowPrivate: true})
	tb := b.tab(t, 1280, 800, false)
	tb.do(chromedp.Navigate("http://"+s.Addr()+"/"), chromedp.WaitVisible(chromedp.CSS("#mode_audit")))
	tb.do(chromedp.Click(chromedp.CSS("#mode_audit")), chromedp.WaitVisible(chromedp.CSS("#audit_url")))
	tb.pick("Googlebot", "bingbot", "GPTBot")
	tb.do(chromedp.SetValue(chromedp.CSS("#audit_url"), site.URL))
	tb.shot("audit-01-form")
	tb.submit("#audit_run")
	tb.do(chromedp.WaitVisible(chromedp.CSS("#crawler_switch_wrap"))) // app.js has run
	tb.shot("audit-02-picture")
	tb.dark(true)
	tb.shot("audit-03-picture-dark")
	tb.dark(false)

	// colours returns the colour step of each branch named, as drawn now.
	colours := func(paths ...string) []string {
		t.Helper()
		return eval[[]string](tb, fmt.Sprintf(`%s.map(p => { const g = document.querySelector('#picture g.node[data-path="' + p + '"]');
			return g ? (g.getAttribute("class").match(/\bs[0-5]\b/) || ["no step"])[0] : "not drawn"; })`, jsArray(paths)))
	}
	sections := []string{"/blog/", "/tag/", "/search", "/private/"}
	// Googlebot: its own group closes /search (line 7) and /tag/ (line 8) only.
	if got, want := colours(sections...), []string{"s0", "s5", "s5", "s0"}; !slices.Equal(got, want) {
		t.Errorf("Googlebot's colours of %q: %q, want %q (s0 none blocked, s5 all blocked)", sections, got, want)
	}
	if got := eval[string](tb, `document.querySelector('#picture g.node[data-path="/search"]').getAttribute("aria-label")`); got != "/search: 10 URLs, all blocked for Googlebot" {
		t.Errorf("the /search branch is labelled %q", got)
	}
	if n := eval[int](tb, `document.querySelectorAll("ul.legend li").length`); n != 6 {
		t.Errorf("legend of %d steps, want 6", n)
	}
	// The switch: bingbot gets the * group, which closes /private/ as well (line 4);
	// GPTBot's group closes everything (line 11).
	for _, c := range []struct {
		agent string
		want  []string
	}{
		{"bingbot", []string{"s0", "s5", "s5", "s5"}},
		{"GPTBot", []string{"s5", "s5", "s5", "s5"}},
		{"Googlebot", []string{"s0", "s5", "s5", "s0"}},
	} {
		tb.do(chromedp.SetValue(chromedp.CSS("#crawler_switch"), map[string]string{"Googlebot": "0", "bingbot": "1", "GPTBot": "2"}[c.agent]),
			chromedp.Evaluate[chromedp.Void](`document.querySelector("#crawler_switch").dispatchEvent(new Event("change"))`))
		if got := colours(sections...); !slices.Equal(got, c.want) {
			t.Errorf("%s's colours of %q: %q, want %q", c.agent, sections, got, c.want)
		}
		if c.agent == "GPTBot" {
			tb.shot("audit-04-switched-gptbot")
		}
	}

	// Clicking /search shows its URLs' verdicts for Googlebot with the deciding line.
	tb.do(chromedp.Click(chromedp.CSS(`#picture g.node[data-path="/search"]`)), chromedp.WaitVisible(chromedp.CSS("#samples")))
	tb.shot("audit-05-branch-search")
	rows := func() []string {
		return eval[[]string](tb, `Array.from(document.querySelectorAll("#samples tbody tr")).map(r => Array.from(r.children).map(c => c.textContent.trim()).join(" | "))`)
	}
	got := rows()
	if len(got) == 0 {
		t.Fatalf("no verdicts shown for /search")
	}
	for _, r := range got {
		if !strings.HasSuffix(r, "| ✕disallowed | line 7 Disallow: /search") || !strings.Contains(r, site.URL+"/search?q=") {
			t.Errorf("a /search verdict for Googlebot reads %q, want its URL, disallowed, line 7 Disallow: /search", r)
		}
	}
	if h := eval[string](tb, `document.querySelector("#branch_detail h3").textContent`); h != "/search" {
		t.Errorf("the branch shown is %q, want /search", h)
	}
	// Switching the crawler while it is shown: bingbot's deciding line is the * group's.
	tb.do(chromedp.SetValue(chromedp.CSS("#crawler_switch"), "1"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#crawler_switch").dispatchEvent(new Event("change"))`))
	for _, r := range rows() {
		if !strings.HasSuffix(r, "| ✕disallowed | line 2 Disallow: /search") {
			t.Errorf("a /search verdict for bingbot reads %q, want disallowed by line 2 Disallow: /search", r)
		}
	}
	// /blog/ for bingbot: allowed, no rule matches.
	tb.do(chromedp.Click(chromedp.CSS(`#picture g.node[data-path="/blog/"]`)))
	for _, r := range rows() {
		if !strings.HasSuffix(r, "| ✓allowed | no rule matches") {
			t.Errorf("a /blog/ verdict for bingbot reads %q, want allowed, no rule matches", r)
		}
	}

	// The keyboard: Tab reaches the picture (one branch of it), the arrows move
	// between branches, Enter shows one.
	tb.do(chromedp.SetValue(chromedp.CSS("#crawler_switch"), "0"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#crawler_switch").dispatchEvent(new Event("change"))`),
		chromedp.Focus(chromedp.CSS("#crawler_switch")))
	focused := func() string {
		return eval[string](tb, `document.activeElement.dataset.path || document.activeElement.id`)
	}
	for i := 0; i < 3 && !strings.HasPrefix(eval[string](tb, `document.activeElement.getAttribute("class") || ""`), "node"); i++ {
		tb.do(chromedp.KeyEvent("\t"))
	}
	if got := eval[string](tb, `document.activeElement.getAttribute("class") || document.activeElement.tagName`); !strings.HasPrefix(got, "node") {
		t.Fatalf("Tab from the crawler switch reaches %q, not a branch of the picture", got)
	}
	tb.do(chromedp.KeyEvent(kb.ArrowLeft), chromedp.KeyEvent(kb.ArrowLeft), chromedp.KeyEvent(kb.ArrowRight))
	if got := focused(); got != "/blog/" {
		t.Errorf("ArrowRight from the site focuses %q, want /blog/ (the largest section)", got)
	}
	tb.do(chromedp.KeyEvent(kb.ArrowDown))
	if got := focused(); got != "/tag/" {
		t.Errorf("ArrowDown from /blog/ focuses %q, want /tag/", got)
	}
	tb.do(chromedp.KeyEvent("\r"))
	if h := eval[string](tb, `document.querySelector("#branch_detail h3").textContent`); h != "/tag/" {
		t.Errorf("Enter on /tag/ shows %q", h)
	}
	for _, r := range rows() {
		if !strings.HasSuffix(r, "| ✕disallowed | line 8 Disallow: /tag/") {
			t.Errorf("a /tag/ verdict for Googlebot reads %q, want disallowed by line 8 Disallow: /tag/", r)
		}
	}
	tb.shot("audit-06-keyboard-tag")

	// The table says the same as the picture, for every crawler.
	table := eval[[]string](tb, `Array.from(document.querySelectorAll("#branches tbody tr")).filter(r => ["/blog/", "/tag/", "/search", "/private/"].includes(r.querySelector("th").textContent)).map(r => Array.from(r.children).map(c => c.textContent.trim()).join(" | "))`)
	wantTable := []string{
		"/blog/ | 40 | none blocked | none blocked | all blocked",
		"/tag/ | 20 | all blocked | all blocked | all blocked",
		"/search | 10 | all blocked | all blocked | all blocked",
		"/private/ | 6 | none blocked | all blocked | all blocked",
	}
	if !slices.Equal(table, wantTable) {
		t.Errorf("the table's rows:\n%q\nwant\n%q", table, wantTable)
	}
	// The report's other parts.
	rules := eval[[]string](tb, `Array.from(document.querySelectorAll("#blocked_rules > li > p")).map(p => p.textContent.replace(/\s+/g, " ").trim())`)
	if len(rules) == 0 || rules[0] != "line 11 Disallow: / blocks 78 sitemap URLs for GPTBot" {
		t.Errorf("blocking rules %q, want first line 11 Disallow: / (78 URLs, GPTBot)", rules)
	}
	broken := eval[string](tb, `Array.from(document.querySelectorAll("#sitemaps tbody tr")).filter(r => r.textContent.includes("sitemap-broken.xml")).map(r => r.textContent)[0] || ""`)
	if !strings.Contains(broken, "invalid") || !strings.Contains(broken, "line 4") {
		t.Errorf("the broken sitemap's row %q, want invalid and the line where the XML breaks", broken)
	}
	tb.do(chromedp.ScrollIntoView(chromedp.CSS("#rules_title")))
	tb.shot("audit-07-report-lists")
	if eval[bool](tb, `document.documentElement.scrollWidth > innerWidth`) {
		t.Errorf("the audit page is wider than the window")
	}
}

// bigSite serves a shop-like site of a few thousand URLs in sections and
// subsections, for the picture of a site with many branches.
func bigSite(t *testing.T) string {
	t.Helper()
	var locs []string
	add := func(format string, n int, args ...any) {
		for i := range n {
			locs = append(locs, fmt.Sprintf(format, append(args, i)...))
		}
	}
	cats := []string{"shoes", "shirts", "trousers", "jackets", "hats", "bags", "socks", "belts", "scarves", "gloves", "watches", "glasses"}
	for i, c := range cats {
		add("/products/%s/item-%d", 400/(i+1)+5, c)
	}
	for m := 1; m <= 12; m++ {
		add("/blog/2025/%02d/post-%d", 60+10*m, m)
	}
	add("/search?q=%d", 300)
	add("/tag/t%d/", 250)
	add("/help/article-%d", 120)
	add("/account/orders/%d", 40)
	add("/api/docs/v%d", 30)
	locs = append(locs, "/cart", "/about", "/contact")
	site := testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		self := "http://" + r.Host
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nDisallow: /search\nDisallow: /tag/\nDisallow: /account/\nDisallow: /cart\n\nUser-agent: GPTBot\nUser-agent: ClaudeBot\nDisallow: /blog/\nDisallow: /search\nDisallow: /tag/\nDisallow: /account/\n\nUser-agent: CCBot\nDisallow: /\n\nSitemap: %s/sitemap.xml\n", self)
		case "/sitemap.xml":
			io.WriteString(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+"\n")
			for _, l := range locs {
				fmt.Fprintf(w, "<url><loc>%s%s</loc></url>\n", self, l)
			}
			io.WriteString(w, "</urlset>\n")
		default:
			http.NotFound(w, r)
		}
	})
	return site.URL
}

// testAuditBigSite: a site of 3,700 URLs in many sections: the picture stays
// readable (sections named, pages drawn together) and the page never scrolls sideways,
// on a laptop and on a phone.
func testAuditBigSite(t *testing.T, b *browser) {
	site := bigSite(t)
	s, _ := start(t, Config{AllowPrivate: true})
	for _, size := range []struct {
		name          string
		width, height int64
	}{{"laptop", 1280, 800}, {"phone", 390, 844}} {
		tb := b.tab(t, size.width, size.height, false)
		tb.do(chromedp.Navigate("http://"+s.Addr()+"/?mode=audit"), chromedp.WaitVisible(chromedp.CSS("#audit_url")))
		tb.pick("Googlebot", "bingbot", "GPTBot", "ClaudeBot", "CCBot")
		tb.do(chromedp.SetValue(chromedp.CSS("#audit_url"), site))
		tb.submit("#audit_run")
		tb.do(chromedp.ScrollIntoView(chromedp.CSS("#picture_title")))
		tb.shot("audit-08-big-site-" + size.name)
		if eval[bool](tb, `document.documentElement.scrollWidth > innerWidth`) {
			t.Errorf("%s: the audit page is wider than the window", size.name)
		}
		labels := eval[[]string](tb, `Array.from(document.querySelectorAll('#picture g.node[data-depth="1"] text:not(.fig)')).map(e => e.textContent)`)
		for _, want := range []string{"/products", "/blog", "/search", "/tag"} {
			if !slices.Contains(labels, want) {
				t.Errorf("%s: the first-level labels %q lack %s", size.name, labels, want)
			}
		}
	}
}

// testAuditNoScript: with JavaScript off the audit's picture is in the page as sent,
// coloured for the first crawler, with the table.
func testAuditNoScript(t *testing.T, b *browser) {
	site := auditSite(t)
	s, _ := start(t, Config{AllowPrivate: true})
	tb := b.tab(t, 1280, 800, false)
	tb.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return err
	}))
	tb.do(chromedp.Navigate("http://"+s.Addr()+"/?mode=audit"), chromedp.WaitVisible(chromedp.CSS("#audit_url")))
	tb.pick("Googlebot", "GPTBot") // (pick sets the boxes through the protocol, not the page's script)
	tb.do(
		chromedp.SetValue(chromedp.CSS("#audit_url"), site.URL),
		chromedp.Click(chromedp.CSS("#audit_run")),
		chromedp.WaitVisible(chromedp.CSS("#picture")),
	)
	tb.shot("audit-09-no-javascript")
	if got := eval[string](tb, `document.querySelector('#picture g.node[data-path="/search"]').getAttribute("class")`); got != "node s5" {
		t.Errorf("without JavaScript /search is drawn %q, want node s5 (all blocked for Googlebot)", got)
	}
	if got := eval[string](tb, `document.querySelector("#picture_current").innerText`); got != "Colours for Googlebot" {
		t.Errorf("without JavaScript the picture says %q, want which crawler it is coloured for", got)
	}
	if eval[bool](tb, `document.querySelector("#crawler_switch_wrap").offsetParent !== null || document.querySelector("#picture_hint").offsetParent !== null`) {
		t.Errorf("the crawler switch or the hint to click branches, which need JavaScript, are shown without it")
	}
}

// testAuditProgress: while an audit runs, the page says what it waits for.
func testAuditProgress(t *testing.T, b *browser) {
	release := make(chan struct{})
	site := heldSite(t, release, map[string]string{
		"/robots.txt": "User-agent: *\nDisallow: /x\nSitemap: %[1]s/hang.xml\n",
		"/hang.xml":   `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%[1]s/x/1</loc></url></urlset>`,
	})
	s, _ := start(t, Config{AllowPrivate: true})
	tb := b.tab(t, 1280, 800, false)
	// #picker_tools shows once app.js has run, which shows the progress.
	tb.do(chromedp.Navigate("http://"+s.Addr()+"/?mode=audit"), chromedp.WaitVisible(chromedp.CSS("#picker_tools")))
	tb.pick("Googlebot")
	tb.do(chromedp.SetValue(chromedp.CSS("#audit_url"), site.URL))
	if st := tb.press("#audit_run", 0); !st.Shown || !st.CancelShown || !strings.HasPrefix(st.Text, "Auditing "+site.URL) || st.HiddenByPageshow {
		t.Fatalf("pressing Audit showed progress %v (hidden by pageshow %v), Cancel %v, text %q; want a progress line naming the audit and a Cancel button",
			st.Shown, st.HiddenByPageshow, st.CancelShown, st.Text)
	}
	tb.shot("audit-10-in-progress")
	close(release)
	tb.waitLoaded()
	if got := eval[string](tb, `document.querySelector("#audit_totals").textContent`); !strings.HasPrefix(got, "1 sitemap read, 1 URL in them") {
		t.Errorf("after the audit: %q", got)
	}
}
