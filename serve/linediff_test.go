package serve

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// lcsLen is the length of a longest common subsequence of a and b, by the textbook
// dynamic programme: the slow, obviously correct reference for lineDiff.
func lcsLen(a, b []string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// kept returns the lines not marked.
func kept(lines []string, marked []bool) []string {
	var out []string
	for i, l := range lines {
		if !marked[i] {
			out = append(out, l)
		}
	}
	return out
}

// checkDiff: the unmarked lines of both sides are the same sequence (so the marks are
// an edit script) and the marks are as few as a longest common subsequence allows.
func checkDiff(t *testing.T, a, b []string) {
	t.Helper()
	del, add := lineDiff(a, b)
	ka, kb := kept(a, del), kept(b, add)
	if !slices.Equal(ka, kb) {
		t.Fatalf("a=%q b=%q: kept lines differ: %q vs %q", a, b, ka, kb)
	}
	if l := lcsLen(a, b); len(ka) != l {
		t.Fatalf("a=%q b=%q: kept %d lines, a longest common subsequence has %d", a, b, len(ka), l)
	}
}

func TestLineDiff(t *testing.T) {
	split := func(s string) []string {
		if s == "" {
			return nil
		}
		return strings.Split(s, "|")
	}
	tests := []struct {
		name, a, b string
		del, add   []int // marked line indexes
	}{
		{"same", "a|b|c", "a|b|c", nil, nil},
		{"empty to some", "", "a|b", nil, []int{0, 1}},
		{"some to empty", "a|b", "", []int{0, 1}, nil},
		{"line changed", "User-agent: *|Disallow: /a|Allow: /b", "User-agent: *|Disallow: /c|Allow: /b", []int{1}, []int{1}},
		{"line inserted", "a|b|c", "a|x|b|c", nil, []int{1}},
		{"line removed", "a|b|c", "a|c", []int{1}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			del, add := lineDiff(split(tt.a), split(tt.b))
			if got := marked(del); !slices.Equal(got, tt.del) {
				t.Errorf("deleted %v, want %v", got, tt.del)
			}
			if got := marked(add); !slices.Equal(got, tt.add) {
				t.Errorf("added %v, want %v", got, tt.add)
			}
		})
	}
	t.Run("random against the reference", func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		words := []string{"a", "b", "c", "d"}
		for range 2000 {
			a := make([]string, r.IntN(12))
			b := make([]string, r.IntN(12))
			for i := range a {
				a[i] = words[r.IntN(len(words))]
			}
			for i := range b {
				b[i] = words[r.IntN(len(words))]
			}
			checkDiff(t, a, b)
		}
	})
	t.Run("past the edit bound", func(t *testing.T) {
		// Two files with nothing in common: every line is marked either way.
		var a, b []string
		for i := range maxDiffEdits {
			a = append(a, "Disallow: /a"+strings.Repeat("x", i))
			b = append(b, "Disallow: /b"+strings.Repeat("x", i))
		}
		del, add := lineDiff(a, b)
		if len(marked(del)) != len(a) || len(marked(add)) != len(b) {
			t.Errorf("marked %d and %d lines, want all %d and %d", len(marked(del)), len(marked(add)), len(a), len(b))
		}
	})
}

func marked(m []bool) []int {
	var out []int
	for i, v := range m {
		if v {
			out = append(out, i)
		}
	}
	return out
}
