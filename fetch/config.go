package fetch

import (
	"cmp"
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/internal/defaults"
)

// Limits and defaults of the access method: the values a zero field of Config
// stands for. MaxRedirects is fixed by the protocol (Policy.MaxRedirects sets another
// document's).
const (
	// MaxRedirects is how many redirects a fetch follows (RFC 9309 §2.3.1.2 asks for
	// at least five, Google follows five); one more hop is treated as a 404. It is
	// the bound of GooglePolicy and RFC9309Policy; Legacy1996Policy's is
	// Legacy1996MaxRedirects.
	MaxRedirects = 5

	// DefaultTimeout bounds a whole fetch: connecting, every redirect, and reading
	// the body, so that a body trickling in byte by byte cannot hold a fetch open.
	DefaultTimeout = 30 * time.Second
	// DefaultConnectTimeout bounds one connection's dial and TLS handshake.
	DefaultConnectTimeout = 10 * time.Second

	// DefaultMinTTL and DefaultMaxTTL bound the lifetime Cache-Control max-age may
	// set: a server cannot make a crawler refetch more than once a minute, nor keep a
	// file for more than a week (the 1996 draft's default lifetime).
	DefaultMinTTL = time.Minute
	DefaultMaxTTL = 7 * 24 * time.Hour

	// DefaultRetryMin and DefaultRetryMax bound the wait before refetching an
	// unreachable origin: it starts at the minimum and doubles with each failure.
	// A 503 or 429 without Retry-After is retried at the minimum (Google retries 503
	// sooner); Retry-After is honoured within the bounds.
	DefaultRetryMin = time.Minute
	DefaultRetryMax = time.Hour

	// DefaultMaxInFlight bounds the fetches running at once in one client.
	DefaultMaxInFlight = 64
	// DefaultMaxQueued bounds the fetches waiting for one of the MaxInFlight slots.
	// Past it Get fails at once with ErrBusy rather than queue without end: with
	// 64 slots and fetches that take their whole 30 s timeout, the 1,024th fetch
	// queued would start after 8 minutes, long after any caller gave up.
	DefaultMaxQueued = 16 * DefaultMaxInFlight

	// DefaultMemoryBytes bounds the default in-memory store and the parsed rules a
	// client keeps, counted as the heap they hold (Robots.MemSize besides the body):
	// 64 MiB holds about ten thousand typical files, or some tens of the largest
	// (500 KiB, kept as fetched and in the parsed form, with the rule sets built).
	DefaultMemoryBytes = 64 << 20

	// DefaultUserAgent is the User-Agent of robots.txt requests when Config.UserAgent
	// is empty.
	DefaultUserAgent = "robots-fetch/1 (+https://github.com/gorobots/robots)"
)

// Config configures a Client. Every field is optional: the zero Config fetches with
// the defaults above, reads responses with GooglePolicy, keeps entries in a
// MemoryStore and tells the time with time.Now. A field below zero counts as zero.
type Config struct {
	// UserAgent is the User-Agent header of robots.txt requests (DefaultUserAgent).
	UserAgent string
	// Timeout bounds a whole fetch, redirects and body included (DefaultTimeout);
	// ConnectTimeout bounds each dial and TLS handshake (DefaultConnectTimeout).
	Timeout, ConnectTimeout time.Duration
	// MaxBytes is how many bytes of a body are read and parsed, after decompression.
	// Values below robots.DefaultMaxBytes (500 KiB, also the default) are raised to
	// it, as RFC 9309 requires parsing at least that much.
	MaxBytes int

	// DialContext makes every connection, for HTTP(S) and FTP (control and data
	// connections) alike, on every hop of every redirect chain (a net.Dialer's
	// DialContext when nil). A net.Dialer with a Control hook sees each address
	// actually dialled, which is where a guard against requests to private addresses
	// belongs. ConnectTimeout still applies.
	//
	// A dial error that has (or wraps one that has) a method Refused() bool returning
	// true is a deliberate refusal, as internal/netguard's errors are: a fetch that
	// fails because of one, on any hop, is reported (Result.Err of kind KindRefused,
	// the dialer's error reachable with errors.Is and errors.As) but neither cached
	// nor stored, so that a process sharing the store with a different guard never
	// reads it.
	DialContext func(ctx context.Context, network, addr string) (net.Conn, error)
	// TLSConfig configures HTTPS fetches (for private roots in tests).
	TLSConfig *tls.Config
	// Proxy chooses the proxy of each robots.txt request over HTTP(S), as
	// http.Transport's Proxy does: http.ProxyFromEnvironment when nil, NoProxy for
	// none. Through a proxy, DialContext sees the proxy's address rather than the
	// origin's, so a guard against private addresses needs NoProxy (robots serve sets
	// it).
	Proxy func(*http.Request) (*url.URL, error)
	// HTTP, when set, sends the robots.txt requests over HTTP(S) in place of the
	// client's own transport, for a crawler that wants them to go its own way (its
	// proxies, its connection pool). DialContext, TLSConfig, Proxy and ConnectTimeout
	// then apply to FTP only, and a guard against private addresses must be HTTP's
	// own. The client still follows redirects itself, one hop at a time, asks for
	// gzip and deflate and decodes them, and applies every limit.
	HTTP http.RoundTripper

	// Dialect is the reading of every file fetched (robots.Google when zero). It also
	// picks the status policy when Policy is zero: Legacy1996Policy for
	// robots.Legacy1996, RFC9309Policy for robots.RFC9309, GooglePolicy for the others
	// (the 1994 document says nothing about status codes or lifetimes, so nothing in it
	// contradicts the current reading).
	Dialect robots.Dialect
	// Policy reads responses. In a Policy set only in part, a nil Classify and a zero
	// TTL, MaxUnreachable, MaxFresh or MaxRedirects take the values of the dialect's
	// policy.
	Policy Policy
	// MinTTL and MaxTTL bound the lifetime of results with Cache-Control max-age
	// (DefaultMinTTL, DefaultMaxTTL). The policy's TTL applies when there is no max-age.
	MinTTL, MaxTTL time.Duration
	// RetryMin and RetryMax bound the wait before refetching an unreachable origin
	// (DefaultRetryMin, DefaultRetryMax; RetryMin is at least a second).
	RetryMin, RetryMax time.Duration

	// Store keeps entries by origin (a MemoryStore of DefaultMemoryBytes when nil).
	//
	// The client's memory is bounded by RulesMemory plus, with a MemoryStore, the
	// store's bound: a client made with a nil Store holds at most 2 ×
	// DefaultMemoryBytes (128 MiB) of results. The two hold the same results in two
	// forms, the parsed rules for deciding now and the fetched files to parse again
	// once the rules are evicted; a file both hold is one string in memory (the
	// store's copy of a result shares its Body), though each bound counts it.
	Store Store
	// RulesMemory bounds the parsed rules the client keeps in process
	// (DefaultMemoryBytes), whatever the store.
	RulesMemory int64
	// MaxInFlight bounds the fetches running at once (DefaultMaxInFlight).
	MaxInFlight int
	// MaxQueued bounds the fetches waiting for a slot (DefaultMaxQueued). A fetch
	// waits only while someone waits for it: when every caller of Get for an origin
	// has given up (its context ended) before the fetch started, the fetch is dropped
	// from the queue.
	MaxQueued int
	// AddrCheck, when set, makes the client ignore store entries fetched from an
	// address it refuses (and entries that do not say where they were fetched from),
	// as if the store did not hold them: the client then fetches through its own
	// dialer. It is for processes that share a store while dialling under different
	// rules — a server that refuses private addresses beside one allowed to fetch
	// them — so that what one may fetch does not reach the callers of the other.
	// URLs whose host is an IP address it refuses are refused without a dial, as the
	// dialer would (KindRefused, never cached). Pass the same rule as the dialer's
	// guard (for serve: netguard.Check).
	AddrCheck func(netip.AddrPort) error

	// Observer receives cache and fetch events, for metrics.
	Observer Observer
	// Now is the client's clock (time.Now when nil): every expiry, retry and
	// crawl-delay decision, and the date of every fetch, is made by it.
	Now func() time.Time
}

// Observer receives events from a Client; nil fields are not called. Callbacks run
// on the goroutine of the event and should return quickly.
type Observer struct {
	CacheHit   func(origin string)                 // a fresh result was found
	CacheMiss  func(origin string)                 // a fetch is needed
	FlightWait func(origin string)                 // a caller waited for another's fetch
	Fetched    func(r *Result, took time.Duration) // a fetch ended
	StoreError func(origin string, err error)      // the store failed; the client went on without it
}

// NoProxy is a Config.Proxy that sends every request directly.
func NoProxy(*http.Request) (*url.URL, error) { return nil, nil }

// settings is a Config with its defaults applied: what the client reads.
type settings struct {
	Config
	parse []robots.Option
}

// withDefaults fills cfg's zero fields.
func withDefaults(cfg Config) settings {
	// A number zero or below takes its default.
	cfg.UserAgent = cmp.Or(cfg.UserAgent, DefaultUserAgent)
	cfg.Timeout = defaults.Or(cfg.Timeout, DefaultTimeout)
	cfg.ConnectTimeout = defaults.Or(cfg.ConnectTimeout, DefaultConnectTimeout)
	cfg.MaxBytes = max(cfg.MaxBytes, robots.DefaultMaxBytes)
	if cfg.Proxy == nil {
		cfg.Proxy = http.ProxyFromEnvironment
	}
	if cfg.DialContext == nil {
		d := &net.Dialer{KeepAlive: 30 * time.Second}
		cfg.DialContext = d.DialContext
	}
	base := policyFor(cfg.Dialect)
	if p := cfg.Policy; p.Classify == nil && p.TTL == 0 && p.MaxUnreachable == 0 && !p.Expires && p.MaxFresh == 0 &&
		p.MaxRedirects == 0 {
		cfg.Policy = base // Expires included
	}
	if cfg.Policy.Classify == nil {
		cfg.Policy.Classify = base.Classify
	}
	cfg.Policy.TTL = defaults.Or(cfg.Policy.TTL, base.TTL)
	cfg.Policy.MaxUnreachable = defaults.Or(cfg.Policy.MaxUnreachable, base.MaxUnreachable)
	cfg.Policy.MaxFresh = defaults.Or(cfg.Policy.MaxFresh, base.MaxFresh)
	cfg.Policy.MaxRedirects = defaults.Or(cfg.Policy.MaxRedirects, defaults.Or(base.MaxRedirects, MaxRedirects))
	cfg.MinTTL = defaults.Or(cfg.MinTTL, DefaultMinTTL)
	cfg.MaxTTL = max(defaults.Or(cfg.MaxTTL, DefaultMaxTTL), cfg.MinTTL)
	cfg.RetryMin = max(defaults.Or(cfg.RetryMin, DefaultRetryMin), time.Second)
	cfg.RetryMax = max(defaults.Or(cfg.RetryMax, DefaultRetryMax), cfg.RetryMin)
	if cfg.Store == nil {
		cfg.Store = NewMemoryStore(DefaultMemoryBytes)
	}
	cfg.RulesMemory = defaults.Or(cfg.RulesMemory, DefaultMemoryBytes)
	cfg.MaxInFlight = defaults.Or(cfg.MaxInFlight, DefaultMaxInFlight)
	cfg.MaxQueued = defaults.Or(cfg.MaxQueued, DefaultMaxQueued)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return settings{Config: cfg, parse: []robots.Option{robots.WithDialect(cfg.Dialect), robots.WithMaxBytes(cfg.MaxBytes)}}
}
