package fetch

import (
	"fmt"
	"sync"
	"testing"
)

// kv is a value for the tests' caches, which carries its key.
type kv struct {
	k string
	v int
}

func kvKey(e kv) string { return e.k }

// TestClockCache: the bound holds, replaced keys are counted once, values used since the
// hand last passed survive an eviction that drops unused ones, and a value larger
// than the bound is not kept.
func TestClockCache(t *testing.T) {
	c := newClockCache(100, kvKey)
	for i := range 10 {
		c.put(kv{fmt.Sprint(i), i}, 10)
	}
	c.put(kv{"3", 33}, 10) // replaced, not added
	if c.len() != 10 || c.used != 100 {
		t.Fatalf("len %d used %d; want 10 and 100", c.len(), c.used)
	}
	for _, k := range []string{"0", "1", "2"} {
		if _, ok := c.get(k); !ok {
			t.Fatalf("get(%s) missed", k)
		}
	}
	c.put(kv{"new", -1}, 25) // three unused values must go
	if c.used > 100 {
		t.Errorf("used %d; want at most 100", c.used)
	}
	for _, k := range []string{"0", "1", "2", "new"} {
		if _, ok := c.get(k); !ok {
			t.Errorf("%s was dropped; want kept (recently used or new)", k)
		}
	}
	if e, ok := c.get("3"); ok && e.v != 33 {
		t.Errorf("get(3) = %d; want the replacement 33", e.v)
	}
	dropped := 0
	for i := 3; i < 10; i++ {
		if _, ok := c.get(fmt.Sprint(i)); !ok {
			dropped++
		}
	}
	if dropped != 3 {
		t.Errorf("%d unused values dropped; want 3 (25 bytes over the bound)", dropped)
	}
	c.put(kv{"huge", 0}, 101)
	if _, ok := c.get("huge"); ok {
		t.Error("a value larger than the bound was kept")
	}
}

// TestClockCacheConcurrent: lookups and inserts at once keep the bound (run with
// -race).
func TestClockCacheConcurrent(t *testing.T) {
	c := newClockCache(1000, kvKey)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 2000 {
				k := fmt.Sprint((i * (g + 1)) % 300)
				if _, ok := c.get(k); !ok {
					c.put(kv{k, i}, 7)
				}
			}
		})
	}
	wg.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	slots := c.tab.Load().slots
	for i := range slots {
		if it := slots[i].item.Load(); it != nil && it != c.tomb {
			n++
		}
	}
	ring := 0 // items in the ring, each linked both ways
	for it := c.ring; it != nil && ring <= c.n; {
		if it.next.prev != it {
			t.Fatalf("item %q: its next's previous is %q", it.v.k, it.next.prev.v.k)
		}
		if ring++; it.next == c.ring {
			break
		}
		it = it.next
	}
	if c.used > 1000 || n != c.n || ring != c.n || int64(c.n)*7 != c.used {
		t.Errorf("used %d, %d items in the table, %d in the ring, n %d; want them consistent within 1000 bytes", c.used, n, ring, c.n)
	}
}

// TestClockCacheRemeasure: values that grow after they are put (a parsed file
// building parts on first use) are counted at their new size within a few puts,
// which evict to keep the bound.
func TestClockCacheRemeasure(t *testing.T) {
	sizes := map[int]int64{}
	c := newClockCache(1000, func(p *int) string { return fmt.Sprint(*p) })
	c.measure = func(v *int) int64 { return sizes[*v] }
	for i := range 100 {
		sizes[i] = 10
		c.put(&i, 10)
	}
	for i := range 100 {
		sizes[i] = 20 // every value doubled after it was put
	}
	for i := 100; i < 100+100/remeasureSteps+1; i++ { // enough puts for the measuring hand to pass every item
		sizes[i] = 20
		c.put(&i, 20)
	}
	n, used := c.stats()
	if used > 1000 || int(used) != 20*n {
		t.Errorf("%d items counted %d bytes; want each at its new size (20) and the bound of 1000 kept", n, used)
	}
}

// TestClockCacheCollision: get finds a key past an item of another key with the same
// hash.
func TestClockCacheCollision(t *testing.T) {
	// An item of another key with the hash of "0", in the slot "0" probes first: put
	// as put would, before "0" is.
	c := newClockCache(1000, kvKey)
	c.mu.Lock()
	it := &clockItem[kv]{hash: c.hash("0"), v: kv{"collides", -7}, size: 10}
	c.link(it)
	c.insert(it)
	c.used += 10
	c.n++
	c.mu.Unlock()
	c.put(kv{"0", 7}, 10)
	if e, ok := c.get("0"); !ok || e.v != 7 {
		t.Errorf("get(0) = %d, %v; want 7 (past the item with the same hash)", e.v, ok)
	}
}
