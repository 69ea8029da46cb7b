package fetch

import (
	"context"
	"crypto/tls"
	"net"
	"net/netip"
	"time"

	"github.com/gorobots/robots"
)

// Limits and defaults of the access method. Each can be changed by an Option, except
// MaxRedirects, which the protocol fixes.
const (
	// MaxRedirects is how many redirects a fetch follows (RFC 9309 §2.3.1.2 asks for
	// at least five, Google follows five); one more hop is treated as a 404.
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

	// DefaultUserAgent is sent with every request unless WithUserAgent says otherwise.
	DefaultUserAgent = "robots-fetch/1 (+https://github.com/gorobots/robots)"
)

type options struct {
	timeout, connectTimeout time.Duration
	maxBytes                int
	userAgent               string
	dial                    func(ctx context.Context, network, addr string) (net.Conn, error)
	tlsConfig               *tls.Config
	policy                  Policy
	policySet               bool // by WithPolicy; else PolicyFor the parse options' dialect
	minTTL, maxTTL          time.Duration
	retryMin, retryMax      time.Duration
	store                   Store
	rulesBytes              int64
	maxInFlight             int
	now                     func() time.Time
	observer                Observer
	parse                   []robots.Option
	addrCheck               func(netip.AddrPort) error
}

// Option configures a Client.
type Option func(*options)

// WithTimeout bounds a whole fetch, redirects and body included (DefaultTimeout).
func WithTimeout(d time.Duration) Option { return func(o *options) { o.timeout = d } }

// WithConnectTimeout bounds each dial and TLS handshake (DefaultConnectTimeout).
func WithConnectTimeout(d time.Duration) Option { return func(o *options) { o.connectTimeout = d } }

// WithMaxBytes sets how many bytes of a body are read and parsed, after
// decompression. Values below robots.DefaultMaxBytes (500 KiB) are raised to it, as
// RFC 9309 requires parsing at least that much.
func WithMaxBytes(n int) Option { return func(o *options) { o.maxBytes = n } }

// WithUserAgent sets the User-Agent header of robots.txt requests.
func WithUserAgent(ua string) Option { return func(o *options) { o.userAgent = ua } }

// WithDialContext sets how connections are made, for HTTP(S) and FTP (control and
// data connections) alike, on every hop of every redirect chain. A net.Dialer with a
// Control hook passed as d.DialContext sees each address actually dialled, which is
// where a guard against requests to private addresses belongs. The connect timeout
// still applies.
//
// A dial error that has (or wraps one that has) a method Refused() bool returning
// true is a deliberate refusal, as internal/netguard's errors are: a fetch that fails
// because of one, on any hop, is reported (Result.Err of kind KindRefused, the
// dialer's error reachable with errors.Is and errors.As) but neither cached nor
// stored, so that a process sharing the store with a different guard never reads it.
func WithDialContext(dial func(ctx context.Context, network, addr string) (net.Conn, error)) Option {
	return func(o *options) { o.dial = dial }
}

// WithAddrCheck makes the client ignore store entries fetched from an address check
// refuses (and entries that do not say where they were fetched from), as if the
// store did not hold them: the client then fetches through its own dialer. It is
// for processes that share a store while dialling under different rules — a
// server that refuses private addresses beside one allowed to fetch them — so that
// what one may fetch does not reach the callers of the other. Pass the same rule as
// the dialer's guard (for serve: netguard.Check).
func WithAddrCheck(check func(netip.AddrPort) error) Option {
	return func(o *options) { o.addrCheck = check }
}

// WithTLSConfig sets the TLS configuration of HTTPS fetches (for private roots in tests).
func WithTLSConfig(c *tls.Config) Option { return func(o *options) { o.tlsConfig = c } }

// WithPolicy sets the status policy. Without it the policy follows the dialect of
// WithParseOptions (see PolicyFor): Legacy1996Policy for robots.Legacy1996,
// GooglePolicy otherwise.
func WithPolicy(p Policy) Option { return func(o *options) { o.policy, o.policySet = p, true } }

// WithTTLBounds bounds the lifetime of results with Cache-Control max-age
// (DefaultMinTTL, DefaultMaxTTL). The policy's TTL applies when there is no max-age.
func WithTTLBounds(min, max time.Duration) Option {
	return func(o *options) { o.minTTL, o.maxTTL = min, max }
}

// WithRetryBackoff bounds the wait before refetching an unreachable origin
// (DefaultRetryMin, DefaultRetryMax).
func WithRetryBackoff(min, max time.Duration) Option {
	return func(o *options) { o.retryMin, o.retryMax = min, max }
}

// WithStore sets where entries are kept (a MemoryStore of DefaultMemoryBytes by default).
func WithStore(s Store) Option { return func(o *options) { o.store = s } }

// WithRulesMemory bounds the parsed rules the client keeps in process
// (DefaultMemoryBytes), whatever the store.
func WithRulesMemory(n int64) Option { return func(o *options) { o.rulesBytes = n } }

// WithMaxInFlight bounds the fetches running at once (DefaultMaxInFlight).
func WithMaxInFlight(n int) Option { return func(o *options) { o.maxInFlight = n } }

// WithClock sets the clock of Get, Allowed and Check (time.Now by default). GetAt
// takes the time as an argument instead.
func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

// WithParseOptions sets options of robots.Parse for every file fetched, such as
// robots.WithDialect. The size limit is WithMaxBytes's. The dialect also picks the
// status policy unless WithPolicy is given (see PolicyFor).
func WithParseOptions(opts ...robots.Option) Option {
	return func(o *options) { o.parse = append(o.parse, opts...) }
}

// WithObserver sets the callbacks that report cache and fetch events, for metrics.
func WithObserver(ob Observer) Option { return func(o *options) { o.observer = ob } }

// Observer receives events from a Client; nil fields are not called. Callbacks run
// on the goroutine of the event and should return quickly.
type Observer struct {
	CacheHit   func(origin string)                 // a fresh result was found
	CacheMiss  func(origin string)                 // a fetch is needed
	FlightWait func(origin string)                 // a caller waited for another's fetch
	Fetched    func(r *Result, took time.Duration) // a fetch ended
	StoreError func(origin string, err error)      // the store failed; the client went on without it
}
