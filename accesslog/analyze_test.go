package accesslog

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

const (
	uaGoogle = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	uaGPT    = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)"
	uaBing   = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
	uaAds    = "AdsBot-Google (+http://www.google.com/adsbot.html)"
	uaFirefx = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
)

var t0 = time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)

// line writes a Combined Log Format line as nginx does.
func line(addr string, t time.Time, target string, status int, ua string) string {
	return fmt.Sprintf("%s - - [%s] \"GET %s HTTP/1.1\" %d 100 \"-\" \"%s\"\n", addr, t.Format("02/Jan/2006:15:04:05 -0700"), target, status, ua)
}

func analyze(t *testing.T, cfg Config, files ...string) *Report {
	t.Helper()
	a := NewAnalyzer(cfg)
	for i, f := range files {
		if err := a.Read(context.Background(), fmt.Sprintf("f%d.log", i+1), strings.NewReader(f)); err != nil {
			t.Fatal(err)
		}
	}
	return a.Report()
}

func rowOf(t *testing.T, rep *Report, crawler, identity string) Row {
	t.Helper()
	for _, r := range rep.Crawlers {
		if r.Crawler == crawler && r.Identity == identity {
			return r
		}
	}
	t.Fatalf("no row for %s (%q) in %+v", crawler, identity, rep.Crawlers)
	return Row{}
}

const oneFile = `User-agent: *
Disallow: /private/
Crawl-delay: 2

User-agent: GPTBot
Disallow: /
`

func TestAnalyzeOneFile(t *testing.T) {
	log := line("66.249.66.1", t0, "/robots.txt", 200, uaGoogle) +
		line("66.249.66.1", t0.Add(time.Second), "/public", 200, uaGoogle) +
		line("66.249.66.1", t0.Add(2*time.Second), "/private/a", 200, uaGoogle) +
		line("20.171.0.1", t0, "/x", 200, uaGPT) +
		line("66.249.66.2", t0, "/private/b", 200, uaAds) +
		line("40.77.0.1", t0, "/a", 200, uaBing) +
		line("40.77.0.1", t0, "/b", 200, uaBing) + // 0 s after: certainly within 2 s
		line("40.77.0.1", t0.Add(time.Second), "/c", 200, uaBing) + // logged 1 s: at most 2 s, so within
		line("40.77.0.1", t0.Add(3*time.Second), "/d", 404, uaBing) + // logged 2 s: maybe 2.9 s
		line("10.0.0.1", t0, "/private/x", 200, uaFirefx)
	rep := analyze(t, Config{Robots: Timeline{NewVersion("robots.txt", time.Time{}, []byte(oneFile))}}, log)

	g := rowOf(t, rep, "Googlebot", "")
	if g.Requests != 3 || g.RobotsFetches != 1 || !g.RobotsFirst.Equal(t0) || g.Allowed != 1 || g.Disallowed != 1 {
		t.Errorf("Googlebot: %+v", g)
	}
	if len(g.Rules) != 1 || g.Rules[0].Line != 2 || g.Rules[0].Rule != "Disallow: /private/" || g.Rules[0].Examples[0].Value != "/private/a" {
		t.Errorf("Googlebot rules: %+v", g.Rules)
	}
	if g.TooFast != 0 {
		t.Errorf("Googlebot ignores Crawl-delay, yet %d too fast", g.TooFast)
	}
	if gpt := rowOf(t, rep, "GPTBot", ""); gpt.Disallowed != 1 || gpt.Rules[0].Line != 6 {
		t.Errorf("GPTBot: %+v", gpt)
	}
	// Google documents that AdsBot ignores the "*" group.
	if ads := rowOf(t, rep, "AdsBot-Google", ""); ads.Allowed != 1 || ads.Disallowed != 0 {
		t.Errorf("AdsBot-Google: %+v", ads)
	}
	b := rowOf(t, rep, "bingbot", "")
	if b.TooFast != 2 || b.CrawlDelay != 2 || !b.HonoursCrawlDelay || b.Allowed != 4 || b.Status["404"] != 1 || b.Status["200"] != 3 {
		t.Errorf("bingbot: %+v", b)
	}
	if rep.Violations != 4 || rep.Impostors != 0 || !rep.Found() {
		t.Errorf("violations %d, impostors %d; want 4, 0", rep.Violations, rep.Impostors)
	}
	if rep.Records != 10 || rep.Crawler != 9 || len(rep.Crawlers) != 4 {
		t.Errorf("records %d, crawler requests %d, rows %d; want 10, 9, 4", rep.Records, rep.Crawler, len(rep.Crawlers))
	}
}

func TestAnalyzeSnapshots(t *testing.T) {
	day := 24 * time.Hour
	tl := Timeline{
		NewVersion("2026-11-20.txt", t0, []byte("User-agent: *\nAllow: /\n")),
		NewVersion("2026-11-21.txt", t0.Add(day), []byte("User-agent: *\nDisallow: /old/\n")),
	}
	log := line("1.1.1.1", t0.Add(-time.Hour), "/old/a", 200, uaGoogle) + // before the first snapshot
		line("1.1.1.1", t0.Add(day+10*time.Hour), "/old/b", 200, uaGoogle) + // within a day of the change
		line("1.1.1.1", t0.Add(2*day+time.Hour), "/old/c", 200, uaGoogle) // past it
	tests := []struct {
		name                                string
		lifetime                            time.Duration
		notJudged, allowedByCache, disallow int64
	}{
		{"default lifetime", 0, 1, 1, 1},
		{"no lifetime", -1, 1, 0, 2},
		{"three days", 72 * time.Hour, 1, 2, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := rowOf(t, analyze(t, Config{Robots: tl, Lifetime: tt.lifetime}, log), "Googlebot", "")
			if g.NotJudged != tt.notJudged || g.AllowedByCache != tt.allowedByCache || g.Disallowed != tt.disallow {
				t.Errorf("not judged %d, allowed by cache %d, disallowed %d; want %d, %d, %d",
					g.NotJudged, g.AllowedByCache, g.Disallowed, tt.notJudged, tt.allowedByCache, tt.disallow)
			}
			for _, r := range g.Rules {
				if r.Robots != "2026-11-21.txt" || r.Line != 2 {
					t.Errorf("rule %+v, want line 2 of 2026-11-21.txt", r)
				}
			}
		})
	}
}

func TestAnalyzeVerify(t *testing.T) {
	calls := 0
	verify := func(_ context.Context, req Request) Identity {
		calls++
		switch req.Addr {
		case "127.0.0.1":
			return Identity{Status: Verified, Method: "ip-range"}
		case "127.0.0.9":
			return Identity{Status: Impostor, Method: "ip-range", Detail: "not in googlebot.json"}
		}
		return Identity{Status: "something else"}
	}
	log := line("127.0.0.1", t0, "/private/a", 200, uaGoogle) +
		line("127.0.0.9", t0, "/private/b", 200, uaGoogle) +
		line("127.0.0.9", t0.Add(time.Second), "/private/c", 200, uaGoogle) +
		line("127.0.0.5", t0, "/x", 200, uaGPT)
	rep := analyze(t, Config{Robots: Timeline{NewVersion("robots.txt", time.Time{}, []byte(oneFile))}, Verify: verify}, log)
	if calls != 3 {
		t.Errorf("verify called %d times, want once per address and crawler (3)", calls)
	}
	if r := rowOf(t, rep, "Googlebot", Verified); r.Disallowed != 1 {
		t.Errorf("verified Googlebot: %+v", r)
	}
	imp := rowOf(t, rep, "Googlebot", Impostor)
	if imp.Disallowed != 2 || imp.Detail != "not in googlebot.json" || len(imp.Addresses) != 1 || imp.Addresses[0].Value != "127.0.0.9" {
		t.Errorf("impostor: %+v", imp)
	}
	// An answer that is neither verified nor impostor is "cannot tell", never impostor.
	if r := rowOf(t, rep, "GPTBot", CannotTell); r.Disallowed != 1 {
		t.Errorf("GPTBot: %+v", r)
	}
	if rep.Violations != 2 || rep.Impostors != 2 {
		t.Errorf("violations %d, impostors %d; want 2 (the verified and the unverified crawler's), 2", rep.Violations, rep.Impostors)
	}
}

// randomLog writes n lines of a mix of crawlers, paths, statuses and skipped lines.
func randomLog(rng *rand.Rand, n int, start time.Time) string {
	uas := []string{uaGoogle, uaGPT, uaBing, uaAds, uaFirefx, "ClaudeBot/1.0", "Bytespider"}
	paths := []string{"/", "/robots.txt", "/private/", "/private/a", "/x", "/old/1", "/old/2?q", "/a", "/b"}
	var b strings.Builder
	t := start
	for range n {
		t = t.Add(time.Duration(rng.IntN(3)) * time.Second)
		if rng.IntN(50) == 0 {
			b.WriteString("garbage line\n")
			continue
		}
		addr := fmt.Sprintf("10.0.%d.%d", rng.IntN(3), rng.IntN(20))
		b.WriteString(line(addr, t, paths[rng.IntN(len(paths))], []int{200, 404, 503}[rng.IntN(3)], uas[rng.IntN(len(uas))]))
	}
	return b.String()
}

func TestMergeEqualsOneRun(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tl := Timeline{
		NewVersion("a.txt", t0, []byte(oneFile)),
		NewVersion("b.txt", t0.Add(time.Hour), []byte("User-agent: *\nDisallow: /old/\nDisallow: /a\nCrawl-delay: 1\n")),
	}
	files := make([]string, 5)
	for i := range files {
		files[i] = randomLog(rng, 3000, t0.Add(time.Duration(i)*20*time.Minute-10*time.Minute))
	}
	ids := func(_ context.Context, req Request) Identity {
		if strings.HasPrefix(req.Addr, "10.0.1.") {
			return Identity{Status: Impostor, Detail: req.Addr}
		}
		return Identity{Status: Verified}
	}
	for _, verify := range []VerifyFunc{nil, ids} {
		cfg := Config{Robots: tl, Verify: verify, Examples: 2}
		whole := analyze(t, cfg, files...)
		var parts []*Report
		for i, f := range files {
			a := NewAnalyzer(cfg)
			if err := a.Read(context.Background(), fmt.Sprintf("f%d.log", i+1), strings.NewReader(f)); err != nil {
				t.Fatal(err)
			}
			// Through JSON, as "robots logs -merge" reads them.
			parts = append(parts, roundTrip(t, a.Report()))
		}
		merged, err := Merge(parts...)
		if err != nil {
			t.Fatal(err)
		}
		if w, m := mustJSON(t, whole), mustJSON(t, merged); w != m {
			t.Fatalf("merged report differs from one run:\none run: %.2000s\nmerged:  %.2000s", w, m)
		}
		if whole.Violations == 0 || whole.Skipped == 0 {
			t.Fatalf("the log exercises nothing: %d violations, %d skipped", whole.Violations, whole.Skipped)
		}
		// Merging merged reports gives the same again.
		left, err := Merge(parts[:2]...)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Merge(append([]*Report{roundTrip(t, left)}, parts[2:]...)...)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(mustJSON(t, again), mustJSON(t, whole)) {
			t.Fatal("merging in two steps differs from one run")
		}
	}
}

func TestMergeRefusesOtherFiles(t *testing.T) {
	a := analyze(t, Config{Robots: Timeline{NewVersion("robots.txt", time.Time{}, []byte(oneFile))}})
	b := analyze(t, Config{Robots: Timeline{NewVersion("robots.txt", time.Time{}, []byte("User-agent: *\nDisallow: /\n"))}})
	if _, err := Merge(a, b); err == nil || !strings.Contains(err.Error(), "other robots.txt") {
		t.Errorf("merging reports of different files: %v", err)
	}
}

func roundTrip(t *testing.T, r *Report) *Report {
	t.Helper()
	var out Report
	if err := json.Unmarshal([]byte(mustJSON(t, r)), &out); err != nil {
		t.Fatal(err)
	}
	return &out
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
