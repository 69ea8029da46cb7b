package testenv

import (
	"sync"
	"time"
)

// Clock is a settable clock for fetch.Config.Now, safe for concurrent use.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a clock that says t until Set.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now returns the time last set.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Set sets the time.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}
