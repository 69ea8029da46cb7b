package fetch

import "context"

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
	entries *clockCache[*Result]
}

// NewMemoryStore returns a store holding at most maxBytes (estimated) of entries;
// maxBytes <= 0 means DefaultMemoryBytes.
func NewMemoryStore(maxBytes int64) *MemoryStore {
	if maxBytes <= 0 {
		maxBytes = DefaultMemoryBytes
	}
	return &MemoryStore{entries: newClockCache[*Result](maxBytes)}
}

// Load returns the result of origin, or nil.
func (s *MemoryStore) Load(_ context.Context, origin string) (*Result, error) {
	e, _ := s.entries.get(origin)
	return e, nil
}

// Save keeps r under r.Origin, dropping older results to stay within the bound. A
// result larger than the whole bound is not kept.
func (s *MemoryStore) Save(_ context.Context, r *Result) error {
	s.entries.put(r.Origin, r, r.size()+clockItemBytes)
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
