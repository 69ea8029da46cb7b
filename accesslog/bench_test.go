package accesslog

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// benchLog is a Combined log like a busy site's: mostly browsers, a fifth known
// crawlers, one of a few hundred paths.
func benchLog(lines int) []byte {
	rng := rand.New(rand.NewPCG(7, 7))
	browsers := []string{uaFirefx,
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
	}
	bots := []string{uaGoogle, uaGPT, uaBing, uaAds, "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"}
	var b bytes.Buffer
	t := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	for i := range lines {
		if i%7 == 0 {
			t = t.Add(time.Second)
		}
		ua := browsers[rng.IntN(len(browsers))]
		if rng.IntN(5) == 0 {
			ua = bots[rng.IntN(len(bots))]
		}
		path := "/articles/" + string(rune('a'+rng.IntN(26))) + "/page-" + string(rune('0'+rng.IntN(10))) + ".html"
		if rng.IntN(10) == 0 {
			path = "/private/report?id=" + string(rune('0'+rng.IntN(10)))
		}
		b.WriteString(line("203.0.113."+string(rune('1'+rng.IntN(9))), t, path, 200, ua))
	}
	return b.Bytes()
}

func BenchmarkAnalyzeCombined(b *testing.B) {
	const n = 200_000
	log := benchLog(n)
	cfg := Config{Robots: Timeline{NewVersion("robots.txt", time.Time{}, []byte(oneFile))}}
	b.SetBytes(int64(len(log)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		a := NewAnalyzer(cfg)
		if err := a.Read(context.Background(), "bench.log", bytes.NewReader(log)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// advLog is the worst case of robots logs (see bench/cmd/logsbench -mix
// adversarial): every line a distinct User-Agent of some crawler of the registry, a
// distinct long URL, a distinct address.
func advLog(lines int) ([]byte, Timeline) {
	rng := rand.New(rand.NewPCG(3, 3))
	names := []string{}
	for _, c := range sharedTable().all {
		names = append(names, c.name)
	}
	var rb bytes.Buffer
	rb.WriteString("User-agent: *\nCrawl-delay: 1\n")
	for i := range 400 {
		fmt.Fprintf(&rb, "Disallow: /r%d/\n", i)
	}
	long := strings.Repeat("x", 900)
	var b bytes.Buffer
	t := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	for i := range lines {
		if i%10 == 0 {
			t = t.Add(time.Second)
		}
		ua := fmt.Sprintf("Mozilla/5.0 (compatible; %s/%d.%d; +https://example.com/bot)", names[rng.IntN(len(names))], i, rng.IntN(1000))
		target := fmt.Sprintf("/r%d/%d/%s", rng.IntN(400), i, long[:rng.IntN(len(long))])
		b.WriteString(line(fmt.Sprintf("10.%d.%d.%d", 1+rng.IntN(3), rng.IntN(256), rng.IntN(256)), t, target, 200, ua))
	}
	return b.Bytes(), Timeline{NewVersion("robots.txt", time.Time{}, rb.Bytes())}
}

func BenchmarkAnalyzeAdversarial(b *testing.B) {
	const n = 50_000
	log, tl := advLog(n)
	verify := func(_ context.Context, req Request) Identity {
		switch req.Addr[3] {
		case '1':
			return Identity{Status: Verified, Method: "ip-range", Detail: req.Addr + " is in a range"}
		case '2':
			return Identity{Status: Impostor, Method: "ip-range", Detail: req.Addr + " is in no range"}
		}
		return Identity{Status: CannotTell, Detail: "no method"}
	}
	cfg := Config{Robots: tl, Verify: verify}
	b.SetBytes(int64(len(log)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		a := NewAnalyzer(cfg)
		if err := a.Read(context.Background(), "adv.log", bytes.NewReader(log)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}
