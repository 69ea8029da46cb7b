// Package boltstore keeps robots.txt cache entries in a bbolt file on disk, so that
// a crawler's cache survives a restart.
//
// # Size
//
// The file is bounded (WithMaxBytes, DefaultMaxBytes). bbolt never gives space back
// to the file system: pages freed by deleted or replaced entries are reused for
// later writes, but the file keeps its largest size. So the store bounds both what
// it holds and the file:
//
//   - The entries' bytes are kept under three quarters of the bound. When a save
//     passes that, entries are deleted until they are under 90% of it: expired
//     entries first (the oldest expiry first), then the least recently used ones
//     (used: loaded or saved by this process; after a restart, saved). Deleted
//     entries' pages are reused by the next writes, so with the entries bounded the
//     file mostly stops growing.
//   - The other quarter is room for what bbolt needs besides the entries (branch
//     pages, pages held by readers, free space cut in pieces too small for a large
//     entry). Should the file still pass the bound, the store compacts it in the
//     background: it copies the entries into a new file (bbolt.Compact) and puts
//     that in the old one's place. Loads go on meanwhile; saves fail at once with
//     ErrCompacting (a fetch client then keeps the result in memory only), since
//     what they wrote to the old file would be lost. Copying 700 MB of entries took
//     20 s on a loaded machine; with the entries under three quarters of the bound
//     it is rare (once in 3,000 saves of 500 KiB files through a 1 GiB bound). Open
//     compacts a file that is over the bound (written by an earlier version or with
//     a larger bound) before it returns.
//
// Each entry holds its origin's history besides its latest result (fetch.Historian:
// at most fetch.HistoryVersions versions, fetch.HistoryBytes of bodies), which
// counts in the entry's size and is evicted with it. The latest version's body is
// the entry's own (it is not stored twice) unless the entry no longer holds it;
// in a store bounded near MinMaxBytes, an entry whose history would not fit keeps
// its latest version only.
//
// Recency is counted in process (an index of every entry's size, expiry and last
// use, about a hundred bytes per origin), so a Load writes nothing to the file.
package boltstore

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/gorobots/robots/fetch"
)

// bucket holds the entries, as JSON by origin. The version in its name lets a
// later format live beside this one.
var bucket = []byte("entries.v1")

// metaBucket holds, by origin, what eviction reads of an entry without decoding
// it: its expiry and when it was saved (big-endian Unix nanoseconds, 8 bytes each).
var metaBucket = []byte("meta.v1")

// historyBucket holds, by origin, the versions of its robots.txt (fetch.Historian)
// as a JSON array, the latest first. An origin's history counts in its entry's size
// and is deleted with it.
var historyBucket = []byte("history.v1")

const metaLen = 16

// OpenTimeout bounds the wait for the file lock. bbolt lets one process open a file
// at a time and that process holds the lock for its whole life, so a longer wait
// would only delay the answer: a second process is told at once (ErrLocked). The
// moment allowed covers a process that is closing the file as this one starts.
const OpenTimeout = 250 * time.Millisecond

// DefaultMaxBytes bounds the file when WithMaxBytes is not given: 1 GiB holds
// the entries of some hundreds of thousands of typical origins (a few KiB each),
// or 1,500 of the largest (500 KiB, stored as about 670 KiB of JSON).
const DefaultMaxBytes = 1 << 30

// MinMaxBytes is the smallest bound WithMaxBytes accepts: below it bbolt's own
// pages (two meta pages, the buckets' roots, the free list) are a large share of
// the file and a single largest entry would not fit.
const MinMaxBytes = 4 << 20

// entryOverhead is what an entry costs besides its key and value bytes: its
// element headers in the leaf pages of both buckets and its meta value.
const entryOverhead = 2*16 + metaLen

// liveShare and lowShare are the fractions of the bound the entries may reach
// before eviction starts, and where it stops (see the package doc).
const (
	liveShare = 0.75
	lowShare  = 0.9 * liveShare
)

// ErrLocked is returned by Open when another process has the file open.
var ErrLocked = errors.New("in use by another process")

// ErrCompacting is returned by Save while the file is being compacted.
var ErrCompacting = errors.New("the file is being compacted: not saved")

// Store is a fetch.Store in a bbolt file, bounded in size. It is safe for
// concurrent use.
type Store struct {
	path string
	max  int64
	now  func() time.Time

	// dbMu guards db, which a compaction replaces: loads and saves hold it for
	// reading, a compaction for writing.
	dbMu sync.RWMutex
	db   *bolt.DB

	// wmu makes a save and its eviction, and the index changes that follow its
	// commit, one step: bbolt runs one writer at a time, but the index must not be
	// read by the next writer before it is brought up to date.
	wmu sync.Mutex

	compacting atomic.Bool    // a compaction runs: saves fail at once; set with wmu held, so that no save is under way
	bg         sync.WaitGroup // the compaction running in the background, if any

	mu          sync.Mutex // guards the fields below
	compactErr  error      // of the last background compaction, returned by the next Save
	index       map[string]info
	live        int64 // summed sizes of the entries in index
	evicted     int64
	compactions int64
}

// info is what the store knows of an entry without reading it.
type info struct {
	size    int64 // entrySize
	expires int64 // Unix nanoseconds
	used    int64 // Unix nanoseconds of the last load or save
}

// Option configures a Store.
type Option func(*Store)

// WithMaxBytes bounds the file at n bytes (DefaultMaxBytes when n <= 0; at least
// MinMaxBytes).
func WithMaxBytes(n int64) Option {
	return func(s *Store) {
		if n > 0 {
			s.max = max(n, MinMaxBytes)
		}
	}
}

// WithNow sets the clock that tells expired entries (time.Now by default).
func WithNow(now func() time.Time) Option { return func(s *Store) { s.now = now } }

// Open opens or creates the store at path. A file over the bound is brought under
// it before Open returns (see the package doc).
func Open(path string, opts ...Option) (*Store, error) {
	s := &Store{path: path, max: DefaultMaxBytes, now: time.Now, index: map[string]info{}}
	for _, o := range opts {
		o(s)
	}
	db, err := s.openDB(path, true)
	if err != nil {
		return nil, err
	}
	s.db = db
	if err := s.loadIndex(); err != nil {
		db.Close()
		return nil, fmt.Errorf("boltstore: %s: %w", path, err)
	}
	if err := s.shrink(); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("boltstore: %s: %w", path, err)
	}
	return s, nil
}

// openDB opens the file at path; with buckets, it creates the store's buckets
// (a compaction's new file gets them from bbolt.Compact).
func (s *Store) openDB(path string, buckets bool) (*bolt.DB, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: OpenTimeout})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("boltstore: %s: %w", path, ErrLocked)
	}
	if err != nil {
		return nil, fmt.Errorf("boltstore: opening %s: %w", path, err)
	}
	// The file grows by AllocSize once past it (16 MiB by default): a small bound
	// needs smaller steps.
	db.AllocSize = int(min(int64(db.AllocSize), s.max/32))
	if !buckets {
		return db, nil
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucket, metaBucket, historyBucket} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		db.Close()
		return nil, fmt.Errorf("boltstore: %s: %w", path, err)
	}
	return db, nil
}

// loadIndex reads every entry's size and meta. Entries written before the meta
// bucket existed get their meta from their JSON, once.
func (s *Store) loadIndex() error {
	return s.db.Update(func(tx *bolt.Tx) error {
		entries, meta, hist := tx.Bucket(bucket), tx.Bucket(metaBucket), tx.Bucket(historyBucket)
		var missing [][2][]byte
		err := entries.ForEach(func(k, v []byte) error {
			size := entrySize(len(k), len(v)+len(hist.Get(k)))
			m := meta.Get(k)
			if len(m) != metaLen {
				var e struct {
					ExpiresAt time.Time `json:"expires_at"`
				}
				json.Unmarshal(v, &e) // a damaged entry counts as expired
				m = encodeMeta(e.ExpiresAt.UnixNano(), s.now().UnixNano())
				missing = append(missing, [2][]byte{slices.Clone(k), m})
			}
			s.index[string(k)] = info{size: size, expires: int64(binary.BigEndian.Uint64(m)), used: int64(binary.BigEndian.Uint64(m[8:]))}
			s.live += size
			return nil
		})
		if err != nil {
			return err
		}
		for _, kv := range missing {
			if err := meta.Put(kv[0], kv[1]); err != nil {
				return err
			}
		}
		return nil
	})
}

func entrySize(k, v int) int64 { return int64(2*k + v + entryOverhead) }

func encodeMeta(expires, used int64) []byte {
	m := make([]byte, metaLen)
	binary.BigEndian.PutUint64(m, uint64(expires))
	binary.BigEndian.PutUint64(m[8:], uint64(used))
	return m
}

// Health reports whether the store is usable: the file is open and still on disk.
// It implements fetch.HealthChecker, which readiness checks use.
func (s *Store) Health(context.Context) error {
	s.dbMu.RLock()
	defer s.dbMu.RUnlock()
	if err := s.db.View(func(tx *bolt.Tx) error {
		if tx.Bucket(bucket) == nil {
			return errors.New("no entries bucket")
		}
		return nil
	}); err != nil {
		return fmt.Errorf("boltstore: %s: %w", s.path, err)
	}
	if _, err := os.Stat(s.path); err != nil {
		return fmt.Errorf("boltstore: %w", err)
	}
	return nil
}

// Close closes the file, once a compaction in progress has ended.
func (s *Store) Close() error {
	s.bg.Wait()
	s.dbMu.Lock()
	defer s.dbMu.Unlock()
	return s.db.Close()
}

// Load returns the entry of origin, or nil, and counts it as used.
func (s *Store) Load(_ context.Context, origin string) (*fetch.Result, error) {
	s.dbMu.RLock()
	defer s.dbMu.RUnlock()
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
	if e != nil {
		s.mu.Lock()
		if in, ok := s.index[origin]; ok {
			in.used = s.now().UnixNano()
			s.index[origin] = in
		}
		s.mu.Unlock()
	}
	return e, nil
}

// Save writes e under e.Origin and syncs the file, evicting entries to stay within
// the bound (see the package doc). An entry larger than the entries' whole share of
// the bound is not kept.
func (s *Store) Save(_ context.Context, e *fetch.Result) error {
	if s.compacting.Load() {
		return fmt.Errorf("boltstore: saving %s: %w", e.Origin, ErrCompacting)
	}
	v, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("boltstore: encoding %s: %w", e.Origin, err)
	}
	if err := s.save(e, v); err != nil {
		return fmt.Errorf("boltstore: saving %s: %w", e.Origin, err)
	}
	if s.fileSize() > s.max && s.startCompaction() {
		s.bg.Go(func() {
			err := s.compact()
			s.mu.Lock()
			s.compactErr = err
			s.mu.Unlock()
		})
	}
	s.mu.Lock()
	err, s.compactErr = s.compactErr, nil
	s.mu.Unlock()
	if err != nil {
		return fmt.Errorf("boltstore: %w", err)
	}
	return nil
}

func (s *Store) save(e *fetch.Result, v []byte) error {
	origin := e.Origin
	now := s.now().UnixNano()
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.compacting.Load() {
		return ErrCompacting
	}
	// The history is read and written back under wmu, so no other save comes between.
	hist, err := s.addVersion(e)
	if err != nil {
		return err
	}
	hv, err := encodeHistory(hist, e.Body)
	if err != nil {
		return err
	}
	in := info{size: entrySize(len(origin), len(v)+len(hv)), expires: e.ExpiresAt.UnixNano(), used: now}
	if float64(in.size) > liveShare*float64(s.max) && len(hist) > 1 {
		// A store bounded near MinMaxBytes cannot hold a large file's whole history:
		// it keeps the latest version only.
		if hv, err = encodeHistory(hist[:1], e.Body); err != nil {
			return err
		}
		in.size = entrySize(len(origin), len(v)+len(hv))
	}
	if float64(in.size) > liveShare*float64(s.max) {
		return fmt.Errorf("entry of %d bytes, more than the store's bound of %d allows", in.size, s.max)
	}
	victims := s.victims(origin, in.size, now)
	s.dbMu.RLock()
	err = s.db.Update(func(tx *bolt.Tx) error {
		if err := deleteEntries(tx, victims); err != nil {
			return err
		}
		if hv != nil {
			if err := tx.Bucket(historyBucket).Put([]byte(origin), hv); err != nil {
				return err
			}
		}
		if err := tx.Bucket(bucket).Put([]byte(origin), v); err != nil {
			return err
		}
		return tx.Bucket(metaBucket).Put([]byte(origin), encodeMeta(in.expires, in.used))
	})
	s.dbMu.RUnlock()
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range victims {
		s.live -= s.index[k].size
		delete(s.index, k)
	}
	s.evicted += int64(len(victims))
	s.live += in.size - s.index[origin].size
	s.index[origin] = in
	return nil
}

// deleteEntries deletes the entries of keys, with their meta and history.
func deleteEntries(tx *bolt.Tx, keys []string) error {
	for _, k := range keys {
		for _, b := range [][]byte{bucket, metaBucket, historyBucket} {
			if err := tx.Bucket(b).Delete([]byte(k)); err != nil {
				return err
			}
		}
	}
	return nil
}

// addVersion returns the history of e's origin with e's fetch added (as it was
// when e adds nothing). s.wmu is held.
func (s *Store) addVersion(e *fetch.Result) ([]fetch.Version, error) {
	var hist []fetch.Version
	s.dbMu.RLock()
	err := s.db.View(func(tx *bolt.Tx) error {
		hist = readHistory(tx, e.Origin)
		return nil
	})
	s.dbMu.RUnlock()
	if err != nil {
		return nil, err
	}
	hist, _ = fetch.AddVersion(hist, e)
	return hist, nil
}

// emptySHA256 is the hash of an empty body: a version whose stored body is empty
// and whose hash is another left its body to the entry (encodeHistory).
const emptySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

// encodeHistory writes hist as stored. The latest version's body is left out when
// it is the body of the entry saved with it (body: the file in effect, which the
// entry keeps, its copy's when stale): the common case, where the history would
// otherwise hold every file twice. readHistory puts it back.
func encodeHistory(hist []fetch.Version, body string) ([]byte, error) {
	if len(hist) == 0 {
		return nil, nil
	}
	if hist[0].Body != "" && hist[0].Body == body {
		hist = slices.Clone(hist)
		hist[0].Body = ""
	}
	return json.Marshal(hist)
}

// readHistory reads origin's history in tx, the latest version's body put back
// from the entry when encodeHistory left it out. A damaged history reads as none,
// so that the origin's saves begin it again rather than fail.
func readHistory(tx *bolt.Tx, origin string) []fetch.Version {
	v := tx.Bucket(historyBucket).Get([]byte(origin))
	if v == nil {
		return nil
	}
	var hist []fetch.Version
	if json.Unmarshal(v, &hist) != nil || len(hist) == 0 {
		return nil
	}
	if h := &hist[0]; h.Body == "" && h.SHA256 != emptySHA256 {
		var e fetch.Result
		if json.Unmarshal(tx.Bucket(bucket).Get([]byte(origin)), &e) == nil {
			sum := sha256.Sum256([]byte(e.Body))
			if hex.EncodeToString(sum[:]) == h.SHA256 {
				h.Body = e.Body
			}
		}
	}
	return hist
}

// History returns the versions kept of origin, the latest first.
func (s *Store) History(_ context.Context, origin string) ([]fetch.Version, error) {
	s.dbMu.RLock()
	defer s.dbMu.RUnlock()
	var hist []fetch.Version
	err := s.db.View(func(tx *bolt.Tx) error {
		hist = readHistory(tx, origin)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("boltstore: history of %s: %w", origin, err)
	}
	return hist, nil
}

// victims returns the entries to delete so that saving size bytes under origin
// keeps the entries within their share of the bound: none while they stay under
// it, else enough to bring them down to lowShare, expired entries first (oldest
// expiry first), then the least recently used. s.wmu is held.
func (s *Store) victims(origin string, size, now int64) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	live := s.live + size - s.index[origin].size
	if float64(live) <= liveShare*float64(s.max) {
		return nil
	}
	type cand struct {
		key string
		info
	}
	all := make([]cand, 0, len(s.index))
	for k, in := range s.index {
		if k != origin {
			all = append(all, cand{k, in})
		}
	}
	slices.SortFunc(all, func(a, b cand) int {
		ae, be := a.expires <= now, b.expires <= now
		switch {
		case ae && !be:
			return -1
		case be && !ae:
			return 1
		case ae && be:
			return cmp.Compare(a.expires, b.expires)
		}
		return cmp.Compare(a.used, b.used)
	})
	var out []string
	for _, c := range all {
		if float64(live) <= lowShare*float64(s.max) {
			break
		}
		out = append(out, c.key)
		live -= c.size
	}
	return out
}

// shrink brings a store just opened under its bound: its entries under their share
// (evicting as a save would), then the file (compacting it).
func (s *Store) shrink() error {
	s.wmu.Lock()
	victims := s.victims("", 0, s.now().UnixNano())
	err := s.db.Update(func(tx *bolt.Tx) error {
		return deleteEntries(tx, victims)
	})
	if err == nil {
		s.mu.Lock()
		for _, k := range victims {
			s.live -= s.index[k].size
			delete(s.index, k)
		}
		s.evicted += int64(len(victims))
		s.mu.Unlock()
	}
	s.wmu.Unlock()
	if err != nil {
		return err
	}
	if s.fileSize() > s.max && s.startCompaction() {
		return s.compact()
	}
	return nil
}

// startCompaction sets s.compacting unless it is set, and reports whether it did.
// It waits for a save under way to end (a save holds wmu while it checks the flag and
// writes), so that the compaction copies every save that did not fail.
func (s *Store) startCompaction() bool {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	return s.compacting.CompareAndSwap(false, true)
}

// compactTxBytes bounds what one transaction of a compaction writes, so that
// copying a large file does not hold all of it in memory at once.
const compactTxBytes = 16 << 20

// compact copies the entries into a new file and puts it in place of the old one;
// s.compacting is set (startCompaction), and compact clears it. Loads go on while the entries are
// copied; saves fail (ErrCompacting). The new file is opened (and locked) before the
// old one is closed, so no other process can take the path meanwhile.
func (s *Store) compact() error {
	defer s.compacting.Store(false)
	tmp := s.path + ".compact"
	os.Remove(tmp) // left by a compaction that was interrupted
	dst, err := s.openDB(tmp, false)
	if err != nil {
		return fmt.Errorf("compacting %s: %w", s.path, err)
	}
	s.dbMu.RLock()
	err = bolt.Compact(dst, s.db, compactTxBytes)
	s.dbMu.RUnlock()
	if err != nil {
		dst.Close()
		os.Remove(tmp)
		return fmt.Errorf("compacting %s: %w", s.path, err)
	}
	s.dbMu.Lock()
	defer s.dbMu.Unlock()
	if err := os.Rename(tmp, s.path); err != nil {
		dst.Close()
		os.Remove(tmp)
		return fmt.Errorf("compacting %s: %w", s.path, err)
	}
	s.db.Close()
	s.db = dst
	s.mu.Lock()
	s.compactions++
	s.mu.Unlock()
	return nil
}

func (s *Store) fileSize() int64 {
	s.dbMu.RLock()
	defer s.dbMu.RUnlock()
	return s.fileSizeLocked()
}

func (s *Store) fileSizeLocked() int64 {
	var n int64
	s.db.View(func(tx *bolt.Tx) error {
		n = tx.Size()
		return nil
	})
	if fi, err := os.Stat(s.path); err == nil {
		n = max(n, fi.Size())
	}
	return n
}

// Stats are a store's figures at one moment.
type Stats struct {
	Entries     int   // origins held
	Bytes       int64 // their estimated size in the file: keys, values and bbolt's per-entry bytes
	FileBytes   int64 // the file's size
	Evicted     int64 // entries deleted to stay within the bound, since Open
	Compactions int64 // times the file was compacted, since Open
}

// Stats returns the store's figures now.
func (s *Store) Stats() Stats {
	fb := s.fileSize()
	s.mu.Lock()
	defer s.mu.Unlock()
	return Stats{Entries: len(s.index), Bytes: s.live, FileBytes: fb, Evicted: s.evicted, Compactions: s.compactions}
}
