package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/testenv"
)

// hangingSite answers nothing until the test ends, and counts requests by origin
// (the Host header). Every origin's name is dialled to it, as a resolver would for
// many distinct sites.
type hangingSite struct {
	addr     string
	requests sync.Map // host → *atomic.Int32
}

func newHangingSite(t *testing.T) *hangingSite {
	t.Helper()
	h := &hangingSite{}
	stop := make(chan struct{})
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		n, _ := h.requests.LoadOrStore(r.Host, new(atomic.Int32))
		n.(*atomic.Int32).Add(1)
		select {
		case <-stop:
		case <-r.Context().Done():
		}
	})
	t.Cleanup(func() { close(stop) })
	h.addr = srv.Listener.Addr().String()
	return h
}

func (h *hangingSite) dial(ctx context.Context, network, _ string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, network, h.addr)
}

func (h *hangingSite) count(host string) int32 {
	if n, ok := h.requests.Load(host); ok {
		return n.(*atomic.Int32).Load()
	}
	return 0
}

// TestAbandonedFetchesLeaveTheQueue: issue 14's first finding. With one fetch slot
// held by a hanging origin, 50 callers ask for 50 other hanging origins and give up
// after 50 ms. Their fetches, which nobody waits for any more, must not hold the
// queue: once the slot frees, a new origin asked by a fresh caller is fetched at
// once, and none of the 50 origins is ever requested.
func TestAbandonedFetchesLeaveTheQueue(t *testing.T) {
	hang := newHangingSite(t)
	good := serve(t, answer(200, rulesBody))
	_, goodPort, _ := net.SplitHostPort(good.Listener.Addr().String())
	c := newClient(t, fetch.Config{
		MaxInFlight: 1,
		Timeout:     time.Second, // the first fetch holds the slot this long
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if _, port, _ := net.SplitHostPort(addr); port == goodPort {
				var d net.Dialer
				return d.DialContext(ctx, network, addr)
			}
			return hang.dial(ctx, network, addr)
		},
	})

	holder := make(chan struct{})
	go func() {
		defer close(holder)
		c.Get(context.Background(), "http://holder.test/") // hangs for the whole Timeout
	}()
	testenv.WaitFor(t, func() bool { return hang.count("holder.test") == 1 })

	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			if _, err := c.Get(ctx, fmt.Sprintf("http://gone%d.test/", i)); !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("gone%d: %v, want the caller's deadline", i, err)
			}
		})
	}
	wg.Wait()

	// A fresh caller with a deadline of its own: the slot frees within a second,
	// and its fetch must come next.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := c.Get(ctx, "http://127.0.0.1:"+goodPort+"/")
	if err != nil || res.Outcome != fetch.Success {
		t.Fatalf("new origin after the abandoned ones: %v, %v; want it fetched", res, err)
	}
	<-holder
	for i := range 50 {
		if n := hang.count(fmt.Sprintf("gone%d.test", i)); n != 0 {
			t.Errorf("gone%d.test requested %d times after its callers left", i, n)
		}
	}
	if q := c.Stats().Queued; q != 0 {
		t.Errorf("Stats().Queued = %d at the end, want 0", q)
	}
}

// TestQueueBound: past Config.MaxQueued fetches waiting for a slot, Get fails at
// once with ErrBusy instead of queueing without end; a waiter still waiting keeps
// its place.
func TestQueueBound(t *testing.T) {
	hang := newHangingSite(t)
	c := newClient(t, fetch.Config{MaxInFlight: 1, MaxQueued: 2, Timeout: 5 * time.Second, DialContext: hang.dial})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	wg.Go(func() { c.Get(ctx, "http://holder.test/") })
	testenv.WaitFor(t, func() bool { return c.Stats().InFlight == 1 })
	for _, h := range []string{"q1.test", "q2.test"} {
		wg.Go(func() { c.Get(ctx, "http://"+h+"/") })
	}
	testenv.WaitFor(t, func() bool { return c.Stats().Queued == 2 })
	if _, err := c.Get(context.Background(), "http://over.test/"); !errors.Is(err, fetch.ErrBusy) {
		t.Fatalf("third queued fetch: %v, want ErrBusy", err)
	}
	if q := c.Stats().Queued; q != 2 {
		t.Errorf("Stats().Queued = %d after the refusal, want the 2 still waiting", q)
	}
}
