// Command capacity simulates robots serve at internet size on one machine: it
// caches up to -origins distinct origins (a million by default) in a real Redis
// through the server's batch API, and at each checkpoint (100 k, 300 k, 1 M origins)
// reports the server's memory, Redis's bytes and key count, the fetch rate, and the
// decisions per second of batches over origins held in memory and over all origins
// (most then only in Redis).
//
// Everything runs on loopback: the origins are one HTTP server that answers for
// every host name (the server's dialer sends every connection there, a stand-in for
// DNS), origin i serving the corpus file i modulo the corpus size, so bodies have
// the corpus's sizes. Redis is a redis-server this command starts on a free port
// (or -redis URL). The server's parsed-rules memory is bounded by -memory, as in
// production: past it, decisions on origins no longer held read Redis and parse.
//
//	cd bench && go run ./cmd/capacity -origins 1000000   # the corpus: -corpus, $ROBOTS_CORPUS or ../shared/corpus
//
// It is a measurement, not a test: it takes tens of minutes and several GiB.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/fetch/redisstore"
	"github.com/gorobots/robots/internal/corpus"
	"github.com/gorobots/robots/internal/loadgen"
	"github.com/gorobots/robots/serve"
)

func main() {
	corpusDir := corpus.DirFlag(flag.CommandLine, "its robots/ files are the origins' bodies")
	origins := flag.Int("origins", 1_000_000, "distinct origins to cache")
	checkpoints := flag.String("checkpoints", "100000,300000,1000000", "origin counts at which to measure, comma-separated")
	redisURL := flag.String("redis", "", "Redis `URL` to use (default: start a redis-server on a free loopback port)")
	memory := flag.Int64("memory", 2<<30, "`bytes` of parsed robots.txt files the server keeps in memory (serve -memory)")
	duration := flag.Duration("duration", 5*time.Second, "length of each measured decision phase")
	conns := flag.Int("conns", 4, "concurrent batch requests")
	batchSize := flag.Int("batch", 1000, "URLs per batch request")
	fetchLimit := flag.Int("fetch", 100_000, "origins fetched through the server; those past this count are written to Redis directly, as the fetch would store them")
	flag.Parse()
	var cps []int
	for _, f := range strings.Split(*checkpoints, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			log.Fatalf("-checkpoints: %q is not a positive count", f)
		}
		cps = append(cps, min(n, *origins))
	}
	slices.Sort(cps)
	dir, err := corpusDir()
	if err != nil {
		log.Fatal(err)
	}
	if err := run(dir, *origins, slices.Compact(cps), *redisURL, *memory, *duration, *conns, *batchSize, *fetchLimit); err != nil {
		log.Print(err)
		os.Exit(1)
	}
}

func run(corpus string, norigins int, checkpoints []int, redisURL string, memory int64, duration time.Duration, conns, batchSize, fetchLimit int) error {
	names, err := filepath.Glob(filepath.Join(corpus, "robots", "*.txt"))
	if err != nil || len(names) == 0 {
		return fmt.Errorf("no corpus files in %s/robots", corpus)
	}
	slices.Sort(names)
	var corpusBytes int64
	for _, n := range names {
		if fi, err := os.Stat(n); err == nil {
			corpusBytes += min(fi.Size(), 500<<10) // what the fetch keeps
		}
	}

	if redisURL == "" {
		addr, stop, err := startRedis()
		if err != nil {
			return err
		}
		defer stop()
		redisURL = "redis://" + addr
	}
	rdb, err := redisstore.NewClient(redisURL + "?read_timeout=10s&write_timeout=10s")
	if err != nil {
		return err
	}
	defer rdb.Close()
	ctx := context.Background()
	if err := rdb.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("redis at %s: %w", redisURL, err)
	}
	const prefix = "robots:sim:"
	redisBase := usedMemory(ctx, rdb)

	// Origin i is host o<i>.sim.test and serves corpus file i mod len(names), read
	// from disk on each request so that this process holds no copy.
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := strings.Cut(r.Host, ".")
		i, err := strconv.Atoi(strings.TrimPrefix(host, "o"))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		b, err := os.ReadFile(names[i%len(names)])
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	defer origin.Close()
	var d net.Dialer
	dial := func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, origin.Listener.Addr().String())
	}

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	rssBefore := loadgen.RSS()
	store := redisstore.New(rdb, redisstore.WithPrefix(prefix))
	srv, err := serve.New(serve.Config{
		AllowPrivate: true,
		BatchFetches: 64,
		MaxURLs:      batchSize,
		Fetch: fetch.Config{
			Store:       store,
			DialContext: dial,
			RulesMemory: memory,
			MaxInFlight: 64,
			Timeout:     10 * time.Second,
		},
	})
	if err != nil {
		return err
	}
	h := srv.Handler()
	fmt.Printf("capacity: %d origins (bodies: %d corpus files, mean %d bytes), checkpoints %v, -memory %d MiB, GOMAXPROCS=%d, %s, %d CPUs\n",
		norigins, len(names), corpusBytes/int64(len(names)), checkpoints, memory>>20, runtime.GOMAXPROCS(0), runtime.Version(), runtime.NumCPU())

	host := func(i int) string { return "http://o" + strconv.Itoa(i) + ".sim.test" }
	loaded := 0
	for _, cp := range checkpoints {
		if cp > fetchLimit {
			from := max(loaded, fetchLimit)
			if err := seed(ctx, store, names, host, origin.Listener.Addr().String(), from, cp, conns); err != nil {
				return err
			}
			fmt.Printf("\n(origins %d to %d written to Redis directly, as the fetch stores them)\n", from, cp)
		}
		// Cache origins [loaded, min(cp, fetchLimit)): batches of new origins, conns at once.
		fetchTo := min(cp, max(fetchLimit, loaded))
		start, cpu0 := time.Now(), loadgen.CPUTime()
		var next atomic.Int64
		next.Store(int64(loaded))
		var wg sync.WaitGroup
		var loadErr atomic.Pointer[error]
		var failedLoads atomic.Int64
		var firstFail atomic.Pointer[string]
		for range conns {
			wg.Go(func() {
				for {
					from := int(next.Add(int64(batchSize))) - batchSize
					if from >= fetchTo || loadErr.Load() != nil {
						return
					}
					urls := make([]string, 0, batchSize)
					for i := from; i < min(from+batchSize, fetchTo); i++ {
						urls = append(urls, host(i)+"/")
					}
					_, bad, first, err := check(h, urls)
					if err != nil {
						loadErr.Store(&err)
						return
					}
					if bad > 0 {
						failedLoads.Add(int64(bad))
						firstFail.CompareAndSwap(nil, &first)
					}
				}
			})
		}
		wg.Wait()
		if p := loadErr.Load(); p != nil {
			return fmt.Errorf("caching origins: %w", *p)
		}
		el, cpu := time.Since(start), loadgen.CPUTime()-cpu0
		n := fetchTo - loaded
		loaded = cp

		runtime.GC()
		debug.FreeOSMemory()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		keys, _ := rdb.DBSize(ctx).Result()
		used := usedMemory(ctx, rdb) - redisBase
		sample := keyBytes(ctx, rdb, prefix, host, loaded)
		fmt.Printf("\n== %d origins cached\n", loaded)
		if n > 0 {
			fmt.Printf("fetched and stored %d new origins in %.1fs: %.0f origins/s, %.0f per CPU-second (server, origins and Redis client in this process)\n",
				n, el.Seconds(), float64(n)/el.Seconds(), float64(n)/cpu.Seconds())
		}
		if f := failedLoads.Load(); f > 0 {
			fmt.Printf("  %d of them answered with an error instead (first: %s)\n", f, *firstFail.Load())
		}
		fmt.Printf("redis: %d keys, used_memory +%d MiB = %d bytes per origin (MEMORY USAGE of 1,000 sampled keys: mean %d bytes)\n",
			keys, used>>20, used/int64(loaded), sample)
		st := srv.Client().Stats()
		fmt.Printf("server: %d origins held in memory (the rules cache's own estimate %d MiB of -memory %d MiB, %d bytes per origin); Go heap in use %d MiB (+%d MiB since before the server) = %d bytes per origin held; RSS %d MiB (+%d MiB)\n",
			st.Origins, st.Bytes>>20, memory>>20, st.Bytes/int64(max(st.Origins, 1)), ms.HeapInuse>>20, (ms.HeapInuse-before.HeapInuse)>>20,
			(ms.HeapInuse-before.HeapInuse)/uint64(max(st.Origins, 1)), loadgen.RSS()>>20, (loadgen.RSS()-rssBefore)>>20)

		hot := min(loaded, 10_000) // the first origins cached: fetched by the server and held in its memory
		crawl := func(r *rand.Rand) []string {
			sites := make([]string, 5)
			for i := range sites {
				sites[i] = host(r.IntN(hot))
			}
			urls := make([]string, batchSize)
			for i := range urls {
				urls[i] = sites[i%len(sites)] + "/page/" + strconv.Itoa(r.IntN(1000))
			}
			return urls
		}
		worst := func(span int) func(r *rand.Rand) []string {
			return func(r *rand.Rand) []string {
				urls := make([]string, batchSize)
				for i := range urls {
					urls[i] = host(r.IntN(span)) + "/page/" + strconv.Itoa(r.IntN(1000))
				}
				return urls
			}
		}
		measure(h, fmt.Sprintf("crawler batches (5 of the first %d origins, held in memory)", hot), duration, conns, crawl)
		measure(h, fmt.Sprintf("worst-case batches (a random origin per URL, of the first %d, held in memory)", hot), duration, conns, worst(hot))
		measure(h, fmt.Sprintf("worst-case batches (a random origin per URL, of all %d: most read from Redis)", loaded), duration, conns, worst(loaded))
	}
	return nil
}

// seed writes the entries of origins [from, to) to the store as a successful fetch
// of their corpus file at addr would (the same fields, the same encoding), conns at
// once.
func seed(ctx context.Context, store fetch.Store, names []string, host func(int) string, addr string, from, to, conns int) error {
	bodies := make([]string, len(names))
	for i, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return err
		}
		bodies[i] = string(b[:min(len(b), 500<<10)])
	}
	var next atomic.Int64
	next.Store(int64(from))
	var wg sync.WaitGroup
	var firstErr atomic.Pointer[error]
	for range conns * 4 {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= to || firstErr.Load() != nil {
					return
				}
				now := time.Now()
				o := host(i)
				body := bodies[i%len(bodies)]
				e := &fetch.Result{
					Origin: o, RobotsURL: o + "/robots.txt", Outcome: fetch.Success, Effect: fetch.ObeyRules,
					Status: 200, Hops: []fetch.Hop{{URL: o + "/robots.txt", Status: 200}},
					BytesRead: int64(len(body)), WireBytes: int64(len(body)), Body: body,
					FetchedAt: now, ExpiresAt: now.Add(fetch.DefaultTTL), LastSuccess: now, Addrs: []string{addr},
				}
				if err := store.Save(ctx, e); err != nil {
					firstErr.CompareAndSwap(nil, &err)
					return
				}
			}
		})
	}
	wg.Wait()
	if p := firstErr.Load(); p != nil {
		return fmt.Errorf("seeding Redis: %w", *p)
	}
	return nil
}

// measure runs conns loops of batches made by batchOf for d, through the handler,
// and prints decisions per second and per CPU-second.
func measure(h http.Handler, title string, d time.Duration, conns int, batchOf func(*rand.Rand) []string) {
	res := loadgen.Run(conns, d, func(c int, w *loadgen.Worker) {
		r := rand.New(rand.NewPCG(uint64(c), uint64(time.Now().UnixNano())))
		for w.More() {
			urls := batchOf(r)
			t0 := time.Now()
			n, bad, _, err := check(h, urls)
			w.Fail(bad)
			if err != nil {
				w.Fail(len(urls))
				continue
			}
			w.Done(t0, n)
		}
	})
	fmt.Printf("%s: %d batches, %.0f decisions/s, %.0f per CPU-second; batch p50 %s p99 %s; URLs answered with an error %d\n",
		title, res.Requests, res.PerSecond(res.Decisions), res.PerCPUSecond(res.Decisions),
		res.Pct(50), res.Pct(99), res.Errors)
}

// check sends one batch through the handler and returns the decisions made and
// the URLs answered with an error (a fetch that timed out on a loaded machine),
// with the first such answer.
func check(h http.Handler, urls []string) (decided, failed int, first string, err error) {
	body, _ := json.Marshal(map[string]any{"agent": "Googlebot", "urls": urls})
	w := &recorder{h: http.Header{}}
	h.ServeHTTP(w, httptest.NewRequest("POST", "/v1/check", bytes.NewReader(body)))
	if w.code != 0 && w.code != 200 {
		return 0, 0, "", fmt.Errorf("status %d: %.300s", w.code, w.body.String())
	}
	var ans struct {
		Results []struct {
			Allowed *bool  `json:"allowed"`
			Error   string `json:"error"`
		} `json:"results"`
	}
	if err := json.Unmarshal(w.body.Bytes(), &ans); err != nil || len(ans.Results) != len(urls) {
		return 0, 0, "", fmt.Errorf("answer of %d results for %d URLs (%v): %.300s", len(ans.Results), len(urls), err, w.body.String())
	}
	for _, r := range ans.Results {
		if r.Allowed != nil {
			decided++
		} else {
			failed++
			if first == "" {
				first = r.Error
			}
		}
	}
	return decided, failed, first, nil
}

type recorder struct {
	h    http.Header
	code int
	body bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.h }
func (r *recorder) WriteHeader(code int)        { r.code = code }
func (r *recorder) Write(p []byte) (int, error) { return r.body.Write(p) }

// startRedis runs a redis-server without persistence on a free loopback port.
func startRedis() (addr string, stop func(), err error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	addr = l.Addr().String()
	l.Close()
	_, port, _ := net.SplitHostPort(addr)
	dir, err := os.MkdirTemp("", "capacity-redis")
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command("redis-server", "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", dir, "--protected-mode", "no")
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("starting redis-server (apt-get install redis-server): %w", err)
	}
	stop = func() { cmd.Process.Kill(); cmd.Wait(); os.RemoveAll(dir) }
	for deadline := time.Now().Add(10 * time.Second); ; {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return addr, stop, nil
		}
		if time.Now().After(deadline) {
			stop()
			return "", nil, errors.New("redis-server did not start within 10s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// usedMemory is Redis's used_memory (INFO memory), in bytes.
func usedMemory(ctx context.Context, rdb redis.UniversalClient) int64 {
	info, err := rdb.Info(ctx, "memory").Result()
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "used_memory:"); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	return 0
}

// keyBytes is the mean MEMORY USAGE of 1,000 keys spread over the n origins cached.
func keyBytes(ctx context.Context, rdb redis.UniversalClient, prefix string, host func(int) string, n int) int64 {
	var sum, count int64
	for i := range 1000 {
		o := host(i * n / 1000)
		v, err := rdb.MemoryUsage(ctx, prefix+o).Result()
		if err == nil {
			sum += v
			count++
		}
	}
	if count == 0 {
		return 0
	}
	return sum / count
}
