package robots

import (
	"math/rand/v2"
	"testing"
)

// TestFoldKey checks the word-at-a-time foldKey against its definition, byte by byte:
// the first eight bytes lower-cased (ASCII letters only), big-endian, zero-padded.
func TestFoldKey(t *testing.T) {
	want := func(s string) uint64 {
		var k uint64
		for i := range 8 {
			k <<= 8
			if i < len(s) {
				c := s[i]
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				k |= uint64(c)
			}
		}
		return k
	}
	check := func(s string) {
		t.Helper()
		if got, w := foldKey(s), want(s); got != w {
			t.Fatalf("foldKey(%q) = %#x, want %#x", s, got, w)
		}
	}
	for _, s := range []string{"", "a", "Googlebot", "GOOGLEBOT-IMAGE", "@[`{", "AZaz", "\x80\xc1\xdaZ", "\xff\xff\xff\xff\xff\xff\xff\xff"} {
		check(s)
	}
	// Every byte at every place, among letters of both cases.
	for c := range 256 {
		for at := range 8 {
			b := []byte("AbCdEfGh")
			b[at] = byte(c)
			check(string(b))
			check(string(b[:at+1]))
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 100_000 {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = byte(rng.UintN(256))
		}
		check(string(b))
	}
}
