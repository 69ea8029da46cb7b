package fetch

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/gorobots/robots"
)

// Client fetches robots.txt files as a crawler must (SPEC §2) and caches what it
// learns per origin. It is safe for concurrent use; concurrent requests for one
// origin share one fetch. The zero value is not usable: call NewClient.
type Client struct {
	opts   options
	http   *http.Client
	rules  *lru[*Result] // parsed results by origin, whatever the store
	flight singleflight.Group
	slots  chan struct{} // one per fetch in flight
}

// NewClient returns a client with the given options.
func NewClient(opts ...Option) *Client {
	o := options{
		timeout:        DefaultTimeout,
		connectTimeout: DefaultConnectTimeout,
		maxBytes:       robots.DefaultMaxBytes,
		userAgent:      DefaultUserAgent,
		policy:         GooglePolicy(),
		minTTL:         DefaultMinTTL,
		maxTTL:         DefaultMaxTTL,
		retryMin:       DefaultRetryMin,
		retryMax:       DefaultRetryMax,
		rulesBytes:     DefaultMemoryBytes,
		maxInFlight:    DefaultMaxInFlight,
		now:            time.Now,
	}
	for _, opt := range opts {
		opt(&o)
	}
	o.maxBytes = max(o.maxBytes, robots.DefaultMaxBytes)
	o.parse = append(slices.Clip(o.parse), robots.WithMaxBytes(o.maxBytes))
	if !o.policySet {
		// The dialect is read back from an empty parse: the options are opaque.
		o.policy = PolicyFor(robots.Parse(nil, o.parse...).Dialect())
	}
	if o.timeout <= 0 {
		o.timeout = DefaultTimeout
	}
	if o.connectTimeout <= 0 {
		o.connectTimeout = DefaultConnectTimeout
	}
	if o.dial == nil {
		d := &net.Dialer{KeepAlive: 30 * time.Second}
		o.dial = d.DialContext
	}
	if o.store == nil {
		o.store = NewMemoryStore(DefaultMemoryBytes)
	}
	if o.rulesBytes <= 0 {
		o.rulesBytes = DefaultMemoryBytes
	}
	if o.maxInFlight <= 0 {
		o.maxInFlight = DefaultMaxInFlight
	}
	if o.policy.Classify == nil {
		o.policy.Classify = googleClassify
	}
	if o.policy.TTL <= 0 {
		o.policy.TTL = DefaultTTL
	}
	if o.policy.MaxUnreachable <= 0 {
		o.policy.MaxUnreachable = DefaultMaxUnreachable
	}
	o.maxTTL = max(o.maxTTL, o.minTTL)
	o.retryMin = max(o.retryMin, time.Second)
	o.retryMax = max(o.retryMax, o.retryMin)
	c := &Client{opts: o, rules: newLRU[*Result](o.rulesBytes), slots: make(chan struct{}, o.maxInFlight)}
	c.http = c.newHTTPClient()
	return c
}

// dialContext is the one way the client connects, with the connect timeout.
func (c *Client) dialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.connectTimeout)
	defer cancel()
	return c.opts.dial(ctx, network, addr)
}

// Stats are a client's figures at one moment, for metrics.
type Stats struct {
	Origins  int   // origins whose parsed robots.txt the client holds in memory
	Bytes    int64 // their estimated size, bounded by WithRulesMemory
	InFlight int   // fetches in progress (at most WithMaxInFlight)
}

// Stats returns the client's figures now.
func (c *Client) Stats() Stats {
	n, b := c.rules.stats()
	return Stats{Origins: n, Bytes: b, InFlight: len(c.slots)}
}

// Get returns what is known about the robots.txt of rawURL's origin, fetching it
// when the cache has no fresh result. The error is for URLs that have no robots.txt
// (not absolute, unsupported scheme, invalid host) and for ctx ending while waiting;
// a failed fetch is a Result with Outcome Unreachable.
func (c *Client) Get(ctx context.Context, rawURL string) (*Result, error) {
	return c.GetAt(ctx, rawURL, c.opts.now())
}

// GetAt is Get at time now: expiry and retry decisions are made for now, and a
// fetch made is dated now.
func (c *Client) GetAt(ctx context.Context, rawURL string, now time.Time) (*Result, error) {
	if origin, ok := quickOrigin(rawURL); ok {
		if res, ok := c.fresh(origin, now); ok {
			return res, nil
		}
	}
	origin, robotsURL, err := Origin(rawURL)
	if err != nil {
		return nil, err
	}
	held, ok := c.rules.get(origin)
	if ok && now.Before(held.ExpiresAt) {
		c.observe(c.opts.observer.CacheHit, origin)
		return held, nil
	}
	// The store may hold a fresher entry than this process: one written by another
	// process sharing it, or one the rules cache dropped.
	prev, _ := c.load(ctx, origin) // a failing store is reported and treated as empty
	if prev == nil && held != nil {
		prev = held.entry // the store lost it (evicted, failing): the copy is still here
	}
	if prev != nil && now.Before(prev.ExpiresAt) {
		res := c.remember(prev)
		c.observe(c.opts.observer.CacheHit, origin)
		return res, nil
	}
	c.observe(c.opts.observer.CacheMiss, origin)
	led := false
	ch := c.flight.DoChan(origin, func() (any, error) {
		led = true
		// A flight for origin may have ended between the checks above and this one
		// starting: it stored its result before ending, so fetching again would be a
		// second fetch of the same file (TestWaiterCancel saw it under load).
		if held, ok := c.rules.get(origin); ok && now.Before(held.ExpiresAt) {
			return held, nil
		}
		// The fetch is shared: no one caller's cancellation may end it; the fetch
		// timeout bounds it.
		return c.refresh(context.WithoutCancel(ctx), origin, robotsURL, prev, now), nil
	})
	select {
	case r := <-ch:
		if !led {
			c.observe(c.opts.observer.FlightWait, origin)
		}
		return r.Val.(*Result), nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// Peek returns the fresh result held in process for rawURL's origin, if there is
// one, without fetching, waiting or asking the store: what Get returns at once on a
// cache hit. It takes no lock and, for the common URL shape (http or https, a
// lower-case host without user info), allocates nothing, so callers on a hot path
// can try it before setting up what a fetch would need, and call Get when ok is
// false. A hit is reported to the Observer as by Get.
func (c *Client) Peek(rawURL string) (*Result, bool) { return c.PeekAt(rawURL, c.opts.now()) }

// PeekAt is Peek at time now.
func (c *Client) PeekAt(rawURL string, now time.Time) (*Result, bool) {
	origin, ok := quickOrigin(rawURL)
	if !ok {
		var err error
		if origin, _, err = Origin(rawURL); err != nil {
			return nil, false
		}
	}
	return c.fresh(origin, now)
}

// fresh returns the result held for origin if it is fresh at now.
func (c *Client) fresh(origin string, now time.Time) (*Result, bool) {
	held, ok := c.rules.get(origin)
	if !ok || !now.Before(held.ExpiresAt) {
		return nil, false
	}
	c.observe(c.opts.observer.CacheHit, held.Origin)
	return held, true
}

// Allowed reports whether the crawler with product token agent may fetch rawURL,
// fetching its origin's robots.txt if needed.
func (c *Client) Allowed(ctx context.Context, agent, rawURL string) (bool, error) {
	d, err := c.Check(ctx, agent, rawURL)
	return d.Allowed, err
}

// Decision is a decision with the result it was made from.
type Decision struct {
	robots.Decision
	Result *Result
}

// Check decides rawURL for the crawler with product token agent, fetching its
// origin's robots.txt if needed, and says why.
func (c *Client) Check(ctx context.Context, agent, rawURL string) (Decision, error) {
	return c.CheckAgents(ctx, []string{agent}, rawURL)
}

// CheckAgents is Check for one crawler that answers to several product tokens (see
// robots.Robots.CheckAgents).
func (c *Client) CheckAgents(ctx context.Context, agents []string, rawURL string) (Decision, error) {
	res, err := c.Get(ctx, rawURL)
	if err != nil {
		return Decision{}, err
	}
	return Decision{Decision: res.CheckAgents(agents, rawURL), Result: res}, nil
}

// Fetch fetches the robots.txt of rawURL's origin now, bypassing the cache and
// leaving it unchanged. The result reads the fetch alone: it has no earlier copy to
// fall back on.
func (c *Client) Fetch(ctx context.Context, rawURL string) (*Result, error) {
	origin, robotsURL, err := Origin(rawURL)
	if err != nil {
		return nil, err
	}
	now := c.opts.now()
	e, _ := c.fetchEntry(ctx, origin, robotsURL, nil, now)
	return c.materialise(e, nil), nil
}

func (c *Client) observe(fn func(string), origin string) {
	if fn != nil {
		fn(origin)
	}
}

func (c *Client) load(ctx context.Context, origin string) (*Entry, error) {
	e, err := c.opts.store.Load(ctx, origin)
	if err != nil {
		if fn := c.opts.observer.StoreError; fn != nil {
			fn(origin, err)
		}
		return nil, err
	}
	if e != nil && e.Origin != origin {
		return nil, nil // a store must not answer for another origin
	}
	if e != nil && c.opts.addrCheck != nil && !c.addrsAllowed(e) {
		// Fetched by a process allowed to connect where this one may not: as if
		// absent, so that this client asks its own dialer.
		return nil, nil
	}
	return e, nil
}

// addrsAllowed reports whether every address e and its copy were fetched from
// passes the client's address check. An entry with a response but no addresses was
// written before addresses were recorded: it cannot be vouched for.
func (c *Client) addrsAllowed(e *Entry) bool {
	for ; e != nil; e = e.Copy {
		if len(e.Addrs) == 0 && e.Status != 0 {
			return false
		}
		for _, a := range e.Addrs {
			ap, err := netip.ParseAddrPort(a)
			if err != nil || c.opts.addrCheck(ap) != nil {
				return false
			}
		}
	}
	return true
}

// refresh fetches origin's robots.txt, merges it with what was known and keeps it.
func (c *Client) refresh(ctx context.Context, origin, robotsURL string, prev *Entry, now time.Time) *Result {
	c.slots <- struct{}{} // the fetch timeout starts once a slot is free
	defer func() { <-c.slots }()
	e, took := c.fetchEntry(ctx, origin, robotsURL, prev, now)
	if e.ErrKind == KindRefused {
		// The dialer refused on purpose: that says nothing about the origin, and
		// another process sharing the store (one allowed to dial private addresses)
		// must not read it as an unreachable origin. Nothing is kept; the next lookup
		// asks the dialer again.
		res := c.materialise(e, nil)
		if fn := c.opts.observer.Fetched; fn != nil {
			fn(res, took)
		}
		return res
	}
	if err := c.opts.store.Save(ctx, e); err != nil {
		if fn := c.opts.observer.StoreError; fn != nil {
			fn(origin, err)
		}
	}
	res := c.remember(e)
	if fn := c.opts.observer.Fetched; fn != nil {
		fn(res, took)
	}
	return res
}

// fetchEntry makes one fetch and reads it with the policy, given the previous entry.
func (c *Client) fetchEntry(ctx context.Context, origin, robotsURL string, prev *Entry, now time.Time) (*Entry, time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.timeout)
	defer cancel()
	start := time.Now()
	var f *fetched
	if strings.HasPrefix(origin, "ftp:") {
		f = c.fetchFTP(ctx, robotsURL)
	} else {
		f = c.fetchHTTP(ctx, robotsURL)
	}
	took := time.Since(start)
	return c.entryOf(f, origin, robotsURL, prev, now), took
}

// entryOf applies the policy and the cache rules (SPEC §2) to a fetch.
func (c *Client) entryOf(f *fetched, origin, robotsURL string, prev *Entry, now time.Time) *Entry {
	e := &Entry{
		Origin: origin, RobotsURL: robotsURL, Status: f.status, Hops: f.hops, Addrs: f.addrs,
		BytesRead: f.bytesRead, WireBytes: f.wireBytes, Truncated: f.truncated, Encoding: f.encoding,
		FetchedAt: now,
	}
	if f.err != nil {
		e.Err, e.cause, e.ErrKind = f.err.Error(), f.err, f.kind
		if e.ErrKind == KindNone {
			e.ErrKind = kindOf(f.err)
		}
	}
	if e.ErrKind == KindRefused {
		prev = nil // a refusal is not the origin's failure: no copy, no backoff history
	}
	if f.failed {
		e.Outcome, e.Effect = Unreachable, DisallowAll
	} else {
		e.Outcome, e.Effect = c.opts.policy.Classify(f.classifyAs)
	}
	if e.Effect == ObeyRules {
		e.Body = f.body
	}
	if e.Outcome != Unreachable {
		ttl := c.opts.policy.TTL
		if age, ok := maxAge(f.header); ok {
			ttl = min(max(age, c.opts.minTTL), c.opts.maxTTL)
		} else if age, ok := expires(f.header); ok && c.opts.policy.Expires {
			ttl = min(max(age, c.opts.minTTL), c.opts.maxTTL)
		}
		e.ExpiresAt, e.LastSuccess = now.Add(ttl), now
		return e
	}

	// Unreachable: keep the last copy, count the failures and back off.
	e.Failures, e.FailingSince = 1, now
	if prev != nil {
		if prev.Outcome == Unreachable {
			e.Failures, e.FailingSince = prev.Failures+1, prev.FailingSince
			e.Copy = prev.Copy
		} else {
			e.Copy = prev.withoutCopy()
		}
		e.LastSuccess = prev.LastSuccess
	}
	wait := c.opts.retryMin << min(e.Failures-1, 30)
	if wait <= 0 || wait > c.opts.retryMax {
		wait = c.opts.retryMax
	}
	if f.status == http.StatusServiceUnavailable || f.status == http.StatusTooManyRequests {
		wait = c.opts.retryMin
		if f.header != nil {
			if ra, ok := retryAfter(f.header, now); ok {
				wait = min(max(ra, c.opts.retryMin), c.opts.retryMax)
			}
		}
	}
	e.ExpiresAt = now.Add(wait)
	return e
}

func (e *Entry) withoutCopy() *Entry {
	if e.Copy == nil {
		return e
	}
	cp := *e
	cp.Copy = nil
	return &cp
}

// remember turns an entry into a result and keeps it in process.
func (c *Client) remember(e *Entry) *Result {
	var prev *Result
	if old, ok := c.rules.get(e.Origin); ok {
		prev = old
	}
	res := c.materialise(e, prev)
	size := e.size()
	if res.Robots != nil {
		size += int64(res.Robots.Size())
	}
	c.rules.put(e.Origin, res, size)
	return res
}

// materialise builds the result of an entry, parsing the body in effect. The
// parsed rules of prev are reused when they come from the same fetch.
func (c *Client) materialise(e *Entry, prev *Result) *Result {
	res := &Result{
		Origin: e.Origin, RobotsURL: e.RobotsURL, Outcome: e.Outcome, Status: e.Status, Hops: e.Hops,
		BytesRead: e.BytesRead, WireBytes: e.WireBytes, Truncated: e.Truncated, Encoding: e.Encoding,
		FetchedAt: e.FetchedAt, ExpiresAt: e.ExpiresAt, LastSuccess: e.LastSuccess,
		Failures: e.Failures, FailingSince: e.FailingSince, Effect: e.Effect, entry: e,
	}
	if e.Err != "" || e.cause != nil {
		kind := e.ErrKind
		if kind == KindNone {
			kind = KindOther // stored by a version that kept no kind
		}
		res.Err = &Error{Kind: kind, Text: e.Err, err: e.cause} // from a store: no cause
	}
	inEffect := e
	if e.Outcome == Unreachable {
		switch {
		case e.Copy != nil:
			inEffect, res.Effect, res.Stale = e.Copy, e.Copy.Effect, true
		case e.FetchedAt.Sub(e.FailingSince) > c.opts.policy.MaxUnreachable:
			res.Effect = AllowAll
		default:
			res.Effect = DisallowAll
		}
	}
	if res.Effect == ObeyRules {
		res.Body = inEffect.Body
		if prev != nil && prev.Robots != nil && prev.rulesFrom.Equal(inEffect.FetchedAt) {
			res.Robots = prev.Robots
		} else {
			res.Robots = robots.Parse(inEffect.Body, c.opts.parse...)
		}
		res.rulesFrom = inEffect.FetchedAt
	}
	return res
}
