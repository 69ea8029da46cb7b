package serve

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// csvSite is a site whose sitemap lists /a and /b/x, and whose robots.txt
// disallows /b/ for every crawler (line 2) and everything for GPTBot (line 5).
func csvSite(t *testing.T) *httptest.Server {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o := "http://" + r.Host
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nDisallow: /b/\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: %s/sitemap.xml\n", o)
		case "/sitemap.xml":
			fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%[1]s/a</loc></url><url><loc>%[1]s/b/x</loc></url></urlset>`, o)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(site.Close)
	return site
}

// TestAuditCSV: the API and the tester export the audit's per-URL verdicts with the
// columns of robots audit -format csv; errors before the first row keep their form.
func TestAuditCSV(t *testing.T) {
	site := csvSite(t)
	s, _ := start(t, Config{AllowPrivate: true})
	want := "url,Googlebot,GPTBot\n" + site.URL + "/a,allowed,disallowed line 5\n" + site.URL + "/b/x,disallowed line 2,disallowed line 5\n"
	do := func(req *http.Request) (*http.Response, string) {
		t.Helper()
		resp, err := http.DefaultClient.Do(req)
		b := readBody(t, resp, err)
		return resp, strings.ReplaceAll(string(b), "\r\n", "\n")
	}
	api := func(query, accept, body string) *http.Request {
		req, _ := http.NewRequest("POST", "http://"+s.Addr()+"/v1/audit"+query, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		return req
	}
	form := url.Values{"mode": {"audit"}, "audit_url": {site.URL}, "agent": {"Googlebot", "GPTBot"}}
	page, _ := http.NewRequest("POST", "http://"+s.Addr()+"/audit.csv", strings.NewReader(form.Encode()))
	page.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	body := `{"url":"` + site.URL + `","agents":["Googlebot","GPTBot"]}`
	for _, tc := range []struct {
		name string
		req  *http.Request
	}{
		{"API, format=csv", api("?format=csv", "", body)},
		{"API, Accept: text/csv", api("", "text/csv", body)},
		{"tester", page},
	} {
		resp, got := do(tc.req)
		if resp.StatusCode != 200 || got != want {
			t.Errorf("%s: status %d\n%s\nwant\n%s", tc.name, resp.StatusCode, got, want)
		}
		host := strings.TrimPrefix(site.URL, "http://")
		if ct, cd := resp.Header.Get("Content-Type"), resp.Header.Get("Content-Disposition"); ct != "text/csv; charset=utf-8" ||
			cd != `attachment; filename="audit-`+strings.ReplaceAll(host, ":", "_")+`.csv"` {
			t.Errorf("%s: Content-Type %q, Content-Disposition %q", tc.name, ct, cd)
		}
		if v, ok := resp.Trailer[auditStoppedTrailer]; !ok || v[0] != "" {
			t.Errorf("%s: trailer %s = %q (set %v); want it empty: the audit read everything", tc.name, auditStoppedTrailer, v, ok)
		}
	}
	// A limit reached: the rows read, and the trailer says which limit.
	resp, got := do(api("?format=csv", "", `{"url":"`+site.URL+`","agents":["Googlebot"],"limits":{"urls":1}}`))
	if resp.StatusCode != 200 || got != "url,Googlebot\n"+site.URL+"/a,allowed\n" || resp.Trailer.Get(auditStoppedTrailer) != "max-urls" {
		t.Errorf("max 1 URL: status %d, trailer %q\n%s", resp.StatusCode, resp.Trailer.Get(auditStoppedTrailer), got)
	}
	resp, got = do(api("?format=csv", "", `{"agents":["Googlebot"]}`))
	if resp.StatusCode != 400 || resp.Header.Get("Content-Type") != "application/json" || !strings.Contains(got, `"error":"url is required`) {
		t.Errorf("no url: status %d %s; want 400 and a JSON error", resp.StatusCode, got)
	}
}
