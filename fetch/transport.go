package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/gorobots/robots"
)

// ErrDisallowed matches every *DisallowedError with errors.Is.
var ErrDisallowed = errors.New("disallowed by robots.txt")

// DisallowedError is the error of a request that Transport refused to send.
type DisallowedError struct {
	URL       string
	Agent     string
	RobotsURL string
	Outcome   Outcome
	Effect    Effect
	Rule      robots.Rule // the deciding rule; the zero Rule when the effect decided
}

func (e *DisallowedError) Error() string {
	if e.Rule.Line > 0 {
		return fmt.Sprintf("%s: %s disallowed for %s by %s line %d (%s)", ErrDisallowed, e.URL, e.Agent, e.RobotsURL, e.Rule.Line, e.Rule)
	}
	return fmt.Sprintf("%s: %s disallowed for %s: %s is %s", ErrDisallowed, e.URL, e.Agent, e.RobotsURL, e.Outcome)
}

// Is reports whether target is ErrDisallowed.
func (e *DisallowedError) Is(target error) bool { return target == ErrDisallowed }

// DefaultMaxCrawlDelay caps the crawl-delay a Transport honours: a file asking for
// an hour between requests would otherwise hold a request for that hour.
const DefaultMaxCrawlDelay = time.Minute

// Transport is an http.RoundTripper that obeys robots.txt: a request to a URL that
// Agent may not fetch fails with a *DisallowedError before it is sent, and with
// CrawlDelay set, requests to one origin are spaced by its crawl-delay. Redirects
// followed by an http.Client go through it again, so they are checked too.
// Requests for /robots.txt itself always pass.
//
// Set Client and Agent; the zero values of the other fields are usable. A Transport
// is safe for concurrent use.
type Transport struct {
	Client *Client           // fetches and caches robots.txt; nil means NewClient(Config{})
	Agent  string            // the crawler's product token, e.g. "ExampleBot"
	Base   http.RoundTripper // sends the allowed requests; nil means http.DefaultTransport
	// CrawlDelay makes requests to one origin wait for its crawl-delay for Agent,
	// capped at MaxCrawlDelay (DefaultMaxCrawlDelay when zero).
	CrawlDelay    bool
	MaxCrawlDelay time.Duration

	once   sync.Once
	client *Client
	mu     sync.Mutex
	next   map[string]time.Time // origin → earliest start of its next request
}

// maxDelayOrigins bounds the origins a Transport remembers for crawl-delay; past
// it, origins whose next slot has passed are forgotten.
const maxDelayOrigins = 10000

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.once.Do(func() {
		t.client = t.Client
		if t.client == nil {
			t.client = NewClient(Config{})
		}
	})
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	if req.URL.Path == "/robots.txt" {
		return base.RoundTrip(req)
	}
	u := req.URL.String()
	d, err := t.client.Check(req.Context(), t.Agent, u)
	if err != nil {
		closeBody(req)
		return nil, fmt.Errorf("robots.txt for %s: %w", u, err)
	}
	if !d.Allowed {
		closeBody(req)
		return nil, &DisallowedError{URL: u, Agent: t.Agent, RobotsURL: d.Result.RobotsURL,
			Outcome: d.Result.Outcome, Effect: d.Result.Effect, Rule: d.Rule}
	}
	if t.CrawlDelay && d.Result.Robots != nil {
		if delay, ok := d.Result.Robots.CrawlDelay(t.Agent); ok && delay > 0 {
			if err := t.wait(req.Context(), d.Result.Origin, delay, t.client.cfg.Now()); err != nil {
				closeBody(req)
				return nil, err
			}
		}
	}
	return base.RoundTrip(req)
}

// wait blocks until origin's next slot, reserving the one after it.
func (t *Transport) wait(ctx context.Context, origin string, delay time.Duration, now time.Time) error {
	wait := t.reserve(origin, delay, now)
	if wait <= 0 {
		return nil
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// reserve returns how long a request to origin made at now must wait, and books
// the slot after it.
func (t *Transport) reserve(origin string, delay time.Duration, now time.Time) time.Duration {
	limit := t.MaxCrawlDelay
	if limit <= 0 {
		limit = DefaultMaxCrawlDelay
	}
	delay = min(delay, limit)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.next == nil {
		t.next = map[string]time.Time{}
	}
	if len(t.next) >= maxDelayOrigins {
		for o, at := range t.next {
			if !at.After(now) {
				delete(t.next, o)
			}
		}
	}
	start := now
	if at, ok := t.next[origin]; ok && at.After(now) {
		start = at
	}
	t.next[origin] = start.Add(delay)
	return start.Sub(now)
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}
