package verify

import (
	"math/rand/v2"
	"net/netip"
	"testing"
)

// TestRangeSetAgainstScan checks rangeSet.lookup against the slow reference, a
// scan of every prefix, on random nested and disjoint prefixes of both families.
func TestRangeSetAgainstScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 1))
	addr := func(v6 bool) netip.Addr {
		if v6 {
			var b [16]byte
			b[0], b[1] = 0x20, 0x01 // keep them close together, so that prefixes nest
			b[2] = byte(rng.IntN(4))
			for i := 3; i < 16; i++ {
				b[i] = byte(rng.IntN(256))
			}
			return netip.AddrFrom16(b)
		}
		return netip.AddrFrom4([4]byte{66, 249, byte(rng.IntN(4)), byte(rng.IntN(256))})
	}
	for round := range 200 {
		var ps []netip.Prefix
		for range 1 + rng.IntN(40) {
			v6 := rng.IntN(2) == 0
			bits := 16 + rng.IntN(17)
			if v6 {
				bits = 16 + rng.IntN(113)
			}
			ps = append(ps, netip.PrefixFrom(addr(v6), bits).Masked())
		}
		s := newRangeSet(ps)
		for range 200 {
			a := addr(rng.IntN(2) == 0)
			want := false
			for _, p := range ps {
				if p.Contains(a) {
					want = true
				}
			}
			p, got := s.lookup(a)
			if got != want || got && !p.Contains(a) {
				t.Fatalf("round %d: lookup(%s) = %s, %v; a scan of %v says %v", round, a, p, got, ps, want)
			}
		}
		// Every prefix's first and last address are in it.
		for _, p := range ps {
			for _, a := range []netip.Addr{p.Addr(), lastAddr(p)} {
				if _, ok := s.lookup(a); !ok {
					t.Fatalf("round %d: %s of %s not found", round, a, p)
				}
			}
		}
	}
}

func FuzzParseRanges(f *testing.F) {
	f.Add([]byte(`{"prefixes": [{"ipv4Prefix": "66.249.64.0/27"}, {"ipv6Prefix": "2001:4860:4801:10::/64"}]}`))
	f.Add([]byte("203.0.113.0/24\n# c\n198.51.100.7 # one\n::ffff:1.2.3.0/120\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ps, err := parseRanges(b)
		if err != nil {
			return
		}
		s := newRangeSet(ps)
		for _, p := range ps {
			if _, ok := s.lookup(p.Masked().Addr()); !ok {
				t.Fatalf("%s: its first address not found", p)
			}
		}
	})
}
