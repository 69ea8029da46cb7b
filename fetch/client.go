package fetch

import (
	"context"
	"net"
	"net/http"
	"strings"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/gorobots/robots"
)

// Client fetches robots.txt files as a crawler must (RFC 9309 §2.3) and caches what
// it learns per origin. It is safe for concurrent use; concurrent requests for one
// origin share one fetch. The zero value is not usable: call NewClient.
type Client struct {
	cfg    settings
	http   *http.Client
	rules  *clockCache[*Result] // results with parsed rules by origin, whatever the store
	flight singleflight.Group
	slots  chan struct{} // one per fetch in flight
	queue  flightQueue   // fetches waiting for a slot, and who waits for them

	licenses urlCache[*License] // RSL licences by URL (License)
	tdmFiles urlCache[*TDMFile] // tdmrep.json files by origin (TDMFile)
}

// NewClient returns a client configured by cfg (see Config for the defaults of its
// zero fields).
func NewClient(cfg Config) *Client {
	s := withDefaults(cfg)
	c := &Client{cfg: s, rules: newClockCache(s.RulesMemory, func(r *Result) string { return r.Origin }), slots: make(chan struct{}, s.MaxInFlight)}
	// Parsed files build parts on first use, after they are cached: the cache
	// measures them again (see clockCache.measure).
	c.rules.measure = func(r *Result) int64 { return r.MemSize() + clockItemBytes }
	c.http = c.newHTTPClient()
	return c
}

// Stats are a client's figures at one moment, for metrics.
type Stats struct {
	Origins  int   // origins whose parsed robots.txt the client holds in memory
	Bytes    int64 // their estimated size, bounded by Config.RulesMemory
	InFlight int   // fetches in progress (at most Config.MaxInFlight)
	Queued   int   // fetches waiting for a slot (at most Config.MaxQueued)
}

// Stats returns the client's figures now.
func (c *Client) Stats() Stats {
	n, b := c.rules.stats()
	return Stats{Origins: n, Bytes: b, InFlight: len(c.slots), Queued: c.queue.len()}
}

// Get returns what is known about the robots.txt of rawURL's origin, fetching it
// when the cache has no fresh result. The error is for URLs that have no robots.txt
// (not absolute, unsupported scheme, invalid host), for ctx ending while waiting, and
// ErrBusy when Config.MaxQueued fetches already wait for a slot; a failed fetch is a
// Result with Outcome Unreachable, not an error.
func (c *Client) Get(ctx context.Context, rawURL string) (*Result, error) {
	return c.get(ctx, rawURL, c.cfg.Now())
}

// Peek returns the fresh result held in process for rawURL's origin, if there is
// one, without fetching, waiting or asking the store: what Get returns at once on a
// cache hit. It takes only a shared read lock (one of many) and, for the common URL
// shape (http or https, a lower-case host without user info), allocates nothing, so
// callers on a hot path
// can try it before setting up what a fetch would need, and call Get when ok is
// false. A hit is reported to the Observer as by Get.
func (c *Client) Peek(rawURL string) (*Result, bool) { return c.peek(rawURL, c.cfg.Now()) }

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
// origin's robots.txt if needed, and says why. Its errors are Get's; with one, the
// Decision is the zero Decision (not allowed, no Result).
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
	origin, err := Origin(rawURL)
	if err != nil {
		return nil, err
	}
	if res := c.refuseLiteral(origin, c.cfg.Now()); res != nil {
		return res, nil
	}
	r, _ := c.fetch(ctx, origin, nil, c.cfg.Now())
	return c.withRules(r, nil), nil
}

// A Recorded is one response of a fetch as an archive (a WARC file) recorded it.
type Recorded struct {
	Status int
	Header http.Header
	// Body is the payload as it was sent (in its Content-Encoding, without the
	// chunked transfer coding), or as much of it as was recorded. Only a 2xx
	// response's body is read.
	Body string
}

// Replay reads a robots.txt fetch made elsewhere and recorded (a WARC file of a web
// crawl) as Fetch reads one it makes: the same access method, status policy,
// redirects, size limit and Content-Encoding, and the same Result. get answers the
// GET of each URL the access method asks for, from rawURL's origin's robots.txt on,
// as it was recorded (an error, such as a URL the record does not hold, is a
// failed request); the Result may share the Body of what it returns, and get may
// return the same *Recorded again, as Replay is done with one before it asks again. No request
// goes out, and the cache is neither read nor changed.
func (c *Client) Replay(rawURL string, get func(url string) (*Recorded, error)) (*Result, error) {
	origin, err := Origin(rawURL)
	if err != nil {
		return nil, err
	}
	now := c.cfg.Now()
	if res := c.refuseLiteral(origin, now); res != nil {
		return res, nil
	}
	robotsURL := rawURL // when it is the robots.txt URL already, as written
	if !strings.HasPrefix(rawURL, origin) || rawURL[len(origin):] != robotsPath {
		robotsURL = origin + robotsPath
	}
	f := &fetched{}
	c.follow(f, robotsURL, c.cfg.MaxBytes, func(next string) (reply, error) {
		rec, err := get(next)
		if err != nil {
			return reply{}, err
		}
		return reply{status: rec.Status, header: rec.Header, recorded: rec.Body}, nil
	})
	res := c.read(f, origin, robotsURL, nil, now)
	c.setRules(res, nil)
	return res, nil
}

// FetchAs is Fetch with the requests sent with userAgent as their User-Agent
// header (the client's own when ""): what the origin serves that crawler (see
// crawlers.HeaderOf). The cache is neither read nor changed.
func (c *Client) FetchAs(ctx context.Context, userAgent, rawURL string) (*Result, error) {
	return c.Fetch(withUserAgent(ctx, userAgent), rawURL)
}

// UserAgent returns the User-Agent header the client's own requests are sent with
// (Config.UserAgent, or DefaultUserAgent).
func (c *Client) UserAgent() string { return c.cfg.UserAgent }

// dialContext is the one way the client connects, with the connect timeout.
func (c *Client) dialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.ConnectTimeout)
	defer cancel()
	return c.cfg.DialContext(ctx, network, addr)
}

// fetch makes one fetch of origin's robots.txt and reads it with the policy, given
// the previous result.
func (c *Client) fetch(ctx context.Context, origin string, prev *Result, now time.Time) (*Result, time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	robotsURL := origin + robotsPath
	start := time.Now()
	var f *fetched
	if strings.HasPrefix(origin, "ftp:") {
		f = c.fetchFTP(ctx, robotsURL)
	} else {
		f = c.fetchHTTP(ctx, robotsURL)
	}
	took := time.Since(start)
	return c.read(f, origin, robotsURL, prev, now), took
}
