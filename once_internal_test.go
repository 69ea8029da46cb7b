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

// TestPassRules checks CheckOnce's first comparison of rule lines with the path
// against cannotMatch, which compares byte by byte: when passRules passes over a line,
// cannotMatch must say that its value cannot match. Values and paths are drawn from
// bytes that matter to both: '/', letters, the bytes that are not plain, and the
// index.htm pages of allow lines.
func TestPassRules(t *testing.T) {
	parts := []string{"/", "a", "b", "*", "$", "%", "#", " ", "\t", "\x00", "\xc3\xa9", "!", "/index.htm", "l", "\r"}
	rng := rand.New(rand.NewPCG(3, 4))
	word := func(n int) string {
		var sb strings.Builder
		for range n {
			sb.WriteString(parts[rng.IntN(len(parts))])
		}
		return sb.String()
	}
	passed := 0
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
		last := rng.IntN(4) == 0
		if last {
			s = key + value // the body's last line, without an LF
		}
		p, slash := splitPath("https://h" + path)
		rd := onceReader{s: s}
		rd.pv.set(p, slash, true)
		next, lines, _ := rd.passRules(0, 0)
		if lines == 0 {
			if next != 0 {
				t.Fatalf("line %q, path %q: no line passed over, but the next starts at %d", s, path, next)
			}
			continue
		}
		passed++
		// The value is the line's text up to its first LF: the line passed over is the first.
		line := s
		if k := strings.IndexByte(s, '\n'); k >= 0 {
			line = s[:k]
		}
		if lines != 1 || next != len(line)+1 {
			t.Fatalf("line %q, path %q: passed over %d lines up to %d, want 1 up to %d", s, path, lines, next, len(line)+1)
		}
		if !cannotMatch(trimLeft(line[len(key)-1:]), allow, rd.pv) {
			t.Fatalf("line %q, path %q: passed over, but cannotMatch says it may match", line, path)
		}
	}
	if passed < 10_000 {
		t.Fatalf("only %d of the lines were passed over: the test draws too few", passed)
	}
}

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
