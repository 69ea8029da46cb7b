package fetch

import (
	"context"
	"net/netip"
	"strings"
	"time"

	"github.com/gorobots/robots"
)

// The cache: results live in process (parsed, in a CLOCK cache bounded in bytes)
// and in the Store (shared with other processes, perhaps); a result is fresh until
// its ExpiresAt; one fetch per origin at a time, at most MaxInFlight at once.

// get is Get at time now: expiry and retry decisions are made for now, and a fetch
// made is dated now.
func (c *Client) get(ctx context.Context, rawURL string, now time.Time) (*Result, error) {
	origin, err := Origin(rawURL)
	if err != nil {
		return nil, err
	}
	// A refused address is never held: refuseLiteral answers before anything is kept.
	held, ok := c.rules.get(origin)
	if ok && now.Before(held.ExpiresAt) {
		c.observe(c.cfg.Observer.CacheHit, origin)
		return held, nil
	}
	if res := c.refuseLiteral(origin, now); res != nil {
		return res, nil
	}
	// From here the origin may be kept (in the result, as the cache's key): a copy, so
	// that it does not keep alive what rawURL is part of (a whole request body, say).
	origin = strings.Clone(origin)
	// The store may hold a fresher result than this process: one written by another
	// process sharing it, or one the rules cache dropped.
	prev, _ := c.load(ctx, origin) // a failing store is reported and treated as empty
	if prev == nil && held != nil {
		prev = held // the store lost it (evicted, failing): the copy is still here
	}
	if prev != nil && now.Before(prev.ExpiresAt) {
		res := c.remember(prev)
		c.observe(c.cfg.Observer.CacheHit, origin)
		return res, nil
	}
	c.observe(c.cfg.Observer.CacheMiss, origin)
	for {
		res, err := c.await(ctx, origin, prev, now)
		if err == errAbandoned && ctx.Err() == nil {
			// This caller joined a flight just as its last other waiter left and
			// dropped it from the queue: start another.
			continue
		}
		return res, err
	}
}

// await joins (or starts) the one flight for origin and waits for its result or
// for ctx to end. The flight's fetch is shared: no one caller's cancellation ends a
// fetch that has started (the fetch timeout bounds it); but a fetch still waiting
// for a slot when its last waiter leaves is dropped.
func (c *Client) await(ctx context.Context, origin string, prev *Result, now time.Time) (*Result, error) {
	w := c.queue.join(origin)
	defer c.queue.leave(origin, w)
	led := false
	ch := c.flight.DoChan(origin, func() (any, error) {
		led = true
		// A flight for origin may have ended between the checks above and this one
		// starting: it stored its result before ending, so fetching again would be a
		// second fetch of the same file (TestWaiterCancel saw it under load).
		if held, ok := c.rules.get(origin); ok && now.Before(held.ExpiresAt) {
			return held, nil
		}
		if err := c.acquire(w); err != nil {
			return nil, err
		}
		defer func() { <-c.slots }()
		return c.refresh(context.WithoutCancel(ctx), origin, prev, now), nil
	})
	select {
	case r := <-ch:
		if !led {
			c.observe(c.cfg.Observer.FlightWait, origin)
		}
		if r.Err != nil {
			return nil, r.Err
		}
		return r.Val.(*Result), nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// acquire waits for a fetch slot for flight w: the fetch timeout starts once one is
// free. It fails at once with ErrBusy when MaxQueued fetches wait already, and with
// errAbandoned when every caller waiting for the flight has left.
func (c *Client) acquire(w *waiters) error {
	select {
	case c.slots <- struct{}{}:
		return nil
	default:
	}
	if !c.queue.enqueue(c.cfg.MaxQueued) {
		return ErrBusy
	}
	defer c.queue.dequeue()
	select {
	case c.slots <- struct{}{}:
		return nil
	case <-w.gone:
		return errAbandoned
	}
}

// peek is Peek at time now.
func (c *Client) peek(rawURL string, now time.Time) (*Result, bool) {
	origin, err := Origin(rawURL)
	if err != nil {
		return nil, false
	}
	return c.fresh(origin, now)
}

// fresh returns the result held for origin if it is fresh at now.
func (c *Client) fresh(origin string, now time.Time) (*Result, bool) {
	held, ok := c.rules.get(origin)
	if !ok || !now.Before(held.ExpiresAt) {
		return nil, false
	}
	c.observe(c.cfg.Observer.CacheHit, held.Origin)
	return held, true
}

func (c *Client) observe(fn func(string), origin string) {
	if fn != nil {
		fn(origin)
	}
}

func (c *Client) load(ctx context.Context, origin string) (*Result, error) {
	r, err := c.cfg.Store.Load(ctx, origin)
	if err != nil {
		if fn := c.cfg.Observer.StoreError; fn != nil {
			fn(origin, err)
		}
		return nil, err
	}
	if r != nil && r.Origin != origin {
		return nil, nil // a store must not answer for another origin
	}
	if r != nil && c.cfg.AddrCheck != nil && !c.addrsAllowed(r) {
		// Fetched by a process allowed to connect where this one may not: as if
		// absent, so that this client asks its own dialer.
		return nil, nil
	}
	return r, nil
}

// addrsAllowed reports whether every address r and its copy were fetched from
// passes the client's address check. A result with a response but no addresses was
// written before addresses were recorded: it cannot be vouched for.
func (c *Client) addrsAllowed(r *Result) bool {
	for ; r != nil; r = r.Copy {
		if len(r.Addrs) == 0 && r.Status != 0 {
			return false
		}
		for _, a := range r.Addrs {
			ap, err := netip.ParseAddrPort(a)
			if err != nil || c.cfg.AddrCheck(ap) != nil {
				return false
			}
		}
	}
	return true
}

// refresh fetches origin's robots.txt, merges it with what was known and keeps it.
// The caller holds a fetch slot.
func (c *Client) refresh(ctx context.Context, origin string, prev *Result, now time.Time) *Result {
	r, took := c.fetch(ctx, origin, prev, now)
	if errKind(r.Err) == KindRefused {
		// The dialer refused on purpose: that says nothing about the origin, and
		// another process sharing the store (one allowed to dial private addresses)
		// must not read it as an unreachable origin. Nothing is kept; the next lookup
		// asks the dialer again.
		res := c.withRules(r, nil)
		if fn := c.cfg.Observer.Fetched; fn != nil {
			fn(res, took)
		}
		return res
	}
	if err := c.cfg.Store.Save(ctx, r); err != nil {
		if fn := c.cfg.Observer.StoreError; fn != nil {
			fn(origin, err)
		}
	}
	res := c.remember(r)
	if fn := c.cfg.Observer.Fetched; fn != nil {
		fn(res, took)
	}
	return res
}

// remember gives r its parsed rules and keeps it in process.
func (c *Client) remember(r *Result) *Result {
	prev, _ := c.rules.get(r.Origin)
	res := c.withRules(r, prev)
	c.rules.put(res, res.MemSize()+clockItemBytes)
	return res
}

// withRules returns a copy of r, as saved or loaded, with what applies now worked
// out by the client's policy and the body in effect parsed. The parsed rules of prev
// are reused when they come from the same fetch.
func (c *Client) withRules(r *Result, prev *Result) *Result {
	res := *r
	c.setRules(&res, prev)
	return &res
}

// setRules is withRules in place, for a result no one else holds.
func (c *Client) setRules(res *Result, prev *Result) {
	c.cfg.Policy.settle(res)
	// The origin, which is also the cache's key, as the start of the robots.txt URL:
	// one string rather than two, so that looking an origin up and answering with
	// both (serve does, for every origin of a batch) reads one place in memory.
	if u := res.RobotsURL; len(u) == len(res.Origin)+len(robotsPath) && strings.HasPrefix(u, res.Origin) && strings.HasSuffix(u, robotsPath) {
		res.Origin = u[:len(res.Origin)]
	}
	res.Robots = nil
	if res.Effect == ObeyRules {
		if prev != nil && prev.Robots != nil && prev.Effect == ObeyRules && prev.rulesFetchedAt().Equal(res.rulesFetchedAt()) {
			res.Robots = prev.Robots
			res.keepBody(prev.Body)
		} else {
			// The rules keep Body itself, not a copy (MemSize counts it once).
			res.Robots = robots.ParseString(res.Body, c.cfg.parse...)
		}
	}
}

// refuseLiteral returns the result of a fetch the dialer would refuse, when origin's
// host is an IP address Config.AddrCheck refuses; nil otherwise.
func (c *Client) refuseLiteral(origin string, now time.Time) *Result {
	if c.cfg.AddrCheck == nil {
		return nil
	}
	ap, ok := originAddr(origin)
	if !ok {
		return nil
	}
	err := c.cfg.AddrCheck(ap)
	if err == nil {
		return nil
	}
	robotsURL := origin + robotsPath
	return &Result{
		Origin: origin, RobotsURL: robotsURL, Outcome: Unreachable, Effect: DisallowAll,
		Hops: []Hop{{URL: robotsURL}}, FetchedAt: now, ExpiresAt: now, Failures: 1, FailingSince: now,
		Err: &Error{Kind: KindRefused, Text: err.Error(), err: err},
	}
}
