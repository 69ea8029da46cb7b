package serve

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/gorobots/robots/crawlers"
)

// postPage posts the tester's form and returns the status and the page.
func postPage(t *testing.T, s *Server, form url.Values) (int, string) {
	t.Helper()
	resp, err := http.PostForm("http://"+s.Addr()+"/", form)
	b := readBody(t, resp, err)
	return resp.StatusCode, string(b)
}

func lines(prefix string, n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(prefix + strconv.Itoa(i) + "\n")
	}
	return b.String()
}

// TestPageLimits: a form past the tester's bounds is answered 413 with a message
// that names the limit, before any page is built (issue 14: one 107 KB form of
// 10,000 URLs × 100 crawlers once built 91 MB of HTML).
func TestPageLimits(t *testing.T) {
	agents := make([]string, 100)
	for i := range agents {
		agents[i] = "Bot" + strconv.Itoa(i)
	}
	tests := []struct {
		name string
		cfg  Config
		form url.Values
		code int
		want string // in the page
	}{
		{"urls × crawlers", Config{}, url.Values{"robots": {"User-agent: *\nDisallow: /x\n"}, "urls": {lines("/p", 10_000)}, "agent": agents},
			413, "10,000 URLs × 100 crawlers = 1,000,000 verdicts, more than the tester&#39;s limit of 10,000"},
		{"urls × crawlers at the limit", Config{}, url.Values{"robots": {"User-agent: *\nDisallow: /x\n"}, "urls": {lines("/p", 100)}, "agent": agents},
			200, "Verdicts"},
		{"configured cell limit", Config{PageMaxCells: 10}, url.Values{"robots": {"User-agent: *\n"}, "urls": {lines("/p", 11)}, "agent": {"Googlebot"}},
			413, "11 URLs × 1 crawlers = 11 verdicts, more than the tester&#39;s limit of 10"},
		{"crawlers", Config{}, url.Values{"robots": {""}, "urls": {"/"}, "agent": append(agents, "one-more")},
			413, "101 crawlers, more than the tester&#39;s limit of 100"},
		// Past what Google reads, a pasted file is tested as crawlers read it and lint
		// says it is too large, with its size, as "robots lint" says (5,200 lines
		// of 100 bytes: the first 512,000 bytes are lines 1-5120, the cut at the
		// start of line 5121; few lines, so that the race detector on a loaded CI
		// machine renders them in time); past twice that, it is refused.
		{"pasted file past what Google reads", Config{}, url.Values{"robots": {strings.Repeat("# "+strings.Repeat("p", 97)+"\n", 5_200)}, "urls": {"/"}, "agent": {"Googlebot"}},
			200, "the file is 520000 bytes; crawlers read only the first 512000 (500 KiB), which end on line 5121"},
		{"pasted file past what the tester holds", Config{}, url.Values{"robots": {strings.Repeat("# padding\n", 103_000)}, "urls": {"/"}, "agent": {"Googlebot"}},
			413, "more than the tester holds (1000 KiB; Google reads the first 500 KiB"},
		{"page estimate", Config{PageMaxBytes: 200 << 10}, url.Values{"robots": {lines("Disallow: /p", 2000)}, "urls": {"/"}, "agent": {"Googlebot"}},
			413, "more than the tester&#39;s limit of 200 KiB"},
		{"page as rendered", Config{PageMaxBytes: 40 << 10}, url.Values{"robots": {lines("Disallow: /p", 60)}, "urls": {"/"}, "agent": {"Googlebot"}},
			413, "the answer would be more than 40 KiB of HTML"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := start(t, tt.cfg)
			code, page := postPage(t, s, tt.form)
			if code != tt.code || !strings.Contains(page, tt.want) {
				t.Errorf("status %d, want %d with %q in the page; page:\n%.2000s", code, tt.code, tt.want, page)
			}
			// A refusal is the form, echoed so that nothing typed is lost, and the
			// message: no verdicts, no annotated file.
			if code == 413 && (len(page) > len(tt.form.Encode())+64<<10 || strings.Contains(page, `id="verdicts"`)) {
				t.Errorf("a refusal of %d bytes for a form of %d; it should be the form and the message", len(page), len(tt.form.Encode()))
			}
		})
	}
}

// TestPageTokens: with bearer tokens configured, the tester's Fetch needs one in the
// form (it fetches and fills the shared cache as the API does); Test, which reads
// only the posted text, needs none.
func TestPageTokens(t *testing.T) {
	o := newOrigin(t, 200, "User-agent: *\nDisallow: /live/\n")
	s, _ := start(t, Config{AllowPrivate: true, Tokens: []string{"s3cret"}})
	tests := []struct {
		name    string
		form    url.Values
		code    int
		want    string
		fetches int32 // origin fetches so far, after this case
	}{
		{"fetch without token", url.Values{"action": {"fetch"}, "fetch_url": {o.URL}, "urls": {"/live/a"}, "agent": {"Googlebot"}},
			401, "fetches only for holders of an API token", 0},
		{"fetch with a wrong token", url.Values{"action": {"fetch"}, "fetch_url": {o.URL}, "token": {"guess"}, "urls": {"/live/a"}, "agent": {"Googlebot"}},
			401, "fetches only for holders of an API token", 0},
		{"old form without action, empty editor: a fetch, refused", url.Values{"fetch_url": {o.URL}, "urls": {"/live/a"}, "agent": {"Googlebot"}},
			401, "API token", 0},
		{"fetch with the token", url.Values{"action": {"fetch"}, "fetch_url": {o.URL}, "token": {"s3cret"}, "urls": {"/live/a"}, "agent": {"Googlebot"}},
			200, `class="v disallowed" href="#a2"`, 1},
		{"test needs no token", url.Values{"action": {"test"}, "fetch_url": {o.URL}, "robots": {"User-agent: *\nDisallow: /pasted/\n"}, "urls": {"/pasted/a"}, "agent": {"Googlebot"}},
			200, `class="v disallowed" href="#a2"`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, page := postPage(t, s, tt.form)
			if code != tt.code || !strings.Contains(page, tt.want) {
				t.Errorf("status %d, want %d with %q; page:\n%.3000s", code, tt.code, tt.want, page)
			}
			if n := o.fetches.Load(); n != tt.fetches {
				t.Errorf("origin fetched %d times, want %d", n, tt.fetches)
			}
			if strings.Contains(page, "s3cret") {
				t.Errorf("the page echoes the token")
			}
		})
	}
	// The token field is shown only where tokens are configured.
	for _, tc := range []struct {
		name string
		cfg  Config
		want bool
	}{
		{"tokens configured", Config{Tokens: []string{"k"}}, true},
		{"no tokens", Config{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := start(t, tc.cfg)
			resp, err := http.Get("http://" + s.Addr() + "/")
			b := readBody(t, resp, err)
			if got := strings.Contains(string(b), `id="token"`); got != tc.want {
				t.Errorf("tokens %v: token field shown %v, want %v", tc.cfg.Tokens, got, tc.want)
			}
		})
	}
}

// TestPageFetchThenEdit: Test after a fetch decides on the edited text and does not
// fetch again; the fetched file itself is told apart from an edit of it.
func TestPageFetchThenEdit(t *testing.T) {
	const live = "User-agent: *\nDisallow: /live/\n"
	o := newOrigin(t, 200, live)
	s, _ := start(t, Config{AllowPrivate: true})
	code, page := postPage(t, s, url.Values{"action": {"fetch"}, "fetch_url": {o.URL}, "urls": {"/live/a"}, "agent": {"Googlebot"}})
	if code != 200 || !strings.Contains(page, `class="v disallowed" href="#a2"`) {
		t.Fatalf("fetch: status %d; page:\n%.3000s", code, page)
	}
	const marker = `name="fetched" value="`
	i := strings.Index(page, marker)
	if i < 0 {
		t.Fatal("no digest of the fetched file in the form")
	}
	fetched := page[i+len(marker) : i+len(marker)+24]
	tests := []struct {
		name, robots, want, source string
	}{
		{"unchanged", live, `class="v disallowed" href="#a2"`, "unchanged"},
		{"edited", "User-agent: *\nDisallow: /other/\n", "no rule matches", "edited copy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, page := postPage(t, s, url.Values{"action": {"test"}, "fetch_url": {o.URL}, "fetched": {fetched}, "robots": {tt.robots}, "urls": {"/live/a"}, "agent": {"Googlebot"}})
			if code != 200 || !strings.Contains(page, tt.want) || !strings.Contains(page, tt.source) {
				t.Errorf("status %d, want 200 with %q and %q; page:\n%.3000s", code, tt.want, tt.source, page)
			}
		})
	}
	if n := o.fetches.Load(); n != 1 {
		t.Errorf("origin fetched %d times, want once", n)
	}
}

// TestPageFetchCut: a fetched file over 500 KiB is read as crawlers read it, to its
// first 512,000 bytes (RFC 9309 §2.5), and the tester says where reading stopped:
// "User-agent: *" (14 bytes) and lines of 100 bytes put byte 512,000 in line 5121,
// and the rule past it does not apply.
func TestPageFetchCut(t *testing.T) {
	body := "User-agent: *\n" + strings.Repeat("Disallow: /"+strings.Repeat("x", 88)+"\n", 6000) + "Disallow: /lost\n"
	o := newOrigin(t, 200, body)
	s, _ := start(t, Config{AllowPrivate: true})
	code, page := postPage(t, s, url.Values{"action": {"fetch"}, "fetch_url": {o.URL}, "urls": {"/lost"}, "agent": {"Googlebot"}})
	want := "they read its first 512,000 bytes (500 KiB, the limit of Google and RFC 9309) and stop in line 5,121; the groups and rules after that are not read"
	if code != 200 || !strings.Contains(page, want) || !strings.Contains(page, `class="v allowed"`) {
		t.Errorf("status %d, want 200 saying %q and /lost allowed; page:\n%.3000s", code, want, page)
	}
}

func TestOriginURL(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"example.com", "https://example.com/"},
		{"example.com/", "https://example.com/"},
		{"127.0.0.1:18765", "http://127.0.0.1:18765/"},
		{"http://example.com/", "http://example.com/"},
		{"https://example.com/a/b", "https://example.com/a/b"},
		{"ftp://example.com/", "ftp://example.com/"},
	} {
		t.Run(tt.in, func(t *testing.T) {
			if got := originURL(tt.in); got != tt.want {
				t.Errorf("originURL(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestSiteTypedByAPerson: the tester's Fetch and audit fields and GET /v1/robots
// read a site as "robots fetch" does (weburl.Site): 127.0.0.1:PORT is a local
// server, fetched over http, and the page says which scheme it chose; a word is a
// 400 saying what to type; a refused address names -allow-private (issue 28: the
// tester assumed https and showed a TLS error, /v1/robots said "first path
// segment in URL cannot contain colon").
func TestSiteTypedByAPerson(t *testing.T) {
	o := newOrigin(t, 200, "User-agent: *\nDisallow: /private/\n")
	hostPort := strings.TrimPrefix(o.URL, "http://")
	s, _ := start(t, Config{AllowPrivate: true})

	var a map[string]any
	if code := get(t, s, "/v1/robots?url="+url.QueryEscape(hostPort), &a); code != 200 || a["url"] != o.URL+"/" || a["input"] != hostPort || a["outcome"] != "success" {
		t.Errorf("/v1/robots?url=%s: status %d, url %v, input %v, outcome %v; want 200, %s/, %s, success", hostPort, code, a["url"], a["input"], a["outcome"], o.URL, hostPort)
	}
	a = nil
	if code := get(t, s, "/v1/robots?url=search", &a); code != 400 || !strings.Contains(fmt.Sprint(a["error"]), "type a site such as example.com") {
		t.Errorf("/v1/robots?url=search: status %d %v, want 400 saying what to type", code, a)
	}

	code, page := postPage(t, s, url.Values{"action": {"fetch"}, "fetch_url": {hostPort}, "urls": {"/private/a"}, "agent": {"Googlebot"}})
	if code != 200 || !strings.Contains(page, `class="v disallowed" href="#a2"`) || !strings.Contains(page, "No scheme given: "+o.URL+"/ chosen") {
		t.Errorf("tester fetch of %s: status %d, want 200 with the verdict and the scheme chosen; page:\n%.3000s", hostPort, code, page)
	}

	guarded, _ := start(t, Config{})
	code, page = postPage(t, guarded, url.Values{"action": {"fetch"}, "fetch_url": {hostPort}, "urls": {"/"}, "agent": {"Googlebot"}})
	if code != 403 || !strings.Contains(page, "-allow-private") {
		t.Errorf("guarded tester fetch of %s: status %d, want 403 naming -allow-private; page:\n%.3000s", hostPort, code, page)
	}
}

// TestPageTypedURLs: the tester decides URLs as a browser requests them, as the
// command and the API do: /café/menu is /caf%C3%A9/menu, which "Disallow:
// /caf%C3%A9/" (line 2) disallows; what is not a URL or a path is a 400 naming it.
func TestPageTypedURLs(t *testing.T) {
	s, _ := start(t, Config{})
	robots := "User-agent: *\nDisallow: /caf%C3%A9/\n"
	// Only the encoded URL is disallowed by line 2: /café/menu as given matches no rule.
	code, page := postPage(t, s, url.Values{"action": {"test"}, "robots": {robots}, "urls": {"/café/menu"}, "agent": {"Googlebot"}})
	if code != 200 || !strings.Contains(page, `class="v disallowed" href="#a2"`) {
		t.Errorf("status %d, want 200 with the URL disallowed by line 2; page:\n%.3000s", code, page)
	}
	code, page = postPage(t, s, url.Values{"action": {"test"}, "robots": {robots}, "urls": {"mailto:x@y"}, "agent": {"Googlebot"}})
	if code != http.StatusBadRequest || !strings.Contains(page, "line 1 of the URL list") || !strings.Contains(page, "not a URL or an absolute path") {
		t.Errorf("mailto: status %d, want 400 naming it; page:\n%.2000s", code, page)
	}
}

// TestPageBadURLAmongMany: one line that is not a URL among others is shown in
// its place with why, and the others get their verdicts, as "robots check" and
// POST /v1/check do (issue 28: one bad line answered 400 "Not tested" and no
// verdict at all).
func TestPageBadURLAmongMany(t *testing.T) {
	s, _ := start(t, Config{})
	robots := "User-agent: *\nDisallow: /private/\n"
	list := "/a\n/private/b\n\nsearch\n/c\nmailto:x@y\n"
	code, page := postPage(t, s, url.Values{"action": {"test"}, "robots": {robots}, "urls": {list}, "agent": {"Googlebot", "bingbot"}})
	if code != 200 {
		t.Fatalf("status %d, want 200; page:\n%.3000s", code, page)
	}
	tbody := page[strings.Index(page, `<table id="verdicts">`):]
	tbody = tbody[:strings.Index(tbody, "</table>")]
	var rows []string // each row's URL and, for a bad one, its line
	for _, tr := range strings.Split(tbody, "<tr")[2:] {
		th := tr[strings.Index(tr, `class="url">`)+len(`class="url">`):]
		u := strings.ReplaceAll(th[:strings.Index(th, "</th>")], "<wbr>", "")
		if strings.Contains(tr, "not tested") {
			u += " bad " + tr[strings.Index(tr, "line "):strings.Index(tr, " of the URL list")]
		}
		rows = append(rows, u)
	}
	want := []string{"/a", "/private/b", "search bad line 4", "/c", "mailto:x@y bad line 6"}
	if strings.Join(rows, "|") != strings.Join(want, "|") {
		t.Errorf("rows %q, want %q", rows, want)
	}
	if !strings.Contains(page, "2 lines are not URLs: not tested") || strings.Count(page, `class="v disallowed" href="#a2"`) != 1 {
		t.Errorf("want the count of bad lines and /private/b disallowed by line 2 (one column: both crawlers get the * group); page:\n%.4000s", page)
	}
}

// TestPageUsage: the tester shows the usage preferences that apply beside each
// verdict, in the file's own tokens, with their lines (the attach draft's example:
// train-ai=n by line 4, train-ai=y under /ai-ok/ by line 5, nothing where the crawler
// may not fetch).
func TestPageUsage(t *testing.T) {
	s, _ := start(t, Config{})
	file := "User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n"
	code, page := postPage(t, s, url.Values{"action": {"test"}, "robots": {file}, "urls": {"/test\n/never/test\n/ai-ok/test"}, "agent": {"SomeBot"}})
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	for _, want := range []string{">train-ai=n (line 4)</small>", ">train-ai=y (line 5)</small>"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if n := strings.Count(page, `class="usage"`); n != 2 {
		t.Errorf("%d verdicts show preferences, want 2 (not /never/test, which may not be fetched)", n)
	}
}

// TestPageGroupedFindings: the tester's findings list shows repeated findings as
// one entry with the count and the lines, as "robots lint" does; each line of the
// file still has its own finding beside it.
func TestPageGroupedFindings(t *testing.T) {
	s, _ := start(t, Config{})
	body := "User-agent: Googlebot\nDisallow: /tmp/\n\n" + strings.Repeat(`<div style="display:none"><a href="https://spam.example/">cheap</a></div>`+"\n", 6)
	code, page := postPage(t, s, url.Values{"action": {"test"}, "robots": {body}, "urls": {"/"}, "agent": {"Googlebot"}})
	list := page[strings.Index(page, `<ul class="finding-list">`):]
	list = list[:strings.Index(list, "</ul>")]
	if code != 200 || strings.Count(list, "<li") != 1 || !strings.Contains(list, "(6 times: lines 4, 5, 6, 7, 8 and 1 more)") {
		t.Errorf("status %d, findings list:\n%s\nwant one entry for the six unknown-field lines", code, list)
	}
	if n := strings.Count(page, `title="unknown-field"`); n != 6 {
		t.Errorf("%d findings beside their lines, want 6", n)
	}
}

// TestPageCompareUsage: the tester's compare marks a URL changed when its usage
// preferences change (ai-train=yes to ai-train=no) though its verdict does not, and
// not when the same preference only moves to another line.
func TestPageCompareUsage(t *testing.T) {
	s, _ := start(t, Config{})
	for _, tt := range []struct {
		name, old, new string
		changed        bool
	}{
		{"preference changed", "User-agent: *\nAllow: /\nContent-Signal: ai-train=yes\n", "User-agent: *\nAllow: /\nContent-Signal: ai-train=no\n", true},
		{"line moved", "User-agent: *\nAllow: /\nContent-Signal: ai-train=no\n", "# moved\nUser-agent: *\nAllow: /\nContent-Signal: ai-train=no\n", false},
	} {
		code, page := postPage(t, s, url.Values{"action": {"test"}, "diff": {"1"}, "robots": {tt.old}, "robots_new": {tt.new}, "urls": {"https://example.com/a"}, "agent": {"GPTBot"}})
		if code != 200 || strings.Contains(page, `<tr class="changed">`) != tt.changed {
			t.Errorf("%s: status %d, changed row %v, want %v; page:\n%.3000s", tt.name, code, !tt.changed, tt.changed, page)
		}
	}
}

// TestPickerRegistry: the picker lists every crawler of the registry, the major
// ones first and the others folded, so that its search finds them all; a posted
// choice of one of the others stays ticked, its fold open.
func TestPickerRegistry(t *testing.T) {
	s, _ := start(t, Config{})
	var minor string
	for _, c := range crawlers.All() {
		if !c.Major {
			minor = c.Name
			break
		}
	}
	resp, err := http.Get("http://" + s.Addr() + "/")
	page := string(readBody(t, resp, err))
	if want := fmt.Sprintf(`placeholder="Search %d crawlers`, len(crawlers.All())); !strings.Contains(page, want) {
		t.Errorf("no %q", want)
	}
	if n := strings.Count(page, `name="agent" value=`); n != len(crawlers.All()) {
		t.Errorf("%d crawlers to pick, want the registry's %d", n, len(crawlers.All()))
	}
	if !strings.Contains(page, `<details class="more-crawlers" id="more_crawlers"><summary>`) {
		t.Errorf("the registry's other crawlers are not folded")
	}
	_, page = postPage(t, s, url.Values{"robots": {"User-agent: *\nDisallow: /x\n"}, "urls": {"/x"}, "agent": {minor}})
	if !strings.Contains(page, `value="`+html.EscapeString(minor)+`" checked`) || !strings.Contains(page, `id="more_crawlers" open`) {
		t.Errorf("%s, posted, is not ticked in an open fold", minor)
	}
}

// TestPageHeaders: every HTML page, the tester's and the logs page, shown or posted,
// runs only its own scripts and styles, cannot be framed, and sends its address only
// to this server (same-origin, so that the cross-site check of a posted form sees
// the Origin it expects).
func TestPageHeaders(t *testing.T) {
	s, _ := start(t, Config{})
	base := "http://" + s.Addr()
	for _, tt := range []struct {
		name string
		do   func() (*http.Response, error)
	}{
		{"GET /", func() (*http.Response, error) { return http.Get(base + "/") }},
		{"POST /", func() (*http.Response, error) {
			return http.PostForm(base+"/", url.Values{"robots": {"User-agent: *\nDisallow: /p\n"}, "urls": {"/p"}, "agent": {"Googlebot"}})
		}},
		{"GET /logs", func() (*http.Response, error) { return http.Get(base + "/logs") }},
		{"POST /logs", func() (*http.Response, error) {
			return http.PostForm(base+"/logs", url.Values{"robots": {logsRobots}, "log": {logsExample}})
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := tt.do()
			readBody(t, resp, err)
			if resp.StatusCode != 200 {
				t.Fatalf("status %d, want 200", resp.StatusCode)
			}
			h := resp.Header
			if got := h.Get("Content-Type"); got != "text/html; charset=utf-8" {
				t.Errorf("Content-Type %q, want text/html; charset=utf-8", got)
			}
			csp := h.Get("Content-Security-Policy")
			for _, want := range []string{"default-src 'self'", "script-src 'self'", "style-src 'self'", "form-action 'self'", "frame-ancestors 'none'"} {
				if !strings.Contains(csp, want) {
					t.Errorf("Content-Security-Policy %q lacks %q", csp, want)
				}
			}
			if got := h.Get("Referrer-Policy"); got != "same-origin" {
				t.Errorf("Referrer-Policy %q, want same-origin", got)
			}
		})
	}
}
