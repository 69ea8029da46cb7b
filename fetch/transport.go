package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/internal/defaults"
	"github.com/gorobots/robots/webbotauth"
)

// ErrDisallowed matches every *DisallowedError with errors.Is.
var ErrDisallowed = errors.New("disallowed by robots.txt")

// DisallowedError is the error of a request that Transport refused to send. For a
// redirect that an http.Client followed, URL is the target that was refused.
type DisallowedError struct {
	URL       string
	Agent     string // the product token decided for
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

// DelayError is the error of a request that Transport did not send because of its
// origin's crawl-delay: with NoWait, because the origin may not be fetched again
// before Next; with RefuseOverMax, because the delay robots.txt asks for is longer
// than MaxCrawlDelay (Next is then zero).
type DelayError struct {
	URL    string
	Origin string
	Delay  time.Duration // the crawl-delay robots.txt asks for
	Next   time.Time     // when a request to Origin may be sent, by the client's clock
}

func (e *DelayError) Error() string {
	if e.Next.IsZero() {
		return fmt.Sprintf("crawl-delay: %s not sent: %s asks for %v between requests, more than the limit", e.URL, e.Origin, e.Delay)
	}
	return fmt.Sprintf("crawl-delay: %s not sent: %s may be fetched again at %s (crawl-delay %v)", e.URL, e.Origin, e.Next.Format(time.RFC3339Nano), e.Delay)
}

// DefaultMaxCrawlDelay caps the crawl-delay a Transport honours: a file asking for
// an hour between requests would otherwise hold a request for that hour.
const DefaultMaxCrawlDelay = time.Minute

// Transport is an http.RoundTripper that obeys robots.txt: a request to a URL that
// the crawler may not fetch fails with a *DisallowedError before it is sent, and
// with CrawlDelay set, requests to one origin are spaced by its crawl-delay.
// Redirects followed by an http.Client go through it again, so they are checked
// too. Requests for /robots.txt itself always pass.
//
// robots.txt is fetched with the User-Agent of the request being checked (Agent when
// the request has none), so that the site sees one crawler; a request without a
// User-Agent is sent with Agent as its header.
//
// Waiting for a crawl-delay happens inside RoundTrip, so it counts against the
// http.Client's Timeout and the request's context; NoWait makes such a request fail
// at once instead, saying when it may be sent. A request that stops waiting (its
// context ends) holds no place: the next one waits only for the last request sent.
//
// Every field may be left zero; Agent may be empty only when each request carries a
// User-Agent header naming the crawler. A Transport is safe for concurrent use.
type Transport struct {
	Client *Client // fetches and caches robots.txt; nil means NewClient(Config{})
	// Agent names the crawler: its product token ("ExampleBot") or its whole
	// User-Agent header ("Mozilla/5.0 (compatible; ExampleBot/1.0; +https://…)"),
	// from which the product token is taken as robots.ProductToken does. When empty,
	// each request's User-Agent header names it. A name without a product token
	// fails every request rather than falling to the rules for "*".
	Agent string
	Base  http.RoundTripper // sends the allowed requests; nil means http.DefaultTransport

	// CrawlDelay makes requests to one origin wait for its crawl-delay for the
	// crawler, at most MaxCrawlDelay (DefaultMaxCrawlDelay when zero). An origin that
	// asks for more is fetched every MaxCrawlDelay, or with RefuseOverMax not at all
	// (a *DelayError without Next).
	CrawlDelay    bool
	MaxCrawlDelay time.Duration
	RefuseOverMax bool
	// NoWait makes a request that would wait for its origin's crawl-delay fail at
	// once with a *DelayError saying when the origin may be fetched next.
	NoWait bool
	// Signer, when set, signs every request let through with Web Bot Auth (RFC 9421
	// signatures and Signature-Agent), so that sites can verify the crawler as they
	// verify the large ones; serve the key directory with
	// webbotauth.DirectoryHandler at the Signer's Agent. The robots.txt fetches of
	// Client are its own: give its Config.HTTP a webbotauth.Transport to sign them too.
	Signer *webbotauth.Signer

	once   sync.Once
	client *Client
	token  string // of Agent; "" when Agent is empty or has none
	err    error  // Agent has no product token

	mu   sync.Mutex
	last map[string]time.Time // origin → when its last request was let through
}

// maxDelayOrigins bounds the origins a Transport remembers for crawl-delay; past
// it, origins whose delay has passed are forgotten.
const maxDelayOrigins = 10000

// RoundTrip implements http.RoundTripper: Admit, then Base.RoundTrip.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	req, err := t.Admit(req)
	if err != nil {
		closeBody(req)
		return nil, err
	}
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	return base.RoundTrip(req)
}

// Admit decides req as RoundTrip does, waiting for its origin's crawl-delay if
// asked, without sending it: it returns the request to send (req, or a copy with
// Agent as its User-Agent) or the error RoundTrip would give. It is for crawlers
// that send requests their own way, such as the colly integration in contrib/colly.
func (t *Transport) Admit(req *http.Request) (*http.Request, error) {
	t.once.Do(t.init)
	if t.err != nil {
		return req, t.err
	}
	if req.Header.Get("User-Agent") == "" && t.Agent != "" {
		req = req.Clone(req.Context())
		req.Header.Set("User-Agent", t.Agent)
	}
	if req.URL.Path == "/robots.txt" {
		return t.sign(req)
	}
	agent, ua, err := t.agentOf(req)
	if err != nil {
		return req, err
	}
	u := req.URL.String()
	d, err := t.client.Check(withUserAgent(req.Context(), ua), agent, u)
	if err != nil {
		return req, fmt.Errorf("robots.txt for %s: %w", u, err)
	}
	if !d.Allowed {
		return req, &DisallowedError{URL: u, Agent: agent, RobotsURL: d.Result.RobotsURL,
			Outcome: d.Result.Outcome, Effect: d.Result.Effect, Rule: d.Rule}
	}
	if t.CrawlDelay && d.Result.Robots != nil {
		if delay, ok := d.Result.Robots.CrawlDelay(agent); ok && delay > 0 {
			if err := t.wait(req.Context(), u, d.Result.Origin, delay); err != nil {
				return req, err
			}
		}
	}
	return t.sign(req)
}

// sign returns a signed copy of req when the Transport has a Signer, after any
// wait, so that the signature's lifetime starts when the request is sent.
func (t *Transport) sign(req *http.Request) (*http.Request, error) {
	if t.Signer == nil {
		return req, nil
	}
	r := req.Clone(req.Context())
	if err := t.Signer.Sign(r); err != nil {
		return req, fmt.Errorf("fetch.Transport: %w", err)
	}
	return r, nil
}

// agentOf returns the product token req is decided for and the User-Agent its
// robots.txt is fetched with: Agent's, else the request's own.
func (t *Transport) agentOf(req *http.Request) (agent, ua string, err error) {
	ua = req.Header.Get("User-Agent")
	if ua == "" {
		ua = t.Agent
	}
	agent = t.token
	if agent == "" {
		if agent = robots.ProductToken(ua); agent == "" {
			return "", ua, fmt.Errorf("fetch.Transport: no crawler to decide for: Agent is empty and the request's User-Agent %q has no product token", ua)
		}
	}
	return agent, ua, nil
}

func (t *Transport) init() {
	t.client = t.Client
	if t.client == nil {
		t.client = NewClient(Config{})
	}
	if t.Agent != "" {
		if t.token = robots.ProductToken(t.Agent); t.token == "" {
			t.err = fmt.Errorf("fetch.Transport: Agent %q has no product token to look for in robots.txt", t.Agent)
		}
	}
}

// maxDelay is the longest Crawl-delay the transport waits for: MaxCrawlDelay, or
// its default.
func (t *Transport) maxDelay() time.Duration {
	return defaults.Or(t.MaxCrawlDelay, DefaultMaxCrawlDelay)
}

// wait returns when a request to origin may be sent, having claimed its turn, or
// the reason it may not.
func (t *Transport) wait(ctx context.Context, u, origin string, delay time.Duration) error {
	if delay > t.maxDelay() && t.RefuseOverMax {
		return &DelayError{URL: u, Origin: origin, Delay: delay}
	}
	now := t.client.cfg.Now()
	for {
		wait := t.claim(origin, delay, now)
		if wait <= 0 {
			return nil
		}
		if t.NoWait {
			return &DelayError{URL: u, Origin: origin, Delay: delay, Next: now.Add(wait)}
		}
		timer := time.NewTimer(wait)
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return context.Cause(ctx)
		}
		// Another request may have claimed the turn meanwhile: ask again. A clock
		// that did not move (a fixed test clock) is taken to have moved by the wait.
		if later := t.client.cfg.Now(); later.After(now.Add(wait)) {
			now = later
		} else {
			now = now.Add(wait)
		}
	}
}

// claim returns how long a request to origin made at now must wait before it may
// be sent, delay (capped) after the last one; when it need not wait, it is counted as
// sent at now.
func (t *Transport) claim(origin string, delay time.Duration, now time.Time) time.Duration {
	limit := t.maxDelay()
	delay = min(delay, limit)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.last == nil {
		t.last = map[string]time.Time{}
	}
	if at, ok := t.last[origin]; ok {
		if next := at.Add(delay); next.After(now) {
			return next.Sub(now)
		}
	}
	if len(t.last) >= maxDelayOrigins {
		for o, at := range t.last {
			if !at.Add(limit).After(now) {
				delete(t.last, o)
			}
		}
	}
	t.last[origin] = now
	return 0
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

// userAgentKey is the context key of the User-Agent a robots.txt request is sent
// with, when a Transport asks for it.
type userAgentKey struct{}

func withUserAgent(ctx context.Context, ua string) context.Context {
	if ua == "" {
		return ctx
	}
	return context.WithValue(ctx, userAgentKey{}, ua)
}

// userAgentOf returns the User-Agent a robots.txt request made under ctx is sent
// with: the Transport's request's, or the client's.
func (c *Client) userAgentOf(ctx context.Context) string {
	if ua, ok := ctx.Value(userAgentKey{}).(string); ok {
		return ua
	}
	return c.cfg.UserAgent
}
