package fetch

import (
	"context"
	"sync"
	"unsafe"

	"github.com/gorobots/robots/internal/defaults"
)

// Store keeps results by origin: the latest fetch with its body and metadata, and
// the last copy that was not Unreachable while fetches fail. Parsed rules are not
// the store's: a Client saves results without them and parses again what it loads.
// Implementations are safe for concurrent use. Load returns nil and no error when
// the origin is unknown. Results passed to Save and returned by Load are not
// modified afterwards by either side, so a store may keep and return them as they
// are; stores out of process keep them as JSON (Result's MarshalJSON).
type Store interface {
	Load(ctx context.Context, origin string) (*Result, error)
	Save(ctx context.Context, r *Result) error
}

// MemoryStore is a Store in process memory, bounded in bytes: past the bound, the
// least recently used entries are dropped. It is safe for concurrent use.
type MemoryStore struct {
	mu      sync.Mutex // makes a save's read of the history and its write one step
	entries *clockCache[*memEntry]
}

// memEntry is what a MemoryStore holds of an origin: its latest result and the
// versions of its file (Historian).
type memEntry struct {
	r    *Result
	hist []Version
}

// NewMemoryStore returns a store holding at most maxBytes (estimated) of entries;
// maxBytes <= 0 means DefaultMemoryBytes.
func NewMemoryStore(maxBytes int64) *MemoryStore {
	return &MemoryStore{entries: newClockCache(defaults.Or(maxBytes, DefaultMemoryBytes), func(e *memEntry) string { return e.r.Origin })}
}

// Load returns the result of origin, or nil.
func (s *MemoryStore) Load(_ context.Context, origin string) (*Result, error) {
	e, _ := s.entries.get(origin)
	if e == nil {
		return nil, nil
	}
	return e.r, nil
}

// Save keeps r under r.Origin, and its file in the origin's history, dropping
// older entries to stay within the bound. An entry larger than the whole bound is
// not kept.
func (s *MemoryStore) Save(_ context.Context, r *Result) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var hist []Version
	if e, _ := s.entries.get(r.Origin); e != nil {
		hist = e.hist
	}
	hist, _ = AddVersion(hist, r)
	size := r.size() + historySize(hist)
	if len(hist) > 0 && unsafe.StringData(hist[0].Body) == unsafe.StringData(r.Body) {
		size -= int64(len(r.Body)) // one string, counted by r.size
	}
	s.entries.put(&memEntry{r: r, hist: hist}, size+clockItemBytes)
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
