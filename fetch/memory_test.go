package fetch_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

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

// TestBodyHeldOnce fetches origins of large files into a rules cache that holds them
// all: each is held once, as its result's Body is a string, which no one can write
// into, and the rules parsed from it keep that string itself (robots.ParseString).
// Within a few tables that is all a cached origin costs, and the cache's estimate
// counts the file once.
func TestBodyHeldOnce(t *testing.T) {
	const origins = 20
	// Within the size limit; little of it parsed, its rule first.
	body := []byte((rulesBody + memoryBody("text", 0))[:400<<10])
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { w.Write(body) })
	dial := testenv.DialAll(srv.Listener.Addr().String())
	tr := &http.Transport{DialContext: dial, DisableKeepAlives: true}
	defer tr.CloseIdleConnections()
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	c := newClient(t, fetch.Config{Store: discard{}, HTTP: tr, RulesMemory: 256 << 20})
	for i := range origins {
		origin := "http://o" + strconv.Itoa(i) + ".test"
		res, err := c.Get(t.Context(), origin+"/")
		if err != nil {
			t.Fatal(err)
		}
		if res.Body != string(body) {
			t.Fatalf("origin %d: Body holds %d bytes, not the %d served", i, len(res.Body), len(body))
		}
		// The rule's value, as the rules report it, is part of Body itself.
		v := res.Robots.Check("bot", origin+"/private").Rule.Value
		if v != "/private" || !within(v, res.Body) {
			t.Fatalf("origin %d: the rules report %q from a string other than Body", i, v)
		}
	}
	heap, st := heapGrowth(&before, c)
	files := int64(origins * len(body))
	t.Logf("%d origins held; heap %d bytes = %.2f× their files; estimated %d bytes = %.2f× the heap",
		st.Origins, heap, float64(heap)/float64(files), st.Bytes, float64(st.Bytes)/float64(heap))
	if st.Origins != origins {
		t.Fatalf("%d origins held, want all %d", st.Origins, origins)
	}
	if float64(heap) > 1.3*float64(files) {
		t.Errorf("heap of %d bytes for %d files of %d bytes = %.2f× the files; want at most 1.3× (each held once)",
			heap, origins, len(body), float64(heap)/float64(files))
	}
	if r := float64(st.Bytes) / float64(heap); r < 0.75 || r > 1.25 {
		t.Errorf("the cache estimates %d bytes for a heap of %d (%.2f×); want 0.75–1.25×", st.Bytes, heap, r)
	}
}

// jsonStore keeps results in their stored form, as the stores out of process do:
// each load reads a new copy of the body.
type jsonStore struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (s *jsonStore) Load(_ context.Context, origin string) (*fetch.Result, error) {
	s.mu.Lock()
	b, ok := s.m[origin]
	s.mu.Unlock()
	if !ok {
		return nil, nil
	}
	r := new(fetch.Result)
	return r, json.Unmarshal(b, r)
}

func (s *jsonStore) Save(_ context.Context, r *fetch.Result) error {
	b, err := json.Marshal(r)
	s.mu.Lock()
	s.m[r.Origin] = b
	s.mu.Unlock()
	return err
}

// TestStaleBodyHeldOnce: when a refresh fails, the stale result read from an out of
// process store brings a second copy of the file in effect; the client keeps the
// rules it holds for that fetch and the one string they share, not the copy.
func TestStaleBodyHeldOnce(t *testing.T) {
	sw := &switchable{h: answer(200, rulesBody)}
	srv := serve(t, sw.serve)
	c := newClient(t, fetch.Config{Store: &jsonStore{m: map[string][]byte{}}})
	first := mustGet(t, c, srv.URL+"/", t0)
	sw.set(answer(503, ""))
	res := mustGet(t, c, srv.URL+"/", t0.Add(25*time.Hour))
	if !res.Stale || res.Robots != first.Robots {
		t.Fatalf("stale %v, same rules %v; want the copy in use, with the rules parsed from it", res.Stale, res.Robots == first.Robots)
	}
	if !within(res.Body, first.Body) || !within(res.Copy.Body, first.Body) {
		t.Errorf("the stale result holds a second copy of the file its rules keep")
	}
}

// within reports whether s lies in the memory of t.
func within(s, t string) bool {
	p, lo := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(t)))
	return lo <= p && p+uintptr(len(s)) <= lo+uintptr(len(t))
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

// TestNothingHeldChangesDecision: no bytes a caller holds are the ones the rules
// decide by: not those it served, nor a []byte it made of Body, nor the stored form
// a result was read from. Each is overwritten before the first decision compiles the
// crawler's rules; the client, the result and the result read back still disallow
// what the file disallows.
func TestNothingHeldChangesDecision(t *testing.T) {
	served := []byte(rulesBody)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { w.Write(served) })
	c := newClient(t, fetch.Config{})
	res, err := c.Get(t.Context(), srv.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	stored, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var loaded fetch.Result
	if err := json.Unmarshal(stored, &loaded); err != nil {
		t.Fatal(err)
	}
	mine := []byte(res.Body)
	at := strings.Index(rulesBody, "/private")
	for _, b := range [][]byte{served, mine} { // "Disallow: /private" becomes "Disallow: ////////"
		for i := at; i < len(b) && b[i] != '\n'; i++ {
			b[i] = '/'
		}
	}
	clear(stored)
	for _, u := range []string{srv.URL + "/private", srv.URL + "/privately"} {
		if res.Allowed("bot", u) {
			t.Errorf("result: %s allowed; the file disallows it", u)
		}
		if loaded.Allowed("bot", u) {
			t.Errorf("result read back: %s allowed; the file disallows it", u)
		}
		if ok, err := c.Allowed(t.Context(), "bot", u); err != nil || ok {
			t.Errorf("client: %s allowed (%v); the file disallows it", u, err)
		}
	}
	if res.Body != rulesBody || loaded.Body != rulesBody {
		t.Errorf("Body %q, read back %q; want the file served, %q", res.Body, loaded.Body, rulesBody)
	}
}
