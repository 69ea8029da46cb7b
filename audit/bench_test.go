package audit

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/testenv"
)

// The benchmark's site: a sitemap index of benchFiles sitemaps of benchPerFile URLs
// (1,000,000 in all), decided for the twenty crawlers of benchAgents.
const (
	benchFiles   = 20
	benchPerFile = 50000
)

var benchAgents = []string{
	"Googlebot", "Googlebot-Image", "Googlebot-News", "bingbot", "Slurp", "DuckDuckBot", "Baiduspider",
	"YandexBot", "Applebot", "GPTBot", "ChatGPT-User", "ClaudeBot", "CCBot", "PerplexityBot", "Bytespider",
	"AhrefsBot", "SemrushBot", "MJ12bot", "DotBot", "facebookexternalhit",
}

// benchRobots has the groups a large site has: one for Google's crawlers, one for
// Bing, the AI crawlers shut out, SEO tools slowed, and twenty rules for the rest.
const benchRobots = `User-agent: *
Disallow: /search
Disallow: /cart/
Disallow: /checkout/
Disallow: /account/
Disallow: /*?sort=
Disallow: /*?filter=
Disallow: /*&sessionid=
Disallow: /tag/
Allow: /tag/featured/
Disallow: /print/
Disallow: /api/
Disallow: /*.pdf$
Disallow: /tmp/
Disallow: /admin/
Disallow: /login
Disallow: /register
Disallow: /wishlist/
Disallow: /compare/
Disallow: /*/amp/
Allow: /api/public/

User-agent: Googlebot
User-agent: Googlebot-Image
Disallow: /search
Disallow: /cart/
Disallow: /checkout/
Disallow: /*?sort=
Allow: /tag/

User-agent: bingbot
Crawl-delay: 1
Disallow: /search
Disallow: /tag/

User-agent: GPTBot
User-agent: ChatGPT-User
User-agent: CCBot
User-agent: ClaudeBot
User-agent: Bytespider
Disallow: /

User-agent: AhrefsBot
User-agent: SemrushBot
User-agent: MJ12bot
Crawl-delay: 10
Disallow: /search
Disallow: /products/

Sitemap: {A}/sitemap_index.xml
`

// benchPath is the path of URL i of the benchmark's site.
func benchPath(i int) string { return string(appendBenchPath(nil, i)) }

// appendBenchPath appends the path of URL i, with "&" written "&amp;" when amp is
// set (as in XML).
func appendBenchPath(b []byte, i int, amp ...bool) []byte {
	n := func(b []byte, v int) []byte { return strconv.AppendInt(b, int64(v), 10) }
	switch i % 16 {
	case 0, 1, 2, 3, 4, 5:
		b = n(append(b, "/products/"...), i/16)
		return n(append(b, "/item-"...), i)
	case 6, 7, 8:
		b = n(append(b, "/blog/"...), 2000+i%25)
		return n(append(b, "/post-"...), i)
	case 9:
		return n(append(b, "/search?q="...), i)
	case 10:
		b = n(append(b, "/products/"...), i/16)
		if len(amp) > 0 && amp[0] {
			return n(append(b, "?sort=price&amp;page="...), i%7)
		}
		return n(append(b, "?sort=price&page="...), i%7)
	case 11:
		return n(append(b, "/tag/t"...), i%500)
	case 12:
		return n(append(b, "/tag/featured/t"...), i%300)
	case 13:
		b = n(append(b, "/docs/manual-"...), i)
		return append(b, ".pdf"...)
	case 14:
		b = n(append(b, "/news/"...), i)
		return append(b, "/amp/"...)
	}
	return n(append(b, "/about/page-"...), i)
}

// serveBenchSite serves the benchmark's site, writing each sitemap as it is asked
// for, so that the server holds no sitemap in memory.
func serveBenchSite(tb testing.TB) string {
	var base string
	srv := testenv.ServeFunc(tb, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/robots.txt":
			w.Write([]byte(strings.ReplaceAll(benchRobots, "{A}", base)))
		case r.URL.Path == "/sitemap_index.xml":
			bw := bufio.NewWriter(w)
			bw.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
			for f := range benchFiles {
				fmt.Fprintf(bw, "  <sitemap><loc>%s/sitemap-%d.xml</loc></sitemap>\n", base, f)
			}
			bw.WriteString("</sitemapindex>\n")
			bw.Flush()
		case strings.HasPrefix(r.URL.Path, "/sitemap-"):
			f, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/sitemap-"), ".xml"))
			if err != nil || f < 0 || f >= benchFiles {
				http.NotFound(w, r)
				return
			}
			bw := bufio.NewWriterSize(w, 64<<10)
			bw.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
			var line []byte
			for i := f * benchPerFile; i < (f+1)*benchPerFile; i++ {
				line = append(line[:0], "  <url>\n    <loc>"...)
				line = append(line, base...)
				line = appendBenchPath(line, i, true)
				line = append(line, "</loc>\n    <lastmod>2026-11-01</lastmod>\n  </url>\n"...)
				bw.Write(line)
			}
			bw.WriteString("</urlset>\n")
			bw.Flush()
		default:
			http.NotFound(w, r)
		}
	})
	base = srv.URL
	return base
}

// peakHeap samples the heap in use until stop is closed and returns the largest
// value seen.
func peakHeap(stop <-chan struct{}) <-chan uint64 {
	out := make(chan uint64, 1)
	go func() {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var peak uint64
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-stop:
				out <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return out
}

// BenchmarkAudit audits 1,000,000 sitemap URLs (an index of 20 files of 50,000, on
// loopback) for 20 crawlers. It reports the time per audit, per URL and per
// decision (URLs × crawlers), the peak heap (the largest sample, taken every 5 ms,
// of the live and not yet swept heap objects, the server's included) and the
// process's peak resident set.
//
//	go test -run '^$' -bench Audit -benchtime 3x ./audit
func BenchmarkAudit(b *testing.B) {
	base := serveBenchSite(b)
	runtime.GC()
	stop := make(chan struct{})
	peak := peakHeap(stop)
	b.ReportAllocs()
	b.ResetTimer()
	var urls int
	for b.Loop() {
		rep, err := Run(context.Background(), base, Config{Agents: benchAgents})
		if err != nil {
			b.Fatal(err)
		}
		if rep.Totals.URLs != benchFiles*benchPerFile || rep.Stopped != "" {
			b.Fatalf("%d URLs read, stopped %q", rep.Totals.URLs, rep.Stopped)
		}
		urls = rep.Totals.URLs
	}
	b.StopTimer()
	close(stop)
	perAudit := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(perAudit/float64(urls), "ns/url")
	b.ReportMetric(perAudit/float64(urls*len(benchAgents)), "ns/decision")
	b.ReportMetric(float64(<-peak)/(1<<20), "peak-heap-MiB")
	if rss, ok := peakRSS(); ok {
		b.ReportMetric(rss/(1<<20), "peak-rss-MiB")
	}
}

// peakRSS returns the process's peak resident set (VmHWM, Linux), the test binary
// and the site's server included.
func peakRSS() (float64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb float64
			if _, err := fmt.Sscanf(strings.TrimSpace(v), "%g kB", &kb); err == nil {
				return kb * 1024, true
			}
		}
	}
	return 0, false
}

// BenchmarkDecide is the decisions alone: every URL of the benchmark's site for the
// twenty crawlers, the file parsed once, once per class of crawlers the same groups
// apply to (what the audit does: 5 classes here) and, for comparison, once per
// crawler. Neither allocates.
func BenchmarkDecide(b *testing.B) {
	rb := robots.Parse([]byte(strings.ReplaceAll(benchRobots, "{A}", "https://example.com")))
	const n = 1 << 16
	urls := make([]string, n)
	for i := range urls {
		urls[i] = "https://example.com" + benchPath(i)
	}
	report := func(b *testing.B, i int) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(i), "ns/url")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(i*len(benchAgents)), "ns/decision")
	}
	b.Run("classes", func(b *testing.B) {
		d := newDecider(rb, fetch.ObeyRules, benchAgents)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			d.decide(urls[i&(n-1)])
			i++
		}
		report(b, i)
		b.ReportMetric(float64(len(d.rep)), "classes")
	})
	b.Run("per-crawler", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		var sink int
		for b.Loop() {
			u := urls[i&(n-1)]
			for _, a := range benchAgents {
				sink += rb.Check(a, u).Rule.Line
			}
			i++
		}
		report(b, i)
		_ = sink
	})
}

// TestBenchSite checks the benchmark's site once, small: its URLs are what
// benchPath says and the audit reads them all.
func TestBenchSite(t *testing.T) {
	base := serveBenchSite(t)
	var seen atomic.Int64
	rep, err := Run(context.Background(), base, Config{Agents: benchAgents, Limits: Limits{URLs: 20000},
		Progress: func(Progress) { seen.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Totals.URLs != 20000 || rep.Stopped != "max-urls" {
		t.Errorf("%d URLs, stopped %q; want 20000 and max-urls", rep.Totals.URLs, rep.Stopped)
	}
	if seen.Load() == 0 {
		t.Error("Progress never called")
	}
}
