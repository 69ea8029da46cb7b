package robots

import (
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestNotPlain checks the word-at-a-time test of CheckOnce's first comparison against
// plainByte, byte by byte: the first byte it flags must be the first that is not plain,
// or one of '!' and '"', which it counts as not plain on purpose.
func TestNotPlain(t *testing.T) {
	flagged := func(c byte) bool { return !plainByte(c) || c == '!' || c == '"' }
	check := func(b [8]byte) {
		t.Helper()
		want := 8
		for i, c := range b {
			if flagged(c) {
				want = i
				break
			}
		}
		x := u64(string(b[:]), 0)
		if got := bits.TrailingZeros64(notPlain(x)) / 8; got != want {
			t.Fatalf("%q: first byte flagged at %d, want %d", b, got, want)
		}
	}
	// Every byte at every place, after plain bytes and before each kind of byte.
	for c := range 256 {
		for at := range 8 {
			for _, after := range []byte{'a', 0, 0xff, '*', 0x7f, ' '} {
				b := [8]byte{'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a'}
				b[at] = byte(c)
				for k := at + 1; k < 8; k++ {
					b[k] = after
				}
				check(b)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200_000 {
		var b [8]byte
		for i := range b {
			b[i] = byte(rng.UintN(256))
		}
		check(b)
	}
}

// TestDiffers checks CheckOnce's first comparison against cannotMatch, which compares
// byte by byte: when differs says a value cannot match the path, so must cannotMatch.
// Values and paths are drawn from bytes that matter to both: '/', letters, the bytes
// that are not plain, and the index.htm pages of allow lines.
func TestDiffers(t *testing.T) {
	parts := []string{"/", "a", "b", "*", "$", "%", "#", " ", "\t", "\x00", "\xc3\xa9", "!", "/index.htm", "l"}
	rng := rand.New(rand.NewPCG(3, 4))
	word := func(n int) string {
		var sb strings.Builder
		for range n {
			sb.WriteString(parts[rng.IntN(len(parts))])
		}
		return sb.String()
	}
	differs := 0
	for range 300_000 {
		value, path := "/"+word(rng.IntN(6)), "/"+word(rng.IntN(6))
		if rng.IntN(8) == 0 {
			path = path[1:]
		}
		key, allow := "Disallow: ", false
		if rng.IntN(2) == 0 {
			key, allow = "allow:\t", true
		}
		s := key + value + "\nUser-agent: x\n"
		if rng.IntN(4) == 0 {
			s = key + value // the body's last line, without an LF
		}
		p, slash := splitPath("https://h" + path)
		rd := onceReader{s: s, pv: newPathView(p, slash)}
		v := len(key)
		end := v + len(value)
		if end-0 >= 9 && rd.differs(0, end) {
			differs++
			if !cannotMatch(s[v:end], allow, rd.pv) {
				t.Fatalf("line %q, path %q: differs, but cannotMatch says it may match", s[:end], path)
			}
		}
	}
	if differs < 10_000 {
		t.Fatalf("only %d of the values differed from the path: the test draws too few", differs)
	}
}
