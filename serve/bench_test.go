package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/corpus"
	"github.com/gorobots/robots/internal/testenv"
	"github.com/gorobots/robots/internal/verdictjson"
)

// benchServer is a server whose fetch client reaches one loopback origin that
// answers for every host with that host's corpus file, and whose cache holds the
// files of every host in cases.
type benchServer struct {
	s     *Server
	cases []corpus.Case
	hosts []string // scheme://host of each case's file, in case order without repeats
}

func newBenchServer(b testing.TB, origins int) *benchServer {
	b.Helper()
	c := testenv.Corpus(b)
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i, ok := c.FileFor("http://" + r.Host + "/")
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(c.Files[i].Body)
	}))
	b.Cleanup(origin.Close)
	var d net.Dialer
	dial := func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, origin.Listener.Addr().String())
	}
	store := fetch.NewMemoryStore(1 << 30)
	s, err := New(Config{AllowPrivate: true,
		Fetch: fetch.Config{Store: store, DialContext: dial, RulesMemory: 1 << 30}})
	if err != nil {
		b.Fatal(err)
	}
	bs := &benchServer{s: s}
	seen := map[int]bool{}
	for _, cs := range c.Cases() {
		// Every origin is plain HTTP here: the one origin server cannot do TLS for
		// every name.
		if _, rest, ok := strings.Cut(cs.URL, "://"); ok {
			cs.URL = "http://" + rest
		}
		if !seen[cs.File] {
			if len(seen) == origins {
				continue
			}
			seen[cs.File] = true
			u, _ := url.Parse(cs.URL)
			bs.hosts = append(bs.hosts, u.Scheme+"://"+u.Host)
		}
		bs.cases = append(bs.cases, cs)
	}
	// Every URL of the corpus is on one of 1,142 of its hosts: asked for all origins,
	// the server also holds the files no URL names, so that a batch of random origins
	// has as many to pick from as bench/cmd/loadtest's worst case (and as many as a
	// replica holding 19,480 origins: more than the CPU's
	// caches hold).
	if origins > len(seen) {
		for i, f := range c.Files {
			if !seen[i] {
				seen[i] = true
				bs.hosts = append(bs.hosts, "http://"+hostOfFile(f.Host))
			}
		}
	}
	// The cache is filled from the store, as a replica sharing Redis fills it: each
	// entry is what a fetch of the host's file stores (fetching them all over
	// loopback takes a minute on a busy machine).
	now := time.Now()
	for _, h := range bs.hosts {
		i, _ := c.FileFor(h + "/")
		body := c.Files[i].Body[:min(len(c.Files[i].Body), 500<<10)]
		store.Save(b.Context(), &fetch.Result{
			Origin: h, RobotsURL: h + "/robots.txt", Outcome: fetch.Success, Effect: fetch.ObeyRules, Status: 200,
			Body: string(body), BytesRead: int64(len(body)), FetchedAt: now, ExpiresAt: now.Add(fetch.DefaultTTL), LastSuccess: now,
		})
		res, err := s.Client().Get(b.Context(), h+"/")
		if err != nil || res.Outcome != fetch.Success {
			b.Fatal(res, err)
		}
		// What a Robots builds on first use (the crawler's rule set, the fields a
		// crawl-delay is read from) is built before the clock runs, as bench/cmd/loadtest's
		// warm-up does: the benchmarks measure a warm server.
		res.Check("Googlebot", h+"/")
		res.Robots.CrawlDelay("Googlebot")
	}
	return bs
}

// hostOfFile is the host (and port) of a corpus file's name: "example.com_8080" is
// example.com:8080.
func hostOfFile(name string) string {
	if i := strings.LastIndexByte(name, '_'); i >= 0 && i+1 < len(name) &&
		strings.Trim(name[i+1:], "0123456789") == "" {
		return name[:i] + ":" + name[i+1:]
	}
	return name
}

// discard is a ResponseWriter that keeps only the status.
type discard struct {
	h    http.Header
	code int
	n    int
}

func (d *discard) Header() http.Header  { return d.h }
func (d *discard) WriteHeader(code int) { d.code = code }
func (d *discard) Write(p []byte) (int, error) {
	d.n += len(p)
	return len(p), nil
}

// BenchmarkCheck measures GET /v1/check on a warm cache, through the handler (no
// network): real corpus URLs and agents over 1,000 cached origins.
func BenchmarkCheck(b *testing.B) {
	bs := newBenchServer(b, 1000)
	reqs := make([]*http.Request, 0, 4096)
	for _, cs := range bs.cases[:min(len(bs.cases), 4096)] {
		q := url.Values{"agent": {cs.Agent}, "url": {cs.URL}}
		reqs = append(reqs, httptest.NewRequest("GET", "/v1/check?"+q.Encode(), nil))
	}
	h := bs.s.Handler()
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		w := &discard{h: http.Header{}}
		i := 0
		for pb.Next() {
			r := *reqs[i%len(reqs)]
			i++
			clear(w.h)
			h.ServeHTTP(w, &r)
			if w.code != 200 {
				b.Errorf("status %d for %s", w.code, r.URL)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "checks/s")
}

// BenchmarkBatch measures POST /v1/check with 1,000 URLs on a warm cache: a
// crawler's batch (URLs of 5 origins); every URL of another origin, among 1,000
// (origins=1000); and the worst case of bench/cmd/loadtest, every URL of a random origin
// among all the corpus's (origins=all: more origins than the CPU's caches hold,
// and no two batches alike).
func BenchmarkBatch(b *testing.B) {
	for _, bc := range []struct {
		name    string
		origins int
	}{{"origins=5", 5}, {"origins=1000", 1000}, {"origins=all", 1 << 30}} {
		b.Run(bc.name, func(b *testing.B) {
			bs := newBenchServer(b, bc.origins)
			var bodies [][]byte
			switch bc.name {
			case "origins=all":
				bodies = bs.worstBatches(64)
			case "origins=1000":
				// One URL per origin: the first case of each host.
				var urls []string
				seen := map[string]bool{}
				for _, cs := range bs.cases {
					k, _ := fetch.Origin(cs.URL)
					if !seen[k] {
						seen[k] = true
						urls = append(urls, cs.URL)
					}
				}
				body, _ := json.Marshal(map[string]any{"agent": "Googlebot", "urls": urls})
				bodies = append(bodies, body)
			default:
				bodies = append(bodies, bs.crawlerBatch())
			}
			h := bs.s.Handler()
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			cpu0, _ := testenv.CPUTime()
			var next atomic.Int64
			b.RunParallel(func(pb *testing.PB) {
				w := &discard{h: http.Header{}}
				for pb.Next() {
					body := bodies[int(next.Add(1))%len(bodies)]
					r := httptest.NewRequest("POST", "/v1/check", bytes.NewReader(body))
					clear(w.h)
					h.ServeHTTP(w, r)
					if w.code != 200 {
						b.Errorf("status %d", w.code)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N*1000)/time.Since(start).Seconds(), "decisions/s")
			// Per CPU-second of the process: steadier than per second on a shared machine.
			if cpu, ok := testenv.CPUTime(); ok {
				b.ReportMetric(float64(b.N*1000)/(cpu-cpu0).Seconds(), "decisions/CPU-s")
			}
		})
	}
}

// crawlerBatch is the body of a crawler's batch: 1,000 real paths of the corpus on
// the server's few origins, in turn.
func (bs *benchServer) crawlerBatch() []byte {
	var urls []string
	for i := range 1000 {
		u, _ := url.Parse(bs.cases[i%len(bs.cases)].URL)
		urls = append(urls, bs.hosts[i%len(bs.hosts)]+u.RequestURI())
	}
	body, _ := json.Marshal(map[string]any{"agent": "Googlebot", "urls": urls})
	return body
}

// worstBatches are n bodies of 1,000 URLs, each of a random origin among all the
// server's: real paths of the corpus.
func (bs *benchServer) worstBatches(n int) [][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	var bodies [][]byte
	for range n {
		urls := make([]string, 1000)
		for i := range urls {
			u, _ := url.Parse(bs.cases[r.IntN(len(bs.cases))].URL)
			urls[i] = bs.hosts[r.IntN(len(bs.hosts))] + u.RequestURI()
		}
		body, _ := json.Marshal(map[string]any{"agent": "Googlebot", "urls": urls})
		bodies = append(bodies, body)
	}
	return bodies
}

// verdictShape is a verdict as encoding/json writes it, field for field (stdCodec);
// TestStdCodec holds it to the server's encoder.
type verdictShape struct {
	URL      string             `json:"url"`
	Input    string             `json:"input,omitempty"`
	Agent    string             `json:"agent,omitempty"`
	Allowed  bool               `json:"allowed"`
	Rule     *string            `json:"rule"`
	Line     int                `json:"line"`
	Usage    *verdictjson.Usage `json:"usage,omitempty"`
	Readings string             `json:"readings,omitempty"`
}

func verdictShapeOf(v *verdictjson.Verdict) verdictShape {
	s := verdictShape{URL: v.URL, Input: v.Input, Agent: v.Agent, Allowed: v.Allowed, Line: v.Rule.Line, Readings: v.Readings}
	if u := v.Usage; u != nil {
		s.Usage = &verdictjson.Usage{Fetchable: u.Fetchable, ContentUsage: u.ContentUsage, ContentSignal: u.ContentSignal, Lines: []int{}}
		for _, l := range u.Lines {
			s.Usage.Lines = append(s.Usage.Lines, l.Line)
		}
	}
	if v.Rule.Line != 0 {
		rule := v.Rule.String()
		s.Rule = &rule
	}
	return s
}

// stdCodec is batchCodec with encoding/json: the request decoded into batchRequest,
// each verdict and origin object marshalled from a struct of the API's fields.
var stdCodec = batchCodec{
	decode: func(body string) (batchRequest, error) {
		var req batchRequest
		err := json.Unmarshal(unsafe.Slice(unsafe.StringData(body), len(body)), &req)
		return req, err
	},
	verdict: func(v verdictjson.Verdict, b []byte) []byte {
		m, _ := json.Marshal(verdictShapeOf(&v))
		return append(b, m[:len(m)-1]...) // open, as AppendFields leaves it
	},
	origin: func(b []byte, res *fetch.Result, c crawlerSet, _ *[2]dayText) []byte {
		delays := map[string]*float64{}
		for i, tokens := range c.tokens {
			delays[c.names[i]] = nil
			if res.Effect == fetch.ObeyRules && res.Robots != nil {
				if d, ok := res.Robots.CrawlDelay(tokens...); ok {
					secs := d.Seconds()
					delays[c.names[i]] = &secs
				}
			}
		}
		at := func(t time.Time) *time.Time {
			if t.IsZero() {
				return nil
			}
			t = t.UTC().Truncate(time.Second)
			return &t
		}
		m, _ := json.Marshal(struct {
			Origin     string              `json:"origin"`
			RobotsURL  string              `json:"robots_url"`
			Outcome    string              `json:"outcome"`
			Effect     string              `json:"effect"`
			Status     int                 `json:"status"`
			Stale      bool                `json:"stale"`
			FetchedAt  *time.Time          `json:"fetched_at"`
			ExpiresAt  *time.Time          `json:"expires_at"`
			CrawlDelay map[string]*float64 `json:"crawl_delay"`
		}{res.Origin, res.RobotsURL, res.Outcome.String(), res.Effect.String(), res.Status, res.Stale,
			at(res.FetchedAt), at(res.ExpiresAt), delays})
		return append(b, m...)
	},
}

// TestStdCodec: the encoding/json codec of BenchmarkBatchCodec answers a batch as
// the server's does, so that the benchmark compares the same work.
func TestStdCodec(t *testing.T) {
	bs := newBenchServer(t, 5)
	body := bs.crawlerBatch()
	answer := func(c batchCodec) any {
		bs.s.codec = c
		w := httptest.NewRecorder()
		bs.s.Handler().ServeHTTP(w, httptest.NewRequest("POST", "/v1/check", bytes.NewReader(body)))
		if w.Code != 200 {
			t.Fatalf("status %d: %s", w.Code, w.Body)
		}
		var v any
		if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	if hand, std := answer(handCodec), answer(stdCodec); !reflect.DeepEqual(hand, std) {
		t.Errorf("encoding/json's answer differs from the server's")
	}
}

// BenchmarkBatchCodec measures a crawler's batch of 1,000 URLs (5 origins, warm
// cache) answered through HTTP on loopback, with the server's hand-written codec and
// with encoding/json's for the request, the answer or both: decisions per CPU-second
// of the whole process (server and client).
func BenchmarkBatchCodec(b *testing.B) {
	for _, batch := range []string{"crawler", "worst"} {
		b.Run("batch="+batch, func(b *testing.B) {
			var bs *benchServer
			var bodies [][]byte
			if batch == "crawler" {
				bs = newBenchServer(b, 5)
				bodies = [][]byte{bs.crawlerBatch()}
			} else {
				bs = newBenchServer(b, 1<<30)
				bodies = bs.worstBatches(64)
			}
			for _, bc := range []struct {
				name  string
				codec batchCodec
			}{
				{"codec=hand", handCodec},
				{"codec=std-request", batchCodec{decode: stdCodec.decode, verdict: handCodec.verdict, origin: handCodec.origin}},
				{"codec=std-answer", batchCodec{decode: handCodec.decode, verdict: stdCodec.verdict, origin: stdCodec.origin}},
				{"codec=std", stdCodec},
			} {
				b.Run(bc.name, func(b *testing.B) {
					benchmarkBatchHTTP(b, bs, bc.codec, bodies)
				})
			}
		})
	}
}

// BenchmarkBatchHTTP measures a crawler's batch of 1,000 URLs (5 origins, warm
// cache) through HTTP on loopback, the client in the same process, and beside it
// the peer: a bare net/http handler that reads the batch and writes the server's
// answer to it, the same bytes with the same headers, deciding nothing. Decisions
// per CPU-second of the whole process: the server's against what HTTP alone costs.
func BenchmarkBatchHTTP(b *testing.B) {
	bs := newBenchServer(b, 5)
	bodies := [][]byte{bs.crawlerBatch()}
	b.Run("handler=server", func(b *testing.B) {
		benchmarkHTTP(b, bs.s.Handler(), bodies)
	})
	b.Run("handler=bare", func(b *testing.B) {
		benchmarkHTTP(b, bareHandler(b, bs.s.Handler(), bodies[0]), bodies)
	})
}

// bareHandler is a net/http handler that answers every request as h answers body:
// it reads the request's body and writes the same answer bytes with the same headers.
func bareHandler(b *testing.B, h http.Handler, body []byte) http.Handler {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("POST", "/v1/check", bytes.NewReader(body)))
	if w.Code != 200 {
		b.Fatalf("status %d", w.Code)
	}
	answer, header := w.Body.Bytes(), w.Header()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		for k, v := range header {
			w.Header()[k] = v
		}
		w.WriteHeader(200)
		w.Write(answer)
	})
}

// benchmarkBatchHTTP posts bodies in turn to bs's server, with codec, over loopback.
func benchmarkBatchHTTP(b *testing.B, bs *benchServer, codec batchCodec, bodies [][]byte) {
	bs.s.codec = codec
	defer func() { bs.s.codec = handCodec }()
	benchmarkHTTP(b, bs.s.Handler(), bodies)
}

// benchmarkHTTP posts bodies in turn to h over loopback: each a batch of 1,000
// decisions.
func benchmarkHTTP(b *testing.B, h http.Handler, bodies [][]byte) {
	srv := httptest.NewServer(h)
	defer srv.Close()
	client := srv.Client()
	b.ReportAllocs()
	b.ResetTimer()
	cpu0, _ := testenv.CPUTime()
	var next atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			body := bodies[int(next.Add(1))%len(bodies)]
			resp, err := client.Post(srv.URL+"/v1/check", "application/json", bytes.NewReader(body))
			if err != nil {
				b.Error(err)
				return
			}
			_, err = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if err != nil || resp.StatusCode != 200 {
				b.Errorf("status %d, %v", resp.StatusCode, err)
				return
			}
		}
	})
	if cpu, ok := testenv.CPUTime(); ok {
		b.ReportMetric(float64(b.N*1000)/(cpu-cpu0).Seconds(), "decisions/CPU-s")
	}
}
