// Package redisstore keeps robots.txt cache entries in Redis, so that many
// processes share one cache: each fetch is made once for all of them. Bodies and
// metadata are stored; each process parses the rules it uses.
//
// # Topologies
//
// [NewClient] reads a URL in go-redis's forms: redis://HOST:PORT/N for one server,
// redis://HOST1:PORT1?addr=HOST2:PORT2&addr=HOST3:PORT3 for a Redis Cluster (the
// addresses are seeds: the client learns every node from them), and the same with
// master_name=NAME for Sentinel (the addresses are then the sentinels'). An entry
// is one key, prefix + origin, read and written with single-key commands, so in a
// cluster the entries spread over the hash slots of all masters with no
// cross-slot operation.
//
// # History
//
// Beside each entry the store keeps its origin's history (fetch.Historian: at most
// fetch.HistoryVersions versions, fetch.HistoryBytes of bodies) in a second key,
// prefix + "history:" + origin, dropped by Redis when the entry is. Its latest
// version holds the body in effect again, so an origin takes about twice its
// file's bytes.
//
// # When Redis fails
//
// The cache is an optimisation: a client whose store fails goes on answering from
// its own memory and by fetching. So that it does so at full speed, a Store stops
// asking a Redis node that failed (a circuit breaker per node; one for a single
// server or a Sentinel set): after [FailuresToOpen] failures in a row, every
// operation on that node fails at once with [ErrUnavailable], and one operation is
// let through to probe it after a backoff that doubles from [DefaultBackoffMin] up
// to [DefaultBackoffMax]. A probe that succeeds closes the breaker. Each opening and
// closing is logged once, and [Store.Health] tells whether every node is in use.
package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gorobots/robots/fetch"
)

// Defaults of New.
const (
	DefaultPrefix = "robots:entry:"
	// DefaultRetention is how long Redis keeps an entry past its expiry: longer than
	// the 30 days an unreachable origin's last copy stays in use.
	DefaultRetention = 31 * 24 * time.Hour

	// FailuresToOpen is how many failed operations in a row open a node's breaker:
	// more than one, so that a single lost connection does not take the node out of
	// use, and few, so that an outage costs only a few slow operations.
	FailuresToOpen = 3
	// DefaultBackoffMin is the first wait before probing a node whose breaker
	// opened; each failed probe doubles it, up to DefaultBackoffMax. A restarted
	// Redis is back in use within about a second; a long outage costs one probe
	// every half minute.
	DefaultBackoffMin = 500 * time.Millisecond
	DefaultBackoffMax = 30 * time.Second
)

// Timeouts NewClient sets when the URL does not: an entry is one small key, read in
// well under a millisecond on a local network, so a node that takes a second has
// failed. (go-redis's own defaults, 5 s to dial and 3 s to read, retried three
// times with five dial attempts each, made one lookup take up to 10 s while Redis
// hung.) A command is not retried: on a node that timed out, a retry doubles the
// wait, and the breaker, not a retry, handles a failing node.
const (
	DefaultDialTimeout  = time.Second
	DefaultIOTimeout    = time.Second // reads and writes
	DefaultMaxRetries   = -1          // retries of a command: none (go-redis's -1; 0 means 3)
	DefaultDialAttempts = 1           // attempts of each connection
)

// ErrUnavailable is the error of operations refused while a node's breaker is
// open.
var ErrUnavailable = errors.New("redisstore: redis unavailable (breaker open)")

// NewClient returns a go-redis client for rawURL: a cluster client when the URL
// names more than one address (addr=...), a Sentinel client when it has
// master_name, else a client of one server. Timeouts the URL does not set are
// DefaultDialTimeout and DefaultIOTimeout, with DefaultMaxRetries retries and
// DefaultDialAttempts. It does not connect.
func NewClient(rawURL string) (redis.UniversalClient, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	q := u.Query()
	set := func(name string) bool { return q.Has(name) }
	switch {
	case q.Has("master_name"):
		o, err := redis.ParseFailoverURL(rawURL)
		if err != nil {
			return nil, err
		}
		applyDefaults(set, &o.DialTimeout, &o.ReadTimeout, &o.WriteTimeout, &o.MaxRetries, &o.DialerRetries)
		return redis.NewFailoverClient(o), nil
	case q.Has("addr"):
		o, err := redis.ParseClusterURL(rawURL)
		if err != nil {
			return nil, err
		}
		applyDefaults(set, &o.DialTimeout, &o.ReadTimeout, &o.WriteTimeout, &o.MaxRetries, &o.DialerRetries)
		return redis.NewClusterClient(o), nil
	default:
		o, err := redis.ParseURL(rawURL)
		if err != nil {
			return nil, err
		}
		applyDefaults(set, &o.DialTimeout, &o.ReadTimeout, &o.WriteTimeout, &o.MaxRetries, &o.DialerRetries)
		return redis.NewClient(o), nil
	}
}

func applyDefaults(set func(string) bool, dial, read, write *time.Duration, retries, dials *int) {
	if !set("dial_timeout") {
		*dial = DefaultDialTimeout
	}
	if !set("read_timeout") {
		*read = DefaultIOTimeout
	}
	if !set("write_timeout") {
		*write = DefaultIOTimeout
	}
	if !set("max_retries") {
		*retries = DefaultMaxRetries
	}
	if !set("dialer_retries") {
		*dials = DefaultDialAttempts
	}
}

// Store is a fetch.Store in Redis. It is safe for concurrent use.
type Store struct {
	rdb        redis.UniversalClient
	prefix     string
	retention  time.Duration
	backoffMin time.Duration
	backoffMax time.Duration
	log        *slog.Logger
	now        func() time.Time

	mu       sync.Mutex
	breakers map[string]*breaker // by node address ("" for a single server or Sentinel set)
}

// Option configures a Store.
type Option func(*Store)

// WithPrefix sets the prefix of the keys (DefaultPrefix); the origin follows it.
func WithPrefix(p string) Option { return func(s *Store) { s.prefix = p } }

// WithRetention sets how long entries are kept past their expiry (DefaultRetention).
func WithRetention(d time.Duration) Option { return func(s *Store) { s.retention = d } }

// WithBackoff sets the first and the longest wait before probing a failed node
// (DefaultBackoffMin, DefaultBackoffMax).
func WithBackoff(first, longest time.Duration) Option {
	return func(s *Store) { s.backoffMin, s.backoffMax = first, longest }
}

// WithLogger sets where the openings and closings of breakers are logged (at level
// Warn); by default they are not.
func WithLogger(l *slog.Logger) Option { return func(s *Store) { s.log = l } }

// New returns a store using rdb, which the caller keeps and closes.
func New(rdb redis.UniversalClient, opts ...Option) *Store {
	s := &Store{rdb: rdb, prefix: DefaultPrefix, retention: DefaultRetention,
		backoffMin: DefaultBackoffMin, backoffMax: DefaultBackoffMax,
		now: time.Now, breakers: map[string]*breaker{}}
	for _, o := range opts {
		o(s)
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.backoffMin = max(s.backoffMin, time.Millisecond)
	s.backoffMax = max(s.backoffMax, s.backoffMin)
	return s
}

// get returns the value of key; found is false when there is none.
func (s *Store) get(ctx context.Context, key string) (v []byte, found bool, err error) {
	err = s.do(ctx, key, func() error {
		var err error
		v, err = s.rdb.Get(ctx, key).Bytes()
		return err
	})
	if errors.Is(err, redis.Nil) {
		return nil, false, nil
	}
	return v, err == nil, err
}

// Load returns the entry of origin, or nil.
func (s *Store) Load(ctx context.Context, origin string) (*fetch.Result, error) {
	v, found, err := s.get(ctx, s.prefix+origin)
	if err != nil {
		return nil, fmt.Errorf("redisstore: loading %s: %w", origin, err)
	}
	if !found {
		return nil, nil
	}
	e := new(fetch.Result)
	if err := json.Unmarshal(v, e); err != nil {
		return nil, fmt.Errorf("redisstore: decoding %s: %w", origin, err)
	}
	return e, nil
}

// Save writes e under e.Origin, to be dropped by Redis a retention period after it
// expires.
func (s *Store) Save(ctx context.Context, e *fetch.Result) error {
	v, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("redisstore: encoding %s: %w", e.Origin, err)
	}
	keep := max(e.ExpiresAt.Sub(s.now()), 0) + s.retention
	key := s.prefix + e.Origin
	if err := s.do(ctx, key, func() error { return s.rdb.Set(ctx, key, v, keep).Err() }); err != nil {
		return fmt.Errorf("redisstore: saving %s: %w", e.Origin, err)
	}
	if err := s.addVersion(ctx, e, keep); err != nil {
		return fmt.Errorf("redisstore: saving the history of %s: %w", e.Origin, err)
	}
	return nil
}

// historyKey is the key of origin's history: prefix + "history:" + origin, which
// no entry's key is (an origin begins with its scheme).
func (s *Store) historyKey(origin string) string { return s.prefix + "history:" + origin }

// historyAttempts bounds the tries of a history update that another process's
// update of the same origin interrupted (WATCH): two fetches of one origin at the
// same moment are rare, since each process fetches an origin once per expiry.
const historyAttempts = 3

// addVersion adds e's fetch to its origin's history, kept as long as the entry. The
// history is read and written in a transaction that fails if another process
// writes it meanwhile (WATCH), and is then tried again.
func (s *Store) addVersion(ctx context.Context, e *fetch.Result, keep time.Duration) error {
	key := s.historyKey(e.Origin)
	update := func(tx *redis.Tx) error {
		var hist []fetch.Version
		v, err := tx.Get(ctx, key).Bytes()
		switch {
		case errors.Is(err, redis.Nil):
		case err != nil:
			return err
		default:
			if json.Unmarshal(v, &hist) != nil {
				hist = nil // damaged: begin again rather than fail every save of the origin
			}
		}
		hist, added := fetch.AddVersion(hist, e)
		if !added {
			return nil
		}
		if v, err = json.Marshal(hist); err != nil {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error { return p.Set(ctx, key, v, keep).Err() })
		return err
	}
	var err error
	for range historyAttempts {
		err = s.do(ctx, key, func() error { return s.rdb.Watch(ctx, update, key) })
		if !errors.Is(err, redis.TxFailedErr) {
			return err
		}
	}
	return err
}

// History returns the versions kept of origin, the latest first.
func (s *Store) History(ctx context.Context, origin string) ([]fetch.Version, error) {
	v, found, err := s.get(ctx, s.historyKey(origin))
	if err != nil {
		return nil, fmt.Errorf("redisstore: loading the history of %s: %w", origin, err)
	}
	if !found {
		return nil, nil
	}
	var hist []fetch.Version
	if err := json.Unmarshal(v, &hist); err != nil {
		return nil, fmt.Errorf("redisstore: decoding the history of %s: %w", origin, err)
	}
	return hist, nil
}

// Health reports whether every Redis node is in use: nil if each answers a PING,
// else an error naming the nodes that do not. A node whose breaker is open is not
// asked until its next probe is due (the PING is then that probe), so Health is
// cheap to call often, as a readiness check does.
func (s *Store) Health(ctx context.Context) error {
	var mu sync.Mutex
	var down []string
	ping := func(ctx context.Context, node string, c redis.Cmdable) {
		err := s.guard(ctx, node, func() error { return c.Ping(ctx).Err() })
		if err != nil {
			mu.Lock()
			defer mu.Unlock()
			if node == "" {
				node = "redis"
			}
			down = append(down, fmt.Sprintf("%s: %v", node, err))
		}
	}
	if cc, ok := s.rdb.(*redis.ClusterClient); ok {
		err := s.guard(ctx, clusterNode, func() error {
			return cc.ForEachMaster(ctx, func(ctx context.Context, c *redis.Client) error {
				ping(ctx, c.Options().Addr, c)
				return nil
			})
		})
		if err != nil {
			down = append(down, fmt.Sprintf("cluster: %v", err))
		}
	} else {
		ping(ctx, "", s.rdb)
	}
	if len(down) == 0 {
		return nil
	}
	slices.Sort(down)
	return fmt.Errorf("redisstore: %s", strings.Join(down, "; "))
}

// clusterNode names the breaker of a cluster's topology: it opens when no node
// tells which master holds a key.
const clusterNode = "cluster"

// do runs op, which works on key, through the breaker of the node holding key.
func (s *Store) do(ctx context.Context, key string, op func() error) error {
	node := ""
	if cc, ok := s.rdb.(*redis.ClusterClient); ok {
		err := s.guard(ctx, clusterNode, func() error {
			c, err := cc.MasterForKey(ctx, key)
			if err == nil {
				node = c.Options().Addr
			}
			return err
		})
		if err != nil {
			return err
		}
	}
	return s.guard(ctx, node, op)
}

// guard runs op unless node's breaker refuses it, and tells the breaker how it
// went. redis.Nil (no such key) is a success; an error of the caller's own
// cancelled context says nothing about the node.
func (s *Store) guard(ctx context.Context, node string, op func() error) error {
	b := s.breaker(node)
	ok, probe := b.allow(s.now())
	if !ok {
		return ErrUnavailable
	}
	err := op()
	failed := err != nil && !errors.Is(err, redis.Nil)
	if failed && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		b.cancel(probe)
		return err
	}
	switch b.done(failed, probe, s.now(), s.backoffMin, s.backoffMax) {
	case opened:
		s.log.Warn("redis unavailable: the cache store fails fast until a probe succeeds; answering from memory and by fetching",
			"node", nodeName(node), "err", err)
	case closed:
		s.log.Warn("redis available again: the cache store is back in use", "node", nodeName(node))
	}
	return err
}

func nodeName(node string) string {
	if node == "" {
		return "redis"
	}
	return node
}

func (s *Store) breaker(node string) *breaker {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.breakers[node]
	if b == nil {
		b = new(breaker)
		s.breakers[node] = b
	}
	return b
}

// breaker is one node's circuit breaker. While closed it lets every operation
// through and counts failures in a row; open, it refuses them until retryAt, then
// lets one through as a probe.
type breaker struct {
	mu       sync.Mutex
	failures int  // in a row, while closed
	open     bool // refusing
	probing  bool // a probe is in flight
	backoff  time.Duration
	retryAt  time.Time
}

type transition int

const (
	unchanged transition = iota
	opened
	closed
)

// allow says whether an operation may go to the node, and whether it is the probe
// of an open breaker.
func (b *breaker) allow(now time.Time) (ok, probe bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.open {
		return true, false
	}
	if b.probing || now.Before(b.retryAt) {
		return false, false
	}
	b.probing = true
	return true, true
}

// cancel forgets an operation that ended without a verdict on the node.
func (b *breaker) cancel(probe bool) {
	if !probe {
		return
	}
	b.mu.Lock()
	b.probing = false
	b.mu.Unlock()
}

// done tells the breaker how an operation went. While the breaker is open only its
// probe decides: an operation let through before it opened may answer late, and its
// success says only that the node answered then (it closed the breaker, which the
// next failures opened again: two outages logged for one).
func (b *breaker) done(failed, probe bool, now time.Time, first, longest time.Duration) transition {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.open && !probe {
		return unchanged
	}
	if !failed {
		b.failures, b.probing = 0, false
		if b.open {
			b.open = false
			return closed
		}
		return unchanged
	}
	if b.open {
		b.probing = false
		b.backoff = min(b.backoff*2, longest)
		b.retryAt = now.Add(b.backoff)
		return unchanged
	}
	b.failures++
	if b.failures < FailuresToOpen {
		return unchanged
	}
	b.open, b.failures, b.backoff = true, 0, first
	b.retryAt = now.Add(first)
	return opened
}
