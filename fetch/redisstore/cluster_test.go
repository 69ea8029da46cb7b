package redisstore_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/fetch/internal/fetchtest"
	"github.com/gorobots/robots/fetch/redisstore"
	"github.com/gorobots/robots/internal/redistest"
	"github.com/gorobots/robots/internal/testenv"
)

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
