package loadgen

import (
	"runtime"
	"slices"
	"testing"
	"time"
)

func TestRunSums(t *testing.T) {
	const d = 50 * time.Millisecond
	counts := make([]int, 3)
	res := Run(len(counts), d, func(i int, w *Worker) {
		for w.More() {
			t0 := time.Now()
			time.Sleep(time.Duration(i+1) * time.Millisecond)
			w.Done(t0, 2)
			counts[i]++
		}
		w.Fail(1)
	})
	sum := 0
	for i, n := range counts {
		if n == 0 {
			t.Errorf("worker %d made no request", i)
		}
		sum += n
	}
	if res.Requests != int64(sum) || res.Decisions != 2*int64(sum) || res.Errors != 3 || len(res.Latencies) != sum {
		t.Errorf("requests %d, decisions %d, errors %d, %d latencies; want %d, %d, 3, %d",
			res.Requests, res.Decisions, res.Errors, len(res.Latencies), sum, 2*sum, sum)
	}
	if !slices.IsSorted(res.Latencies) || res.Latencies[0] < time.Millisecond {
		t.Errorf("latencies %v: want sorted, each at least the 1 ms slept", res.Latencies)
	}
	if res.Elapsed < d {
		t.Errorf("elapsed %v; want at least the phase's %v", res.Elapsed, d)
	}
}

func TestPct(t *testing.T) {
	var r Result
	if got := r.Pct(50); got != 0 {
		t.Errorf("no latencies: Pct(50) = %v; want 0", got)
	}
	for i := 1; i <= 100; i++ {
		r.Latencies = append(r.Latencies, time.Duration(i)*time.Millisecond)
	}
	for _, tc := range []struct {
		p    float64
		want time.Duration
	}{{0, 1 * time.Millisecond}, {50, 50 * time.Millisecond}, {99, 99 * time.Millisecond}, {100, 100 * time.Millisecond}} {
		if got := r.Pct(tc.p); got != tc.want {
			t.Errorf("Pct(%v) = %v; want %v", tc.p, got, tc.want)
		}
	}
	r.Elapsed, r.CPU = 2*time.Second, 500*time.Millisecond
	if r.PerSecond(100) != 50 || r.PerCPUSecond(100) != 200 {
		t.Errorf("PerSecond(100) = %v, PerCPUSecond(100) = %v; want 50 and 200", r.PerSecond(100), r.PerCPUSecond(100))
	}
}

// TestRSS: this process's resident size and its peak are read from /proc on Linux,
// the peak at least the current size.
func TestRSS(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/self/status is Linux's")
	}
	rss, peak := RSS(), PeakRSS()
	if rss < 1<<20 || peak < rss {
		t.Errorf("RSS %d, peak %d; want at least 1 MiB, and the peak at least the RSS", rss, peak)
	}
}
