// Command attack replays the attacks of issue 14 against robots serve on loopback
// and reports what the server held and how it answered: batches of hanging origins
// that their client drops, batches of many distinct origins each serving 500 KiB,
// and hundreds of clients that send a 10,000-URL batch and never read the answer.
//
// Everything runs in this one process: the server (serve.Server with its default
// limits and a bbolt store in a temporary directory), the origins (loopback
// listeners: the server's dialer sends each host name to the listener its name
// picks, a stand-in for DNS) and the clients. Memory is the Go heap sampled every
// 10 ms (HeapAlloc, garbage included) and the process's peak resident size (VmHWM),
// the clients' share included; both are what the operating system would see of a
// server under the same load, and more.
//
//	cd bench && go run ./cmd/attack                       # every scenario
//	cd bench && go run ./cmd/attack -scenarios large -large-batches 8
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorobots/robots/audit"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/fetch/boltstore"
	"github.com/gorobots/robots/internal/loadgen"
	"github.com/gorobots/robots/serve"
)

func main() {
	scenarios := flag.String("scenarios", "hang,large,slow", "scenarios to run: hang, large, slow (issue 14); answers, audits, slowbody (issue 29: run each alone, for its peak RSS); cpu, gets, usage, lint, audittime (issue 34: CPU per request)")
	hold := flag.Duration("hold", 20*time.Second, "how long the answers and slowbody scenarios hold their connections")
	memory := flag.Int64("memory", 64<<20, "the server's -memory (`bytes` of parsed files; 64 MiB is what the issue measured with)")
	dataMax := flag.Int64("data-max-bytes", 64<<20, "the server's -data-max-bytes (`bytes` of the bbolt file; small, so that a few batches pass it)")
	hang := flag.Int("hang", 10000, "hanging origins in each of the hang scenario's three batches")
	largeBatches := flag.Int("large-batches", 6, "batches of the large scenario, each of 10,000 new origins serving 500 KiB")
	slow := flag.Int("slow", 500, "clients of the slow scenario, each sending a 10,000-URL batch it never reads")
	window := flag.Duration("window", 10*time.Second, "how long the slow clients hold their connections")
	origins := flag.Int("robots-origins", 1, "origins the answers scenario's 100 GET /v1/robots ask for (1, the issue's; 100: a file of each, fetched and parsed)")
	auditCores := flag.Int("audit-cores", 0, "the server's -audit-cores (0: its default, one fewer than GOMAXPROCS)")
	fileWork := flag.Int("file-work-bytes", serve.DefaultFileWorkBytes, "the server's -file-work-bytes")
	budget := flag.Duration("cpu-budget", serve.DefaultCPUBudget, "the server's -cpu-budget")
	auditTimeout := flag.Duration("audit-timeout", 20*time.Second, "the server's -audit-timeout (20 s: the issue's)")
	usageBatches := flag.Int("usage-batches", 64, "batches at once of the usage scenario")
	flag.Parse()
	a, err := newAttack(*memory, *dataMax, *fileWork, *auditCores, *budget, *auditTimeout)
	if err != nil {
		log.Fatal(err)
	}
	defer a.close()
	fmt.Printf("attack: GOMAXPROCS=%d, %s, -memory %d MiB, -data-max-bytes %d MiB, other limits at their defaults (-batch-max-bytes %d MiB, -max-batches %d, -batch-fetches %d, -max-inflight %d)\n",
		runtime.GOMAXPROCS(0), runtime.Version(), *memory>>20, *dataMax>>20, serve.DefaultBatchMaxBytes>>20,
		serve.DefaultMaxBatches, serve.DefaultBatchFetches, fetch.DefaultMaxInFlight)
	for _, s := range strings.Split(*scenarios, ",") {
		var err error
		switch strings.TrimSpace(s) {
		case "hang":
			err = a.hang(*hang)
		case "large":
			err = a.large(*largeBatches)
		case "slow":
			err = a.slow(*slow, *window)
		case "answers":
			err = a.answers(*hold, max(1, *origins))
		case "audits":
			err = a.audits()
		case "slowbody":
			err = a.slowBodies(*hold)
		case "cpu":
			err = a.cpuBatch()
		case "gets":
			err = a.gets()
		case "usage":
			err = a.usage(*usageBatches)
		case "lint":
			err = a.lintWild()
		case "audittime":
			err = a.auditTime()
		default:
			err = fmt.Errorf("unknown scenario %q", s)
		}
		if err != nil {
			log.Fatal(err)
		}
	}
}

type attack struct {
	dir                  string
	store                *boltstore.Store
	srv                  *serve.Server
	small                *httptest.Server // every "ok-N.test": a small file
	big                  *httptest.Server // every "big-N.test": 500 KiB of rules
	sites                *httptest.Server // "lines-N.test", "nest-N.test", "rules-N.test" (bounds.go)
	cpu                  *httptest.Server // "wild-N.test", "usage-N.test", "wildsite-N.test" (cpu.go)
	hangLn               net.Listener     // every "hang-N.test": accepts and never answers
	hangs                atomic.Int64     // connections the hanging listener accepted
	bigHits              atomic.Int64
	stop                 chan struct{}
	budget, auditTimeout time.Duration
}

func newAttack(memory, dataMax int64, fileWork, auditCores int, budget, auditTimeout time.Duration) (*attack, error) {
	a := &attack{stop: make(chan struct{}), budget: budget, auditTimeout: auditTimeout}
	var err error
	if a.dir, err = os.MkdirTemp("", "robots-attack-"); err != nil {
		return nil, err
	}
	if a.store, err = boltstore.Open(filepath.Join(a.dir, "cache.bolt"), boltstore.WithMaxBytes(dataMax)); err != nil {
		return nil, err
	}
	a.small = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	}))
	body := bigBody()
	a.big = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.bigHits.Add(1)
		w.Write(body)
	}))
	a.sites = httptest.NewServer(a.sitesHandler())
	a.cpu = httptest.NewServer(cpuSitesHandler())
	if a.hangLn, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		return nil, err
	}
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := a.hangLn.Accept()
			if err != nil {
				return
			}
			a.hangs.Add(1)
			held = append(held, c)
		}
	}()
	var d net.Dialer
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		to := a.small.Listener.Addr().String()
		switch {
		case strings.HasPrefix(addr, "big-"):
			to = a.big.Listener.Addr().String()
		case strings.HasPrefix(addr, "hang-"):
			to = a.hangLn.Addr().String()
		case strings.HasPrefix(addr, "lines-"), strings.HasPrefix(addr, "nest-"), strings.HasPrefix(addr, "rules-"):
			to = a.sites.Listener.Addr().String()
		case strings.HasPrefix(addr, "wild"), strings.HasPrefix(addr, "usage-"):
			to = a.cpu.Listener.Addr().String()
		}
		return d.DialContext(ctx, network, to)
	}
	a.srv, err = serve.New(serve.Config{
		Addr: "127.0.0.1:0", AllowPrivate: true, // the origins are on loopback
		Fetch:         fetch.Config{Store: a.store, DialContext: dial, RulesMemory: memory},
		FileWorkBytes: fileWork, AuditCores: auditCores, CPUBudget: budget,
		Audit: audit.Limits{Time: auditTimeout},
	})
	if err != nil {
		return nil, err
	}
	if err := a.srv.Open(); err != nil {
		return nil, err
	}
	return a, nil
}

func (a *attack) close() {
	a.srv.Close()
	a.small.Close()
	a.big.Close()
	a.sites.Close()
	a.cpu.Close()
	a.hangLn.Close()
	a.store.Close()
	os.RemoveAll(a.dir)
}

// bigBody is 500 KiB of rules in groups of 50: the largest file read, and the
// largest parsed form (about 1.5 MiB of tables).
func bigBody() []byte {
	var b strings.Builder
	for i := 0; b.Len() < 500<<10; i++ {
		fmt.Fprintf(&b, "User-agent: bot%d\n", i)
		for j := range 50 {
			fmt.Fprintf(&b, "Disallow: /p%d/*/q%d$\nAllow: /a%d/%d\n", j, i, j, i)
		}
	}
	return []byte(b.String()[:500<<10])
}

// heapPeak samples the heap until the returned function is called, which returns
// the largest HeapAlloc seen.
func heapPeak() func() uint64 {
	var peak atomic.Uint64
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	return func() uint64 { close(done); <-stopped; return peak.Load() }
}

func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func mib(n uint64) string { return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20)) }

type result struct {
	URL         string `json:"url"`
	Allowed     *bool  `json:"allowed"`
	Error       string `json:"error"`
	ErrorStatus int    `json:"error_status"`
}

// batch posts urls as one batch for agent TestBot and counts its answers by kind.
func (a *attack) batch(ctx context.Context, urls []string) (status int, kinds map[string]int, err error) {
	body, _ := json.Marshal(map[string]any{"agent": "TestBot", "urls": urls})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+a.srv.Addr()+"/v1/check", strings.NewReader(string(body)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	var ans struct{ Results []result }
	if err := json.NewDecoder(resp.Body).Decode(&ans); err != nil {
		return resp.StatusCode, nil, err
	}
	kinds = map[string]int{}
	for _, r := range ans.Results {
		if r.Allowed != nil {
			kinds["decided"]++
		} else {
			kinds[strconv.Itoa(r.ErrorStatus)]++
		}
	}
	return resp.StatusCode, kinds, nil
}

// metric returns the value of an unlabelled series of /metrics.
func (a *attack) metric(name string) float64 {
	resp, err := http.Get("http://" + a.srv.Addr() + "/metrics")
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, name+" "); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return f
		}
	}
	return -1
}

// hang: three batches of n hanging origins at once, dropped by their clients after
// a second; four seconds later a fresh client asks for a new origin that answers.
func (a *attack) hang(n int) error {
	fmt.Printf("\n== hang: three batches of %d origins that accept and never answer, at once, their clients gone after 1 s; 4 s later a new origin is asked\n", n)
	var wg sync.WaitGroup
	for b := range 3 {
		urls := make([]string, n)
		for i := range urls {
			urls[i] = fmt.Sprintf("http://hang-%d-%d.test/x", b, i)
		}
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			_, _, err := a.batch(ctx, urls)
			fmt.Printf("dropped batch: %v\n", err)
		})
	}
	wg.Wait()
	time.Sleep(4 * time.Second)
	start := time.Now()
	status, kinds, err := a.batch(context.Background(), []string{"http://ok-fresh.test/private/a"})
	fmt.Printf("new origin 4 s later: status %d %v %v in %v\n", status, kinds, err, time.Since(start).Round(time.Millisecond))
	fmt.Printf("hanging origins connected to: %d of %d (a batch fetches %d at once; the rest were never asked); fetches queued now: %v, in flight: %v (each ends at its 30 s timeout)\n",
		a.hangs.Load(), 3*n, serve.DefaultBatchFetches, a.metric("robots_fetches_queued"), a.metric("robots_fetches_in_flight"))
	time.Sleep(2 * time.Second)
	fmt.Printf("two seconds later, hanging origins connected to: %d (nobody waits for the others: none is fetched later)\n", a.hangs.Load())
	return nil
}

// large: batches of 10,000 distinct origins each serving 500 KiB.
func (a *attack) large(batches int) error {
	fmt.Printf("\n== large: %d batches of 10,000 new origins, each serving 500 KiB of rules (the issue: 5.19 GB, a 6.86 GB bbolt file)\n", batches)
	fmt.Println("batch | answer | verdicts | 413 (over -batch-max-bytes) | origins fetched | heap peak | live heap after | VmHWM | store entries | store bytes | file | evicted | compactions")
	next := 0
	for b := range batches {
		urls := make([]string, 10000)
		for i := range urls {
			urls[i] = "http://big-" + strconv.Itoa(next) + ".test/p1/x/q1"
			next++
		}
		peak := heapPeak()
		status, kinds, err := a.batch(context.Background(), urls)
		p := peak()
		if err != nil {
			return err
		}
		st := a.store.Stats()
		fmt.Printf("%d | %d | %d | %d | %d | %s | %s | %s | %d | %s | %s | %d | %d\n", b+1, status, kinds["decided"], kinds["413"],
			a.bigHits.Load(), mib(p), mib(liveHeap()), mib(loadgen.PeakRSS()), st.Entries, mib(uint64(st.Bytes)), mib(uint64(st.FileBytes)), st.Evicted, st.Compactions)
	}
	return nil
}

// slow: n clients each send a 10,000-URL batch and never read the answer; meanwhile
// /healthz and a single check are asked.
func (a *attack) slow(n int, window time.Duration) error {
	fmt.Printf("\n== slow: %d clients each send a 10,000-URL batch (5 cached origins) and never read; held for %v\n", n, window)
	origins := []string{"http://ok-1.test", "http://ok-2.test", "http://ok-3.test", "http://ok-4.test", "http://ok-5.test"}
	urls := make([]string, 10000)
	for i := range urls {
		urls[i] = origins[i%5] + "/private/page" + strconv.Itoa(i)
	}
	if _, _, err := a.batch(context.Background(), urls); err != nil { // warm: the origins are cached
		return err
	}
	body, _ := json.Marshal(map[string]any{"agent": "TestBot", "urls": urls})
	req := fmt.Sprintf("POST /v1/check HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", a.srv.Addr(), len(body), body)
	rejected0 := a.metric("robots_batches_rejected_total")
	base := liveHeap()
	peak := heapPeak()
	var mu sync.Mutex
	var conns []net.Conn
	var wg sync.WaitGroup
	var sent atomic.Int64
	for range n {
		wg.Go(func() {
			c, err := net.Dial("tcp", a.srv.Addr())
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			if _, err := io.WriteString(c, req); err == nil {
				sent.Add(1)
			}
		})
	}
	wg.Wait()
	// While they hold on: the probes a monitor and a crawler would send.
	var worst, worstCheck time.Duration
	bad := 0
	for end := time.Now().Add(window); time.Now().Before(end); time.Sleep(500 * time.Millisecond) {
		start := time.Now()
		resp, err := http.Get("http://" + a.srv.Addr() + "/healthz")
		if err != nil || resp.StatusCode != 200 {
			bad++
		} else {
			resp.Body.Close()
		}
		worst = max(worst, time.Since(start))
		start = time.Now()
		resp, err = http.Get("http://" + a.srv.Addr() + "/v1/check?agent=TestBot&url=http://ok-1.test/private/x")
		if err != nil || resp.StatusCode != 200 {
			bad++
		} else {
			resp.Body.Close()
		}
		worstCheck = max(worstCheck, time.Since(start))
	}
	p := peak()
	rejected := a.metric("robots_batches_rejected_total") - rejected0
	fmt.Printf("batches sent: %d; answered 503 at once (past -max-batches): %.0f; the others hold their place until their client reads or leaves\n", sent.Load(), rejected)
	fmt.Printf("heap: %s before, peak %s (+%s); VmHWM %s\n", mib(base), mib(p), mib(p-min(p, base)), mib(loadgen.PeakRSS()))
	fmt.Printf("/healthz and a single check every 0.5 s meanwhile: %d failed; slowest /healthz %v, slowest check %v\n",
		bad, worst.Round(time.Millisecond), worstCheck.Round(time.Millisecond))
	for _, c := range conns {
		c.Close()
	}
	return nil
}
