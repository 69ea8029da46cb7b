// Package loadgen runs the load phases of the measuring commands (bench/cmd/loadtest,
// bench/cmd/capacity): workers sending requests in a loop until a deadline, and what
// they added up to — requests, decisions, errors, latencies, wall and CPU time.
package loadgen

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorobots/robots/internal/testenv"
)

// A Worker is one loop of requests: it records what each request came to.
type Worker struct {
	deadline                    time.Time
	lat                         []time.Duration
	requests, decisions, errors int64
}

// More reports whether the phase's time is left for another request.
func (w *Worker) More() bool { return time.Now().Before(w.deadline) }

// Done records a request started at t0 and answered with n decisions.
func (w *Worker) Done(t0 time.Time, n int) {
	w.lat = append(w.lat, time.Since(t0))
	w.requests++
	w.decisions += int64(n)
}

// Fail records n errors (failed requests, or URLs answered with an error).
func (w *Worker) Fail(n int) { w.errors += int64(n) }

// Result is what the workers of a phase added up to.
type Result struct {
	Latencies                   []time.Duration // of the requests answered, sorted
	Requests, Decisions, Errors int64
	Elapsed, CPU                time.Duration // wall clock, and CPU time of the whole process
}

// Run runs work in n goroutines (each given its number and its Worker, whose More
// stays true for d) and returns their sum once all have returned.
func Run(n int, d time.Duration, work func(i int, w *Worker)) Result {
	deadline := time.Now().Add(d)
	start, cpu0 := time.Now(), CPUTime()
	workers := make([]*Worker, n) // apart in memory: each is written by its goroutine alone
	var wg sync.WaitGroup
	for i := range workers {
		workers[i] = &Worker{deadline: deadline}
		wg.Go(func() { work(i, workers[i]) })
	}
	wg.Wait()
	r := Result{Elapsed: time.Since(start), CPU: CPUTime() - cpu0}
	for _, w := range workers {
		r.Latencies = append(r.Latencies, w.lat...)
		r.Requests += w.requests
		r.Decisions += w.decisions
		r.Errors += w.errors
	}
	slices.Sort(r.Latencies)
	return r
}

// Pct returns the p-th percentile (0 to 100) of the latencies, to 10 µs; 0 when
// there are none.
func (r Result) Pct(p float64) time.Duration {
	if len(r.Latencies) == 0 {
		return 0
	}
	return r.Latencies[int(float64(len(r.Latencies)-1)*p/100)].Round(10 * time.Microsecond)
}

// PerSecond returns n per second of the phase's wall-clock time.
func (r Result) PerSecond(n int64) float64 { return float64(n) / r.Elapsed.Seconds() }

// PerCPUSecond returns n per CPU-second the process used during the phase: with
// the machine shared, it says more than PerSecond.
func (r Result) PerCPUSecond(n int64) float64 { return float64(n) / r.CPU.Seconds() }

// CPUTime is the CPU time this process has used (user and system); 0 where it
// cannot be read.
func CPUTime() time.Duration {
	t, _ := testenv.CPUTime()
	return t
}

// RSS returns the resident set size of this process, from /proc (Linux); 0 where
// it cannot be read.
func RSS() uint64 { return procStatus("VmRSS:") }

// PeakRSS returns the peak resident set size of this process so far (VmHWM), 0
// where it cannot be read.
func PeakRSS() uint64 { return procStatus("VmHWM:") }

// procStatus returns the size in bytes on the line of /proc/self/status that starts
// with field, 0 where there is none.
func procStatus(field string) uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
