package fetch

import (
	"errors"
	"sync"
)

// ErrBusy is returned by Get when Config.MaxQueued fetches already wait for a slot:
// the origin's robots.txt cannot be fetched soon, so the caller is told at once.
var ErrBusy = errors.New("too many robots.txt fetches waiting")

// errAbandoned ends a flight whose every waiter left before its fetch started.
var errAbandoned = errors.New("fetch abandoned: no caller waits for it")

// flightQueue counts, per origin, the callers waiting for its flight, so that a
// fetch nobody waits for any more does not hold a place in the queue, and bounds the
// number of fetches queued.
type flightQueue struct {
	mu     sync.Mutex
	by     map[string]*waiters
	queued int
}

// waiters are the callers of one flight; gone is closed when the last one leaves.
type waiters struct {
	n    int
	gone chan struct{}
}

// join counts a caller in for origin's flight and returns the flight's waiters.
func (q *flightQueue) join(origin string) *waiters {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.by == nil {
		q.by = map[string]*waiters{}
	}
	w := q.by[origin]
	if w == nil {
		w = &waiters{gone: make(chan struct{})}
		q.by[origin] = w
	}
	w.n++
	return w
}

// leave counts a caller out. When the last leaves, the flight is told (a queued
// fetch is then dropped) and the next caller for origin starts anew.
func (q *flightQueue) leave(origin string, w *waiters) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if w.n--; w.n == 0 {
		close(w.gone)
		if q.by[origin] == w {
			delete(q.by, origin)
		}
	}
}

// enqueue takes a place in the queue if fewer than max are taken.
func (q *flightQueue) enqueue(max int) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.queued >= max {
		return false
	}
	q.queued++
	return true
}

func (q *flightQueue) dequeue() {
	q.mu.Lock()
	q.queued--
	q.mu.Unlock()
}

func (q *flightQueue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.queued
}
