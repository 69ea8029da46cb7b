package serve

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"sync"
	"time"

	"golang.org/x/sync/semaphore"
)

// Work: every request the API answers, and every Test of the tester (page.go),
// spends at most Config.CPUBudget of CPU time on its own work (deciding URLs,
// encoding usage, linting), and stops when its client leaves or its deadline
// passes. The budget is measured, not estimated: the request's goroutine is held on
// its operating-system thread while it works, and a timer reads that thread's CPU
// clock (thread_linux.go; elsewhere the wall clock, which a thread's CPU time never
// exceeds). All three ends are one context: work polls ctx.Done() between decisions
// (a batch) or between checks (a lint), and context.Cause says which end it was. A
// decision cannot be cut in the middle, so a request may pass its budget by the
// cost of one decision (the root package bounds that; see BENCHMARKS.md for the
// worst files).

// DefaultCPUBudget bounds the CPU time of one API request's own work. A crawler's
// batch of 10,000 URLs decides in some 15 ms and the largest allowed (100,000
// decisions) in about 150 ms; the lint of a 500 KiB file of ordinary rules in some
// 300 ms. A second is several times that, and 64 batches admitted at once can then
// cost at most 64 CPU-seconds, where one batch of wildcard rules cost 16.5 before.
const DefaultCPUBudget = time.Second

// minBudgetWait is the shortest the budget's timer waits before reading the thread's
// CPU clock again: a thread that gets little of a core would otherwise be read every
// few microseconds near its end. The budget is passed by at most this much.
const minBudgetWait = 2 * time.Millisecond

// budgetError is the cause of a request's context once its CPU budget is spent.
type budgetError struct{ budget time.Duration }

func (e *budgetError) Error() string {
	return fmt.Sprintf("this request spent its CPU budget (-cpu-budget %v)", e.budget)
}

// errNotDecided is the error of a URL not decided because the request's work ended
// with cause: 413 when its CPU budget was spent, as for the other limits of one
// request (asked again in another request, the URL is decided), 504 at its
// deadline; the cause itself when the client left.
func errNotDecided(cause error) error {
	var be *budgetError
	switch {
	case errors.As(cause, &be):
		return &httpError{code: http.StatusRequestEntityTooLarge, msg: "not decided: " + be.Error() + "; ask for this URL in another request"}
	case errors.Is(cause, context.DeadlineExceeded):
		return &httpError{code: http.StatusGatewayTimeout, msg: "not decided: the request took longer than the server gives one"}
	}
	return cause
}

// stopped counts a single check or lint whose work ended before it was done, and
// returns err.
func (s *Server) stopped(cause, err error) error {
	if name := stopName(cause); name != "" {
		s.metrics.stopped.WithLabelValues(name).Inc()
	}
	return err
}

// stopName names why a request's work ended, as an answer's "stopped" says it:
// "cpu-budget" or "timeout"; "" when its client left (nobody reads the answer).
func stopName(cause error) string {
	var be *budgetError
	switch {
	case errors.As(cause, &be):
		return "cpu-budget"
	case errors.Is(cause, context.DeadlineExceeded):
		return "timeout"
	}
	return ""
}

// withWork returns the context of a request's work: done when parent is (the client
// left), at the deadline, or once the calling goroutine has spent budget of CPU
// time, with a *budgetError as its cause. The goroutine stays on its thread until
// stop is called; stop must be called on the same goroutine.
func withWork(parent context.Context, budget time.Duration, deadline time.Time) (ctx context.Context, stop func()) {
	ctx, cancelDeadline := context.WithDeadline(parent, deadline)
	ctx, cancel := context.WithCancelCause(ctx)
	runtime.LockOSThread()
	clock := threadClock()
	start := clock.cpu()
	var mu sync.Mutex // t, set once the timer is made
	var t *time.Timer
	check := func() {
		if ctx.Err() != nil {
			return // the work is over (stop), or ended otherwise
		}
		left := budget - (clock.cpu() - start)
		if left <= 0 {
			cancel(&budgetError{budget: budget})
			return
		}
		// The thread cannot spend more CPU time than passes on the wall clock: it is
		// read again once it could have spent what is left.
		mu.Lock()
		t.Reset(max(left, minBudgetWait))
		mu.Unlock()
	}
	mu.Lock()
	t = time.AfterFunc(budget, check)
	mu.Unlock()
	return ctx, func() {
		mu.Lock()
		t.Stop()
		mu.Unlock()
		runtime.UnlockOSThread()
		cancel(nil)
		cancelDeadline()
	}
}

// spent reports whether ctx is done, without taking its lock: it is polled between
// decisions.
func spent(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return true
	default:
		return false
	}
}

// turnURLs is how many URLs a batch decides in one turn on a core (Config.
// DecideCores) before it lets a waiting request have it: few enough that a batch
// of 10,000 does not hold it for long, enough that taking turns costs nothing
// measurable.
const turnURLs = 32

// coreTurn is a request's turn on one of the cores the API decides on
// (Config.DecideCores): its decisions run only while it holds one, so that
// requests whose decisions are costly (files of thousands of wildcard or usage
// rules) leave the other cores to /healthz and to the rest of the server, and
// hold the memory of only so many decisions at once.
type coreTurn struct {
	cores *semaphore.Weighted
	held  bool
	n     int // URLs decided in this turn
}

// take is called before each URL is decided: it holds a core, taking one (and,
// after turnURLs, giving it up first for a waiting request) as needed; false when
// ctx ended first.
func (t *coreTurn) take(ctx context.Context) bool {
	if t.held {
		if t.n++; t.n < turnURLs {
			return true
		}
		t.release()
	}
	if t.cores.Acquire(ctx, 1) != nil {
		return false
	}
	t.held, t.n = true, 0
	return true
}

// release gives up the core held, if any.
func (t *coreTurn) release() {
	if t.held {
		t.cores.Release(1)
		t.held = false
	}
}
