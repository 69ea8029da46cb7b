package accesslog

import (
	"slices"
	"strings"
	"time"
)

// Sample is a value first seen at a time: an example URL, a client address.
type Sample struct {
	Time  time.Time `json:"time"`
	Value string    `json:"value"`
}

// firstK keeps the k distinct values first seen, each at the earliest time it was
// seen, ties broken by value. What it keeps depends only on the set of (value, time)
// added, never on their order: so a report of several files, merged from reports of
// each, keeps the same samples as one run over all of them.
type firstK struct {
	k     int
	items []Sample // at most k, unordered
}

func less(a, b Sample) bool {
	if c := a.Time.Compare(b.Time); c != 0 {
		return c < 0
	}
	return a.Value < b.Value
}

func (f *firstK) add(s Sample) {
	for i := range f.items {
		if f.items[i].Value == s.Value {
			if less(s, f.items[i]) {
				f.items[i] = s
			}
			return
		}
	}
	if len(f.items) < f.k {
		f.items = append(f.items, s)
		return
	}
	worst := 0
	for i := range f.items {
		if less(f.items[worst], f.items[i]) {
			worst = i
		}
	}
	if less(s, f.items[worst]) {
		f.items[worst] = s
	}
}

// admits reports whether add(s) could change f: a cheap test before building s.
func (f *firstK) admits(t time.Time) bool {
	if len(f.items) < f.k {
		return true
	}
	for _, it := range f.items {
		if !it.Time.Before(t) {
			return true
		}
	}
	return false
}

// sorted returns the samples, earliest first.
func (f *firstK) sorted() []Sample {
	out := slices.Clone(f.items)
	slices.SortFunc(out, func(a, b Sample) int {
		if c := a.Time.Compare(b.Time); c != 0 {
			return c
		}
		return strings.Compare(a.Value, b.Value)
	})
	return out
}
