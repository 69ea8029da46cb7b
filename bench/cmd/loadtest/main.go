// Command loadtest measures robots serve on loopback: single checks per second with
// latency percentiles; batch decisions per second against a warm cache, for a
// crawler's batches (1,000 URLs of 5 origins) and for the worst case (every URL of
// another origin); the same while some origins hang or answer 503; and the memory
// used with every corpus file cached.
//
// The server, the origins and the load generator run in this one process, on
// loopback only; every phase is bounded by -duration. The origins are one HTTP
// server that answers for every host name: the server's dialer sends every
// connection there (a stand-in for DNS), and the Host header picks the corpus file.
//
//	cd bench && go run ./cmd/loadtest -duration 10s   # the corpus: -corpus, $ROBOTS_CORPUS or ../shared/corpus
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/corpus"
	"github.com/gorobots/robots/internal/loadgen"
	"github.com/gorobots/robots/serve"
)

func main() {
	corpusDir := corpus.DirFlag(flag.CommandLine, "robots/ and urls.txt")
	duration := flag.Duration("duration", 10*time.Second, "length of each measured phase")
	conns := flag.Int("conns", 16, "concurrent connections of the single-check phases")
	batchConns := flag.Int("batch-conns", 4, "concurrent connections of the batch phases")
	batchSize := flag.Int("batch", 1000, "URLs per batch request")
	files := flag.Int("files", 0, "corpus files to cache (0: all)")
	bad := flag.Int("bad", 200, "hanging and 503 origins asked for during the last phases (each)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the measured phases to `file`")
	flag.BoolVar(&rawClient, "raw", true, "single checks over keep-alive HTTP/1.1 connections written by hand (false: net/http's client)")
	only := flag.String("phases", "single,crawl,worst,trouble", "phases to run: single, crawl (crawler batches), worst (worst-case batches), trouble (the same with hanging and 503 origins)")
	flag.Parse()
	for _, p := range strings.Split(*only, ",") {
		phases[strings.TrimSpace(p)] = true
	}
	if *cpuprofile != "" {
		profileTo = *cpuprofile
	}
	dir, err := corpusDir()
	if err != nil {
		log.Fatal(err)
	}
	if err := run(dir, *duration, *conns, *batchConns, *batchSize, *files, *bad); err != nil {
		log.Print(err)
		os.Exit(1)
	}
}

// phases are the phases to run; profileTo, when set, receives a CPU profile of them
// (the warm-up left out).
var (
	phases    = map[string]bool{}
	profileTo string
)

func run(corpus string, duration time.Duration, conns, batchConns, batchSize, nfiles, nbad int) error {
	names, err := filepath.Glob(filepath.Join(corpus, "robots", "*.txt"))
	if err != nil || len(names) == 0 {
		return fmt.Errorf("no corpus files in %s/robots", corpus)
	}
	slices.Sort(names)
	if nfiles > 0 && nfiles < len(names) {
		names = names[:nfiles]
	}
	paths, err := readPaths(filepath.Join(corpus, "urls.txt"))
	if err != nil {
		return err
	}
	hosts := make([]string, len(names))
	fileOf := make(map[string]string, len(names))
	for i, n := range names {
		h := strings.ReplaceAll(strings.TrimSuffix(filepath.Base(n), ".txt"), "_", "-")
		hosts[i] = h
		fileOf[h] = n
	}

	// The origins: corpus files by host (read from disk on each request, so that
	// this process holds no copy), hanging hosts and 503 hosts.
	originLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	originSrv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := strings.Cut(r.Host, ":")
		switch {
		case strings.HasPrefix(host, "hang"):
			<-r.Context().Done()
		case strings.HasPrefix(host, "down"):
			http.Error(w, "down", http.StatusServiceUnavailable)
		default:
			b, err := os.ReadFile(fileOf[host])
			if err != nil {
				http.NotFound(w, r)
				return
			}
			w.Write(b)
		}
	})}
	go originSrv.Serve(originLn)
	defer originSrv.Close()
	var d net.Dialer
	dial := func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, originLn.Addr().String())
	}

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	rssBefore := loadgen.RSS()

	srv, err := serve.New(serve.Config{
		Addr:         "127.0.0.1:0",
		AllowPrivate: true,
		BatchFetches: 64,
		Fetch: fetch.Config{
			Store:       fetch.NewMemoryStore(2 << 30),
			DialContext: dial,
			RulesMemory: 2 << 30,
			MaxInFlight: 64,
			Timeout:     5 * time.Second,
		},
	})
	if err != nil {
		return err
	}
	if err := srv.Open(); err != nil {
		return err
	}
	defer srv.Close()
	base := "http://" + srv.Addr()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256, MaxConnsPerHost: 256, DisableCompression: true}}

	fmt.Printf("loadtest: %d corpus origins, GOMAXPROCS=%d, %s per phase, %s\n", len(hosts), runtime.GOMAXPROCS(0), duration, runtime.Version())

	// Warm the cache: one batch per 1000 origins.
	start := time.Now()
	for i := 0; i < len(hosts); i += 1000 {
		var urls []string
		for _, h := range hosts[i:min(i+1000, len(hosts))] {
			urls = append(urls, "http://"+h+"/")
		}
		var buf []byte
		if _, err := batch(client, base, batchBody(urls), len(urls), &buf, true); err != nil {
			return fmt.Errorf("warming: %w", err)
		}
	}
	fmt.Printf("warm-up: %d origins fetched and cached in %.1fs\n", len(hosts), time.Since(start).Seconds())
	runtime.GC()
	debug.FreeOSMemory()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	fmt.Printf("memory with %d files cached: RSS %d MiB (%d MiB before the server started); Go heap in use %d MiB (+%d MiB)\n",
		len(hosts), loadgen.RSS()>>20, rssBefore>>20, after.HeapInuse>>20, (after.HeapInuse-before.HeapInuse)>>20)

	urlFor := func(r *rand.Rand) string {
		return "http://" + hosts[r.IntN(len(hosts))] + paths[r.IntN(len(paths))]
	}
	// A crawler's batch: the URLs it is about to fetch from the few sites it is
	// crawling at the moment, here crawlOrigins origins per batch, in turn.
	crawlBatch := func(r *rand.Rand, size int) []string {
		sites := make([]string, crawlOrigins)
		for i := range sites {
			sites[i] = hosts[r.IntN(len(hosts))]
		}
		urls := make([]string, size)
		for i := range urls {
			urls[i] = "http://" + sites[i%len(sites)] + paths[r.IntN(len(paths))]
		}
		return urls
	}
	worstBatch := func(r *rand.Rand, size int) []string {
		urls := make([]string, size)
		for i := range urls {
			urls[i] = urlFor(r)
		}
		return urls
	}
	crawlTitle := fmt.Sprintf("crawler batches (%d URLs of %d origins)", batchSize, crawlOrigins)
	worstTitle := fmt.Sprintf("worst-case batches (%d URLs, each of a random origin)", batchSize)
	if profileTo != "" {
		f, err := os.Create(profileTo)
		if err != nil {
			return err
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	// measure runs the phases asked for; when says what else is going on.
	measure := func(when string) {
		if phases["single"] {
			singles(client, base, "single checks, "+when, duration, conns, urlFor, nil)
		}
		if phases["crawl"] {
			batches(client, base, crawlTitle+", "+when, duration, batchConns, batchSize, crawlBatch)
		}
		if phases["worst"] {
			batches(client, base, worstTitle+", "+when, duration, batchConns, batchSize, worstBatch)
		}
	}
	measure("warm cache")
	if !phases["trouble"] {
		return nil
	}

	// Now with trouble: other clients keep asking about origins that hang (until the
	// fetch timeout) or answer 503, each a new origin, while the healthy ones are measured.
	var trouble atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for k := range 8 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				kind := "hang"
				if i%2 == 1 {
					kind = "down"
				}
				u := fmt.Sprintf("http://%s%d-%d.test/x", kind, k, i%nbad)
				resp, err := client.Get(base + "/v1/check?agent=Googlebot&url=" + url.QueryEscape(u))
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				trouble.Add(1)
			}
		})
	}
	measure("with hanging and 503 origins")
	close(stop)
	fmt.Printf("(troubled-origin checks completed meanwhile: %d)\n", trouble.Load())
	wg.Wait()
	return nil
}

func readPaths(name string) ([]string, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		u, err := url.Parse(strings.TrimSpace(l))
		if err != nil || u.Host == "" {
			continue
		}
		p := u.EscapedPath()
		if p == "" {
			p = "/"
		}
		if u.RawQuery != "" {
			p += "?" + u.RawQuery
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no URLs in %s", name)
	}
	return out, nil
}

// singles runs conns loops of GET /v1/check for d and prints req/s and percentiles.
func singles(client *http.Client, base, title string, d time.Duration, conns int, urlFor func(*rand.Rand) string, _ any) {
	res := loadgen.Run(conns, d, func(c int, w *loadgen.Worker) {
		r := rand.New(rand.NewPCG(uint64(c), 1))
		buf := make([]byte, 0, 512)
		var rc *rawConn
		defer func() {
			if rc != nil {
				rc.c.Close()
			}
		}()
		for w.More() {
			path := "/v1/check?agent=Googlebot&url=" + url.QueryEscape(urlFor(r))
			t0 := time.Now()
			var status int
			var err error
			if rawClient {
				if rc == nil {
					if rc, err = dialRaw(strings.TrimPrefix(base, "http://")); err != nil {
						w.Fail(1)
						time.Sleep(10 * time.Millisecond)
						continue
					}
				}
				if status, buf, err = rc.get(path, buf[:0]); err != nil {
					rc.c.Close()
					rc = nil
				}
			} else {
				var resp *http.Response
				if resp, err = client.Get(base + path); err == nil {
					buf, _ = readAll(resp.Body, buf[:0])
					resp.Body.Close()
					status = resp.StatusCode
				}
			}
			if err != nil {
				w.Fail(1)
				continue
			}
			w.Done(t0, 1)
			if status != 200 {
				w.Fail(1)
			}
		}
	})
	fmt.Printf("%s: %d requests in %.1fs = %.0f req/s; latency p50 %s p90 %s p99 %s p99.9 %s max %s; errors %d; CPU %.1fs = %.0f req per CPU-second (server and generator)\n",
		title, res.Requests, res.Elapsed.Seconds(), res.PerSecond(res.Requests),
		res.Pct(50), res.Pct(90), res.Pct(99), res.Pct(99.9), res.Pct(100), res.Errors,
		res.CPU.Seconds(), res.PerCPUSecond(res.Requests))
}

// rawClient makes the single-check phases send requests over plain keep-alive
// HTTP/1.1 connections written and read here, rather than through net/http's
// client: the generator shares the two cores with the server, and net/http's client
// costs about as much CPU per request as the server does.
var rawClient = true

// rawConn is one keep-alive HTTP/1.1 connection to the server.
type rawConn struct {
	c  net.Conn
	br *bufio.Reader
	bw *bufio.Writer
}

func dialRaw(addr string) (*rawConn, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	return &rawConn{c: c, br: bufio.NewReaderSize(c, 16<<10), bw: bufio.NewWriterSize(c, 4<<10)}, nil
}

// get sends GET path and reads the answer's status and body (into buf). The server
// sends Content-Length with every API answer.
func (rc *rawConn) get(path string, buf []byte) (int, []byte, error) {
	rc.c.SetDeadline(time.Now().Add(30 * time.Second))
	rc.bw.WriteString("GET ")
	rc.bw.WriteString(path)
	rc.bw.WriteString(" HTTP/1.1\r\nHost: loadtest\r\n\r\n")
	if err := rc.bw.Flush(); err != nil {
		return 0, buf, err
	}
	line, err := rc.br.ReadSlice('\n')
	if err != nil {
		return 0, buf, err
	}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.1 ")) {
		return 0, buf, fmt.Errorf("status line %q", line)
	}
	status, err := strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, buf, fmt.Errorf("status line %q", line)
	}
	length := -1
	for {
		line, err = rc.br.ReadSlice('\n')
		if err != nil {
			return 0, buf, err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			break
		}
		if k, v, ok := bytes.Cut(line, []byte(":")); ok && bytes.EqualFold(k, []byte("Content-Length")) {
			if length, err = strconv.Atoi(string(bytes.TrimSpace(v))); err != nil {
				return 0, buf, fmt.Errorf("header %q", line)
			}
		}
	}
	if length < 0 {
		return 0, buf, errors.New("answer without Content-Length")
	}
	buf = slices.Grow(buf[:0], length)[:length]
	_, err = io.ReadFull(rc.br, buf)
	return status, buf, err
}

// crawlOrigins is how many origins a crawler's batch holds URLs of.
const crawlOrigins = 5

// batches runs conns loops of POST /v1/check with size URLs each, made by batchOf.
func batches(client *http.Client, base, title string, d time.Duration, conns, size int, batchOf func(*rand.Rand, int) []string) {
	res := loadgen.Run(conns, d, func(c int, w *loadgen.Worker) {
		r := rand.New(rand.NewPCG(uint64(c), 2))
		// A few different bodies per connection, encoded before the clock runs.
		var bodies [][]byte
		for range 4 {
			bodies = append(bodies, batchBody(batchOf(r, size)))
		}
		var buf []byte
		for i := 0; w.More(); i++ {
			t0 := time.Now()
			n, err := batch(client, base, bodies[i%len(bodies)], size, &buf, i%16 == 0)
			if err != nil {
				w.Fail(1)
				continue
			}
			w.Done(t0, n)
		}
	})
	fmt.Printf("%s: %d batches of %d in %.1fs = %.0f decisions/s; batch latency p50 %s p99 %s; errors %d; CPU %.1fs = %.0f decisions per CPU-second\n",
		title, res.Requests, size, res.Elapsed.Seconds(), res.PerSecond(res.Decisions), res.Pct(50), res.Pct(99), res.Errors,
		res.CPU.Seconds(), res.PerCPUSecond(res.Decisions))
}

func batchBody(urls []string) []byte {
	body, _ := json.Marshal(map[string]any{"agent": "Googlebot", "urls": urls})
	return body
}

// batch sends one batch of n URLs and returns the decisions in the answer. The
// generator shares the machine with the server, so it reads answers into buf and
// counts their decisions (one "allowed" key each) only when verify is set; otherwise
// a 200 answer counts as n decisions.
func batch(client *http.Client, base string, body []byte, n int, buf *[]byte, verify bool) (int, error) {
	resp, err := client.Post(base+"/v1/check", "application/json", bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	*buf, err = readAll(resp.Body, (*buf)[:0])
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != 200 {
		return 0, fmt.Errorf("status %d: %.200s", resp.StatusCode, *buf)
	}
	if !verify {
		return n, nil
	}
	if got := bytes.Count(*buf, []byte(`"allowed":`)); got != n {
		return got, fmt.Errorf("%d decisions in the answer to %d URLs", got, n)
	}
	return n, nil
}

func readAll(r io.Reader, buf []byte) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err != nil {
			if err == io.EOF {
				return buf, nil
			}
			return buf, err
		}
	}
}
