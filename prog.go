package robots

import (
	"encoding/binary"
	"slices"
)

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

// setWriter writes rule sets. Its arrays are indexed by bucket key + 1 (the generic
// rules, key -1, at 0); they are reset after each set, only where they were used.
type setWriter struct {
	count [129]int32 // rules per key
	size  [129]int32 // bytes of records per key, then where the next record of the key goes
	used  []int16    // the keys used, then in ascending order
}

func recSize(ru *rule) int {
	if ru.shape == shapeWild {
		return recHeader + 8 + int(ru.n)
	}
	return recHeader + int(ru.n)
}

// appendSet appends the set of rules, given in file order, to out. Bucketed, it puts
// each record straight into its bucket (a counting sort of the records, which keeps
// the file order within a bucket); otherwise everything is one generic part in file
// order. pats holds the rules' patterns, indexed by rule.off.
func (w *setWriter) appendSet(out []byte, rules []rule, pats []string, bucketed bool) []byte {
	used := w.used[:0]
	total := 0
	for i := range rules {
		ru := &rules[i]
		k := int16(-1)
		if bucketed {
			k = ru.key
		}
		if w.count[k+1] == 0 {
			used = append(used, k)
		}
		w.count[k+1]++
		sz := recSize(ru)
		w.size[k+1] += int32(sz)
		total += sz
	}
	for i := 1; i < len(used); i++ { // few keys: an insertion sort
		for j := i; j > 0 && used[j] < used[j-1]; j-- {
			used[j], used[j-1] = used[j-1], used[j]
		}
	}
	keys := used
	if len(keys) > 0 && keys[0] < 0 {
		keys = keys[1:]
	}
	nk := len(keys)
	base := len(out)
	hdr := 2 + nk + 4*(nk+1)
	out = slices.Grow(out, hdr+total)[:base+hdr+total]
	h := out[base : base+hdr]
	binary.LittleEndian.PutUint16(h, uint16(nk))
	for j, k := range keys {
		h[2+j] = byte(k)
	}
	bounds := h[2+nk:]
	pos := int32(base + hdr)
	// The generic part first, then the buckets in key order; size becomes each key's
	// cursor.
	pos += w.size[0]
	w.size[0] = pos - w.size[0]
	for j, k := range keys {
		binary.LittleEndian.PutUint32(bounds[4*j:], uint32(pos))
		sz := w.size[k+1]
		w.size[k+1] = pos
		pos += sz
	}
	binary.LittleEndian.PutUint32(bounds[4*nk:], uint32(pos))
	for i := range rules {
		ru := &rules[i]
		k := int16(-1)
		if bucketed {
			k = ru.key
		}
		at := w.size[k+1]
		sz := int32(recSize(ru))
		w.size[k+1] = at + sz
		rec := out[at : at+sz]
		flags := ru.shape
		if ru.allow {
			flags |= flagAllow
		}
		binary.LittleEndian.PutUint16(rec, uint16(ru.n))
		rec[2] = flags
		binary.LittleEndian.PutUint32(rec[3:], uint32(ru.line))
		p := rec[recHeader:]
		if ru.shape == shapeWild {
			binary.LittleEndian.PutUint64(p, uint64(ru.need))
			p = p[8:]
		}
		copy(p, pats[ru.off])
	}
	for _, k := range used {
		w.count[k+1], w.size[k+1] = 0, 0
	}
	w.size[0] = 0 // a cursor even when no generic rule used it
	w.used = used
	return out
}
