package verify

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

var defaultResolver Resolver = net.DefaultResolver

type dnsOutcome int

const (
	dnsUnknown   dnsOutcome = iota // the lookup failed: cannot tell
	dnsConfirmed                   // a name in the suffixes resolves back to the address
	dnsDenied                      // no such name, or none that resolves back
)

type dnsAnswer struct {
	outcome dnsOutcome
	detail  string
	expires time.Time
}

// dnsCache answers forward-confirmed reverse DNS (FCrDNS) questions: does a
// reverse lookup of the address give a name under one of the suffixes, whose
// forward lookup gives the address back? Answers are kept for DNSTTL (failures
// for DNSFailureTTL), at most DNSEntries of them; concurrent questions for one
// address share a lookup.
type dnsCache struct {
	r   Resolver
	lim Limits
	now func() time.Time
	sf  singleflight.Group

	noWait   bool            // look up in the background, answering unknown meanwhile
	bg       *sync.WaitGroup // the background lookups, for Verifier.Wait
	inFlight chan struct{}   // bounds the background lookups

	mu      sync.Mutex
	answers map[string]dnsAnswer
}

func newDNSCache(r Resolver, lim Limits, now func() time.Time) *dnsCache {
	return &dnsCache{r: r, lim: lim, now: now, answers: map[string]dnsAnswer{}, bg: &sync.WaitGroup{},
		inFlight: make(chan struct{}, lim.DNSInFlight)}
}

func (c *dnsCache) check(ctx context.Context, addr netip.Addr, suffixes []string) dnsAnswer {
	key := addr.String() + " " + strings.Join(suffixes, ",")
	now := c.now()
	c.mu.Lock()
	a, ok := c.answers[key]
	c.mu.Unlock()
	if ok && now.Before(a.expires) {
		return a
	}
	if c.noWait {
		select {
		case c.inFlight <- struct{}{}:
			c.bg.Go(func() {
				defer func() { <-c.inFlight }()
				c.resolve(context.Background(), key, addr, suffixes)
			})
			return dnsAnswer{outcome: dnsUnknown, detail: fmt.Sprintf("reverse DNS of %s is being looked up", addr)}
		default:
			return dnsAnswer{outcome: dnsUnknown, detail: fmt.Sprintf("reverse DNS of %s not looked up: %d lookups in flight", addr, cap(c.inFlight))}
		}
	}
	return c.resolve(ctx, key, addr, suffixes)
}

// resolve looks addr up, one lookup per key at a time, and caches the answer.
func (c *dnsCache) resolve(ctx context.Context, key string, addr netip.Addr, suffixes []string) dnsAnswer {
	v, _, _ := c.sf.Do(key, func() (any, error) {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.lim.DNSTimeout)
		defer cancel()
		a := c.lookup(ctx, addr, suffixes)
		ttl := c.lim.DNSTTL
		if a.outcome == dnsUnknown {
			ttl = c.lim.DNSFailureTTL
		}
		a.expires = c.now().Add(ttl)
		c.put(key, a)
		return a, nil
	})
	return v.(dnsAnswer)
}

func (c *dnsCache) put(key string, a dnsAnswer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.answers) >= c.lim.DNSEntries {
		now := c.now()
		for k, old := range c.answers {
			if now.After(old.expires) {
				delete(c.answers, k)
			}
		}
		// Still full: drop some at random (map order) rather than grow.
		for k := range c.answers {
			if len(c.answers) < c.lim.DNSEntries {
				break
			}
			delete(c.answers, k)
		}
	}
	c.answers[key] = a
}

// notFound reports whether err says the name does not exist (NXDOMAIN or no
// record), as opposed to a failure to ask.
func notFound(err error) bool {
	var de *net.DNSError
	return errors.As(err, &de) && de.IsNotFound
}

func (c *dnsCache) lookup(ctx context.Context, addr netip.Addr, suffixes []string) dnsAnswer {
	names, err := c.r.LookupAddr(ctx, addr.String())
	if err != nil && !(notFound(err) && len(names) == 0) {
		return dnsAnswer{outcome: dnsUnknown, detail: fmt.Sprintf("reverse DNS of %s failed: %v", addr, err)}
	}
	var under []string
	for _, n := range names {
		n = strings.ToLower(strings.TrimSuffix(n, "."))
		for _, s := range suffixes {
			if n == s || strings.HasSuffix(n, "."+s) {
				under = append(under, n)
				break
			}
		}
	}
	want := strings.Join(suffixes, ", ")
	if len(under) == 0 {
		if len(names) == 0 {
			return dnsAnswer{outcome: dnsDenied, detail: fmt.Sprintf("%s has no reverse DNS name (want one under %s)", addr, want)}
		}
		return dnsAnswer{outcome: dnsDenied, detail: fmt.Sprintf("reverse DNS of %s is %s, not under %s", addr, strings.TrimSuffix(names[0], "."), want)}
	}
	if len(under) > c.lim.MaxNames {
		under = under[:c.lim.MaxNames]
	}
	var failed error
	for _, n := range under {
		network := "ip4"
		if addr.Is6() {
			network = "ip6"
		}
		addrs, err := c.r.LookupNetIP(ctx, network, n)
		if err != nil && !notFound(err) {
			failed = err
			continue
		}
		for _, a := range addrs {
			if a.Unmap() == addr {
				return dnsAnswer{outcome: dnsConfirmed, detail: fmt.Sprintf("reverse DNS of %s is %s, which resolves back to it", addr, n)}
			}
		}
	}
	if failed != nil {
		return dnsAnswer{outcome: dnsUnknown, detail: fmt.Sprintf("forward DNS of %s failed: %v", under[0], failed)}
	}
	return dnsAnswer{outcome: dnsDenied, detail: fmt.Sprintf("reverse DNS of %s is %s, which does not resolve back to it", addr, under[0])}
}
