package redisstore_test

import (
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
