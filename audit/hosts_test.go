package audit

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/testenv"
)

func TestHosts(t *testing.T) {
	for _, tc := range []struct {
		origin  string
		entries []string
		want    string // name=origin, space separated; "" when an error is wanted
	}{
		{"https://www.example.com", []string{"bare", "www", "http"},
			"site=https://www.example.com bare=https://example.com http=http://www.example.com"},
		{"https://example.com", []string{"all"},
			"site=https://example.com https_www=https://www.example.com http_www=http://www.example.com http_bare=http://example.com"},
		{"http://example.com:8080", []string{"www", "shop", "https"},
			"site=http://example.com:8080 www=http://www.example.com:8080 shop=http://shop.example.com:8080 https=https://example.com"},
		{"https://example.com", []string{"blog.example.org", "HTTPS://Example.com/robots.txt", "127.0.0.2:8080"},
			"site=https://example.com blog.example.org=https://blog.example.org 127.0.0.2:8080=http://127.0.0.2:8080"},
		{"http://127.0.0.1:8080", []string{"127.0.0.2:8080", "http"},
			"site=http://127.0.0.1:8080 127.0.0.2:8080=http://127.0.0.2:8080 http=http://127.0.0.1"},
		{"http://127.0.0.1:8080", []string{"www"}, ""},
		{"https://example.com", []string{"ftp://example.com"}, ""},
		{"https://example.com", []string{""}, ""},
		{"https://example.com", []string{"a b"}, ""},
	} {
		hs, err := Hosts(tc.origin, tc.entries)
		var got []string
		for _, h := range hs {
			got = append(got, strings.ReplaceAll(h.Name, " ", "_")+"="+h.Origin)
		}
		if tc.want == "" {
			if !errors.Is(err, ErrVariants) {
				t.Errorf("Hosts(%s, %q) = %v, %v; want an ErrVariants error", tc.origin, tc.entries, got, err)
			}
			continue
		}
		if err != nil || strings.Join(got, " ") != tc.want {
			t.Errorf("Hosts(%s, %q) = %s, %v\nwant %s", tc.origin, tc.entries, strings.Join(got, " "), err, tc.want)
		}
	}
	var many []string
	for i := range MaxHosts {
		many = append(many, fmt.Sprintf("h%d", i))
	}
	if _, err := Hosts("https://example.com", many); !errors.Is(err, ErrVariants) {
		t.Errorf("%d hosts: %v, want an error past MaxHosts", len(many)+1, err)
	}
}

func TestHeaders(t *testing.T) {
	hs, err := Headers([]string{"GPTBot", "claudebot", "gptbot"})
	if err != nil || len(hs) != 2 || hs[0].Crawler != "GPTBot" || hs[1].Crawler != "ClaudeBot" || hs[1].Documented() {
		t.Fatalf("Headers = %+v, %v", hs, err)
	}
	// major: the documented headers, then the major AI crawlers that fetch, whose
	// operators document the token only.
	major, err := Headers([]string{"major"})
	documented := crawlers.Headers()
	if err != nil || len(major) <= len(documented) || !slices.Equal(major[:len(documented)], documented) {
		t.Fatalf("major: %d headers, %v; want the %d documented first", len(major), err, len(documented))
	}
	for _, h := range major[len(documented):] {
		c, _ := crawlers.Lookup(h.Crawler)
		if h.Documented() || !c.Major || !slices.ContainsFunc(c.Purposes, crawlers.Purpose.IsAI) || !crawlers.Fetches(c.Name) {
			t.Errorf("major holds %+v", h)
		}
	}
	for _, name := range []string{"ClaudeBot", "Bytespider", "GPTBot", "Googlebot"} {
		if !slices.ContainsFunc(major, func(h crawlers.Header) bool { return h.Crawler == name }) {
			t.Errorf("major lacks %s", name)
		}
	}
	if slices.ContainsFunc(major, func(h crawlers.Header) bool { return h.Crawler == "Google-Extended" }) {
		t.Error("major holds Google-Extended, which fetches nothing")
	}
	ai, _ := Headers([]string{"ai-train"})
	if !slices.ContainsFunc(ai, func(h crawlers.Header) bool { return h.Crawler == "GPTBot" }) ||
		slices.ContainsFunc(ai, func(h crawlers.Header) bool { return h.Crawler == "Googlebot" }) {
		t.Errorf("ai-train: %+v", ai)
	}
	if _, err := Headers([]string{"NoSuchBot"}); !errors.Is(err, ErrVariants) {
		t.Errorf("NoSuchBot: %v", err)
	}
}

// hostDialer dials each host name to its own loopback server, as a resolver
// would; any other host has no address.
func hostDialer(hosts map[string]string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		to, ok := hosts[addr]
		if !ok {
			return nil, &net.DNSError{Err: "no such host", Name: addr, IsNotFound: true}
		}
		var d net.Dialer
		return d.DialContext(ctx, network, to)
	}
}

// Three hosts on three loopback servers: the bare host serves the file, www
// redirects to it, and the shop subdomain serves its own.
func TestVariantsHosts(t *testing.T) {
	bare := testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n")
	})
	www := testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://example.test"+r.URL.Path, http.StatusMovedPermanently)
	})
	shop := testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "# the shop\nUser-agent: *\nDisallow: /cart/\n")
	})
	dial := hostDialer(map[string]string{
		"example.test:80": bare.Listener.Addr().String(), "www.example.test:80": www.Listener.Addr().String(),
		"shop.example.test:80": shop.Listener.Addr().String(),
	})
	fc := fetch.NewClient(fetch.Config{DialContext: dial})
	hc := &http.Client{Transport: &http.Transport{DialContext: dial}}
	rep, err := Run(context.Background(), "http://example.test/", Config{
		Fetch: fc, HTTP: hc, Agents: []string{"Googlebot", "GPTBot"}, Hosts: []string{"www", "shop", "blog"},
	})
	if err != nil {
		t.Fatal(err)
	}
	v := rep.Variants
	type fetchWant struct {
		host, origin, redirectsTo string
		status, file              int
		outcome                   fetch.Outcome
	}
	want := []fetchWant{
		{"site", "http://example.test", "", 200, 1, fetch.Success},
		{"www", "http://www.example.test", "http://example.test", 200, 1, fetch.Success},
		{"shop", "http://shop.example.test", "", 200, 2, fetch.Success},
		{"blog", "http://blog.example.test", "", 0, 0, fetch.Unreachable},
	}
	if len(v.Fetches) != len(want) || v.Files != 2 {
		t.Fatalf("%d fetches, %d files: %+v", len(v.Fetches), v.Files, v.Fetches)
	}
	for i, w := range want {
		f := v.Fetches[i]
		got := fetchWant{f.Host, f.Origin, f.RedirectsTo, f.Status, f.File, f.Outcome}
		if got != w {
			t.Errorf("fetch %d = %+v, want %+v", i, got, w)
		}
	}
	if hops := v.Fetches[1].Hops; len(hops) != 2 || hops[0].Status != 301 || hops[1].URL != "http://example.test/robots.txt" {
		t.Errorf("www hops %+v", hops)
	}
	wantDiffs := []string{
		`Googlebot: [0 1] the "*" group: Disallow: /private/ (line 2) root=true | [2] the "*" group: Disallow: /cart/ (line 3) root=true | [3] everything disallowed (no answer: unreachable) root=false`,
		`GPTBot: [0 1] Disallow: / (line 5) root=false | [2] the "*" group: Disallow: /cart/ (line 3) root=true | [3] everything disallowed (no answer: unreachable) root=false`,
	}
	if got := diffStrings(v); !slices.Equal(got, wantDiffs) {
		t.Errorf("differences:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantDiffs, "\n"))
	}
	if !v.Served() || !rep.Fails() {
		t.Error("an unreachable host is not a failure")
	}
}

func diffStrings(v *Variants) []string {
	var out []string
	for _, d := range v.Differences {
		s := d.Agent
		if d.Host != "" {
			s += "@" + d.Host
		}
		var rs []string
		for _, r := range d.Readings {
			rs = append(rs, fmt.Sprintf("%v %s root=%v", r.Fetches, r.Says, r.RootAllowed))
		}
		out = append(out, s+": "+strings.Join(rs, " | "))
	}
	return out
}

// What each crawler receives: a loopback site serves GPTBot its own file,
// ClaudeBot a 403 and PerplexityBot a challenge page, the rest the real file.
func TestVariantsAs(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	site := testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		ua := r.Header.Get("User-Agent")
		if r.URL.Path == "/robots.txt" {
			mu.Lock()
			seen = append(seen, ua)
			mu.Unlock()
		}
		switch {
		case r.URL.Path != "/robots.txt":
			http.NotFound(w, r)
		case strings.Contains(ua, "GPTBot"):
			fmt.Fprint(w, "User-agent: GPTBot\nDisallow: /\n")
		case strings.Contains(ua, "ClaudeBot"):
			http.Error(w, "Forbidden", http.StatusForbidden)
		case strings.Contains(ua, "bingbot"):
			fmt.Fprint(w, "# served to bingbot at 12:00:01\nUser-agent: *\nDisallow: /private/\n")
		case strings.Contains(ua, "PerplexityBot"):
			fmt.Fprint(w, "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>")
		default:
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
		}
	})
	// bingbot receives other bytes that tell it the same: its own file number, no
	// difference.
	as := []string{"GPTBot", "ClaudeBot", "PerplexityBot", "bingbot"}
	rep, err := Run(context.Background(), site.URL, Config{Agents: []string{"GPTBot", "ClaudeBot", "PerplexityBot", "Googlebot"}, As: as})
	if err != nil {
		t.Fatal(err)
	}
	v := rep.Variants
	if len(v.Fetches) != 5 || v.Files != 4 {
		t.Fatalf("%d fetches, %d files: %+v", len(v.Fetches), v.Files, v.Fetches)
	}
	gpt, _ := crawlers.HeaderOf("GPTBot")
	mu.Lock()
	if !slices.Contains(seen, gpt.Value) || !slices.Contains(seen, fetch.DefaultUserAgent) {
		t.Errorf("headers seen %q; want GPTBot's documented one and the client's own", seen)
	}
	mu.Unlock()
	for i, w := range []struct {
		as           string
		status, file int
		page         bool
		source       string
	}{{"", 200, 1, false, ""}, {"GPTBot", 200, 2, false, "https://platform.openai.com/docs/bots"}, {"ClaudeBot", 403, 0, false, ""},
		{"PerplexityBot", 200, 3, true, "https://docs.perplexity.ai/guides/bots"}, {"bingbot", 200, 4, false, "https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0"}} {
		f := v.Fetches[i]
		if f.As != w.as || f.Status != w.status || f.File != w.file || f.Page != w.page || f.UserAgentSource != w.source {
			t.Errorf("fetch %d = %+v, want %+v", i, f, w)
		}
	}
	wantDiffs := []string{
		`GPTBot@site: [0] the "*" group: Disallow: /private/ (line 2) root=true | [1] Disallow: / (line 2) root=false`,
		`ClaudeBot@site: [0] the "*" group: Disallow: /private/ (line 2) root=true | [2] everything allowed (403: unavailable) root=true`,
		`PerplexityBot@site: [0] the "*" group: Disallow: /private/ (line 2) root=true | [3] an HTML page, not a robots.txt: no group applies: everything allowed root=true`,
	}
	if got := diffStrings(v); !slices.Equal(got, wantDiffs) {
		t.Errorf("differences:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantDiffs, "\n"))
	}
	if !rep.Fails() {
		t.Error("crawlers served another file: not a failure")
	}
}
