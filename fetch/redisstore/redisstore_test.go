package redisstore_test

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/fetch/internal/fetchtest"
	"github.com/gorobots/robots/fetch/redisstore"
	"github.com/gorobots/robots/internal/redistest"
	"github.com/gorobots/robots/internal/testenv"
)

func client(t *testing.T) *redis.Client {
	rdb := redis.NewClient(&redis.Options{Addr: redistest.Addr(t), DialTimeout: 2 * time.Second})
	t.Cleanup(func() { rdb.Close() })
	if err := rdb.Ping(t.Context()).Err(); err != nil {
		t.Fatalf("redis: %v", err)
	}
	return rdb
}

func TestContract(t *testing.T) {
	fetchtest.TestStore(t, redisstore.New(client(t), redisstore.WithPrefix("test:"+t.Name()+":")))
}

func TestSharedErrors(t *testing.T) {
	fetchtest.TestSharedErrors(t, redisstore.New(client(t), redisstore.WithPrefix("test:"+t.Name()+":")))
}

// TestShared: clients of several processes (here: several clients) sharing one
// Redis fetch each origin once between them.
func TestShared(t *testing.T) {
	rdb := client(t)
	srv := testenv.Serve(t, 200, "User-agent: *\nDisallow: /private\n")
	t0 := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	store := redisstore.New(rdb, redisstore.WithPrefix("test:"+t.Name()+":"))

	first := fetch.NewClient(fetch.Config{Store: store, Now: func() time.Time { return t0 }})
	if _, err := first.Get(t.Context(), srv.URL+"/"); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			now := t0.Add(time.Duration(i) * time.Minute)
			c := fetch.NewClient(fetch.Config{Store: store, Now: func() time.Time { return now }})
			res, err := c.Get(t.Context(), srv.URL+"/x")
			if err != nil {
				t.Error(err)
				return
			}
			if res.Outcome != fetch.Success || res.Allowed("TestBot", "/private") || !res.FetchedAt.Equal(t0) {
				t.Errorf("client %d: %v, fetched at %v; want the shared entry", i, res.Outcome, res.FetchedAt)
			}
		})
	}
	wg.Wait()
	if n := srv.Hits(); n != 1 {
		t.Errorf("%d fetches; want 1", n)
	}
	ttl, err := rdb.TTL(t.Context(), "test:"+t.Name()+":"+srv.URL).Result()
	if err != nil || ttl <= redisstore.DefaultRetention-time.Minute {
		t.Errorf("key TTL %v, %v; want more than the retention", ttl, err)
	}
}

// TestUnreachableRedis: a store that fails is reported and the client goes on
// fetching.
func TestUnreachableRedis(t *testing.T) {
	srv := testenv.Serve(t, 200, "User-agent: *\nDisallow: /private\n")
	rdb := redis.NewClient(&redis.Options{Addr: testenv.ClosedAddr(t), DialTimeout: time.Second, MaxRetries: -1})
	defer rdb.Close()
	var storeErrs int
	var mu sync.Mutex
	c := fetch.NewClient(fetch.Config{Store: redisstore.New(rdb), Observer: fetch.Observer{
		StoreError: func(string, error) { mu.Lock(); storeErrs++; mu.Unlock() },
	}})
	res, err := c.Get(t.Context(), srv.URL+"/")
	if err != nil || res.Outcome != fetch.Success || res.Allowed("TestBot", "/private") {
		t.Fatalf("%v %v; want success despite the store", res, err)
	}
	if storeErrs != 2 { // one load, one save
		t.Errorf("%d store errors reported; want 2", storeErrs)
	}
}

// waitFor polls cond until it holds, failing the test past a bound far above what
// it takes (the backoffs here are tens of milliseconds).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 20s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestBreaker: while the one Redis server is down (killed, or hung by SIGSTOP),
// the store fails fast with ErrUnavailable after FailuresToOpen failures, logs the
// outage once, reports it in Health, and is back in use on its own once the server
// returns, logging that once too.
func TestBreaker(t *testing.T) {
	for _, tc := range []struct {
		name        string
		down, up    func(*redistest.Server)
		failedFirst string // what the first failures are, before the breaker opens
	}{
		{"killed", (*redistest.Server).Stop, (*redistest.Server).Start, "connection refused"},
		{"paused", (*redistest.Server).Pause, (*redistest.Server).Resume, "i/o timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := redistest.Start(t)
			rdb, err := redisstore.NewClient(srv.URL() + "?read_timeout=200ms&write_timeout=200ms&dial_timeout=200ms")
			if err != nil {
				t.Fatal(err)
			}
			defer rdb.Close()
			logs := new(testenv.LogRecorder)
			s := redisstore.New(rdb, redisstore.WithPrefix("test:"), redisstore.WithBackoff(20*time.Millisecond, 100*time.Millisecond),
				redisstore.WithLogger(slog.New(logs)))
			ctx := t.Context()
			now := time.Now()
			e := fetchtest.SampleResult("http://a.test", now)
			e.ExpiresAt = now.Add(time.Hour)
			if err := s.Save(ctx, e); err != nil {
				t.Fatal(err)
			}
			if err := s.Health(ctx); err != nil {
				t.Fatalf("Health with the server up: %v", err)
			}

			tc.down(srv)
			for i := range redisstore.FailuresToOpen {
				_, err := s.Load(ctx, "http://a.test")
				if err == nil || errors.Is(err, redisstore.ErrUnavailable) || !strings.Contains(err.Error(), tc.failedFirst) {
					t.Fatalf("Load %d with the server down: %v; want an error saying %q", i+1, err, tc.failedFirst)
				}
			}
			for range 100 {
				if _, err := s.Load(ctx, "http://a.test"); !errors.Is(err, redisstore.ErrUnavailable) {
					t.Fatalf("Load with the breaker open: %v; want ErrUnavailable", err)
				}
			}
			if err := s.Save(ctx, e); !errors.Is(err, redisstore.ErrUnavailable) {
				t.Fatalf("Save with the breaker open: %v; want ErrUnavailable", err)
			}
			if err := s.Health(ctx); err == nil {
				t.Fatal("Health with the server down: nil; want an error")
			}
			// Probes fail while the server stays down: still one log line.
			time.Sleep(300 * time.Millisecond)
			s.Load(ctx, "http://a.test")
			s.Health(ctx)
			if n := logs.Count("redis unavailable"); n != 1 {
				t.Errorf("%d outage log lines; want 1: %q", n, logs.Messages())
			}

			tc.up(srv)
			waitFor(t, "store back in use", func() bool { return s.Health(ctx) == nil })
			got, err := s.Load(ctx, "http://a.test")
			if tc.name == "paused" && (err != nil || got == nil || got.Origin != "http://a.test") {
				t.Errorf("Load after the pause: %v, %v; want the entry saved before", got, err)
			}
			if tc.name == "killed" && (err != nil || got != nil) { // no persistence: a restart loses the entries
				t.Errorf("Load after the restart: %v, %v; want nil, nil", got, err)
			}
			if err := s.Save(ctx, e); err != nil {
				t.Errorf("Save after recovery: %v", err)
			}
			if n, m := logs.Count("redis unavailable"), logs.Count("redis available again"); n != 1 || m != 1 {
				t.Errorf("%d outage and %d recovery log lines; want 1 and 1: %q", n, m, logs.Messages())
			}
		})
	}
}

// TestClientDuringOutage: a fetch client over a store whose Redis is down answers
// from its memory and by fetching, without waiting for Redis once the breaker is
// open, and shares through Redis again once it is back.
func TestClientDuringOutage(t *testing.T) {
	srv := redistest.Start(t)
	rdb, err := redisstore.NewClient(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	store := redisstore.New(rdb, redisstore.WithPrefix("test:"), redisstore.WithBackoff(20*time.Millisecond, 100*time.Millisecond))
	origin := testenv.Serve(t, 200, "User-agent: *\nDisallow: /private\n")
	var storeErrs, unavailable int
	var mu sync.Mutex
	obs := fetch.Observer{StoreError: func(_ string, err error) {
		mu.Lock()
		defer mu.Unlock()
		storeErrs++
		if errors.Is(err, redisstore.ErrUnavailable) {
			unavailable++
		}
	}}
	dial := testenv.DialAll(origin.Listener.Addr().String()) // every host name reaches the one origin server
	a := fetch.NewClient(fetch.Config{Store: store, Observer: obs, DialContext: dial})
	b := fetch.NewClient(fetch.Config{Store: store, DialContext: dial})
	ctx := t.Context()
	if _, err := a.Get(ctx, origin.URL+"/"); err != nil {
		t.Fatal(err)
	}

	srv.Stop()
	// Other origins (distinct hosts on loopback) are fetched while Redis is down; the
	// cached one is answered from memory.
	for i := range 20 {
		u := fmt.Sprintf("http://o%d.test", i)
		if i%2 == 0 {
			u = origin.URL
		}
		res, err := a.Get(ctx, u+"/private")
		if err != nil || res.Outcome != fetch.Success || res.Allowed("TestBot", "/private") {
			t.Fatalf("Get %d with Redis down: %v, %v; want the rules of the origin", i, res, err)
		}
	}
	mu.Lock()
	if storeErrs == 0 || unavailable == 0 {
		t.Errorf("%d store errors, %d of them ErrUnavailable; want both more than 0", storeErrs, unavailable)
	}
	mu.Unlock()

	srv.Start()
	waitFor(t, "store back in use", func() bool { return store.Health(ctx) == nil })
	fresh := "http://fresh.test"
	before := origin.Hits()
	if _, err := a.Get(ctx, fresh+"/"); err != nil {
		t.Fatal(err)
	}
	res, err := b.Get(ctx, fresh+"/")
	if err != nil || res.Outcome != fetch.Success {
		t.Fatalf("second client after recovery: %v, %v", res, err)
	}
	if n := origin.Hits() - before; n != 1 {
		t.Errorf("%d fetches of a new origin by two clients after recovery; want 1 (shared through Redis)", n)
	}
}

// TestNewClient: -redis URLs in go-redis's forms give a client of the right kind,
// with the timeouts of the URL or redisstore's defaults.
func TestNewClient(t *testing.T) {
	for _, tc := range []struct {
		name, url string
		cluster   bool
		addrs     []string
		read      time.Duration
		retries   int // 0: none
		err       string
	}{
		{name: "single", url: "redis://127.0.0.1:6379/0", addrs: []string{"127.0.0.1:6379"},
			read: redisstore.DefaultIOTimeout, retries: 0},
		{name: "single with timeouts", url: "redis://h:1/2?read_timeout=5s&max_retries=4", addrs: []string{"h:1"},
			read: 5 * time.Second, retries: 4},
		{name: "cluster", url: "redis://a:1?addr=b:2&addr=c:3", cluster: true, addrs: []string{"a:1", "b:2", "c:3"},
			read: redisstore.DefaultIOTimeout, retries: 0},
		{name: "cluster with timeouts", url: "redis://a:1?addr=b:2&read_timeout=250ms", cluster: true,
			addrs: []string{"a:1", "b:2"}, read: 250 * time.Millisecond, retries: 0},
		{name: "sentinel", url: "redis://s1:26379?master_name=main&addr=s2:26379", addrs: []string{"FailoverClient"},
			read: redisstore.DefaultIOTimeout, retries: 0},
		{name: "bad scheme", url: "http://a:1", err: "invalid URL scheme"},
		{name: "unknown option", url: "redis://a:1?colour=blue", err: "colour"},
		{name: "cluster unknown option", url: "redis://a:1?addr=b:2&colour=blue", err: "colour"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := redisstore.NewClient(tc.url)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("NewClient(%q) error %v; want one mentioning %q", tc.url, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			switch c := c.(type) {
			case *redis.ClusterClient:
				o := c.Options()
				// No retry is -1 in a cluster's options, 0 in a normalised client's.
				if !tc.cluster || strings.Join(o.Addrs, ",") != strings.Join(tc.addrs, ",") || o.ReadTimeout != tc.read || max(o.MaxRetries, 0) != tc.retries {
					t.Errorf("cluster client %v, read timeout %v, retries %d; want cluster=%v %v %v %d", o.Addrs, o.ReadTimeout, o.MaxRetries, tc.cluster, tc.addrs, tc.read, tc.retries)
				}
			case *redis.Client:
				o := c.Options()
				if tc.cluster || o.Addr != tc.addrs[0] || o.ReadTimeout != tc.read || o.MaxRetries != tc.retries {
					t.Errorf("client of %s, read timeout %v, retries %d; want cluster=%v %v %v %d", o.Addr, o.ReadTimeout, o.MaxRetries, tc.cluster, tc.addrs, tc.read, tc.retries)
				}
			default:
				t.Errorf("client %T", c)
			}
		})
	}
}

// TestCluster runs the store on a real three-master Redis Cluster, reached through
// go-redis's cluster URL: it meets the store contract, entries spread over every
// master, two clients share each fetch, and a master's restart is survived (its
// keys are fetched again while it is down, the others' still shared; once it is
// back, everything is shared again).
func TestCluster(t *testing.T) {
	cluster := redistest.StartCluster(t, 3)
	rdb, err := redisstore.NewClient(cluster.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	cc, ok := rdb.(*redis.ClusterClient)
	if !ok {
		t.Fatalf("NewClient(%s) = %T; want a cluster client", cluster.URL(), rdb)
	}
	const prefix = "robots:test:"
	store := redisstore.New(rdb, redisstore.WithPrefix(prefix), redisstore.WithBackoff(20*time.Millisecond, 200*time.Millisecond))
	ctx := t.Context()

	t.Run("contract", func(t *testing.T) { fetchtest.TestStore(t, store) })
	t.Run("history", func(t *testing.T) { fetchtest.TestHistory(t, store) })

	origin := testenv.Serve(t, 200, "User-agent: *\nDisallow: /private\n")
	dial := testenv.DialAll(origin.Listener.Addr().String()) // every host name reaches the one origin
	a := fetch.NewClient(fetch.Config{Store: store, DialContext: dial})
	b := fetch.NewClient(fetch.Config{Store: store, DialContext: dial})
	host := func(i int) string { return fmt.Sprintf("http://host%d.test", i) }
	// nodeOf is the address of the master holding origin's key.
	nodeOf := func(o string) string {
		c, err := cc.MasterForKey(ctx, prefix+o)
		if err != nil {
			t.Fatal(err)
		}
		return c.Options().Addr
	}
	// both asks a, then b, about origins [from, to) and returns the fetches made.
	both := func(from, to int) int64 {
		t.Helper()
		before := origin.Hits()
		for _, c := range []*fetch.Client{a, b} {
			for i := from; i < to; i++ {
				res, err := c.Get(ctx, host(i)+"/private")
				if err != nil || res.Outcome != fetch.Success || res.Allowed("TestBot", "/private") {
					t.Fatalf("%s: %v, %v; want the origin's rules", host(i), res, err)
				}
			}
		}
		return origin.Hits() - before
	}

	const n = 60
	if got := both(0, n); got != n {
		t.Errorf("%d fetches of %d origins by two clients; want %d (shared through the cluster)", got, n, n)
	}
	perNode := map[string]int{}
	for i := range n {
		perNode[nodeOf(host(i))]++
	}
	for _, s := range cluster.Nodes {
		keys, err := redis.NewClient(&redis.Options{Addr: s.Addr}).Keys(ctx, prefix+"http://host*").Result()
		if err != nil || len(keys) != perNode[s.Addr] || len(keys) == 0 {
			t.Errorf("node %s holds %d keys (%v); want %d, more than 0", s.Addr, len(keys), err, perNode[s.Addr])
		}
	}

	down := cluster.Nodes[1]
	down.Stop()
	onDown := 0
	for i := n; i < 2*n; i++ {
		if nodeOf(host(i)) == down.Addr {
			onDown++
		}
	}
	if got := both(n, 2*n); got != int64(n+onDown) {
		t.Errorf("with master %s down: %d fetches of %d origins (%d of them on that master) by two clients; want %d",
			down.Addr, got, n, onDown, n+onDown)
	}
	if err := store.Health(ctx); err == nil {
		t.Error("Health with a master down: nil; want an error")
	}

	down.Start()
	cluster.WaitOK()
	waitFor(t, "cluster store back in use", func() bool { return store.Health(ctx) == nil })
	if got := both(2*n, 3*n); got != n {
		t.Errorf("after the restart: %d fetches of %d origins by two clients; want %d", got, n, n)
	}
}

func TestHistory(t *testing.T) {
	fetchtest.TestHistory(t, redisstore.New(client(t), redisstore.WithPrefix("test:"+t.Name()+":")))
}
