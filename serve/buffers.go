package serve

import "sync"

// bufferPool reuses answer buffers: a batch answer is hundreds of kilobytes, and a
// new one per request costs more in zeroing and collection than in encoding. Each
// Server has its own, so that servers share nothing.
type bufferPool struct{ p sync.Pool }

// Only buffers between these sizes are pooled: small answers (single checks) are
// cheap to allocate, and one huge answer should not stay in memory.
const (
	minPooledBuffer = 16 << 10
	maxPooledBuffer = 4 << 20
)

// get returns an empty buffer of at least size bytes' capacity.
func (bp *bufferPool) get(size int) []byte {
	if size < minPooledBuffer {
		return make([]byte, 0, size)
	}
	if p, ok := bp.p.Get().(*[]byte); ok {
		if cap(*p) >= size {
			return (*p)[:0]
		}
		bp.p.Put(p)
	}
	return make([]byte, 0, size)
}

// put gives b back once it has been written.
func (bp *bufferPool) put(b []byte) {
	if cap(b) < minPooledBuffer || cap(b) > maxPooledBuffer {
		return
	}
	bp.p.Put(&b)
}
