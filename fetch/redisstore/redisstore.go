// Package redisstore keeps robots.txt cache entries in Redis, so that many
// processes share one cache: each fetch is made once for all of them. Bodies and
// metadata are stored; each process parses the rules it uses.
package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
)

// Store is a fetch.Store in Redis. It is safe for concurrent use.
type Store struct {
	rdb       redis.UniversalClient
	prefix    string
	retention time.Duration
	now       func() time.Time
}

// Option configures a Store.
type Option func(*Store)

// WithPrefix sets the prefix of the keys (DefaultPrefix); the origin follows it.
func WithPrefix(p string) Option { return func(s *Store) { s.prefix = p } }

// WithRetention sets how long entries are kept past their expiry (DefaultRetention).
func WithRetention(d time.Duration) Option { return func(s *Store) { s.retention = d } }

// New returns a store using rdb, which the caller keeps and closes.
func New(rdb redis.UniversalClient, opts ...Option) *Store {
	s := &Store{rdb: rdb, prefix: DefaultPrefix, retention: DefaultRetention, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Load returns the entry of origin, or nil.
func (s *Store) Load(ctx context.Context, origin string) (*fetch.Entry, error) {
	v, err := s.rdb.Get(ctx, s.prefix+origin).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("redisstore: loading %s: %w", origin, err)
	}
	e := new(fetch.Entry)
	if err := json.Unmarshal(v, e); err != nil {
		return nil, fmt.Errorf("redisstore: decoding %s: %w", origin, err)
	}
	return e, nil
}

// Save writes e under e.Origin, to be dropped by Redis a retention period after it
// expires.
func (s *Store) Save(ctx context.Context, e *fetch.Entry) error {
	v, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("redisstore: encoding %s: %w", e.Origin, err)
	}
	keep := max(e.ExpiresAt.Sub(s.now()), 0) + s.retention
	if err := s.rdb.Set(ctx, s.prefix+e.Origin, v, keep).Err(); err != nil {
		return fmt.Errorf("redisstore: saving %s: %w", e.Origin, err)
	}
	return nil
}
