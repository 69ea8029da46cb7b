package serve

import (
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorobots/robots/fetch"
)

// historyAnswer is the body of GET /v1/history as openapi.json documents it.
type historyAnswer struct {
	Error    string `json:"error"`
	Origin   string `json:"origin"`
	Limits   struct{ Versions, Bytes int }
	Agents   []string `json:"agents"`
	Versions []struct {
		N         int       `json:"n"`
		FetchedAt time.Time `json:"fetched_at"`
		SeenAt    time.Time `json:"seen_at"`
		Fetches   int       `json:"fetches"`
		Outcome   string    `json:"outcome"`
		Status    int       `json:"status"`
		Effect    string    `json:"effect"`
		Bytes     int       `json:"bytes"`
		SHA256    string    `json:"sha256"`
		Previous  *int      `json:"previous"`
		Body      *string   `json:"body"`
		Changes   []struct {
			Kind   string   `json:"kind"`
			Change string   `json:"change"`
			URL    string   `json:"url"`
			Agent  string   `json:"agent"`
			Agents []string `json:"agents"`
			Before *struct {
				Allowed *bool   `json:"allowed"`
				Rule    *string `json:"rule"`
				Line    int     `json:"line"`
			} `json:"before"`
			After *struct {
				Allowed *bool   `json:"allowed"`
				Rule    *string `json:"rule"`
				Line    int     `json:"line"`
			} `json:"after"`
		} `json:"changes"`
	} `json:"versions"`
}

// TestHistory: each refresh that finds another file is a version; the timeline
// says what each change did to which crawler, and one version comes with its body.
func TestHistory(t *testing.T) {
	v1 := "User-agent: *\nDisallow: /private/\n"
	v2 := "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n"
	o, s, clk := startClocked(t, v1, 60)
	path := "/v1/history?agent=Googlebot&agent=GPTBot&url=" + url.QueryEscape(o.URL)
	var h historyAnswer
	if code := get(t, s, path, &h); code != 200 {
		t.Fatalf("status %d: %s", code, h.Error)
	}
	if len(h.Versions) != 1 || h.Versions[0].N != 1 || h.Versions[0].Previous != nil || len(h.Versions[0].Changes) != 0 || h.Versions[0].Bytes != len(v1) {
		t.Fatalf("first look: %+v; want version 1 alone, of %d bytes, no changes", h.Versions, len(v1))
	}
	clk.advance(2 * time.Minute) // past max-age: fetched again, the same file
	get(t, s, path, &h)
	if len(h.Versions) != 1 || h.Versions[0].Fetches != 2 || !h.Versions[0].SeenAt.Equal(time.Date(2026, 11, 21, 12, 2, 0, 0, time.UTC)) {
		t.Fatalf("the same file again: %+v; want version 1 seen twice, last at 12:02", h.Versions)
	}
	o.set(200, v2, http.Header{"Cache-Control": {"max-age=60"}})
	clk.advance(2 * time.Minute)
	get(t, s, path, &h)
	if h.Limits.Versions != 20 || h.Limits.Bytes != 2<<20 || len(h.Agents) != 2 {
		t.Errorf("limits %+v, agents %q; want 20 versions, 2 MiB, the two agents asked", h.Limits, h.Agents)
	}
	if len(h.Versions) != 2 {
		t.Fatalf("after a change: %d versions; want 2", len(h.Versions))
	}
	v := h.Versions[0]
	if v.N != 2 || deref(v.Previous) != 1 || !v.FetchedAt.Equal(time.Date(2026, 11, 21, 12, 4, 0, 0, time.UTC)) || v.Outcome != "success" || v.Effect != "rules" {
		t.Errorf("latest version %+v; want 2, after 1, fetched 12:04, success, rules", v)
	}
	// GPTBot gains a group of its own, disallowing /: the root is blocked for it,
	// and /private/ stays blocked (now by line 5). Googlebot is not touched.
	var group, gptRoot bool
	for _, c := range v.Changes {
		switch {
		case c.Kind == "group" && c.Change == "added" && len(c.Agents) == 1 && c.Agents[0] == "GPTBot":
			group = true
		case c.Kind == "url" && c.Agent == "GPTBot" && c.URL == o.URL+"/" && *c.Before.Allowed && !*c.After.Allowed && c.After.Line == 5:
			gptRoot = true
		case c.Kind == "url":
			t.Errorf("unexpected verdict change %+v", c)
		}
	}
	if !group || !gptRoot {
		t.Errorf("changes %+v; want the GPTBot group added and its root blocked by line 5", v.Changes)
	}

	var one historyAnswer
	if code := get(t, s, path+"&version=1", &one); code != 200 || len(one.Versions) != 1 || deref(one.Versions[0].Body) != v1 || one.Versions[0].N != 1 {
		t.Errorf("version 1: status %d %+v; want its body %q", code, one.Versions, v1)
	}
	if code := get(t, s, path+"&version=9", &one); code != 404 {
		t.Errorf("version 9: status %d; want 404", code)
	}
	if code := get(t, s, path+"&version=x", &one); code != 400 {
		t.Errorf("version x: status %d; want 400", code)
	}
}

// TestAuditAgainstVersion: POST /v1/audit decides the live sitemaps by a version
// the store keeps ("version") or by a file given ("robots"), and says which.
func TestAuditAgainstVersion(t *testing.T) {
	var mu sync.Mutex
	robotsTxt := "User-agent: *\nDisallow: /b/\n"
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o := "http://" + r.Host
		switch r.URL.Path {
		case "/robots.txt":
			mu.Lock()
			defer mu.Unlock()
			w.Header().Set("Cache-Control", "max-age=60")
			fmt.Fprintf(w, "%sSitemap: %s/sitemap.xml\n", robotsTxt, o)
		case "/sitemap.xml":
			fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%[1]s/a</loc></url><url><loc>%[1]s/b/x</loc></url></urlset>`, o)
		default:
			http.NotFound(w, r)
		}
	}))
	defer site.Close()
	clk := newClock()
	s, _ := start(t, Config{AllowPrivate: true, Fetch: fetch.Config{Now: clk.now}})
	var h historyAnswer
	get(t, s, "/v1/history?url="+url.QueryEscape(site.URL), &h) // version 1
	mu.Lock()
	robotsTxt = "User-agent: *\nDisallow: /\n"
	mu.Unlock()
	clk.advance(2 * time.Minute)

	type auditAnswer struct {
		Error      string `json:"error"`
		RobotsFrom string `json:"robots_from"`
		Totals     struct {
			BlockedURLs map[string]int `json:"blocked_urls"`
		} `json:"totals"`
	}
	for _, tc := range []struct {
		name, extra string
		blocked     int
		from        string
	}{
		{"the live file (version 2)", ``, 2, ""},
		{"version 1", `,"version":1`, 1, "version 1 (fetched 2026-11-21T12:00:00Z)"},
		{"a file given", `,"robots":"User-agent: *\nAllow: /\nSitemap: ` + site.URL + `/sitemap.xml\n"`, 0, "the file given"},
	} {
		var a auditAnswer
		body := `{"url":"` + site.URL + `","agents":["Googlebot"]` + tc.extra + `}`
		if code := post(t, s, "/v1/audit", body, &a); code != 200 {
			t.Fatalf("%s: status %d %s", tc.name, code, a.Error)
		}
		if a.Totals.BlockedURLs["Googlebot"] != tc.blocked || a.RobotsFrom != tc.from {
			t.Errorf("%s: %d URLs blocked, robots_from %q; want %d, %q", tc.name, a.Totals.BlockedURLs["Googlebot"], a.RobotsFrom, tc.blocked, tc.from)
		}
	}
	var a auditAnswer
	if code := post(t, s, "/v1/audit", `{"url":"`+site.URL+`","version":5}`, &a); code != 404 {
		t.Errorf("version 5: status %d %q; want 404", code, a.Error)
	}
	if code := post(t, s, "/v1/audit", `{"url":"`+site.URL+`","version":1,"robots":""}`, &a); code != 400 {
		t.Errorf("version and robots: status %d %q; want 400", code, a.Error)
	}
}

// TestPageHistory: a file fetched in the tester shows its timeline, each change
// with what it did for the crawlers picked, and a link that opens the two versions
// in diff mode with the URLs the change decides.
func TestPageHistory(t *testing.T) {
	v1 := "User-agent: *\nDisallow: /private/\n"
	v2 := "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n"
	o, s, clk := startClocked(t, v1, 60)
	form := url.Values{"action": {"fetch"}, "fetch_url": {o.URL}, "urls": {"/"}, "agent": {"Googlebot", "GPTBot"}}
	code, page := postPage(t, s, form)
	if code != 200 || !strings.Contains(page, `id="version_1"`) || !strings.Contains(page, "The oldest version kept.") {
		t.Fatalf("first fetch: status %d; want the timeline with version 1 alone:\n%.3000s", code, page)
	}
	o.set(200, v2, http.Header{"Cache-Control": {"max-age=60"}})
	clk.advance(2 * time.Minute)
	code, page = postPage(t, s, form)
	i := strings.Index(page, `id="timeline"`)
	if code != 200 || i < 0 {
		t.Fatalf("second fetch: status %d, no timeline:\n%.3000s", code, page)
	}
	tl := page[i:]
	tl = tl[:strings.Index(tl, "</ol>")]
	for _, want := range []string{
		`id="version_2"`, "fetched 2026-11-21 12:02 UTC", "group added · <b>User-agent: GPTBot</b>",
		`<div class="vline add"><code>+ Disallow: /</code></div>`,
		`<li class="vverdict blocks"><b>GPTBot</b>: allowed (no rule matched) <span aria-label="becomes">→</span> disallowed (line 5: Disallow: /)`,
		`Compare version 1 with version 2 in the tester`,
	} {
		if !strings.Contains(html.UnescapeString(tl), want) {
			t.Errorf("timeline lacks %q:\n%s", want, tl)
		}
	}
	if strings.Contains(tl, "<b>Googlebot</b>") {
		t.Errorf("the timeline says Googlebot's verdicts changed; GPTBot's alone did:\n%s", tl)
	}
	// The link opens diff mode with both versions and the root URL, the path the
	// added rule names.
	j := strings.Index(tl, `<p class="vcompare"><a href="`)
	link := html.UnescapeString(tl[j+len(`<p class="vcompare"><a href="`):])
	link = link[:strings.Index(link, `"`)]
	resp, err := http.Get("http://" + s.Addr() + link)
	diff := string(readBody(t, resp, err))
	if !strings.Contains(diff, html.EscapeString(v1)) || !strings.Contains(diff, html.EscapeString(v2)) || !strings.Contains(diff, html.EscapeString(o.URL+"/")) {
		t.Errorf("compare link %s: the form lacks the two versions or the URL:\n%.4000s", link, diff)
	}
}

// TestPageHistoryTokens: a server with API tokens opens no version by a link (a GET
// carries no token): the compare link is left out and the page shows no file of
// the store.
func TestPageHistoryTokens(t *testing.T) {
	o := newOrigin(t, 200, "User-agent: *\nDisallow: /secret-plans/\n")
	s, _ := start(t, Config{AllowPrivate: true, Tokens: []string{"t0ken"}})
	req, _ := http.NewRequest("GET", "http://"+s.Addr()+"/v1/history?url="+url.QueryEscape(o.URL), nil)
	req.Header.Set("Authorization", "Bearer t0ken")
	resp, err := http.DefaultClient.Do(req)
	if b := readBody(t, resp, err); resp.StatusCode != 200 {
		t.Fatalf("history with the token: status %d %s", resp.StatusCode, b)
	}
	resp, err = http.Get("http://" + s.Addr() + "/?history=" + url.QueryEscape(o.URL) + "&old=1&new=1")
	if page := string(readBody(t, resp, err)); strings.Contains(page, "secret-plans") {
		t.Errorf("a GET without a token shows the store's file:\n%.2000s", page)
	}
}
