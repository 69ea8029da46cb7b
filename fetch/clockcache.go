package fetch

import (
	"container/list"
	"hash/maphash"
	"sync"
	"sync/atomic"
)

// clockCache is a map bounded by the summed sizes of its values: past the bound,
// values not used recently are dropped. It is safe for concurrent use.
//
// Lookups are the hot path of every check, from every request goroutine at once, so
// they write nothing shared but a "used" bit, and only when it is not yet set: the
// items are in clockShards maps, each behind a read-write lock that lookups take for
// reading; eviction follows the CLOCK scheme (an approximation of least-recently-
// used): a hand walks the items in insertion order, clearing used bits, and drops the
// first item whose bit is already clear. Inserts and evictions take the mutex, then
// the shard's lock for writing.
//
// Sharded maps rather than a sync.Map: in a batch of a new origin per URL every
// lookup misses the CPU's caches, and a sync.Map's trie is a chain of nodes, each a
// memory read of its own, where a map reads one group of slots.
type clockCache[V any] struct {
	max    int64
	seed   maphash.Seed
	shards [clockShards]clockShard[V]

	mu   sync.Mutex
	used int64
	ring *list.List    // of *clockItem[V], oldest first
	hand *list.Element // the next item eviction looks at; nil means ring.Front()
	n    int

	// measure, when set, gives a value's size again: values that grow after they
	// are put (parsed files build parts on first use) are measured again when the
	// eviction hand passes them, and by a second hand that walks the ring
	// remeasureSteps items at each put, so that every item is measured again
	// within len/remeasureSteps puts.
	measure func(V) int64
	mhand   *list.Element // the next item the measuring hand looks at; nil means ring.Front()
}

// remeasureSteps is how many items each put measures again: with 15,000 parsed
// files held, each is measured again every 470 puts (fetches), at the cost of 32
// MemSize calls per fetch.
const remeasureSteps = 32

// clockShards spreads the locks lookups take: a power of two, many more than cores.
const clockShards = 64

type clockShard[V any] struct {
	mu    sync.RWMutex
	items map[string]*clockItem[V] // written under the cache's mu and this lock
	_     [64 - 24 - 8]byte        // a cache line each: lookups on other cores do not contend
}

type clockItem[V any] struct {
	key  string
	v    V
	size int64
	ref  atomic.Bool // used since the hand last passed
	el   *list.Element
}

// clockItemBytes is what a clockCache spends on an item besides its value: the
// item, its list element and its map entry (measured: TestRulesMemory).
const clockItemBytes = 192

func newClockCache[V any](maxBytes int64) *clockCache[V] {
	c := &clockCache[V]{max: maxBytes, seed: maphash.MakeSeed(), ring: list.New()}
	for i := range c.shards {
		c.shards[i].items = make(map[string]*clockItem[V])
	}
	return c
}

func (c *clockCache[V]) shard(key string) *clockShard[V] {
	return &c.shards[maphash.String(c.seed, key)&(clockShards-1)]
}

func (c *clockCache[V]) get(key string) (V, bool) {
	sh := c.shard(key)
	sh.mu.RLock()
	it, ok := sh.items[key]
	sh.mu.RUnlock()
	if !ok {
		var zero V
		return zero, false
	}
	if !it.ref.Load() { // a read of a shared line is cheap; a write on every hit is not
		it.ref.Store(true)
	}
	return it.v, true
}

// put stores v under key; a value larger than the whole bound is not kept.
func (c *clockCache[V]) put(key string, v V, size int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	sh := c.shard(key)
	if it, ok := sh.items[key]; ok { // read under c.mu, which every writer holds
		c.remove(it)
	}
	if size > c.max {
		return
	}
	if c.measure != nil {
		for range min(remeasureSteps, c.n) {
			if c.mhand == nil {
				c.mhand = c.ring.Front()
			}
			c.remeasure(c.mhand.Value.(*clockItem[V]))
			c.mhand = c.mhand.Next()
		}
	}
	for c.used+size > c.max && c.n > 0 {
		el := c.hand
		if el == nil {
			el = c.ring.Front()
		}
		it := el.Value.(*clockItem[V])
		if c.measure != nil {
			c.remeasure(it)
		}
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
	sh.mu.Lock()
	sh.items[key] = it
	sh.mu.Unlock()
	c.used += size
	c.n++
}

// remeasure brings it's size up to date; c.mu is held.
func (c *clockCache[V]) remeasure(it *clockItem[V]) {
	size := c.measure(it.v)
	c.used += size - it.size
	it.size = size
}

// remove drops it; c.mu is held.
func (c *clockCache[V]) remove(it *clockItem[V]) {
	if c.hand == it.el {
		c.hand = it.el.Next()
	}
	c.ring.Remove(it.el)
	if c.mhand == it.el {
		c.mhand = it.el.Next()
	}
	sh := c.shard(it.key)
	sh.mu.Lock()
	delete(sh.items, it.key)
	sh.mu.Unlock()
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
