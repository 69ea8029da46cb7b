package fetch_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorobots/robots/fetch"
)

// BenchmarkFetch measures fetch throughput on loopback: each iteration is a cache
// miss for a new origin (http://site-N.test), fetched from one local server through
// a dialer that sends every host there, by 16 goroutines per core as a crawler would.
// It reports origins/s.
//
//	go test -run XXX -bench Fetch -benchmem ./fetch
func BenchmarkFetch(b *testing.B) {
	body := []byte(strings.Repeat("User-agent: *\nDisallow: /private/\nAllow: /private/press/\n", 20))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }))
	defer srv.Close()
	addr := srv.Listener.Addr().String()
	d := &net.Dialer{}
	c := fetch.NewClient(fetch.Config{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, addr)
	}})
	var n atomic.Int64
	ctx := context.Background()
	b.ReportAllocs()
	b.SetParallelism(16)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			res, err := c.Get(ctx, fmt.Sprintf("http://site-%d.test/", n.Add(1)))
			if err != nil || res.Outcome != fetch.Success {
				b.Errorf("%v %v", res.Outcome, err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "origins/s")
}

// BenchmarkCacheHit measures a decision from a cached result.
func BenchmarkCacheHit(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: *\nDisallow: /private/\n"))
	}))
	defer srv.Close()
	c := fetch.NewClient(fetch.Config{})
	ctx := context.Background()
	if _, err := c.Get(ctx, srv.URL); err != nil {
		b.Fatal(err)
	}
	url := srv.URL + "/private/page.html"
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if ok, err := c.Allowed(ctx, "BenchBot", url); ok || err != nil {
				b.Errorf("allowed %v, %v", ok, err)
				return
			}
		}
	})
}
