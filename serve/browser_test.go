package serve

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium finds Debian's chromium. With CI=true a missing browser fails the test.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium not found, and CI=true: install it (apt-get install chromium)")
	}
	t.Skip("chromium not found: install Debian's chromium to run the browser test")
	return ""
}

// TestBrowser drives the tester in a real headless Chromium: paste a file, pick
// crawlers, list URLs, submit, and read the verdicts and the highlighted lines.
// The screenshot is kept in $ROBOTS_ARTIFACTS (or the test's temporary directory).
func TestBrowser(t *testing.T) {
	exe := chromium(t)
	s, _ := start(t, Config{})
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
		chromedp.WindowSize(1280, 1000),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()

	const file = "User-agent: *\nDisallow: /private/\nAllow: /private/public.html\n\nUser-agent: GPTBot\nDisallow: /\nCrawl-delai: 5\n"
	type c = chromedp.CSS
	err := chromedp.Do(bctx,
		chromedp.Navigate("http://"+s.Addr()+"/"),
		chromedp.WaitVisible(c("#robots")),
	)
	if err != nil {
		t.Fatal(err)
	}
	checkedDefault, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`document.querySelector('input[name="agent"][value="Googlebot"]').checked`))
	if err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(bctx,
		chromedp.SetValue(c("#robots"), file),
		chromedp.SetValue(c("#urls"), "/private/secret.html\n/private/public.html\n/about"),
		// Only Googlebot and GPTBot.
		chromedp.Click(c(`button[data-select="none"]`)),
		chromedp.Click(c(`input[name="agent"][value="Googlebot"]`)),
		chromedp.Click(c(`input[name="agent"][value="GPTBot"]`)),
		chromedp.Click(c("#run")),
		chromedp.WaitVisible(c("#verdicts")),
	)
	if err != nil {
		t.Fatal(err)
	}
	verdicts, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#verdicts tbody td.cell")).map(td => td.textContent.trim())`))
	if err != nil {
		t.Fatal(err)
	}
	hit, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#file-a li.hit")).map(li => li.id)`))
	if err != nil {
		t.Fatal(err)
	}
	group, err := chromedp.Run(bctx, chromedp.Text(c("#file-a ul.groups")))
	if err != nil {
		t.Fatal(err)
	}
	finding, err := chromedp.Run(bctx, chromedp.Text(c("#a7 .finding")))
	if err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if !checkedDefault {
		t.Errorf("Googlebot not preselected")
	}
	// Rows × columns (Googlebot, GPTBot), decided by the rules above (SPEC §4, §5).
	want := []string{
		"disallowed line 2", "disallowed line 6", // /private/secret.html
		"allowed line 3", "disallowed line 6", // /private/public.html: longest match wins
		"allowed", "disallowed line 6", // /about: no rule for Googlebot
	}
	if strings.Join(verdicts, "|") != strings.Join(want, "|") {
		t.Errorf("verdicts %q, want %q", verdicts, want)
	}
	if strings.Join(hit, ",") != "a2,a3,a6" {
		t.Errorf("highlighted lines %q, want a2,a3,a6", hit)
	}
	if !strings.Contains(group, "Googlebot: the * group at line 1") || !strings.Contains(group, "GPTBot: its own group at line 5") {
		t.Errorf("groups %q, want Googlebot on the * group (line 1) and GPTBot on its own (line 5)", group)
	}
	if !strings.Contains(strings.ToLower(finding), "crawl-del") {
		t.Errorf("finding on line 7 is %q, want one about the misspelled Crawl-delai field", finding)
	}

	dir := os.Getenv("ROBOTS_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "tester.png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}
