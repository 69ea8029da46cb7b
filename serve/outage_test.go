package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/fetch/redisstore"
	"github.com/gorobots/robots/internal/redistest"
	"github.com/gorobots/robots/internal/testenv"
)

var outageFor = flag.Duration("outage", 10*time.Second, "how long TestRedisOutage keeps Redis down")

// Load of TestRedisOutage: workers each send batches to the two replicas in turn;
// half of a batch's URLs are on origins every replica has cached, half on origins
// never asked before, so each batch needs fetches and the store.
const (
	outageWorkers     = 4
	outageWarm        = 200 // cached origins
	outageBatchWarm   = 10  // URLs on cached origins per batch
	outageBatchNew    = 10  // URLs on new origins per batch
	outageSettle      = 2 * time.Second
	outageRecoverWait = 2 * time.Minute // bound on the breakers' probes finding Redis back
)

// outagePhase counts what the load saw in one phase.
type outagePhase struct {
	name      string
	start     time.Time
	took      time.Duration
	cpu0, cpu time.Duration // process CPU time at the start, and used in the phase
	requests  int
	errors    int
	decisions int
	latencies []time.Duration
	firstErr  string
}

func (p *outagePhase) String() string {
	slices.Sort(p.latencies)
	q := func(f float64) time.Duration {
		if len(p.latencies) == 0 {
			return 0
		}
		return p.latencies[min(len(p.latencies)-1, int(f*float64(len(p.latencies))))]
	}
	return fmt.Sprintf("%-8s %5.1fs: %5d batches (%4.0f/s), %d errors, %6d decisions (%5.0f/s; %5.0f per CPU-second), batch p50 %v p99 %v max %v",
		p.name, p.took.Seconds(), p.requests, float64(p.requests)/p.took.Seconds(), p.errors, p.decisions,
		float64(p.decisions)/p.took.Seconds(), float64(p.decisions)/p.cpu.Seconds(),
		q(0.5).Round(time.Millisecond), q(0.99).Round(time.Millisecond), q(1).Round(time.Millisecond))
}

// TestRedisOutage: two replicas sharing one real Redis keep answering every batch,
// from memory and by fetching, while Redis is down for -outage (10 s) under load —
// killed, or hung by SIGSTOP — without waiting on it once their breakers open;
// robots_store_up reads 0 meanwhile; once Redis is back the breakers close on their
// own and the replicas share fetches through it again. It logs what the load got
// in each phase (go test -run RedisOutage -v ./serve); speed is not asserted.
func TestRedisOutage(t *testing.T) {
	for _, kind := range []struct {
		name     string
		down, up func(*redistest.Server)
	}{
		{"killed", (*redistest.Server).Stop, (*redistest.Server).Start},
		{"paused", (*redistest.Server).Pause, (*redistest.Server).Resume},
	} {
		t.Run(kind.name, func(t *testing.T) {
			rs := redistest.Start(t)
			origin := testenv.Serve(t, 200, "User-agent: *\nDisallow: /private/\n") // its hits are robots.txt fetches
			var d net.Dialer
			dial := func(ctx context.Context, network, _ string) (net.Conn, error) {
				return d.DialContext(ctx, network, origin.Listener.Addr().String()) // every host reaches the origin
			}

			type replica struct {
				s    *Server
				reg  *prometheus.Registry
				logs *testenv.LogRecorder
			}
			var replicas []replica
			for range 2 {
				rdb, err := redisstore.NewClient(rs.URL())
				if err != nil {
					t.Fatal(err)
				}
				defer rdb.Close()
				logs := new(testenv.LogRecorder)
				cfg := Config{AllowPrivate: true,
					Fetch: fetch.Config{Store: redisstore.New(rdb, redisstore.WithLogger(slog.New(logs))), DialContext: dial}}
				s, reg := start(t, cfg)
				replicas = append(replicas, replica{s, reg, logs})
			}
			hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: outageWorkers}}
			defer hc.CloseIdleConnections()

			// batch sends one batch to replica r and checks every verdict.
			var next atomic.Int64
			batch := func(r replica) (int, error) {
				urls := make([]string, 0, outageBatchWarm+outageBatchNew)
				for range outageBatchWarm {
					urls = append(urls, fmt.Sprintf("http://warm%d.test/private/a", next.Add(1)%outageWarm))
				}
				for range outageBatchNew {
					urls = append(urls, fmt.Sprintf("http://%s-new%d.test/private/a", t.Name()[len("TestRedisOutage/"):], next.Add(1)))
				}
				body, _ := json.Marshal(map[string]any{"agent": "Googlebot", "urls": urls})
				resp, err := hc.Post("http://"+r.s.Addr()+"/v1/check", "application/json", bytes.NewReader(body))
				if err != nil {
					return 0, err
				}
				defer resp.Body.Close()
				var ans batchAnswer
				if err := json.NewDecoder(resp.Body).Decode(&ans); err != nil || resp.StatusCode != 200 {
					return 0, fmt.Errorf("status %d, %v", resp.StatusCode, err)
				}
				if len(ans.Results) != len(urls) {
					return 0, fmt.Errorf("%d results for %d URLs", len(ans.Results), len(urls))
				}
				for i, res := range ans.Results {
					if res.Origin != nil && *res.Origin >= 0 && *res.Origin < len(ans.Origins) {
						res.originAnswer = ans.Origins[*res.Origin]
					}
					if res.Allowed == nil || *res.Allowed || res.Outcome != "success" {
						return 0, fmt.Errorf("%s: allowed %v, outcome %q, error %q; want disallowed by the fetched file",
							urls[i], deref(res.Allowed), res.Outcome, res.Error)
					}
				}
				return len(ans.Results), nil
			}
			for i := range outageWarm { // every replica holds the warm origins
				for _, r := range replicas {
					body, _ := json.Marshal(map[string]any{"agent": "Googlebot", "urls": []string{fmt.Sprintf("http://warm%d.test/", i)}})
					if code := post(t, r.s, "/v1/check", string(body), new(any)); code != 200 {
						t.Fatalf("warming: status %d", code)
					}
				}
			}

			var mu sync.Mutex
			cpuNow := func() time.Duration { d, _ := testenv.CPUTime(); return d }
			phase := &outagePhase{name: "before", start: time.Now(), cpu0: cpuNow()}
			var phases []*outagePhase
			switchTo := func(name string) {
				mu.Lock()
				defer mu.Unlock()
				phase.took, phase.cpu = time.Since(phase.start), cpuNow()-phase.cpu0
				phases = append(phases, phase)
				phase = &outagePhase{name: name, start: time.Now(), cpu0: cpuNow()}
			}
			stop := make(chan struct{})
			var wg sync.WaitGroup
			for w := range outageWorkers {
				wg.Go(func() {
					for i := w; ; i++ {
						select {
						case <-stop:
							return
						default:
						}
						t0 := time.Now()
						n, err := batch(replicas[i%2])
						took := time.Since(t0)
						mu.Lock()
						phase.requests++
						phase.decisions += n
						phase.latencies = append(phase.latencies, took)
						if err != nil {
							phase.errors++
							if phase.firstErr == "" {
								phase.firstErr = err.Error()
							}
						}
						mu.Unlock()
					}
				})
			}

			time.Sleep(outageSettle)
			switchTo("outage")
			kind.down(rs)
			time.Sleep(*outageFor / 2)
			for i, r := range replicas {
				if up := gaugeValue(t, r.reg, "robots_store_up"); up != 0 {
					t.Errorf("replica %d: robots_store_up %v during the outage; want 0", i, up)
				}
				if r.s.StoreHealth(t.Context()) == nil {
					t.Errorf("replica %d: StoreHealth nil during the outage; want an error", i)
				}
			}
			time.Sleep(*outageFor - *outageFor/2)
			switchTo("recovery")
			back := time.Now()
			kind.up(rs)
			var recovered time.Duration
			for _, r := range replicas {
				for r.s.StoreHealth(t.Context()) != nil {
					if time.Since(back) > outageRecoverWait {
						t.Fatalf("the store was not back in use %v after Redis returned", outageRecoverWait)
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
			recovered = time.Since(back)
			switchTo("after")
			time.Sleep(outageSettle)
			close(stop)
			wg.Wait()
			switchTo("")

			t.Logf("Redis %s for %v under load (%d workers, batches of %d URLs: %d on cached origins, %d on new ones); breakers closed %v after Redis returned",
				kind.name, *outageFor, outageWorkers, outageBatchWarm+outageBatchNew, outageBatchWarm, outageBatchNew, recovered.Round(time.Millisecond))
			for _, p := range phases {
				t.Log(p)
				if p.errors > 0 {
					t.Errorf("%s: %d of %d batches failed; want none (first: %s)", p.name, p.errors, p.requests, p.firstErr)
				}
				if p.requests == 0 {
					t.Errorf("%s: no batch answered", p.name)
				}
			}
			for i, r := range replicas {
				if up := gaugeValue(t, r.reg, "robots_store_up"); up != 1 {
					t.Errorf("replica %d: robots_store_up %v after recovery; want 1", i, up)
				}
				if n, m := r.logs.Count("redis unavailable"), r.logs.Count("redis available again"); n != 1 || m != 1 {
					t.Errorf("replica %d: %d outage and %d recovery log lines; want 1 and 1", i, n, m)
				}
			}

			// Shared again: a new origin asked of both replicas is fetched once.
			before := origin.Hits()
			for _, r := range replicas {
				body, _ := json.Marshal(map[string]any{"agent": "Googlebot", "urls": []string{"http://" + kind.name + "-shared.test/"}})
				if code := post(t, r.s, "/v1/check", string(body), new(any)); code != 200 {
					t.Fatalf("status %d", code)
				}
			}
			if n := origin.Hits() - before; n != 1 {
				t.Errorf("a new origin asked of both replicas after recovery: %d fetches; want 1 (shared through Redis)", n)
			}
		})
	}
}

// gaugeValue reads a gauge without labels from reg.
func gaugeValue(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	ms := series(t, reg, name)
	if len(ms) == 0 {
		t.Fatalf("no metric %s", name)
	}
	return ms[0].GetGauge().GetValue()
}
