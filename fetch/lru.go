package fetch

import (
	"container/list"
	"sync"
)

// lru is a map bounded by the summed sizes of its values: past the bound, the least
// recently used values are dropped. It is safe for concurrent use.
type lru[V any] struct {
	max int64

	mu    sync.Mutex
	used  int64
	order *list.List // of *lruItem[V], most recently used first
	items map[string]*list.Element
}

type lruItem[V any] struct {
	key  string
	v    V
	size int64
}

func newLRU[V any](maxBytes int64) *lru[V] {
	return &lru[V]{max: maxBytes, order: list.New(), items: map[string]*list.Element{}}
}

func (c *lru[V]) get(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*lruItem[V]).v, true
}

// put stores v under key; a value larger than the whole bound is not kept.
func (c *lru[V]) put(key string, v V, size int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok {
		c.used -= el.Value.(*lruItem[V]).size
		c.order.Remove(el)
		delete(c.items, key)
	}
	if size > c.max {
		return
	}
	for c.used+size > c.max {
		el := c.order.Back()
		old := el.Value.(*lruItem[V])
		c.used -= old.size
		c.order.Remove(el)
		delete(c.items, old.key)
	}
	c.items[key] = c.order.PushFront(&lruItem[V]{key: key, v: v, size: size})
	c.used += size
}

func (c *lru[V]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}
