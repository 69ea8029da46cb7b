// Package boltstore keeps robots.txt cache entries in a bbolt file on disk, so that
// a crawler's cache survives a restart.
package boltstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/gorobots/robots/fetch"
)

// bucket holds the entries, as JSON by origin. The version in its name lets a
// later format live beside this one.
var bucket = []byte("entries.v1")

// OpenTimeout bounds the wait for the file lock. bbolt lets one process open a file
// at a time and that process holds the lock for its whole life, so a longer wait
// would only delay the answer: a second process is told at once (ErrLocked). The
// moment allowed covers a process that is closing the file as this one starts.
const OpenTimeout = 250 * time.Millisecond

// ErrLocked is returned by Open when another process has the file open.
var ErrLocked = errors.New("in use by another process")

// Store is a fetch.Store in a bbolt file. It is safe for concurrent use.
type Store struct {
	db *bolt.DB
}

// Open opens or creates the store at path.
func Open(path string) (*Store, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: OpenTimeout})
	if errors.Is(err, bolt.ErrTimeout) {
		return nil, fmt.Errorf("boltstore: %s: %w", path, ErrLocked)
	}
	if err != nil {
		return nil, fmt.Errorf("boltstore: opening %s: %w", path, err)
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(bucket)
		return err
	}); err != nil {
		db.Close()
		return nil, fmt.Errorf("boltstore: %s: %w", path, err)
	}
	return &Store{db: db}, nil
}

// Health reports whether the store is usable: the file is open and still on disk.
// It implements fetch.HealthChecker, which readiness checks use.
func (s *Store) Health(context.Context) error {
	if err := s.db.View(func(tx *bolt.Tx) error {
		if tx.Bucket(bucket) == nil {
			return errors.New("no entries bucket")
		}
		return nil
	}); err != nil {
		return fmt.Errorf("boltstore: %s: %w", s.db.Path(), err)
	}
	if _, err := os.Stat(s.db.Path()); err != nil {
		return fmt.Errorf("boltstore: %w", err)
	}
	return nil
}

// Close closes the file.
func (s *Store) Close() error { return s.db.Close() }

// Load returns the entry of origin, or nil.
func (s *Store) Load(_ context.Context, origin string) (*fetch.Result, error) {
	var e *fetch.Result
	err := s.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucket).Get([]byte(origin))
		if v == nil {
			return nil
		}
		e = new(fetch.Result)
		return json.Unmarshal(v, e)
	})
	if err != nil {
		return nil, fmt.Errorf("boltstore: loading %s: %w", origin, err)
	}
	return e, nil
}

// Save writes e under e.Origin and syncs the file.
func (s *Store) Save(_ context.Context, e *fetch.Result) error {
	v, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("boltstore: encoding %s: %w", e.Origin, err)
	}
	err = s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucket).Put([]byte(e.Origin), v)
	})
	if err != nil {
		return fmt.Errorf("boltstore: saving %s: %w", e.Origin, err)
	}
	return nil
}
