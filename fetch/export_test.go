package fetch

import (
	"context"
	"time"
)

// GetAt is Client.Get at time now, for tests of expiry and retries that would
// otherwise need a clock of their own for every client.
func GetAt(c *Client, ctx context.Context, rawURL string, now time.Time) (*Result, error) {
	return c.get(ctx, rawURL, now)
}

// Claim exposes Transport.claim, the crawl-delay schedule, to tests.
func Claim(t *Transport, origin string, delay time.Duration, now time.Time) time.Duration {
	return t.claim(origin, delay, now)
}

// FlightCallers returns how many callers wait for origin's flight: tests hold a
// fetch until the callers they started have all joined it.
func FlightCallers(c *Client, origin string) int {
	c.queue.mu.Lock()
	defer c.queue.mu.Unlock()
	if w := c.queue.by[origin]; w != nil {
		return w.n
	}
	return 0
}
