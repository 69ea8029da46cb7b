package serve

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/testenv"
	"github.com/gorobots/robots/lint"
)

// browser is one headless Chromium shared by the states of TestBrowser; each state
// runs in its own tab.
type browser struct {
	ctx context.Context
	dir string // where screenshots go
}

func newBrowser(t *testing.T) *browser {
	exe := testenv.RequireBinary(t, "chromium", "chromium-browser", "google-chrome")
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", false),
		chromedp.WindowSize(1280, 800),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	dir := os.Getenv("ROBOTS_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return &browser{ctx: bctx, dir: dir}
}

// tab is one browser tab at a given viewport size, in light or dark mode.
type tab struct {
	t   *testing.T
	ctx context.Context
	b   *browser
}

// dark switches the tab's colour scheme, for a second screenshot of the same state.
func (tb *tab) dark(on bool) {
	tb.t.Helper()
	scheme := "light"
	if on {
		scheme = "dark"
	}
	tb.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		})
		return err
	}))
}

// tab opens a tab of width × height px, with the dark colour scheme when dark.
func (b *browser) tab(t *testing.T, width, height int64, dark bool) *tab {
	ctx, cancel := chromedp.NewContext(b.ctx)
	t.Cleanup(cancel)
	tb := &tab{t: t, ctx: ctx, b: b}
	tb.do(chromedp.EmulateViewport(width, height))
	tb.dark(dark)
	return tb
}

func (tb *tab) do(steps ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, steps...); err != nil {
		tb.t.Fatal(err)
	}
}

func eval[T any](tb *tab, js string) T {
	tb.t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		tb.t.Fatalf("%s: %v", js, err)
	}
	return v
}

// submit clicks a submit button and waits for the answer page to load.
func (tb *tab) submit(sel string) {
	tb.t.Helper()
	tb.do(
		chromedp.Evaluate[chromedp.Void](`window.__before = 1`),
		chromedp.Click(chromedp.CSS(sel)),
	)
	tb.waitLoaded()
}

// pressed is what the progress line showed when a button that starts a long request
// was pressed, and a while later.
type pressed struct {
	Shown, CancelShown, HiddenByPageshow bool
	Text, Later                          string
}

// press presses a submit button and reads the progress line in the same evaluation:
// at once, after the page's own pageshow (which may come late on a loaded machine),
// and again after wait. The page lives on while its request is pending, but a later
// evaluation could meet the navigation's end, and a mouse click computed from a box
// that a loaded page is still laying out can miss (CI once saw no progress line in
// 20 s). Other states press their buttons by mouse. The caller waits for the answer
// page with waitLoaded.
func (tb *tab) press(sel string, wait time.Duration) pressed {
	tb.t.Helper()
	st, err := chromedp.Run(tb.ctx, chromedp.Evaluate[pressed](fmt.Sprintf(`(async () => {
		window.__before = 1;
		document.querySelector(%q).click();
		const p = document.querySelector("#progress"), text = document.querySelector("#progress_text");
		const st = {Shown: !p.hidden, CancelShown: document.querySelector("#cancel").offsetParent !== null,
			Text: text.textContent, HiddenByPageshow: false, Later: ""};
		window.dispatchEvent(new PageTransitionEvent("pageshow", {persisted: false}));
		st.HiddenByPageshow = p.hidden;
		await new Promise(r => setTimeout(r, %d));
		st.Later = text.textContent;
		return st;
	})()`, sel, wait.Milliseconds()), chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("pressing %s: %v", sel, err)
	}
	return st
}

// waitLoaded waits for the page that replaces the one marked with window.__before
// (a poll in the page would not survive the navigation).
func (tb *tab) waitLoaded() {
	tb.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[bool](`!window.__before && document.readyState === "complete"`))
		if err == nil && v {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	tb.t.Fatal("the answer page did not load within 30 s")
}

// shot keeps a screenshot of the viewport in the artifacts directory.
func (tb *tab) shot(name string) {
	tb.t.Helper()
	png, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		tb.t.Fatal(err)
	}
	path := filepath.Join(tb.b.dir, "tester-"+name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		tb.t.Fatal(err)
	}
	tb.t.Logf("screenshot: %s", path)
}

// inViewport reports whether the element's box lies within the viewport, as the
// user sees the page now (not scrolled by the test).
func inViewport(tb *tab, sel string) bool {
	tb.t.Helper()
	return eval[bool](tb, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect();
		return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; })()`, sel))
}

// cells returns the text of the verdict cells, row by row.
func cells(tb *tab) []string {
	return eval[[]string](tb, `Array.from(document.querySelectorAll("#verdicts tbody td.cell")).map(td => td.textContent.replace(/\s+/g, " ").trim())`)
}

// pick leaves exactly these crawlers checked.
func (tb *tab) pick(names ...string) {
	tb.t.Helper()
	tb.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const want = %s;
		document.querySelectorAll('input[name="agent"]').forEach(b => { b.checked = want.includes(b.value); }); })()`, jsArray(names))))
}

func jsArray(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(v)
	}
	return "[" + strings.Join(q, ",") + "]"
}

// TestBrowser drives the tester in a real headless Chromium through the states a
// site owner goes through, keeping a screenshot of each in $ROBOTS_ARTIFACTS.
func TestBrowser(t *testing.T) {
	b := newBrowser(t)

	// The states are independent, each in its own tab and with its own server: they
	// run in parallel (the browser spends most of its time waiting for pages).
	for _, st := range []struct {
		name string
		f    func(*testing.T, *browser)
	}{
		{"paste", testPaste},
		{"fetch edit retest", testFetchEdit},
		{"unreachable", testUnreachable},
		{"hanging origin", testHanging},
		{"crawler search and presets", testPicker},
		{"long real file", testLongFile},
		{"diff", testDiff},
		{"phone", testPhone},
		{"keyboard and labels", testKeyboard},
		{"without javascript", testNoScript},
		{"audit", testAudit},
		{"audit of a big site", testAuditBigSite},
		{"audit without javascript", testAuditNoScript},
		{"audit in progress", testAuditProgress},
		{"layout", testLayout},
		{"geometry at 1280 and 390 px", testLayoutGeometry},
		{"history timeline at 1280 and 390 px", testHistoryGeometry},
		{"audit of hosts as crawlers at 1280 and 390 px", testAuditVariants},
		{"answers per purpose, readings and Generate at 1280 and 390 px", testPurposesGeometry},
		{"layout of the audit", testLayoutAudit},
		{"layout of the audit picture of a big site", testLayoutAuditBig},
	} {
		t.Run(st.name, func(t *testing.T) {
			t.Parallel()
			st.f(t, b)
		})
	}
}

const pasteFile = "User-agent: *\nDisallow: /private/\nAllow: /private/public.html\n\nUser-agent: GPTBot\nDisallow: /\nCrawl-delai: 5\n"

// testPaste: paste a file, list URLs, pick crawlers, press Test: the verdicts are in
// the viewport of a 1280×800 window without scrolling, each naming its line.
func testPaste(t *testing.T, b *browser) {
	s, _ := start(t, Config{})
	tb := b.tab(t, 1280, 800, false)
	tb.do(chromedp.Navigate("http://"+s.Addr()+"/"), chromedp.WaitVisible(chromedp.CSS("#robots")))
	if !eval[bool](tb, `document.querySelector('input[name="agent"][value="Googlebot"]').checked`) {
		t.Errorf("Googlebot not preselected")
	}
	tb.pick("Googlebot", "bingbot", "GPTBot")
	tb.do(
		chromedp.SetValue(chromedp.CSS("#robots"), pasteFile),
		chromedp.SetValue(chromedp.CSS("#urls"), "/private/secret.html\n/private/public.html\n/about"),
	)
	tb.submit("#run")
	tb.shot("01-paste")
	tb.dark(true)
	tb.shot("02-paste-dark")
	tb.dark(false)

	// Googlebot and bingbot get the * group (line 1), so they share a column;
	// GPTBot gets its own group (line 5). Rows × columns, decided by the rules
	// above: longest match wins (RFC 9309 §2.2.2), and no matching rule allows.
	want := []string{
		"✕disallowed line 2", "✕disallowed line 6", // /private/secret.html
		"✓allowed line 3", "✕disallowed line 6", // /private/public.html
		"✓allowed no rule matches", "✕disallowed line 6", // /about
	}
	if got := cells(tb); !slices.Equal(got, want) {
		t.Errorf("verdicts %q, want %q", got, want)
	}
	if got := eval[[]string](tb, `Array.from(document.querySelectorAll("#verdicts thead th.col .agents")).map(e => e.textContent)`); !slices.Equal(got, []string{"Googlebot, bingbot", "GPTBot"}) {
		t.Errorf("columns %q, want [Googlebot, bingbot] and [GPTBot]", got)
	}
	if !inViewport(tb, "#verdicts") {
		t.Errorf("the verdict table is not wholly in the 1280×800 viewport after Test")
	}
	if hit := eval[[]string](tb, `Array.from(document.querySelectorAll("#file-a tr.hit")).map(r => r.id)`); !slices.Equal(hit, []string{"a2", "a3", "a6"}) {
		t.Errorf("highlighted lines %q, want a2, a3, a6", hit)
	}
	groups := eval[string](tb, `document.querySelector("ul.groups").textContent`)
	if !strings.Contains(groups, "Googlebot, bingbot: the * group at line 1") || !strings.Contains(groups, "GPTBot: its own group at line 5") {
		t.Errorf("groups %q, want Googlebot and bingbot on the * group (line 1), GPTBot on its own (line 5)", groups)
	}
	// Findings beside their line, and in the summary with a link to it.
	if f := eval[string](tb, `document.querySelector("#a7 td.f").textContent`); !strings.Contains(strings.ToLower(f), "crawl-del") {
		t.Errorf("finding beside line 7 is %q, want one about the misspelled Crawl-delai field", f)
	}
	if href := eval[[]string](tb, `Array.from(document.querySelectorAll("#file-a .finding-list a")).map(a => a.getAttribute("href"))`); !slices.Contains(href, "#a7") {
		t.Errorf("finding summary links %q, want one to #a7", href)
	}
	// A verdict links to its line.
	tb.do(chromedp.Click(chromedp.CSS(`#verdicts a.v[href="#a3"]`)))
	if !eval[bool](tb, `location.hash === "#a3" && document.querySelector("#a3").matches(":target")`) {
		t.Errorf("clicking the verdict of line 3 did not go to line 3")
	}
}

// testFetchEdit: Fetch gets the live file into the editor; Test after an edit tests
// the edit and does not fetch again.
func testFetchEdit(t *testing.T, b *browser) {
	o := newOrigin(t, 200, "User-agent: *\nDisallow: /drafts/\n")
	s, _ := start(t, Config{AllowPrivate: true})
	tb := b.tab(t, 1280, 800, false)
	tb.do(chromedp.Navigate("http://"+s.Addr()+"/"), chromedp.WaitVisible(chromedp.CSS("#robots")))
	tb.pick("Googlebot")
	tb.do(
		chromedp.SetValue(chromedp.CSS("#fetch_url"), o.URL),
		chromedp.SetValue(chromedp.CSS("#urls"), "/drafts/a.html\n/blog/b.html"),
	)
	tb.submit("#fetch")
	tb.shot("03-fetched")
	if got := eval[string](tb, `document.querySelector("#robots").value`); got != "User-agent: *\nDisallow: /drafts/\n" {
		t.Errorf("editor after Fetch holds %q, want the live file", got)
	}
	if got := cells(tb); !slices.Equal(got, []string{"✕disallowed line 2", "✓allowed no rule matches"}) {
		t.Errorf("fetched verdicts %q", got)
	}
	if src := eval[string](tb, `document.querySelector("#source").textContent`); !strings.Contains(src, "Fetched "+o.URL+"/robots.txt") || !strings.Contains(src, "status 200") {
		t.Errorf("source %q, want the fetched URL and its status", src)
	}
	// Edit: the drafts are now open, the blog closed.
	tb.do(chromedp.SetValue(chromedp.CSS("#robots"), "User-agent: *\nDisallow: /blog/\n"))
	tb.submit("#run")
	tb.shot("04-edited-retest")
	if got := cells(tb); !slices.Equal(got, []string{"✓allowed no rule matches", "✕disallowed line 2"}) {
		t.Errorf("verdicts after editing %q, want the edited file's", got)
	}
	if src := eval[string](tb, `document.querySelector("#source").textContent`); !strings.Contains(src, "edited copy") {
		t.Errorf("source after editing %q, want it to say the edited copy was tested", src)
	}
	if n := o.fetches.Load(); n != 1 {
		t.Errorf("the origin was fetched %d times, want once (Test does not fetch)", n)
	}
	// Enter in the URL list's neighbour fields tests; Enter in the fetch field
	// fetches: here the live file comes back.
	tb.do(chromedp.Evaluate[chromedp.Void](`window.__before = 1`), chromedp.Focus(chromedp.CSS("#fetch_url")), chromedp.KeyEvent("\r"))
	tb.waitLoaded()
	if got := eval[string](tb, `document.querySelector("#robots").value`); got != "User-agent: *\nDisallow: /drafts/\n" {
		t.Errorf("editor after Enter in the fetch field holds %q, want the live file again", got)
	}
}

// testUnreachable: an origin answering 503 makes every URL disallowed, and the page
// says why, consistently: the status, not a line, decides.
func testUnreachable(t *testing.T, b *browser) {
	o := newOrigin(t, 503, "busy")
	s, _ := start(t, Config{AllowPrivate: true})
	{
		tb := b.tab(t, 1280, 800, false)
		tb.do(chromedp.Navigate("http://"+s.Addr()+"/"), chromedp.WaitVisible(chromedp.CSS("#robots")))
		tb.pick("Googlebot", "GPTBot")
		tb.do(
			chromedp.SetValue(chromedp.CSS("#fetch_url"), o.URL),
			chromedp.SetValue(chromedp.CSS("#urls"), "/\n/a.html"),
		)
		tb.submit("#fetch")
		tb.shot("05-unreachable")
		tb.dark(true)
		tb.shot("06-unreachable-dark")
		src := eval[string](tb, `document.querySelector("#source.bad").textContent`)
		if !strings.Contains(src, "status 503") || !strings.Contains(src, "every URL as disallowed") {
			t.Errorf("source %q, want the 503 and that every URL is disallowed", src)
		}
		if got := cells(tb); !slices.Equal(got, []string{"✕disallowed site unreachable", "✕disallowed site unreachable"}) {
			t.Errorf("verdicts %q, want every one disallowed because the site is unreachable (one column: both crawlers)", got)
		}
		page := eval[string](tb, `document.querySelector("#results").textContent`)
		if strings.Contains(page, "everything allowed") || strings.Contains(page, "no group applies") {
			t.Errorf("the results contradict the verdicts: %q", page)
		}
		if !strings.Contains(eval[string](tb, `document.querySelector("ul.groups").textContent`), "site unreachable: everything disallowed") {
			t.Errorf("the groups list does not say the site is unreachable")
		}
	}
}

// testHanging: while an origin hangs, the page says what it waits for; the fetch
// ends in the server's timeout with an explanation.
func testHanging(t *testing.T, b *browser) {
	release := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(hang.Close)
	t.Cleanup(func() { close(release) })
	// The fetch hangs for its whole timeout, long enough for a loaded machine's browser
	// to show the progress line (at 5 s it once did not: the fetch had ended first).
	s, _ := start(t, Config{AllowPrivate: true, Fetch: fetch.Config{Timeout: 12 * time.Second}})
	tb := b.tab(t, 1280, 800, false)
	// #picker_tools shows once app.js has run: only then does a submit show progress
	// (under load the script may run after the form is visible).
	tb.do(chromedp.Navigate("http://"+s.Addr()+"/"), chromedp.WaitVisible(chromedp.CSS("#robots")), chromedp.WaitVisible(chromedp.CSS("#picker_tools")))
	tb.pick("Googlebot")
	// A return from the back-forward cache, where no request runs, hides a progress line.
	if !eval[bool](tb, `document.querySelector("#progress").hidden = false,
		window.dispatchEvent(new PageTransitionEvent("pageshow", {persisted: true})), document.querySelector("#progress").hidden`) {
		t.Error("a return from the back-forward cache left the progress line shown")
	}
	tb.do(chromedp.SetValue(chromedp.CSS("#fetch_url"), hang.URL))
	// What the user sees as the wait begins and two seconds into it: a progress line
	// naming the site, the time so far, and a Cancel button; the page's own pageshow
	// (which may come late on a loaded machine) leaves it alone.
	st := tb.press("#fetch", 2100*time.Millisecond)
	if want := "Fetching " + hang.URL + "/robots.txt"; !st.Shown || !st.CancelShown || !strings.HasPrefix(st.Text, want) {
		t.Fatalf("pressing Fetch showed progress %v, Cancel %v, text %q; want a progress line %q… and a Cancel button", st.Shown, st.CancelShown, st.Text, want)
	}
	if st.HiddenByPageshow {
		t.Error("the page's own pageshow hid the progress line of the fetch running")
	}
	if !regexp.MustCompile(`Fetching .*… [1-9][0-9]* s`).MatchString(st.Later) {
		t.Errorf("two seconds into the fetch the progress line says %q, want the seconds so far", st.Later)
	}
	tb.shot("07-fetch-in-progress")
	tb.waitLoaded()
	if src := eval[string](tb, `document.querySelector("#source.bad").textContent`); !strings.Contains(src, "could not be reached") {
		t.Errorf("after the timeout the source says %q, want that the site could not be reached", src)
	}
}

// testPicker: searching narrows the crawler list; presets select families taken
// from package crawlers; the columns follow the choice.
func testPicker(t *testing.T, b *browser) {
	s, _ := start(t, Config{})
	tb := b.tab(t, 1280, 800, false)
	tb.do(chromedp.Navigate("http://"+s.Addr()+"/"), chromedp.WaitVisible(chromedp.CSS("#crawler_search")))
	tb.do(chromedp.Focus(chromedp.CSS("#crawler_search")), chromedp.KeyEvent("anthropic"))
	visible := eval[[]string](tb, `Array.from(document.querySelectorAll('#crawler_list label')).filter(l => l.offsetParent !== null).map(l => l.querySelector("input").value)`)
	var want []string
	for _, c := range crawlers.All() {
		if c.Operator == "Anthropic" || strings.Contains(strings.ToLower(c.Name), "anthropic") {
			want = append(want, c.Name)
		}
	}
	// The picker groups crawlers by purpose, the registry's other crawlers folded
	// after the major ones (issue 38: the search found only the major ones), so the
	// order on the page is the groups'; the search must show exactly Anthropic's
	// crawlers of the whole registry, each once.
	slices.Sort(visible)
	slices.Sort(want)
	if !slices.Equal(visible, want) {
		t.Errorf("search for %q shows %q, want Anthropic's crawlers %q", "anthropic", visible, want)
	}
	tb.do(chromedp.ScrollIntoView(chromedp.CSS("#crawler_search")))
	tb.shot("08-crawler-search")
	// Clear the search; the AI preset selects exactly the AI crawlers.
	tb.do(chromedp.Evaluate[chromedp.Void](`(() => { const s = document.querySelector("#crawler_search"); s.value = ""; s.dispatchEvent(new Event("input")); })()`))
	tb.do(chromedp.Click(chromedp.CSS(`button[data-preset]:nth-child(3)`)))
	var ai []string
	for _, c := range crawlers.Major() {
		if familyOf(c) == "ai" {
			ai = append(ai, c.Name)
		}
	}
	checked := eval[[]string](tb, `Array.from(document.querySelectorAll('input[name="agent"]:checked')).map(b => b.value)`)
	if !slices.Equal(checked, ai) {
		t.Errorf("AI preset checks %q, want %q", checked, ai)
	}
	if n := eval[string](tb, `document.querySelector("#picked").textContent`); n != fmt.Sprintf("%d selected", len(ai)) {
		t.Errorf("count says %q, want %d selected", n, len(ai))
	}
	tb.shot("09-preset-ai")
	tb.do(chromedp.SetValue(chromedp.CSS("#robots"), "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n"), chromedp.SetValue(chromedp.CSS("#urls"), "/x"))
	tb.submit("#run")
	cols := eval[[]string](tb, `Array.from(document.querySelectorAll("#verdicts thead th.col")).map(e => e.textContent)`)
	if len(cols) != 2 {
		t.Errorf("columns %q, want two: the crawlers of the GPTBot/CCBot group, and the rest (no group)", cols)
	}
	tb.shot("10-preset-ai-results")
	// The table fits its column or scrolls within itself: the page never scrolls sideways.
	if eval[bool](tb, `document.documentElement.scrollWidth > innerWidth`) {
		t.Errorf("the page is wider than the window")
	}
}

// testLongFile: a real 1,399-line robots.txt: the summary counts the findings by
// severity and links each to its line; the link brings the line into view.
func testLongFile(t *testing.T, b *browser) {
	body, err := os.ReadFile(filepath.Join(testenv.CorpusDir(t), "robots", "github.com.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(body), "\n"); n < 1300 {
		t.Fatalf("github.com.txt has %d lines; the test wants a file of about 1,400", n)
	}
	findings := lint.Check("robots.txt", body)
	if len(findings) == 0 {
		t.Fatal("no lint findings in the long file: the test needs at least one")
	}
	s, _ := start(t, Config{})
	tb := b.tab(t, 1280, 800, false)
	tb.do(chromedp.Navigate("http://"+s.Addr()+"/"), chromedp.WaitVisible(chromedp.CSS("#robots")))
	tb.pick("Googlebot", "bingbot", "GPTBot", "CCBot")
	tb.do(
		chromedp.SetValue(chromedp.CSS("#robots"), string(body)),
		chromedp.SetValue(chromedp.CSS("#urls"), "/gorobots/robots/pulse\n/gorobots/robots/blob/main/README.md\n/login"),
	)
	tb.submit("#run")
	tb.shot("11-long-file")

	counts := map[lint.Severity]int{}
	var lines []string
	for _, f := range findings {
		counts[f.Severity]++
	}
	// The summary lists repeated findings once, at the first (lint.Grouped).
	for _, g := range lint.Grouped(findings) {
		lines = append(lines, "#a"+strconv.Itoa(g.Line))
	}
	badges := eval[string](tb, `document.querySelector("#file-a .findings .counts").textContent`)
	for sev, n := range counts {
		word := map[lint.Severity]string{lint.Error: "error", lint.Warning: "warning", lint.Info: "note"}[sev]
		if !strings.Contains(badges, fmt.Sprintf("%d %s", n, word)) {
			t.Errorf("summary %q lacks %d %s(s)", badges, n, word)
		}
	}
	links := eval[[]string](tb, `Array.from(document.querySelectorAll("#file-a .finding-list a")).map(a => a.getAttribute("href"))`)
	slices.Sort(links)
	slices.Sort(lines)
	if !slices.Equal(links, lines) {
		t.Errorf("summary links %q, want one per finding or group of repeated findings %q", links, lines)
	}
	// Each verdict agrees with the library on the same file.
	rb := robots.Parse(body)
	want := []string{}
	for _, u := range []string{"/gorobots/robots/pulse", "/gorobots/robots/blob/main/README.md", "/login"} {
		for _, col := range eval[[]string](tb, `Array.from(document.querySelectorAll("#verdicts thead th.col .agents")).map(e => e.textContent.split(",")[0].trim())`) {
			d := rb.Check(col, u)
			v := "✓allowed"
			if !d.Allowed {
				v = "✕disallowed"
			}
			if d.Rule.Line > 0 {
				v += " line " + strconv.Itoa(d.Rule.Line)
			}
			want = append(want, v)
		}
	}
	got := cells(tb)
	for i := range got {
		if i >= len(want) || !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("verdicts %q, want (by the library) %q", got, want)
			break
		}
	}
	// The page stays short: the file scrolls within its own box.
	if h := eval[float64](tb, `document.documentElement.scrollHeight`); h > 4000 {
		t.Errorf("page height %.0f px for a 1,400-line file, want the file in its own scrolling box", h)
	}
	// Follow the first finding's link: its line is in view and marked.
	first := "#a" + strconv.Itoa(findings[0].Line)
	tb.do(chromedp.Click(chromedp.CSS(`#file-a .finding-list a[href="` + first + `"]`)))
	tb.do(chromedp.Sleep(300 * time.Millisecond)) // smooth or not, let the scroll settle
	if !inViewport(tb, first) {
		t.Errorf("after following the link to %s the line is not in view", first)
	}
	if !eval[bool](tb, `document.querySelector("`+first+`").matches(":target")`) {
		t.Errorf("line %s is not the target after following its link", first)
	}
	tb.shot("12-long-file-finding-link")
}

// testDiff: diff mode lists the groups that changed, marks the changed lines in
// both files, then shows the verdicts that change.
func testDiff(t *testing.T, b *browser) {
	const oldFile = "User-agent: *\nDisallow: /private/\nDisallow: /tmp/\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: https://example.com/old.xml\n"
	const newFile = "User-agent: *\nDisallow: /private/\nDisallow: /drafts/\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /\n\nSitemap: https://example.com/new.xml\n"
	s, _ := start(t, Config{})
	tb := b.tab(t, 1280, 800, false)
	tb.do(chromedp.Navigate("http://"+s.Addr()+"/"), chromedp.WaitVisible(chromedp.CSS("#robots")))
	tb.pick("Googlebot", "GPTBot", "CCBot")
	tb.do(
		chromedp.Click(chromedp.CSS("#diff")),
		chromedp.WaitVisible(chromedp.CSS("#robots_new")),
		chromedp.SetValue(chromedp.CSS("#robots"), oldFile),
		chromedp.SetValue(chromedp.CSS("#robots_new"), newFile),
		chromedp.SetValue(chromedp.CSS("#urls"), "/tmp/a\n/drafts/b\n/private/c\n/d"),
	)
	tb.shot("13-diff-form")
	tb.submit("#run")
	tb.shot("14-diff")
	tb.do(chromedp.ScrollIntoView(chromedp.CSS("#file-a")))
	tb.shot("14b-diff-marked-lines")
	tb.dark(true)
	tb.shot("15-diff-dark")
	changes := eval[[]string](tb, `Array.from(document.querySelectorAll(".change-list > li")).map(li => li.innerText.toLowerCase().replace(/\s+/g, " ").trim())`)
	wantChanges := []string{
		"changed User-agent: * old line 1 · new line 1 - Disallow: /tmp/ + Disallow: /drafts/",
		"added User-agent: CCBot new line 8",
		"removed Sitemap: https://example.com/old.xml",
		"added Sitemap: https://example.com/new.xml",
	}
	for i := range wantChanges {
		wantChanges[i] = strings.ToLower(wantChanges[i]) // the tags are upper-cased by CSS
	}
	if !slices.Equal(changes, wantChanges) {
		t.Errorf("changes %q, want %q", changes, wantChanges)
	}
	// Lines: old 3 and 8 removed; new 3, 8, 9, 10 (the CCBot group and its blank
	// line) and 11 added.
	del := eval[[]string](tb, `Array.from(document.querySelectorAll("#file-a tr.del")).map(r => r.id)`)
	add := eval[[]string](tb, `Array.from(document.querySelectorAll("#file-b tr.add")).map(r => r.id)`)
	if !slices.Equal(del, []string{"a3", "a8"}) {
		t.Errorf("removed lines %q, want a3, a8", del)
	}
	if len(add) != 5 || add[0] != "b3" || add[len(add)-1] != "b11" {
		t.Errorf("added lines %q, want b3 and the CCBot group's lines to b11 (5 lines)", add)
	}
	// Verdicts: /tmp/a opens for Googlebot, /drafts/b closes for it; CCBot loses
	// everything. Columns: Googlebot (* in both), GPTBot (own in both), CCBot (* then own).
	changed := eval[[]string](tb, `Array.from(document.querySelectorAll("#verdicts tbody tr.changed th.url")).map(e => e.textContent)`)
	// /private/c stays disallowed for everyone (CCBot: by the * group's line 2, then
	// by its own group's Disallow: /).
	if !slices.Equal(changed, []string{"/tmp/a", "/drafts/b", "/d"}) {
		t.Errorf("changed rows %q, want /tmp/a, /drafts/b and /d", changed)
	}
	first := eval[string](tb, `document.querySelector("#verdicts tbody td.cell.changed").textContent.replace(/\s+/g, " ").trim()`)
	if first != "✕disallowed line 3 → ✓allowed no rule matches" {
		t.Errorf("first changed cell %q, want /tmp/a for Googlebot: disallowed by old line 3, then allowed", first)
	}
}

// testPhone: at phone width the page is one column, never scrolls sideways, and
// shows the verdicts after Test.
func testPhone(t *testing.T, b *browser) {
	s, _ := start(t, Config{})
	tb := b.tab(t, 390, 844, false)
	tb.do(chromedp.Navigate("http://"+s.Addr()+"/"), chromedp.WaitVisible(chromedp.CSS("#robots")))
	tb.shot("16-phone-form")
	if eval[bool](tb, `document.documentElement.scrollWidth > innerWidth`) {
		t.Errorf("the form is wider than a 390 px phone")
	}
	tb.do(chromedp.SetValue(chromedp.CSS("#robots"), pasteFile), chromedp.SetValue(chromedp.CSS("#urls"), "/private/secret.html\n/about"))
	tb.submit("#run")
	tb.shot("17-phone-results")
	if eval[bool](tb, `document.documentElement.scrollWidth > innerWidth`) {
		t.Errorf("the results are wider than a 390 px phone")
	}
	if !eval[bool](tb, `(() => { const r = document.querySelector("#verdicts").getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; })()`) {
		t.Errorf("after Test the verdicts are not in view on the phone")
	}
}

// testKeyboard: every control has a label, and Tab reaches the main controls in order.
func testKeyboard(t *testing.T, b *browser) {
	s, _ := start(t, Config{Tokens: []string{"k"}})
	tb := b.tab(t, 1280, 800, false)
	tb.do(chromedp.Navigate("http://"+s.Addr()+"/"), chromedp.WaitVisible(chromedp.CSS("#robots")))
	unlabelled := eval[[]string](tb, `Array.from(document.querySelectorAll("input:not([type=hidden]), textarea, select, button"))
		.filter(e => !e.closest(".default-submit") && !e.classList.contains("default-submit"))
		.filter(e => !(e.labels && e.labels.length) && !e.getAttribute("aria-label") && !(e.tagName === "BUTTON" && e.textContent.trim()))
		.map(e => e.outerHTML.slice(0, 80))`)
	if len(unlabelled) > 0 {
		t.Errorf("controls without a label: %q", unlabelled)
	}
	var order []string
	tb.do(chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`))
	for range 8 {
		tb.do(chromedp.KeyEvent("\t"))
		order = append(order, eval[string](tb, `document.activeElement.id || document.activeElement.name || document.activeElement.tagName`))
	}
	// The three modes (Test URLs, Audit a site, Read logs) come first, then the form.
	want := []string{"mode_test", "mode_audit", "mode_logs", "fetch_url", "fetch", "token", "robots"}
	if !slices.Equal(order[:len(want)], want) {
		t.Errorf("Tab order starts %q, want %q", order, want)
	}
	if !eval[bool](tb, `document.activeElement && getComputedStyle(document.activeElement).outlineStyle !== "none"`) {
		t.Errorf("the focused control shows no focus ring")
	}
}

// testNoScript: with JavaScript off, paste and Test still give the verdicts.
func testNoScript(t *testing.T, b *browser) {
	s, _ := start(t, Config{})
	tb := b.tab(t, 1280, 800, false)
	tb.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return err
	}))
	tb.do(chromedp.Navigate("http://"+s.Addr()+"/"), chromedp.WaitVisible(chromedp.CSS("#robots")))
	tb.do(
		chromedp.SetValue(chromedp.CSS("#robots"), pasteFile),
		chromedp.SetValue(chromedp.CSS("#urls"), "/private/secret.html"),
		chromedp.Click(chromedp.CSS("#run")),
		chromedp.WaitVisible(chromedp.CSS("#verdicts")),
	)
	tb.shot("18-no-javascript")
	if got := cells(tb); len(got) == 0 || !strings.HasPrefix(got[0], "✕disallowed line 2") {
		t.Errorf("without JavaScript the verdicts are %q, want the first disallowed by line 2", got)
	}
}
