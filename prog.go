package robots

// The rules of a parsed file are kept in one string, r.prog, as rule sets laid out
// for decisions. A decision on a file nobody has looked at lately is bound by memory
// reads that miss the cache, so everything it reads sits together: a set's header,
// then its rules, each followed by its pattern. Walking a bucket reads memory in
// order, which the processor fetches ahead.
//
// A set at offset so:
//
//	so:       nk, u16: the number of buckets
//	so+2:     the buckets' keys, nk bytes, ascending (the byte after a path's leading '/')
//	bounds:   nk+1 u32 offsets in prog: bucket j is [bounds[j], bounds[j+1]); the set ends at bounds[nk]
//	recs:     the generic records (rules that can match any path), up to bounds[0], then the buckets
//
// A record is a rule: n (u16, the pattern's length), flags (u8: the shape in bits 0–1,
// flagAllow), line (u32), for wildcard patterns only need (u64, needMask), then the n
// bytes of the pattern.
// Integers are little-endian. Within each part of a set the records keep the file's
// order: a decision takes the best match of the path's bucket and of the generic part
// (sorting them instead, so that the first match would decide, costs more at parse
// time than it saves, since most decisions match no rule and read every record anyway).
// In the legacy dialects a set has no buckets and the first match decides.
// progPad is the number of zero bytes that end prog, so that a decision can read the
// first eight bytes of any pattern as one word.
const progPad = 8

const (
	recHeader = 7 // without need: recStart gives where the pattern starts
	flagAllow = 1 << 2
)

// The loads below slice first so that one bounds check covers every byte; the
// compiler then turns the bytes into a single load.

func u16(s string, i int) int {
	b := s[i : i+2]
	return int(b[0]) | int(b[1])<<8
}

func u32(s string, i int) uint32 {
	b := s[i : i+4]
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

func u64(s string, i int) uint64 {
	b := s[i : i+8]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// u64pad is u64(s, 0) for strings shorter than eight bytes too, padded with zeros.
func u64pad(s string) uint64 {
	if len(s) >= 8 {
		return u64(s, 0)
	}
	var w uint64
	for i := len(s) - 1; i >= 0; i-- {
		w = w<<8 | uint64(s[i])
	}
	return w
}

func appendU16(b []byte, v int) []byte {
	return append(b, byte(v), byte(v>>8))
}

func putU32(b []byte, i int, v uint32) {
	_ = b[i+3]
	b[i], b[i+1], b[i+2], b[i+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}

// setLayout returns where the parts of the set at so start.
func setLayout(prog string, so int) (nk, keys, bounds, recs int) {
	nk = u16(prog, so)
	keys = so + 2
	bounds = keys + nk
	recs = bounds + 4*(nk+1)
	return
}

// setRecords returns the offsets of the first record of the set at so and of its end.
func setRecords(prog string, so int) (start, end int) {
	nk, _, bounds, recs := setLayout(prog, so)
	return recs, int(u32(prog, bounds+4*nk))
}

func recLen(prog string, at int) int     { return u16(prog, at) }
func recShape(prog string, at int) uint8 { return prog[at+2] & 3 }
func recAllow(prog string, at int) bool  { return prog[at+2]&flagAllow != 0 }
func recLine(prog string, at int) int32  { return int32(u32(prog, at+3)) }

// recNeed is the need of a wildcard record.
func recNeed(prog string, at int) byteSet { return byteSet(u64(prog, at+recHeader)) }

// recStart returns where the pattern of the record at starts.
func recStart(prog string, at int) int {
	if recShape(prog, at) == shapeWild {
		return at + recHeader + 8
	}
	return at + recHeader
}

func recPat(prog string, at int) string {
	start := recStart(prog, at)
	return prog[start : start+recLen(prog, at)]
}

func recNext(prog string, at int) int { return recStart(prog, at) + recLen(prog, at) }

// appendSet appends the set of rules, which are ordered by bucket key (bucketer) when
// bucketed and in file order otherwise. pats holds the rules' patterns, indexed by
// rule.off.
func appendSet(out []byte, rules []rule, pats []string, bucketed bool) []byte {
	gen := len(rules)
	nk := 0
	if bucketed {
		gen = 0
		for gen < len(rules) && rules[gen].key < 0 {
			gen++
		}
		for i := gen; i < len(rules); i++ {
			if i == gen || rules[i].key != rules[i-1].key {
				nk++
			}
		}
	}
	out = appendU16(out, nk)
	for i := gen; i < len(rules); i++ {
		if i == gen || rules[i].key != rules[i-1].key {
			out = append(out, byte(rules[i].key))
		}
	}
	bounds := len(out)
	out = append(out, make([]byte, 4*(nk+1))...)
	j := 0
	for i := range rules {
		ru := &rules[i]
		if i >= gen && (i == gen || ru.key != rules[i-1].key) {
			putU32(out, bounds+4*j, uint32(len(out)))
			j++
		}
		flags := ru.shape
		if ru.allow {
			flags |= flagAllow
		}
		p := pats[ru.off]
		out = append(appendU16(out, len(p)), flags,
			byte(ru.line), byte(ru.line>>8), byte(ru.line>>16), byte(ru.line>>24))
		if ru.shape == shapeWild {
			out = append(out, byte(ru.need), byte(ru.need>>8), byte(ru.need>>16), byte(ru.need>>24),
				byte(ru.need>>32), byte(ru.need>>40), byte(ru.need>>48), byte(ru.need>>56))
		}
		out = append(out, p...)
	}
	putU32(out, bounds+4*j, uint32(len(out)))
	return out
}
