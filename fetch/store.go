package fetch

import (
	"context"
	"time"
)

// Entry is what a Store keeps for one origin: the latest fetch with its body and
// metadata, and the last copy that was not Unreachable while fetches fail. It is plain
// data (encoding/json round-trips it) so that stores can keep it anywhere; parsed
// rules are rebuilt from Body in the process that uses them.
type Entry struct {
	Origin    string    `json:"origin"`
	RobotsURL string    `json:"robots_url"`
	Outcome   Outcome   `json:"outcome"`
	Effect    Effect    `json:"effect"` // of this fetch alone (see Copy)
	Status    int       `json:"status"`
	Hops      []Hop     `json:"hops,omitempty"`
	BytesRead int64     `json:"bytes_read"`
	WireBytes int64     `json:"wire_bytes"`
	Truncated bool      `json:"truncated,omitempty"`
	Encoding  string    `json:"encoding,omitempty"`
	Body      []byte    `json:"body,omitempty"` // the bytes parsed, when Effect is ObeyRules
	FetchedAt time.Time `json:"fetched_at"`
	ExpiresAt time.Time `json:"expires_at"`
	Err       string    `json:"err,omitempty"`
	// ErrKind classifies Err, so that the classification survives a store.
	ErrKind ErrorKind `json:"err_kind,omitempty"`
	// Addrs are the remote addresses ("ip:port") the fetch's requests went to, in
	// order, so that a client with WithAddrCheck does not use what another process,
	// allowed to connect where it is not, fetched.
	Addrs []string `json:"addrs,omitempty"`

	// LastSuccess is when the origin last answered other than Unreachable.
	LastSuccess time.Time `json:"last_success,omitzero"`
	// Failures and FailingSince describe the current run of Unreachable fetches.
	Failures     int       `json:"failures,omitempty"`
	FailingSince time.Time `json:"failing_since,omitzero"`
	// Copy is the last fetch that was not Unreachable, kept while this one is; nil
	// otherwise. Its own Copy is always nil.
	Copy *Entry `json:"copy,omitempty"`

	// cause is the error behind Err, kept while the entry stays in this process so
	// that callers can still use errors.Is and errors.As on Result.Err.
	cause error
}

// size estimates the memory an entry holds, for byte-bounded stores.
func (e *Entry) size() int64 {
	const overhead = 256 // struct, time values, map and list bookkeeping
	n := int64(overhead + len(e.Origin) + len(e.RobotsURL) + len(e.Body) + len(e.Err))
	for _, h := range e.Hops {
		n += int64(len(h.URL)) + 32
	}
	for _, a := range e.Addrs {
		n += int64(len(a)) + 16
	}
	if e.Copy != nil {
		n += e.Copy.size()
	}
	return n
}

// Store keeps entries by origin. Implementations are safe for concurrent use. Load
// returns nil and no error when the origin is unknown. Entries passed to Save and
// returned by Load are not modified afterwards by either side, so a store may keep
// and return them as they are.
type Store interface {
	Load(ctx context.Context, origin string) (*Entry, error)
	Save(ctx context.Context, e *Entry) error
}

// DefaultMemoryBytes bounds the default in-memory store and the parsed rules a
// client keeps: 64 MiB holds some thousands of typical files and a hundred of the
// largest (500 KiB) ones.
const DefaultMemoryBytes = 64 << 20

// MemoryStore is a Store in process memory, bounded in bytes: past the bound, the
// least recently used entries are dropped. It is safe for concurrent use.
type MemoryStore struct {
	entries *lru[*Entry]
}

// NewMemoryStore returns a store holding at most maxBytes (estimated) of entries;
// maxBytes <= 0 means DefaultMemoryBytes.
func NewMemoryStore(maxBytes int64) *MemoryStore {
	if maxBytes <= 0 {
		maxBytes = DefaultMemoryBytes
	}
	return &MemoryStore{entries: newLRU[*Entry](maxBytes)}
}

// Load returns the entry of origin, or nil.
func (s *MemoryStore) Load(_ context.Context, origin string) (*Entry, error) {
	e, _ := s.entries.get(origin)
	return e, nil
}

// Save keeps e under e.Origin, dropping older entries to stay within the bound. An
// entry larger than the whole bound is not kept.
func (s *MemoryStore) Save(_ context.Context, e *Entry) error {
	s.entries.put(e.Origin, e, e.size())
	return nil
}

// Len returns the number of entries held.
func (s *MemoryStore) Len() int { return s.entries.len() }

// A HealthChecker is a Store that can tell whether it is usable (a store in a
// server such as Redis): Health returns nil while it is, and the reason while it is
// not. A client goes on without a failing store (answering from memory and by
// fetching), so a server uses Health for readiness checks and metrics, not to stop
// answering. Health is safe for concurrent use and returns within ctx's deadline.
type HealthChecker interface {
	Health(ctx context.Context) error
}
