package fetch

import "time"

// Reserve exposes Transport.reserve, the crawl-delay schedule, to tests.
func Reserve(t *Transport, origin string, delay time.Duration, now time.Time) time.Duration {
	return t.reserve(origin, delay, now)
}

// QuickOrigin exposes quickOrigin, the allocation-free origin of common URLs.
var QuickOrigin = quickOrigin
