package fetch

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
)

// clockCache is a map bounded by the summed sizes of its values: past the bound,
// values not used recently are dropped. It is safe for concurrent use.
//
// Lookups are the hot path of every check, from every request goroutine at once, so
// they take no lock and write nothing shared but a "used" bit, and only when it is
// not yet set: the items are in an open-addressing table (clockTable) that lookups
// read with atomic loads while the one writer at a time (under mu) changes it;
// eviction follows the CLOCK scheme (an approximation of least-recently-used): a hand
// walks the items in insertion order, clearing used bits, and drops the first item
// whose bit is already clear.
type clockCache[V any] struct {
	max  int64
	seed maphash.Seed
	key  func(V) string                // a value's key: items do not keep it (16 bytes an item; issue 33)
	tab  atomic.Pointer[clockTable[V]] // written under mu
	tomb *clockItem[V]                 // marks a slot whose item was removed

	mu    sync.Mutex
	used  int64
	ring  *clockItem[V] // the oldest item, nil when none; items link to the next and previous in a circle
	hand  *clockItem[V] // the next item eviction looks at; nil means ring
	n     int
	tombs int // slots of tab holding tomb

	// measure, when set, gives a value's size again: values that grow after they
	// are put (parsed files build parts on first use) are measured again when the
	// eviction hand passes them, and by a second hand that walks the ring
	// remeasureSteps items at each put, so that every item is measured again
	// within len/remeasureSteps puts.
	measure func(V) int64
	mhand   *clockItem[V] // the next item the measuring hand looks at; nil means ring
}

// remeasureSteps is how many items each put measures again: with 15,000 parsed
// files held, each is measured again every 470 puts (fetches), at the cost of 32
// MemSize calls per fetch.
const remeasureSteps = 32

// clockTable is an open-addressing hash table with linear probing. A slot is empty
// (nil item: the end of a probe), holds an item, or holds the cache's tomb (an item
// removed; probes go past it). Items and tombs together fill at most half the slots,
// so that probes are short and always end; past that the writer builds a new table
// and publishes it, and lookups still reading the old one finish there (a value put
// meanwhile is one they may miss, as if they had run a moment earlier).
type clockTable[V any] struct {
	slots []clockSlot[V] // a power of two of them
	mask  uint64
}

// clockSlot holds an item and its key's hash, which a probe compares first so as not
// to read items of other keys. The hash is stored before the item: a lookup that
// sees an item then reads a hash at least as new (and may skip the item when a slot
// is reused under it, as if it ran a moment earlier).
type clockSlot[V any] struct {
	hash atomic.Uint64
	item atomic.Pointer[clockItem[V]]
}

// minClockSlots is the size of an empty cache's table.
const minClockSlots = 64

// clockItem is an item, linked into the ring of items in insertion order: no list
// element of its own (container/list's cost 48 bytes an item, a quarter of what the
// cache spent on one besides its value; issue 33, memory per cached origin).
type clockItem[V any] struct {
	hash       uint64
	v          V
	size       int64
	ref        atomic.Bool // used since the hand last passed
	next, prev *clockItem[V]
}

// clockItemBytes is what a clockCache spends on an item besides its value: the item
// (48 bytes with a pointer value) and its share of the table, whose 16-byte slots are
// between a quarter and a half full (32 to 64 bytes an item); TestRulesMemory checks
// the whole.
const clockItemBytes = 112

// newClockCache returns a cache bounded at maxBytes whose values are found by the key
// key gives each.
func newClockCache[V any](maxBytes int64, key func(V) string) *clockCache[V] {
	c := &clockCache[V]{max: maxBytes, seed: maphash.MakeSeed(), key: key, tomb: &clockItem[V]{}}
	c.tab.Store(newClockTable[V](minClockSlots))
	return c
}

func newClockTable[V any](n int) *clockTable[V] {
	return &clockTable[V]{slots: make([]clockSlot[V], n), mask: uint64(n - 1)}
}

func (c *clockCache[V]) hash(key string) uint64 { return maphash.String(c.seed, key) }

func (c *clockCache[V]) get(key string) (V, bool) {
	if it := c.find(c.tab.Load(), key, c.hash(key)); it != nil {
		c.use(it)
		return it.v, true
	}
	var zero V
	return zero, false
}

// use marks it as used since the hand last passed.
func (c *clockCache[V]) use(it *clockItem[V]) {
	if !it.ref.Load() { // a read of a shared line is cheap; a write on every hit is not
		it.ref.Store(true)
	}
}

// find returns the item of key (whose hash is h) in t, or nil.
func (c *clockCache[V]) find(t *clockTable[V], key string, h uint64) *clockItem[V] {
	for i, n := h&t.mask, 0; n < len(t.slots); i, n = (i+1)&t.mask, n+1 {
		sl := &t.slots[i]
		it := sl.item.Load()
		if it == nil {
			return nil
		}
		if sl.hash.Load() == h && it != c.tomb && c.key(it.v) == key {
			return it
		}
	}
	return nil
}

// put stores v under its key; a value larger than the whole bound is not kept.
func (c *clockCache[V]) put(v V, size int64) {
	key := c.key(v)
	c.mu.Lock()
	defer c.mu.Unlock()
	h := c.hash(key)
	if it := c.find(c.tab.Load(), key, h); it != nil { // read under c.mu, which every writer holds
		c.remove(it)
	}
	if size > c.max {
		return
	}
	if c.measure != nil {
		for range min(remeasureSteps, c.n) {
			if c.mhand == nil {
				c.mhand = c.ring
			}
			c.remeasure(c.mhand)
			c.mhand = c.mhand.next
		}
	}
	for c.used+size > c.max && c.n > 0 {
		it := c.hand
		if it == nil {
			it = c.ring
		}
		if c.measure != nil {
			c.remeasure(it)
		}
		if it.ref.Load() {
			it.ref.Store(false)
			c.hand = it.next
			continue
		}
		c.remove(it)
	}
	it := &clockItem[V]{hash: h, v: v, size: size}
	c.link(it)
	c.insert(it)
	c.used += size
	c.n++
}

// link puts it in the ring behind the hand, so that it is looked at last; c.mu is held.
func (c *clockCache[V]) link(it *clockItem[V]) {
	if c.ring == nil {
		it.next, it.prev, c.ring = it, it, it
		return
	}
	at := c.hand
	if at == nil {
		at = c.ring // before the oldest: the newest
	}
	it.next, it.prev = at, at.prev
	at.prev.next, at.prev = it, it
}

// insert puts it in the table, in a new one when items and tombs would fill more
// than half of it; c.mu is held and the key is not in the table.
func (c *clockCache[V]) insert(it *clockItem[V]) {
	t := c.tab.Load()
	if 2*(c.n+c.tombs+1) > len(t.slots) {
		t = c.rebuild(t)
	}
	for i := it.hash & t.mask; ; i = (i + 1) & t.mask {
		sl := &t.slots[i]
		if cur := sl.item.Load(); cur == nil || cur == c.tomb {
			if cur == c.tomb {
				c.tombs--
			}
			sl.hash.Store(it.hash)
			sl.item.Store(it)
			return
		}
	}
}

// rebuild publishes a table holding the items of t without its tombs, sized for
// the items to fill a quarter of it (or less, never below minClockSlots); c.mu is
// held.
func (c *clockCache[V]) rebuild(t *clockTable[V]) *clockTable[V] {
	n := minClockSlots
	for n < 4*(c.n+1) {
		n *= 2
	}
	nt := newClockTable[V](n)
	for i := range t.slots {
		it := t.slots[i].item.Load()
		if it == nil || it == c.tomb {
			continue
		}
		for j := it.hash & nt.mask; ; j = (j + 1) & nt.mask {
			if nt.slots[j].item.Load() == nil {
				nt.slots[j].hash.Store(it.hash)
				nt.slots[j].item.Store(it)
				break
			}
		}
	}
	c.tombs = 0
	c.tab.Store(nt)
	return nt
}

// remeasure brings it's size up to date; c.mu is held.
func (c *clockCache[V]) remeasure(it *clockItem[V]) {
	size := c.measure(it.v)
	c.used += size - it.size
	it.size = size
}

// remove drops it; c.mu is held.
func (c *clockCache[V]) remove(it *clockItem[V]) {
	next := it.next
	if next == it { // the last item
		next, c.ring = nil, nil
	} else {
		it.prev.next, next.prev = next, it.prev
		if c.ring == it {
			c.ring = next
		}
	}
	if c.hand == it {
		c.hand = next
	}
	if c.mhand == it {
		c.mhand = next
	}
	it.next, it.prev = nil, nil
	t := c.tab.Load()
	for i := it.hash & t.mask; ; i = (i + 1) & t.mask {
		if t.slots[i].item.Load() == it {
			t.slots[i].item.Store(c.tomb)
			c.tombs++
			break
		}
	}
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
