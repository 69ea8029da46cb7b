package serve

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// stanceRows returns the rows of the tester's "By purpose" answers as
// "URL|purpose|verdict|crawlers", in order, from the page's HTML.
func stanceRows(t *testing.T, page string) []string {
	t.Helper()
	i := strings.Index(page, `id="by_purpose"`)
	if i < 0 {
		t.Fatalf("no answers per purpose on the page:\n%.3000s", page)
	}
	sec := page[i:]
	sec = sec[:strings.Index(sec, "</section>")]
	var out []string
	for _, part := range strings.Split(sec, `<div class="stance-url"><h3>`)[1:] {
		u := strings.ReplaceAll(part[:strings.Index(part, "</h3>")], "<wbr>", "")
		if j := strings.Index(u, " <span"); j >= 0 {
			u = u[:j]
		}
		for _, row := range strings.Split(part, `<th scope="row" class="purpose">`)[1:] {
			purpose := row[:strings.Index(row, "</th>")]
			v := row[strings.Index(row, `<span class="status`):]
			v = v[strings.Index(v, ">")+1 : strings.Index(v, "</span>")]
			a := row[strings.Index(row, `<span class="agents">`)+len(`<span class="agents">`):]
			a = a[:strings.Index(a, "</span>")]
			out = append(out, u+"|"+purpose+"|"+v+"|"+a)
		}
	}
	return out
}

// TestPagePurposes: the tester answers per purpose for the crawlers picked that serve
// it (a crawler the registry does not know, for every purpose), from the pasted file:
// GPTBot is blocked by its group whatever the purpose; the others may fetch, and are
// told train-ai=n by Content-Usage while Content-Signal says ai-train=yes — a
// contradiction named beside the answer, which is the most restrictive (disallowed).
func TestPagePurposes(t *testing.T) {
	s, _ := start(t, Config{})
	file := "User-agent: *\nAllow: /\nContent-Usage: train-ai=n\nContent-Signal: ai-train=yes, search=yes\n\nUser-agent: GPTBot\nDisallow: /\n"
	code, page := postPage(t, s, url.Values{"action": {"test"}, "robots": {file}, "urls": {"/a"}, "agent": {"Googlebot", "GPTBot"}, "more_agents": {"ExampleBot"}})
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	want := []string{
		"/a|search|allowed|Googlebot, ExampleBot",
		"/a|ai-train|blocked|GPTBot",
		"/a|ai-train|disallowed|ExampleBot",
		"/a|ai-input|unknown|ExampleBot",
		"/a|ai-search|unknown|ExampleBot",
		"/a|ai-user|unknown|ExampleBot",
	}
	if got := stanceRows(t, page); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("answers per purpose:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(page, "<strong>Contradiction:</strong> Content-Usage says train-ai=n (line 3); Content-Signal says ai-train=yes (line 4)") {
		t.Errorf("the contradiction between Content-Usage and Content-Signal is not named")
	}
}

// TestPageReadings: beside each verdict, the tester says when Google's reading and
// RFC 9309's (with draft-ietf-aipref-attach) give the crawler other usage: the issue's
// file tells ExampleBot train-ai=n in Google's reading and nothing in RFC 9309's, in
// both directions; OtherBot, told the same by both, gets no note.
func TestPageReadings(t *testing.T) {
	s, _ := start(t, Config{})
	file := "User-Agent: *\nContent-Usage: train-ai=n\n\nUser-Agent: ExampleBot\nAllow: /\n"
	for _, tc := range []struct {
		dialect, want string
	}{
		{"google", `<small class="readings" title="`},
		{"rfc9309", ""},
	} {
		code, page := postPage(t, s, url.Values{"action": {"test"}, "robots": {file}, "urls": {"/x"}, "more_agents": {"ExampleBot, OtherBot"}, "dialect": {tc.dialect}})
		if code != 200 {
			t.Fatalf("%s: status %d", tc.dialect, code)
		}
		cells := page[strings.Index(page, `<table id="verdicts">`):]
		cells = cells[:strings.Index(cells, "</table>")]
		want := map[string]string{"google": "readings differ: rfc9309 reads no preference", "rfc9309": "readings differ: google reads train-ai=n (line 2)"}[tc.dialect]
		if n := strings.Count(cells, `class="readings"`); n != 1 || !strings.Contains(cells, ">"+want+"</small>") {
			t.Errorf("%s: %d verdicts with a readings note, want 1 (ExampleBot's) saying %q:\n%s", tc.dialect, n, want, cells)
		}
		// The answer per purpose says it too.
		if !strings.Contains(page, `<p class="readings">the readings differ: `) {
			t.Errorf("%s: the answers per purpose do not say that the readings differ", tc.dialect)
		}
	}
}

// TestPagePurposesFetched: for a fetched site the answers read its RSL licence and
// tdmrep.json too (a loopback site): training is permitted by the licence for a
// subscription and reserved by TDMRep, and Content-Usage says train-ai=n.
func TestPagePurposesFetched(t *testing.T) {
	site := signalsSite(t)
	s, _ := start(t, Config{AllowPrivate: true})
	code, page := postPage(t, s, url.Values{"action": {"fetch"}, "fetch_url": {site.URL}, "urls": {"/blog/post"}, "agent": {"GPTBot"}})
	if code != 200 {
		t.Fatalf("status %d; page:\n%.3000s", code, page)
	}
	got := strings.Join(stanceRows(t, page), "\n")
	if !strings.Contains(got, site.URL+"/blog/post|ai-train|disallowed|GPTBot") {
		t.Errorf("answers:\n%s\nwant ai-train disallowed for GPTBot at /blog/post", got)
	}
	for _, want := range []string{
		`<span class="src">rsl</span> the licence ` + site.URL + `/license.xml permits ai-train (payment: subscription https://example.com/contact)`,
		`<span class="src">tdmrep</span> text and data mining reserved`,
		`its RSL licences (License lines) and the site&#39;s tdmrep.json`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// signalsSite is a loopback site with every signal but pages: robots.txt with
// Content-Usage and a License line, the RSL licence it names and tdmrep.json.
func signalsSite(t *testing.T) *httptest.Server {
	var site *httptest.Server
	site = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte("User-agent: *\nAllow: /\nContent-Usage: train-ai=n\nLicense: " + site.URL + "/license.xml\n"))
		case "/license.xml":
			w.Header().Set("Content-Type", "application/rsl+xml")
			w.Write([]byte(`<rsl xmlns="https://rslstandard.org/rsl"><content url="/"><license><permits type="usage">ai-train search</permits><payment type="subscription"><custom>https://example.com/contact</custom></payment></license></content></rsl>`))
		case "/.well-known/tdmrep.json":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`[{"location": "/blog/", "tdm-reservation": 1}]`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(site.Close)
	return site
}

// TestCheckPurposes: GET /v1/check?purposes=true answers per purpose for the crawler
// at the URL from every signal of the site but its pages (the loopback site: robots.txt
// says train-ai=n, the RSL licence permits ai-train for a subscription, tdmrep.json
// reserves /blog/), with the contradictions named; without purposes=true, none; with
// several agents, 400; for a site that cannot be reached, blocked for every purpose.
func TestCheckPurposes(t *testing.T) {
	site := signalsSite(t)
	s, _ := start(t, Config{AllowPrivate: true})
	var a struct {
		Allowed  bool `json:"allowed"`
		Purposes []struct {
			Purpose        string   `json:"purpose"`
			Agent          string   `json:"agent"`
			Verdict        string   `json:"verdict"`
			Contradictions []string `json:"contradictions"`
			Signals        []struct {
				Source, Verdict string
			} `json:"signals"`
		} `json:"purposes"`
		Problems []string `json:"signal_problems"`
	}
	if code := get(t, s, checkPath([]string{"GPTBot"}, site.URL+"/blog/post")+"&purposes=true", &a); code != 200 || len(a.Purposes) != 5 || a.Problems == nil {
		t.Fatalf("status %d, %d purposes, problems %v", code, len(a.Purposes), a.Problems)
	}
	var got []string
	for _, p := range a.Purposes {
		var src []string
		for _, sg := range p.Signals {
			src = append(src, sg.Source+"="+sg.Verdict)
		}
		got = append(got, p.Purpose+" "+p.Verdict+" ["+strings.Join(src, " ")+"] "+strings.Join(p.Contradictions, "; "))
	}
	// The licence permits ai-train and search only, for a subscription: licensed
	// where it is the only signal (search); everything else of its type is not
	// permitted (rsl's reading: a <permits> lists all that is permitted), so
	// ai-input, ai-search (RSL's ai-index) and ai-user (ai-input) are disallowed.
	lic := "the licence " + site.URL + "/license.xml permits ai-train (payment: subscription https://example.com/contact)"
	want := []string{
		"search licensed [robots.txt=allowed rsl=licensed] ",
		"ai-train disallowed [robots.txt=allowed content-usage=disallowed rsl=licensed tdmrep=disallowed] " +
			"Content-Usage says train-ai=n (line 3); RSL says " + lic + " (a use disallowed unless licensed); " +
			"TDMRep says text and data mining reserved (tdmrep.json rule 1 (/blog/)); RSL says " + lic + " (a use disallowed unless licensed)",
		"ai-input disallowed [robots.txt=allowed rsl=disallowed tdmrep=disallowed] ",
		"ai-search disallowed [robots.txt=allowed rsl=disallowed] ",
		"ai-user disallowed [robots.txt=allowed rsl=disallowed] ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("purposes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var plain map[string]any
	if code := get(t, s, checkPath([]string{"GPTBot"}, site.URL+"/blog/post"), &plain); code != 200 || plain["purposes"] != nil {
		t.Errorf("without purposes=true: status %d, purposes %v", code, plain["purposes"])
	}
	if code := get(t, s, checkPath([]string{"GPTBot", "CCBot"}, site.URL+"/")+"&merge_agents=true&purposes=true", &plain); code != 400 {
		t.Errorf("two agents with purposes=true: status %d, want 400", code)
	}
	var e struct {
		Error string `json:"error"`
	}
	if code := post(t, s, "/v1/check", `{"agent":"GPTBot","urls":["`+site.URL+`/"],"purposes":true}`, &e); code != 400 || !strings.Contains(e.Error, "GET /v1/check?purposes=true") {
		t.Errorf("a batch with purposes: status %d, %q; want 400 naming GET /v1/check?purposes=true", code, e.Error)
	}
	down := newOrigin(t, 503, "")
	if code := get(t, s, checkPath([]string{"GPTBot"}, down.URL+"/x")+"&purposes=true", &a); code != 200 || len(a.Purposes) != 5 || a.Purposes[0].Verdict != "blocked" || a.Purposes[4].Verdict != "blocked" {
		t.Errorf("unreachable site: status %d, %+v; want blocked for every purpose", code, a.Purposes)
	}
}

// TestAuditPagePages: the tester's audit reads the pages asked for ("pages", as robots
// audit -pages): the root page's meta robots noindex joins the answers per purpose
// (search disallowed for Googlebot, the page read); a count past 100 is refused.
func TestAuditPagePages(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte("User-agent: *\nAllow: /\n"))
		case "/":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<html><head><meta name="robots" content="noindex"><title>home</title></head><body>home</body></html>`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(site.Close)
	s, _ := start(t, Config{AllowPrivate: true})
	form := url.Values{"mode": {"audit"}, "action": {"audit"}, "audit_url": {site.URL}, "agent": {"Googlebot"}, "pages": {"1"}}
	code, page := postPage(t, s, form)
	if code != 200 {
		t.Fatalf("status %d:\n%.2000s", code, page)
	}
	rows := strings.Join(stanceRows(t, page), "\n")
	if !strings.Contains(rows, site.URL+"/|search|disallowed|Googlebot") || !strings.Contains(page, "the page read too") || !strings.Contains(page, `<span class="src">robots-tag</span> noindex (meta robots)`) {
		t.Errorf("answers with the page read:\n%s", rows)
	}
	form.Set("pages", "101")
	if code, page := postPage(t, s, form); code != 400 || !strings.Contains(page, "want 0 to 100") {
		t.Errorf("pages 101: status %d", code)
	}
}
