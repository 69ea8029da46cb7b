package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/gorobots/robots/audit"
	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/internal/testenv"
)

// variantSite serves GPTBot its own robots.txt, ClaudeBot a 403 and everyone else
// the real file, as CDNs and firewalls do; shop is a second host (another loopback
// server) with another file.
func variantSite(t *testing.T) (site, shop *testenv.Server) {
	site = testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		ua := r.Header.Get("User-Agent")
		switch {
		case r.URL.Path != "/robots.txt":
			http.NotFound(w, r)
		case strings.Contains(ua, "GPTBot"):
			fmt.Fprint(w, "User-agent: GPTBot\nAllow: /\n")
		case strings.Contains(ua, "ClaudeBot"):
			http.Error(w, "Forbidden", http.StatusForbidden)
		default:
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n")
		}
	})
	shop = testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, "User-agent: *\nDisallow: /cart/\n")
	})
	return site, shop
}

// TestAuditVariants: POST /v1/audit with hosts and as answers what each host and
// crawler receives ("variants", the command's -hosts and -as), and refuses an
// entry that names nothing.
func TestAuditVariants(t *testing.T) {
	site, shop := variantSite(t)
	s, _ := start(t, Config{AllowPrivate: true})
	status, _, body := postAudit(t, s, auditBody(t, map[string]any{
		"url": site.URL, "agents": []string{"GPTBot", "ClaudeBot"}, "as": []string{"GPTBot", "ClaudeBot"},
		"hosts": []string{shop.Listener.Addr().String()},
	}), nil)
	if status != 200 {
		t.Fatalf("status %d: %s", status, body)
	}
	var rep struct {
		Variants *audit.Variants `json:"variants"`
	}
	if err := json.Unmarshal(body, &rep); err != nil || rep.Variants == nil {
		t.Fatalf("%.300s: %v", body, err)
	}
	v := rep.Variants
	gpt, _ := crawlers.HeaderOf("GPTBot")
	type fetchWant struct {
		host, as, ua string
		status, file int
	}
	shopHost := shop.Listener.Addr().String()
	want := []fetchWant{
		{"site", "", "robots-fetch/1", 200, 1}, {"site", "GPTBot", gpt.Value, 200, 2}, {"site", "ClaudeBot", "Mozilla/5.0 (compatible; ClaudeBot)", 403, 0},
		{shopHost, "", "robots-fetch/1", 200, 3}, {shopHost, "GPTBot", gpt.Value, 200, 3}, {shopHost, "ClaudeBot", "Mozilla/5.0 (compatible; ClaudeBot)", 200, 3},
	}
	if len(v.Fetches) != len(want) || v.Files != 3 {
		t.Fatalf("%d fetches, %d files: %+v", len(v.Fetches), v.Files, v.Fetches)
	}
	for i, w := range want {
		f := v.Fetches[i]
		got := fetchWant{f.Host, f.As, f.UserAgent, f.Status, f.File}
		if !strings.HasPrefix(got.ua, w.ua) {
			t.Errorf("fetch %d sent %q, want %q", i, got.ua, w.ua)
		}
		got.ua = w.ua
		if got != w {
			t.Errorf("fetch %d = %+v, want %+v", i, got, w)
		}
	}
	var served []string
	for _, d := range v.Differences {
		if d.Host != "" {
			served = append(served, d.Agent+"@"+d.Host+": "+d.Readings[len(d.Readings)-1].Says)
		}
	}
	if got, wantS := strings.Join(served, "; "), "GPTBot@site: Allow: / (line 2); ClaudeBot@site: everything allowed (403: unavailable)"; got != wantS {
		t.Errorf("served differently: %s\nwant %s", got, wantS)
	}

	status, _, body = postAudit(t, s, auditBody(t, map[string]any{"url": site.URL, "as": []string{"NoSuchBot"}}), nil)
	if status != 400 || !strings.Contains(string(body), `NoSuchBot`) {
		t.Errorf("as NoSuchBot: %d %s, want 400 naming it", status, body)
	}
}

// TestRobotsVariants: GET /v1/robots with as (robots fetch -as) answers, beside the
// file, what GPTBot receives: its own file, which lets it fetch everything.
func TestRobotsVariants(t *testing.T) {
	site, _ := variantSite(t)
	s, _ := start(t, Config{AllowPrivate: true})
	resp, err := http.Get("http://" + s.Addr() + "/v1/robots?url=" + site.URL + "/&as=GPTBot")
	body := readBody(t, resp, err)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var ans struct {
		Status   int             `json:"status"`
		Variants *audit.Variants `json:"variants"`
	}
	if err := json.Unmarshal(body, &ans); err != nil || ans.Variants == nil {
		t.Fatalf("%.300s: %v", body, err)
	}
	v := ans.Variants
	if len(v.Fetches) != 2 || v.Fetches[1].As != "GPTBot" || v.Files != 2 || len(v.Differences) != 1 {
		t.Fatalf("variants %+v", v)
	}
	d := v.Differences[0]
	if d.Agent != "GPTBot" || d.Host != "site" || d.Readings[0].Says != "Disallow: / (line 5)" || d.Readings[1].Says != "Allow: / (line 2)" {
		t.Errorf("difference %+v", d)
	}
	resp, err = http.Get("http://" + s.Addr() + "/v1/robots?url=" + site.URL + "/")
	if body := readBody(t, resp, err); strings.Contains(string(body), `"variants"`) {
		t.Errorf("variants without hosts or as: %s", body)
	}
}
