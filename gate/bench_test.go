package gate

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gorobots/robots/internal/loadgen"
	"github.com/gorobots/robots/verify"
)

// benchMix is the requests of the benchmarks: a typical mix at a site's edge —
// browsers, verified crawlers allowed and disallowed, an impostor, robots.txt.
var benchMix = []struct {
	ua   string
	addr netip.Addr
	uri  string
}{
	{uaBrowser, otherAddr, "/products/shoes?size=42"},
	{uaBrowser, otherAddr, "/private/cart"},
	{uaGooglebot, googleAddr, "/products/shoes?size=42"},
	{uaGooglebot, googleAddr, "/private/account"},
	{uaGPTBot, openAIAddr, "/blog/2026/11/post"},
	{uaGooglebot, otherAddr, "/"},
	{uaGPTBot, openAIAddr, "/robots.txt"},
	{uaBrowser, otherAddr, "/static/app.js"},
}

// benchGate is a gate as robots serve runs it: verified by package verify (the
// operators' range lists read from files, no DNS), with metrics and report.
func benchGate(b *testing.B) *Gate {
	b.Helper()
	dir := b.TempDir()
	lists := map[string]string{}
	for name, ranges := range testVerifier {
		f := filepath.Join(dir, name+".txt")
		if err := os.WriteFile(f, []byte(ranges[0].String()+"\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		lists[name] = f
	}
	v, err := verify.New(verify.Options{Lists: lists, Offline: true, NoDNS: true})
	if err != nil {
		b.Fatal(err)
	}
	g, err := New(Config{Sites: []Site{{Host: "example.com", File: writeRobots(b, siteRobots)}},
		Policy:   Policy{Disallowed: Refuse, Impostor: Refuse, CrawlDelay: Slow},
		Verifier: FromVerify(v), Registerer: prometheus.NewRegistry()})
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// BenchmarkDecide is the decision alone, metrics and report included.
func BenchmarkDecide(b *testing.B) {
	g := benchGate(b)
	reqs := make([]Request, len(benchMix))
	for i, m := range benchMix {
		reqs[i] = Request{Method: "GET", Scheme: "https", Host: "example.com", URI: m.uri, Addr: m.addr, UserAgent: m.ua}
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			g.Decide(context.Background(), &reqs[i%len(reqs)])
			i++
		}
	})
}

// BenchmarkForwardAuthHTTP is issue 37's speed target, side by side in one run:
// the gate's forward-auth endpoint and a bare net/http handler answering 204, each
// served on loopback by net/http and asked by keep-alive clients in parallel, as a
// proxy asks. The target: the gate at least half the bare handler's requests per
// second (compare the two req/s figures, or ns/op).
func BenchmarkForwardAuthHTTP(b *testing.B) {
	g := benchGate(b)
	bare := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	for _, c := range []struct {
		name string
		h    http.Handler
	}{{"bare204", bare}, {"gate", g.ForwardAuth()}} {
		b.Run(c.name, func(b *testing.B) {
			srv := httptest.NewServer(c.h)
			defer srv.Close()
			tr := &http.Transport{MaxIdleConnsPerHost: 64}
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr}
			reqs := make([]*http.Request, len(benchMix))
			for i, m := range benchMix {
				r, _ := http.NewRequest("GET", srv.URL+"/v1/gate", nil)
				r.Header.Set("X-Original-URI", m.uri)
				r.Header.Set("X-Original-Method", "GET")
				r.Header.Set("X-Forwarded-Host", "example.com")
				r.Header.Set("X-Forwarded-Proto", "https")
				r.Header.Set("X-Forwarded-For", m.addr.String())
				r.Header.Set("User-Agent", m.ua)
				reqs[i] = r
			}
			b.ReportAllocs()
			b.SetParallelism(4)
			start, cpu0 := time.Now(), loadgen.CPUTime()
			b.RunParallel(func(pb *testing.PB) {
				i := 0
				for pb.Next() {
					res, err := client.Do(reqs[i%len(reqs)])
					if err != nil {
						panic(err)
					}
					io.Copy(io.Discard, res.Body)
					res.Body.Close()
					i++
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
			// Server and clients share the process: CPU per request counts both, for
			// each handler alike, and moves less than wall time on a shared machine.
			b.ReportMetric(float64(b.N)/(loadgen.CPUTime()-cpu0).Seconds(), "req/CPU-s")
		})
	}
}

// BenchmarkForwardAuthHandler is the two handlers of BenchmarkForwardAuthHTTP
// without the network: what the gate adds to a request's CPU, for cachegrind.
func BenchmarkForwardAuthHandler(b *testing.B) {
	g := benchGate(b)
	bare := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	for _, c := range []struct {
		name string
		h    http.Handler
	}{{"bare204", bare}, {"gate", g.ForwardAuth()}} {
		b.Run(c.name, func(b *testing.B) {
			reqs := make([]*http.Request, len(benchMix))
			for i, m := range benchMix {
				r := httptest.NewRequest("GET", "/v1/gate", nil)
				r.RemoteAddr = "127.0.0.1:40000"
				r.Header.Set("X-Original-URI", m.uri)
				r.Header.Set("X-Forwarded-Host", "example.com")
				r.Header.Set("X-Forwarded-For", m.addr.String())
				r.Header.Set("User-Agent", m.ua)
				reqs[i] = r
			}
			w := discardWriter{h: http.Header{}}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				clear(w.h)
				c.h.ServeHTTP(w, reqs[i%len(reqs)])
			}
		})
	}
}

// discardWriter is a ResponseWriter that keeps nothing but a header map, cleared
// for each answer.
type discardWriter struct{ h http.Header }

func (w discardWriter) Header() http.Header         { return w.h }
func (w discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w discardWriter) WriteHeader(int)             {}
