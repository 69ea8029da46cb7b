package fetch_test

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/testenv"
)

// discard is a Store that keeps nothing, so that what a client holds is its rules
// cache alone.
type discard struct{}

func (discard) Load(context.Context, string) (*fetch.Result, error) { return nil, nil }
func (discard) Save(context.Context, *fetch.Result) error           { return nil }

// memoryBody returns the robots.txt of origin i: kind picks its shape.
func memoryBody(kind string, i int) string {
	var b strings.Builder
	switch kind {
	case "rules": // 500 KiB of rules in groups of 50: the parse's largest form
		for b.Len() < 500<<10 {
			fmt.Fprintf(&b, "User-agent: bot%d\n", b.Len())
			for j := range 50 {
				fmt.Fprintf(&b, "Disallow: /p%d/*/q%d$\nAllow: /a%d/%d\n", j, i, j, i)
			}
		}
	case "text": // 500 KiB of comments: a large body with little parsed
		for b.Len() < 500<<10 {
			b.WriteString("# a comment line of some length, as large files often have\n")
		}
	case "small": // a typical file
		b.WriteString("User-agent: *\nDisallow: /admin/\nDisallow: /search?\nAllow: /search/about\n")
		for j := range 20 {
			fmt.Fprintf(&b, "User-agent: Bot%d\nDisallow: /x%d/\nCrawl-delay: 5\n", j, i)
		}
		b.WriteString("Sitemap: https://example.com/sitemap.xml\n")
	}
	return b.String()
}

// TestRulesMemory fills a client's rules cache, bounded at 16 MiB (8 MiB under the race
// detector), with many
// origins of each shape: the heap it holds once collected stays within 1.3 times
// the bound. Its estimate counts the parsed rules' real size (Robots.MemSize)
// besides the result's body and fields.
func TestRulesMemory(t *testing.T) {
	limit, scale := int64(16<<20), 1
	if raceEnabled { // the race detector slows parsing tenfold: half the bound, half the origins
		limit, scale = 8<<20, 2
	}
	for _, tc := range []struct {
		kind    string
		origins int
	}{
		{"rules", 20 / scale}, {"text", 60 / scale}, {"small", 4000 / scale},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			bodies := make([][]byte, tc.origins) // made before measuring: not the client's
			for i := range bodies {
				bodies[i] = []byte(memoryBody(tc.kind, i))
			}
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				i, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSuffix(r.Host, ".test"), "o"))
				if err != nil || i >= len(bodies) {
					http.NotFound(w, r)
					return
				}
				w.Write(bodies[i])
			})
			dial := testenv.DialAll(srv.Listener.Addr().String())
			var before runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			// No connection is kept between fetches: idle connections' buffers, in the
			// client and in the test server, are not the rules cache's.
			tr := &http.Transport{DialContext: dial, DisableKeepAlives: true}
			defer tr.CloseIdleConnections()
			c := newClient(t, fetch.Config{Store: discard{}, HTTP: tr, RulesMemory: limit})
			for i := range tc.origins {
				res, err := c.Get(t.Context(), "http://o"+strconv.Itoa(i)+".test/")
				if err != nil {
					t.Fatal(err)
				}
				// As a server does: decisions and the crawl-delay, which build the
				// parts of the parsed file made on first use, after it was cached.
				res.Check("bot3", "http://o1.test/p1/x/q1")
				res.Check("Bot3", "http://o1.test/x1/")
				res.Check("Other", "http://o1.test/admin/")
				if res.Robots != nil {
					res.Robots.CrawlDelay("Bot3")
				}
			}
			heap, st := heapGrowth(&before, c)
			t.Logf("%d origins fetched, %d held, estimated %d bytes; heap %d bytes = %.2f× the bound",
				tc.origins, st.Origins, st.Bytes, heap, float64(heap)/float64(limit))
			if float64(heap) > 1.3*float64(limit) {
				t.Errorf("heap of %d bytes holding %d origins = %.2f× the rules cache's bound of %d; want at most 1.3×",
					heap, st.Origins, float64(heap)/float64(limit), limit)
			}
		})
	}
}

// TestBodyHeldTwice fetches origins of large files into a rules cache that holds them
// all: each is held twice, in its result's Body, which callers may read (and write),
// and in the rules parsed from it, which keep a copy of their own that nothing outside
// the root package can change (TestBodyWriteChangesNoDecision). Within a few tables
// that is all a cached origin costs, and the cache's estimate counts both copies.
func TestBodyHeldTwice(t *testing.T) {
	const origins = 20
	body := []byte(memoryBody("text", 0)[:400<<10]) // within the size limit; little of it parsed
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { w.Write(body) })
	dial := testenv.DialAll(srv.Listener.Addr().String())
	tr := &http.Transport{DialContext: dial, DisableKeepAlives: true}
	defer tr.CloseIdleConnections()
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	c := newClient(t, fetch.Config{Store: discard{}, HTTP: tr, RulesMemory: 256 << 20})
	for i := range origins {
		res, err := c.Get(t.Context(), "http://o"+strconv.Itoa(i)+".test/")
		if err != nil {
			t.Fatal(err)
		}
		if string(res.Body) != string(body) {
			t.Fatalf("origin %d: Body holds %d bytes, not the %d served", i, len(res.Body), len(body))
		}
	}
	heap, st := heapGrowth(&before, c)
	files := int64(origins * len(body))
	t.Logf("%d origins held; heap %d bytes = %.2f× their files; estimated %d bytes = %.2f× the heap",
		st.Origins, heap, float64(heap)/float64(files), st.Bytes, float64(st.Bytes)/float64(heap))
	if st.Origins != origins {
		t.Fatalf("%d origins held, want all %d", st.Origins, origins)
	}
	if float64(heap) > 2.3*float64(files) {
		t.Errorf("heap of %d bytes for %d files of %d bytes = %.2f× the files; want at most 2.3× (each held twice)",
			heap, origins, len(body), float64(heap)/float64(files))
	}
	if r := float64(st.Bytes) / float64(heap); r < 0.75 || r > 1.25 {
		t.Errorf("the cache estimates %d bytes for a heap of %d (%.2f×); want 0.75–1.25×", st.Bytes, heap, r)
	}
}

// heapGrowth returns how much the heap in use has grown since before, once collected,
// and c's statistics; c is kept alive until then.
func heapGrowth(before *runtime.MemStats, c *fetch.Client) (int64, fetch.Stats) {
	var after runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	st := c.Stats()
	runtime.KeepAlive(c)
	return int64(after.HeapAlloc) - int64(before.HeapAlloc), st
}

// TestBodyWriteChangesNoDecision: a caller that writes into the Body of a result it
// was handed (which it is told not to do) changes neither that result's decisions nor
// the client's, before or after the first decision compiles the crawler's rules.
func TestBodyWriteChangesNoDecision(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(rulesBody)) })
	c := newClient(t, fetch.Config{})
	res, err := c.Get(t.Context(), srv.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	for i := range res.Body { // "Disallow: /private" becomes "Disallow: ////////"
		if res.Body[i] != '\n' && i > strings.Index(rulesBody, "/private") {
			res.Body[i] = '/'
		}
	}
	for _, u := range []string{srv.URL + "/private", srv.URL + "/privately"} {
		if res.Allowed("bot", u) {
			t.Errorf("result: %s allowed after a write into Body; the file disallows it", u)
		}
		if ok, err := c.Allowed(t.Context(), "bot", u); err != nil || ok {
			t.Errorf("client: %s allowed (%v) after a write into Body; the file disallows it", u, err)
		}
	}
}
