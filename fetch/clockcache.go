package fetch

import (
	"container/list"
	"sync"
	"sync/atomic"
)

// clockCache is a map bounded by the summed sizes of its values: past the bound,
// values not used recently are dropped. It is safe for concurrent use.
//
// Lookups are the hot path of every check, from every request goroutine at once, so
// they take no lock and write nothing shared but a "used" bit, and only when it is
// not yet set: a sync.Map holds the items, and eviction follows the CLOCK scheme (an
// approximation of least-recently-used): a hand walks the items in insertion order,
// clearing used bits, and drops the first item whose bit is already clear. Inserts
// and evictions take the mutex.
type clockCache[V any] struct {
	max   int64
	items sync.Map // string → *clockItem[V]; written only under mu

	mu   sync.Mutex
	used int64
	ring *list.List    // of *clockItem[V], oldest first
	hand *list.Element // the next item eviction looks at; nil means ring.Front()
	n    int
}

type clockItem[V any] struct {
	key  string
	v    V
	size int64
	ref  atomic.Bool // used since the hand last passed
	el   *list.Element
}

// clockItemBytes is what a clockCache spends on an item besides its value: the
// item, its list element and its sync.Map entry (measured: TestRulesMemory).
const clockItemBytes = 192

func newClockCache[V any](maxBytes int64) *clockCache[V] {
	return &clockCache[V]{max: maxBytes, ring: list.New()}
}

func (c *clockCache[V]) get(key string) (V, bool) {
	x, ok := c.items.Load(key)
	if !ok {
		var zero V
		return zero, false
	}
	it := x.(*clockItem[V])
	if !it.ref.Load() { // a read of a shared line is cheap; a write on every hit is not
		it.ref.Store(true)
	}
	return it.v, true
}

// put stores v under key; a value larger than the whole bound is not kept.
func (c *clockCache[V]) put(key string, v V, size int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if x, ok := c.items.Load(key); ok {
		c.remove(x.(*clockItem[V]))
	}
	if size > c.max {
		return
	}
	for c.used+size > c.max && c.n > 0 {
		el := c.hand
		if el == nil {
			el = c.ring.Front()
		}
		it := el.Value.(*clockItem[V])
		if it.ref.Load() {
			it.ref.Store(false)
			c.hand = el.Next()
			continue
		}
		c.remove(it)
	}
	it := &clockItem[V]{key: key, v: v, size: size}
	// Behind the hand: a new item is looked at last.
	if c.hand != nil {
		it.el = c.ring.InsertBefore(it, c.hand)
	} else {
		it.el = c.ring.PushBack(it)
	}
	c.items.Store(key, it)
	c.used += size
	c.n++
}

// remove drops it; c.mu is held.
func (c *clockCache[V]) remove(it *clockItem[V]) {
	if c.hand == it.el {
		c.hand = it.el.Next()
	}
	c.ring.Remove(it.el)
	c.items.Delete(it.key)
	c.used -= it.size
	c.n--
}

// stats returns the number of items and their summed sizes.
func (c *clockCache[V]) stats() (n int, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n, c.used
}

func (c *clockCache[V]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}
