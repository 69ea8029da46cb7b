package audit

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/testenv"
	"golang.org/x/sync/semaphore"
)

// site is a small site for table tests: path → body, "{A}" standing for its URL.
// A body "STATUS 503" answers that status; "HANG" holds the request until the
// client gives up (or 10 s pass).
type site map[string]string

func (s site) start(t *testing.T) string {
	var base string
	srv := testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		body, ok := s[r.URL.RequestURI()]
		if !ok {
			http.NotFound(w, r)
			return
		}
		var code int
		if _, err := fmt.Sscanf(body, "STATUS %d", &code); err == nil {
			w.WriteHeader(code)
			return
		}
		if body == "HANG" {
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
			return
		}
		w.Write([]byte(strings.ReplaceAll(body, "{A}", base)))
	})
	base = srv.URL
	return base
}

// set is a urlset of the given paths.
func set(paths ...string) string {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n")
	for _, p := range paths {
		if !strings.Contains(p, "://") {
			p = "{A}" + p
		}
		fmt.Fprintf(&b, "<url><loc>%s</loc></url>\n", p)
	}
	b.WriteString("</urlset>\n")
	return b.String()
}

// index is a sitemap index of the given paths.
func index(paths ...string) string {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n")
	for _, p := range paths {
		fmt.Fprintf(&b, "<sitemap><loc>{A}%s</loc></sitemap>\n", p)
	}
	b.WriteString("</sitemapindex>\n")
	return b.String()
}

func seq(prefix string, n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("%s%d", prefix, i))
	}
	return out
}

// state summarises a report for the table: each sitemap's path and status (with
// the error's first words when it has one).
func state(base string, rep *Report) []string {
	var out []string
	for _, s := range rep.Sitemaps {
		v := strings.TrimPrefix(s.URL, base) + " " + s.Status
		if s.Status == StatusSkipped {
			v += ": " + s.Error
		}
		out = append(out, v)
	}
	return out
}

func TestRun(t *testing.T) {
	const disallowAll = "User-agent: *\nDisallow: /\n"
	tests := []struct {
		name    string
		site    site
		cfg     Config
		check   func(t *testing.T, base string, rep *Report)
		urls    int      // Totals.URLs (-1: see check)
		blocked []int    // Totals.BlockedURLs
		maps    []string // state(rep)
		stopped string
	}{
		{
			name: "max-depth",
			site: site{"/robots.txt": "Sitemap: {A}/i0.xml\n", "/i0.xml": index("/i1.xml"), "/i1.xml": index("/i2.xml"),
				"/i2.xml": index("/s.xml"), "/s.xml": set("/a")},
			cfg:  Config{Limits: Limits{Depth: 1}},
			maps: []string{"/i0.xml ok", "/i1.xml ok", "/i2.xml skipped: not read: nested deeper than -max-depth 1"},
		},
		{
			name: "depth within the limit",
			site: site{"/robots.txt": "Sitemap: {A}/i0.xml\n", "/i0.xml": index("/i1.xml"), "/i1.xml": index("/s.xml"), "/s.xml": set("/a", "/b")},
			cfg:  Config{Limits: Limits{Depth: 2}},
			urls: 2, maps: []string{"/i0.xml ok", "/i1.xml ok", "/s.xml ok"},
		},
		{
			name: "max-sitemaps",
			site: site{"/robots.txt": "Sitemap: {A}/i.xml\n", "/i.xml": index("/1.xml", "/2.xml", "/3.xml", "/4.xml"),
				"/1.xml": set("/a"), "/2.xml": set("/b"), "/3.xml": set("/c"), "/4.xml": set("/d")},
			cfg:  Config{Limits: Limits{Sitemaps: 3}},
			urls: 2, stopped: "max-sitemaps",
			maps: []string{"/i.xml ok", "/1.xml ok", "/2.xml ok", "/3.xml skipped: not read: past -max-sitemaps", "/4.xml skipped: not read: past -max-sitemaps"},
		},
		{
			name: "max-urls",
			site: site{"/robots.txt": "Sitemap: {A}/1.xml\nSitemap: {A}/2.xml\nSitemap: {A}/3.xml\n",
				"/1.xml": set(seq("/a", 5)...), "/2.xml": set(seq("/b", 5)...), "/3.xml": set("/c")},
			cfg:  Config{Limits: Limits{URLs: 7}},
			urls: 7, stopped: "max-urls",
			maps: []string{"/1.xml ok", "/2.xml ok", "/3.xml skipped: not read: the audit stopped at -max-urls"},
			check: func(t *testing.T, base string, rep *Report) {
				if s := rep.Sitemaps[1]; s.URLs != 2 || !strings.Contains(s.Error, "read in part") {
					t.Errorf("2.xml: %d URLs, error %q; want 2, read in part", s.URLs, s.Error)
				}
			},
		},
		{
			name: "max-file-urls",
			site: site{"/robots.txt": "Sitemap: {A}/1.xml\n", "/1.xml": set(seq("/a", 5)...)},
			cfg:  Config{Limits: Limits{FileURLs: 3}},
			urls: 3, maps: []string{"/1.xml over-limit"},
		},
		{
			name: "max-file-bytes",
			site: site{"/robots.txt": "Sitemap: {A}/1.xml\n", "/1.xml": set(seq("/a", 50)...)},
			cfg:  Config{Limits: Limits{FileBytes: 300}},
			urls: -1, maps: []string{"/1.xml over-limit"},
			check: func(t *testing.T, base string, rep *Report) {
				// The entries whose </url> ends within the first 300 bytes.
				body := strings.ReplaceAll(set(seq("/a", 50)...), "{A}", base)[:300]
				want := strings.Count(body, "</url>")
				if s := rep.Sitemaps[0]; s.URLs != want || rep.Totals.URLs != want || !strings.Contains(s.Error, "300 bytes") {
					t.Errorf("1.xml: %d URLs, error %q; want %d and the limit named", s.URLs, s.Error, want)
				}
			},
		},
		{
			name:    "timeout",
			site:    site{"/robots.txt": "Sitemap: {A}/slow.xml\nSitemap: {A}/next.xml\n", "/slow.xml": "HANG", "/next.xml": set("/a")},
			cfg:     Config{Limits: Limits{Time: 300 * time.Millisecond}},
			stopped: "timeout",
			maps:    []string{"/slow.xml unreachable", "/next.xml skipped: not read: the audit stopped at the time limit (-timeout)"},
		},
		{
			name:    "timeout while the last sitemap is asked for",
			site:    site{"/robots.txt": "Sitemap: {A}/s.xml\nSitemap: {A}/slow.xml\n", "/s.xml": set("/a"), "/slow.xml": "HANG"},
			cfg:     Config{Limits: Limits{Time: 300 * time.Millisecond}},
			urls:    1,
			stopped: "timeout",
			maps:    []string{"/s.xml ok", "/slow.xml unreachable"},
			check: func(t *testing.T, base string, rep *Report) {
				if e := rep.Sitemaps[1].Error; e != "no answer before the audit stopped at the time limit (-timeout)" {
					t.Errorf("slow.xml: error %q, want the time limit named", e)
				}
			},
		},
		{
			name: "fallback",
			site: site{"/robots.txt": "User-agent: *\nDisallow: /x\n", "/sitemap.xml": set("/a", "/x")},
			cfg:  Config{Agents: []string{"FooBot"}},
			urls: 2, blocked: []int{1}, maps: []string{"/sitemap.xml ok"},
			check: func(t *testing.T, base string, rep *Report) {
				if !rep.SitemapFallback || rep.Sitemaps[0].Source != SourceFallback {
					t.Error("SitemapFallback not set")
				}
			},
		},
		{
			name: "fallback missing is no problem",
			site: site{"/robots.txt": "User-agent: *\nDisallow: /x\n"},
			maps: []string{"/sitemap.xml unreachable"},
			check: func(t *testing.T, base string, rep *Report) {
				if len(rep.Broken()) != 0 || rep.BlocksAny() {
					t.Errorf("Broken() = %v, BlocksAny() = %v; want none, false", rep.Broken(), rep.BlocksAny())
				}
			},
		},
		{
			name: "robots.txt 503: everything disallowed, no rule",
			site: site{"/robots.txt": "STATUS 503", "/sitemap.xml": set("/a", "/b")},
			cfg:  Config{Agents: []string{"FooBot", "Googlebot"}},
			urls: 2, blocked: []int{2, 2}, maps: []string{"/sitemap.xml ok"},
			check: func(t *testing.T, base string, rep *Report) {
				if rep.Robots.Effect != fetch.DisallowAll || len(rep.Blocked) != 1 || rep.Blocked[0].Rule != nil || rep.Blocked[0].Line != 0 ||
					!slices.Equal(rep.Blocked[0].Agents, []string{"FooBot", "Googlebot"}) {
					t.Errorf("effect %v, blocked %+v; want disallow-all, one block without a rule", rep.Robots.Effect, rep.Blocked)
				}
				if len(rep.Sitemaps[0].Blocked) != 1 || rep.Sitemaps[0].Blocked[0].Rule != nil {
					t.Errorf("the sitemap's blocks %+v, want one without a rule", rep.Sitemaps[0].Blocked)
				}
			},
		},
		{
			name: "site down: robots.txt 503 and no /sitemap.xml",
			site: site{"/robots.txt": "STATUS 503", "/sitemap.xml": "STATUS 503"},
			cfg:  Config{Agents: []string{"FooBot"}},
			maps: []string{"/sitemap.xml unreachable"},
			check: func(t *testing.T, base string, rep *Report) {
				// The missing fallback is not a sitemap crawlers are kept from.
				if len(rep.Sitemaps[0].Blocked) != 0 || rep.BlocksAny() || rep.Robots.Effect != fetch.DisallowAll {
					t.Errorf("blocked %+v, BlocksAny %v, effect %v; want none, false, disallow-all", rep.Sitemaps[0].Blocked, rep.BlocksAny(), rep.Robots.Effect)
				}
			},
		},
		{
			name: "robots.txt 404: everything allowed",
			site: site{"/robots.txt": "STATUS 404", "/sitemap.xml": set("/a", "/b")},
			cfg:  Config{Agents: []string{"FooBot"}},
			urls: 2, blocked: []int{0}, maps: []string{"/sitemap.xml ok"},
		},
		{
			name: "dialect legacy1996: the first matching rule",
			site: site{"/robots.txt": "User-agent: *\nDisallow: /a\nAllow: /a/b\n\nSitemap: {A}/s.xml\n", "/s.xml": set("/a/b", "/a/c")},
			cfg:  Config{Agents: []string{"FooBot"}, Dialect: robots.Legacy1996},
			urls: 2, blocked: []int{2}, maps: []string{"/s.xml ok"},
		},
		{
			name: "dialect google: the longest rule",
			site: site{"/robots.txt": "User-agent: *\nDisallow: /a\nAllow: /a/b\n\nSitemap: {A}/s.xml\n", "/s.xml": set("/a/b", "/a/c")},
			cfg:  Config{Agents: []string{"FooBot"}},
			urls: 2, blocked: []int{1}, maps: []string{"/s.xml ok"},
		},
		{
			name: "URLs on other origins and not URLs",
			site: site{"/robots.txt": "Sitemap: {A}/s.xml\n", "/s.xml": set("/a", "https://example.com/b", "ftp://example.com/c", "mailto:x@example.com", "not a url")},
			urls: 1, maps: []string{"/s.xml ok"},
			check: func(t *testing.T, base string, rep *Report) {
				if rep.Totals.OffOriginURLs != 2 || rep.Totals.InvalidURLs != 2 {
					t.Errorf("%d off origin, %d invalid; want 2, 2", rep.Totals.OffOriginURLs, rep.Totals.InvalidURLs)
				}
			},
		},
		{
			name: "URLs decided as a browser requests them",
			site: site{"/robots.txt": "User-agent: *\nDisallow: /caf%C3%A9/\n\nSitemap: {A}/s.xml\n", "/s.xml": set("/café/menu", "/caf%C3%A9/carte", "/a/../café/x")},
			cfg:  Config{Agents: []string{"FooBot"}},
			urls: 3, blocked: []int{3}, maps: []string{"/s.xml ok"},
			check: func(t *testing.T, base string, rep *Report) {
				want := []string{base + "/caf%C3%A9/menu", base + "/caf%C3%A9/carte", base + "/caf%C3%A9/x"}
				if !slices.Equal(rep.Blocked[0].Examples, want) {
					t.Errorf("examples %v, want %v", rep.Blocked[0].Examples, want)
				}
			},
		},
		{
			name: "a sitemap listed twice is read once",
			site: site{"/robots.txt": "Sitemap: {A}/s.xml\nSitemap: {A}/s.xml\n", "/s.xml": set("/a")},
			urls: 1, maps: []string{"/s.xml ok"},
		},
		{
			name: "a Sitemap line that is not a URL",
			site: site{"/robots.txt": "Sitemap: /s.xml\nSitemap: {A}/t.xml\n", "/t.xml": set("/a")},
			urls: 1, maps: []string{"/s.xml invalid", "/t.xml ok"},
		},
		{
			name: "default crawlers",
			site: site{"/robots.txt": disallowAll + "Sitemap: {A}/s.xml\n", "/s.xml": set("/a")},
			urls: 1, maps: []string{"/s.xml ok"},
			check: func(t *testing.T, base string, rep *Report) {
				if !slices.Equal(rep.Agents, crawlers.Names()) || rep.Blocked[0].URLs != 1 || len(rep.Blocked[0].Agents) != len(crawlers.Names()) {
					t.Errorf("agents %v, blocked %+v; want every major crawler blocked", rep.Agents, rep.Blocked)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := tc.site.start(t)
			rep, err := Run(context.Background(), base, tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := state(base, rep); !slices.Equal(got, tc.maps) {
				t.Errorf("sitemaps:\n got %q\nwant %q", got, tc.maps)
			}
			if tc.urls >= 0 && rep.Totals.URLs != tc.urls {
				t.Errorf("%d URLs, want %d", rep.Totals.URLs, tc.urls)
			}
			if tc.blocked != nil && !slices.Equal(rep.Totals.BlockedURLs, tc.blocked) {
				t.Errorf("blocked %v, want %v", rep.Totals.BlockedURLs, tc.blocked)
			}
			if rep.Stopped != tc.stopped {
				t.Errorf("stopped %q, want %q", rep.Stopped, tc.stopped)
			}
			if tc.check != nil {
				tc.check(t, base, rep)
			}
		})
	}
}

func TestRunErrors(t *testing.T) {
	for _, target := range []string{"search", "mailto:x@example.com", "", "ftp://example.com/", "/robots.txt"} {
		t.Run(target, func(t *testing.T) {
			if _, err := Run(context.Background(), target, Config{}); !errors.Is(err, ErrTarget) {
				t.Errorf("Run(%q) = %v, want ErrTarget", target, err)
			}
		})
	}
	t.Run("canceled", func(t *testing.T) {
		base := site{"/robots.txt": "Sitemap: {A}/s.xml\n", "/s.xml": "HANG"}.start(t)
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		if _, err := Run(ctx, base, Config{}); !errors.Is(err, context.Canceled) {
			t.Errorf("Run = %v, want context.Canceled", err)
		}
	})
}

// TestPrefetch: the sitemaps of the queue are requested ahead of the one being
// read, at most MaxPrefetch ahead, and every answer is read in the queue's order.
func TestPrefetch(t *testing.T) {
	var mu sync.Mutex
	inFlight, most := 0, 0
	second := make(chan struct{})
	var once sync.Once
	var base string
	srv := testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			for i := range 8 {
				fmt.Fprintf(w, "Sitemap: %s/s%d.xml\n", base, i)
			}
			return
		}
		mu.Lock()
		inFlight++
		most = max(most, inFlight)
		if inFlight == 2 {
			once.Do(func() { close(second) })
		}
		mu.Unlock()
		// Every sitemap answers once two requests have been in flight at once (or
		// after 5 s, when nothing is requested ahead): whichever arrives first, the
		// one being read or one requested ahead of it, waits for the other.
		select {
		case <-second:
		case <-time.After(5 * time.Second):
		}
		fmt.Fprint(w, strings.ReplaceAll(set(r.URL.Path+"/a"), "{A}", base))
		mu.Lock()
		inFlight--
		mu.Unlock()
	})
	base = srv.URL
	rep, err := Run(context.Background(), base, Config{Agents: []string{"FooBot"}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Totals.URLs != 8 || rep.Sitemaps[0].URL != base+"/s0.xml" || rep.Sitemaps[7].URL != base+"/s7.xml" {
		t.Errorf("%d URLs, sitemaps %q; want 8, in order", rep.Totals.URLs, state(base, rep))
	}
	if most < 2 || most > MaxPrefetch+1 {
		t.Errorf("at most %d requests at once, want 2 to %d", most, MaxPrefetch+1)
	}
}

// TestClasses: deciding once per class of crawlers gives every crawler the verdict
// and rule that deciding for it alone gives, under every dialect, for files whose
// groups name crawlers alone, together, and by prefixes of one another.
func TestClasses(t *testing.T) {
	files := []string{
		"User-agent: *\nDisallow: /a\n\nUser-agent: Googlebot\nDisallow: /b\n\nUser-agent: Googlebot-Image\nUser-agent: bingbot\nAllow: /a\nDisallow: /c\n",
		"User-agent: googlebot\nDisallow: /x\nUser-agent: Google\nDisallow: /y\n\nUser-agent: *\nAllow: /\nDisallow: /*.pdf$\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: googlebot\nAllow: /x/ok\n",
		"User-agent: Mediapartners-Google\nDisallow:\n\nUser-agent: bot\nDisallow: /bot\n\nUser-agent: MJ12bot\nDisallow: /m\n",
	}
	agents := append(crawlers.Names(), "FooBot", "google", "Bot")
	urls := []string{"/", "/a", "/a/b", "/b", "/c", "/x", "/x/ok", "/y", "/f.pdf", "/bot", "/m", "/search?q=1"}
	for _, d := range robots.Dialects() {
		for fi, body := range files {
			t.Run(fmt.Sprintf("%s/%d", d, fi), func(t *testing.T) {
				rb := robots.Parse([]byte(body), robots.WithDialect(d))
				dc := newDecider(rb, fetch.ObeyRules, agents)
				if len(dc.rep) >= len(agents) {
					t.Errorf("%d classes for %d crawlers", len(dc.rep), len(agents))
				}
				for _, u := range urls {
					u = "https://example.com" + u
					dc.decide(u)
					for i, a := range agents {
						got, want := dc.cur[dc.classOf[i]], rb.Check(a, u)
						if got.Allowed != want.Allowed || got.Rule != want.Rule {
							t.Errorf("%s %s: class of %s says %v %v, alone %v %v", a, u, dc.rep[dc.classOf[i]], got.Allowed, got.Rule, want.Allowed, want.Rule)
						}
					}
				}
			})
		}
	}
}

// TestDecideAllocs: deciding a URL for every crawler allocates nothing.
func TestDecideAllocs(t *testing.T) {
	rb := robots.Parse([]byte(strings.ReplaceAll(benchRobots, "{A}", "https://example.com")))
	d := newDecider(rb, fetch.ObeyRules, benchAgents)
	u := "https://example.com/products/12/item-3?sort=price"
	if n := testing.AllocsPerRun(100, func() { d.decide(u) }); n != 0 {
		t.Errorf("%v allocations per URL, want 0", n)
	}
}

// TestRedirectOffOrigin: a sitemap that redirects to another origin is reported as
// cross-host, as a sitemap listed there is, and the other origin is never asked for
// it; a redirect within the origin is followed.
func TestRedirectOffOrigin(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	other := testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.URL.Path)
		mu.Unlock()
		w.Write([]byte(strings.ReplaceAll(set("/x"), "{A}", "http://"+r.Host)))
	})
	var base string
	srv := testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "Sitemap: %s/moved.xml\nSitemap: %s/inside.xml\n", base, base)
		case "/moved.xml":
			http.Redirect(w, r, other.URL+"/s.xml", http.StatusMovedPermanently)
		case "/inside.xml":
			http.Redirect(w, r, "/s.xml", http.StatusFound)
		case "/s.xml":
			w.Write([]byte(strings.ReplaceAll(set("/a", "/b"), "{A}", base)))
		default:
			http.NotFound(w, r)
		}
	})
	base = srv.URL
	rep, err := Run(context.Background(), base, Config{Agents: []string{"Googlebot"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := state(base, rep), []string{"/moved.xml cross-host", "/inside.xml ok"}; !slices.Equal(got, want) {
		t.Errorf("sitemaps:\n got %q\nwant %q", got, want)
	}
	if e := rep.Sitemaps[0].Error; !strings.Contains(e, other.URL+"/s.xml") {
		t.Errorf("moved.xml: error %q does not name where it redirects (%s/s.xml)", e, other.URL)
	}
	if rep.Totals.URLs != 2 {
		t.Errorf("%d URLs, want 2 (inside.xml's, through its redirect)", rep.Totals.URLs)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 0 {
		t.Errorf("the other origin was asked for %q: a sitemap redirected off origin must not be read", asked)
	}
}

// TestMaxExamples: the report keeps at most Config.MaxExamples example URLs in all,
// the first rules' first, while every rule's count stays whole.
func TestMaxExamples(t *testing.T) {
	const rules, perRule, examples, max = 50, 20, 5, 32
	var file strings.Builder
	file.WriteString("User-agent: *\n")
	var paths []string
	for r := range rules {
		fmt.Fprintf(&file, "Disallow: /r%d/\n", r)
		paths = append(paths, seq(fmt.Sprintf("/r%d/", r), perRule)...)
	}
	file.WriteString("Sitemap: {A}/sitemap.xml\n")
	base := site{"/robots.txt": file.String(), "/sitemap.xml": set(paths...)}.start(t)
	rep, err := Run(context.Background(), base, Config{Agents: []string{"Googlebot"}, Examples: examples, MaxExamples: max})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Blocked) != rules {
		t.Fatalf("%d blocks, want %d", len(rep.Blocked), rules)
	}
	kept := 0
	for _, b := range rep.Blocked {
		if b.URLs != perRule {
			t.Errorf("line %d blocks %d URLs, want %d", b.Line, b.URLs, perRule)
		}
		if len(b.Examples) > examples {
			t.Errorf("line %d keeps %d examples, want at most %d", b.Line, len(b.Examples), examples)
		}
		kept += len(b.Examples)
	}
	if kept != max {
		t.Errorf("the report keeps %d examples, want %d (Config.MaxExamples)", kept, max)
	}
}

// TestMaxRuleClasses: past the bound on (rule, class) pairs, blocked URLs are
// counted in the totals and as unlisted, not in a block of their own.
func TestMaxRuleClasses(t *testing.T) {
	rb := robots.Parse([]byte("User-agent: a\nDisallow: /a\nDisallow: /b\n\nUser-agent: b\nDisallow: /a\nDisallow: /b\n"))
	d := newDecider(rb, fetch.ObeyRules, []string{"a", "b"})
	s := newStats(d, 5, 100)
	s.maxPairs = 3
	for _, p := range []string{"/a1", "/a2", "/b1", "/b2", "/b3", "/c"} {
		u := "https://example.com" + p
		d.decide(u)
		s.add(u)
	}
	// Pairs in order: (a:/a, b:/a) from /a1, then (a:/b) from /b1; (b:/b) is the fourth.
	if len(s.byRule) != 3 || s.unlisted != 3 {
		t.Errorf("%d pairs and %d unlisted verdicts, want 3 and 3", len(s.byRule), s.unlisted)
	}
	if !slices.Equal(s.blocked, []int{5, 5}) || s.any != 5 {
		t.Errorf("blocked per class %v, any %d; want [5 5], 5", s.blocked, s.any)
	}
}

// TestTimeLimitTrickle: an audit whose time limit passes while a server trickles a
// file (issue 29, item 8) reports the limit: stopped "timeout", the sitemap read in
// part (not unreachable), or robots.txt not fetched in time (a report, not an error).
func TestTimeLimitTrickle(t *testing.T) {
	const limit = time.Second
	trickle := func(w http.ResponseWriter, r *http.Request, body string) {
		w.WriteHeader(200)
		start := time.Now()
		for i := range len(body) {
			if time.Since(start) > 2*limit {
				return // the fetch client goes on after the audit stopped waiting for it
			}
			if _, err := w.Write([]byte{body[i]}); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(limit / 10):
			}
		}
	}
	for _, slow := range []string{"/sitemap.xml", "/robots.txt"} {
		t.Run(slow, func(t *testing.T) {
			var base string
			srv := testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
				var body string
				switch r.URL.Path {
				case "/robots.txt":
					body = "User-agent: *\nDisallow: /private/\nSitemap: " + base + "/sitemap.xml\n"
				case "/sitemap.xml":
					body = strings.ReplaceAll(set(seq("/private/", 100)...), "{A}", base)
				}
				if r.URL.Path == slow {
					trickle(w, r, body)
					return
				}
				w.Write([]byte(body))
			})
			base = srv.URL
			rep, err := Run(context.Background(), base, Config{Agents: []string{"Googlebot"}, Limits: Limits{Time: limit}})
			if err != nil {
				t.Fatalf("error %v, want a report", err)
			}
			if rep.Stopped != "timeout" {
				t.Errorf("stopped %q, want \"timeout\"", rep.Stopped)
			}
			switch slow {
			case "/sitemap.xml":
				if len(rep.Sitemaps) != 1 || rep.Sitemaps[0].Status != StatusOK || !strings.Contains(rep.Sitemaps[0].Error, "time limit") {
					t.Errorf("sitemaps %+v, want one read in part, stopped at the time limit", rep.Sitemaps)
				}
			case "/robots.txt":
				if rep.Robots.ErrorKind != fetch.KindTimeout || !strings.Contains(rep.Robots.Error, "time limit") {
					t.Errorf("robots %+v, want not fetched within the time limit", rep.Robots)
				}
			}
		})
	}
}

// TestCores: an audit decides URLs only while it holds a unit of Config.Cores, and
// audits sharing one unit take turns and report what they would alone.
func TestCores(t *testing.T) {
	const n = 1000 // four runs of DecideRun URLs, and some
	paths := append(seq("/r/", n/2), seq("/o/", n/2)...)
	s := site{"/robots.txt": "User-agent: *\nDisallow: /r/\nSitemap: {A}/sitemap.xml\n", "/sitemap.xml": set(paths...)}
	base := s.start(t)
	cfg := Config{Agents: []string{"Googlebot"}, Cores: semaphore.NewWeighted(1)}
	check := func(rep *Report, err error) {
		t.Helper()
		if err != nil {
			t.Error(err)
			return
		}
		if rep.Totals.URLs != n || rep.Totals.BlockedAny != n/2 {
			t.Errorf("URLs %d, blocked %d; want %d, %d", rep.Totals.URLs, rep.Totals.BlockedAny, n, n/2)
		}
	}

	// The only unit held elsewhere: the audit reads but does not finish.
	cfg.Cores.Acquire(context.Background(), 1)
	type result struct {
		rep *Report
		err error
	}
	done := make(chan result, 1)
	go func() {
		rep, err := Run(context.Background(), base, cfg)
		done <- result{rep, err}
	}()
	select {
	case r := <-done:
		t.Fatalf("the audit ended (err %v) while the only unit of Cores was held", r.err)
	case <-time.After(300 * time.Millisecond):
	}
	cfg.Cores.Release(1)
	r := <-done
	check(r.rep, r.err)

	// Two at once on one unit.
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() { check(Run(context.Background(), base, cfg)) })
	}
	wg.Wait()
	if !cfg.Cores.TryAcquire(1) {
		t.Error("a unit of Cores is still held after the audits ended")
	}
}

// TestTimeLimitDeciding: an audit waiting for a unit of Config.Cores to decide (other
// audits hold them all) stops at its time limit all the same (issue 34: the wait
// was not cut short), and reports what it read and that it decided none of it.
func TestTimeLimitDeciding(t *testing.T) {
	const n = 1000
	s := site{"/robots.txt": "User-agent: *\nDisallow: /r/\nSitemap: {A}/sitemap.xml\n", "/sitemap.xml": set(seq("/r/", n)...)}
	base := s.start(t)
	cores := semaphore.NewWeighted(1)
	cores.Acquire(context.Background(), 1) // held by "another audit" throughout
	defer cores.Release(1)
	rep, err := Run(context.Background(), base, Config{Agents: []string{"Googlebot"}, Cores: cores, Limits: Limits{Time: 300 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	tot := rep.Totals
	if rep.Stopped != "timeout" || tot.URLs == 0 || tot.UndecidedURLs != tot.URLs || tot.BlockedAny != 0 {
		t.Errorf("stopped %q, %d URLs read, %d undecided, %d blocked; want timeout, every URL read undecided, none blocked",
			rep.Stopped, tot.URLs, tot.UndecidedURLs, tot.BlockedAny)
	}
	if b, _ := json.Marshal(rep); !strings.Contains(string(b), fmt.Sprintf(`"undecided_urls":%d,`, tot.UndecidedURLs)) {
		t.Errorf("the report's JSON has no undecided_urls of %d", tot.UndecidedURLs)
	}
}

// TestNesting: Limits.Nesting reaches the sitemap reader: a file nested deeper is
// invalid, the error naming the limit, and its entries before that are decided.
func TestNesting(t *testing.T) {
	deep := "<?xml version=\"1.0\"?>\n<urlset>\n<url><loc>{A}/a</loc></url>\n<url><loc>{A}/b</loc><x><y></y></x></url>\n</urlset>\n"
	base := site{"/robots.txt": "User-agent: *\nDisallow: /a\nSitemap: {A}/sitemap.xml\n", "/sitemap.xml": deep}.start(t)
	for _, tc := range []struct {
		nesting int
		status  string
		urls    int
	}{
		{0, StatusOK, 2}, // sitemap.MaxDepth
		{4, StatusOK, 2}, // <y> is at depth 4
		{3, StatusInvalid, 1},
	} {
		rep, err := Run(context.Background(), base, Config{Agents: []string{"Googlebot"}, Limits: Limits{Nesting: tc.nesting}})
		if err != nil {
			t.Fatal(err)
		}
		sm := rep.Sitemaps[0]
		if sm.Status != tc.status || rep.Totals.URLs != tc.urls {
			t.Errorf("nesting %d: %s (%q), %d URLs; want %s, %d URLs", tc.nesting, sm.Status, sm.Error, rep.Totals.URLs, tc.status, tc.urls)
		}
		if tc.status == StatusInvalid && !strings.Contains(sm.Error, "nested deeper than the limit of 3") {
			t.Errorf("nesting %d: error %q does not name the limit", tc.nesting, sm.Error)
		}
		if want := cmp.Or(tc.nesting, 32); rep.Limits.Nesting != want {
			t.Errorf("the report's limits.nesting is %d, want %d", rep.Limits.Nesting, want)
		}
	}
}
