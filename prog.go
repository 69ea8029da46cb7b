package robots

import (
	"encoding/binary"
	"iter"
	"math/bits"
	"slices"
)

// The rules of a parsed file are kept in one string, r.prog, as rule sets laid out
// for decisions: what a decision reads is small and sits together, since a decision on
// a file nobody has looked at lately waits on memory reads that miss the cache.
//
// A set at offset so:
//
//	so:       with no buckets (three sets in four), one zero byte; otherwise the buckets' keys (the
//	          byte after a path's leading '/', always ASCII and never NUL, which ends a line) as a
//	          set of 128 bits, two u64, with bit 0 set to mark this long form; nk, the number of
//	          buckets, is the number of the other bits set
//	so+16:    nk u32 offsets in prog: where the part of the j-th key in ascending order starts
//	recs:     the generic part (rules that can match any path), then the buckets' parts
//
// A part at po:
//
//	po:       np, u16: the number of entries of prefix and exact patterns; nw, u16: of wildcard
//	          patterns; when either is countMax or more, both are countMax and the counts follow
//	          as two u32 (the long form, for parts of more than 65,534 rules)
//	then:     np+nw entries of entrySize bytes, the prefix and exact ones first: w (u64), n (u16, the
//	          pattern's length), flags (u8: the shape in bits 0–1, flagAllow, the number of bytes of w
//	          to compare in bits 3–6)
//	then:     a text per entry, in the same order: line (u32), for a wildcard pattern its
//	          pairSet (u64), then the n bytes of the pattern
//
// w holds the first bytes of the pattern (at most eight, and never the final '$' of an exact
// pattern), zero-padded, or for a wildcard pattern its needMask. A decision reads the entries,
// eleven bytes a rule, and a pattern's text only when the first bytes match, which is rare.
// Integers are little-endian. Within each list of a part the rules keep the file's order;
// a decision takes the best match of the path's bucket and of the generic part, and on a
// full tie the first line.
// In the legacy dialects a set has no buckets, and its generic part lists every rule as a
// wildcard entry, in file order: there the first match decides.
// progPad is the number of zero bytes that end prog, so that a decision can read a
// part's header, or an entry and the byte after it, as whole words wherever they are.
const progPad = 8

const (
	countMax  = 0xFFFF // a count of a part's header at or above this is in the long form
	entrySize = 11
	flagAllow = 1 << 2
	cmpShift  = 3 // flags>>cmpShift is the number of bytes of w that are the pattern's
)

// lowBytes[c] keeps the c low bytes of a word.
var lowBytes = [16]uint64{0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffff, 0xffffffffffff,
	0xffffffffffffff, 0xffffffffffffffff}

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
	var b [8]byte
	copy(b[:], s)
	return binary.LittleEndian.Uint64(b[:])
}

// setHeader is the size of the header of a set of nk buckets.
func setHeader(nk int) int {
	if nk == 0 {
		return 1
	}
	return 16 + 4*nk
}

// setLayout returns where the parts of the set at so start. It reads the second word of
// the header only in the long form, which has one.
func setLayout(prog string, so int) (nk, bounds, recs int) {
	if lo := u64(prog, so); lo&1 != 0 {
		nk = bits.OnesCount64(lo) - 1 + bits.OnesCount64(u64(prog, so+8))
	}
	return nk, so + 16, so + setHeader(nk)
}

// part is a part of a set, read: prefix entries are [ent, wild), wildcard entries
// [wild, end), and the text of the entry at ent starts at end.
type part struct{ ent, wild, end int }

func partAt(prog string, po int) part {
	ent, np, nw := partCounts(prog, po, u64(prog, po))
	return part{ent, ent + entrySize*np, ent + entrySize*(np+nw)}
}

// partCounts reads the header of the part at po, whose first eight bytes are h: where
// its entries start and how many of each kind there are.
func partCounts(prog string, po int, h uint64) (ent, np, nw int) {
	np, nw = int(h&0xFFFF), int(h>>16&0xFFFF)
	if np == countMax || nw == countMax {
		return po + 12, int(u32(prog, po+4)), int(u32(prog, po+8))
	}
	return po + 4, np, nw
}

// partHeader is the size of the header of a part of np and nw entries.
func partHeader(np, nw int32) int32 {
	if np >= countMax || nw >= countMax {
		return 12
	}
	return 4
}

// entry is an entry of a part with the offset of its text.
type entry struct {
	n     int
	flags uint8
	text  int // line (u32), then the pattern
}

func entryAt(prog string, e, text int) entry {
	return entry{u16(prog, e+8), prog[e+10], text}
}

func (en entry) shape() uint8           { return en.flags & 3 }
func (en entry) allow() bool            { return en.flags&flagAllow != 0 }
func (en entry) line(prog string) int32 { return int32(u32(prog, en.text)) }

// patStart is where the pattern starts: after the line and, for a wildcard pattern,
// its pairs.
func (en entry) patStart() int {
	if en.shape() == shapeWild {
		return en.text + 4 + 8
	}
	return en.text + 4
}

func (en entry) next() int { return en.patStart() + en.n }
func (en entry) pat(prog string) string {
	start := en.patStart()
	return prog[start : start+en.n]
}

// pairs is the pairSet of a wildcard pattern.
func (en entry) pairs(prog string) byteSet { return byteSet(u64(prog, en.text+4)) }

// textSize is the size of the text of a rule's entry.
func textSize(ru *rule) int32 {
	if ru.shape == shapeWild {
		return int32(4 + 8 + ru.n)
	}
	return int32(4 + ru.n)
}

// entries yields the entries of the part in order.
func (pt part) entries(prog string) iter.Seq[entry] {
	return func(yield func(entry) bool) {
		t := pt.end
		for e := pt.ent; e < pt.end; e += entrySize {
			en := entryAt(prog, e, t)
			if !yield(en) {
				return
			}
			t = en.next()
		}
	}
}

// setParts returns the offsets of the parts of the set at so: the generic part, then
// the buckets'. Only cold paths call it.
func setParts(prog string, so int) []int {
	nk, bounds, recs := setLayout(prog, so)
	parts := []int{recs}
	for j := range nk {
		parts = append(parts, int(u32(prog, bounds+4*j)))
	}
	return parts
}

// setWriter writes rule sets. Its arrays are indexed by bucket key + 1 (the generic
// rules, key -1, at 0); they are reset after each set, only where they were used.
type setWriter struct {
	np, nw       [129]int32 // prefix and wildcard rules per key
	ptext, wtext [129]int32 // bytes of their texts per key
	cur          [129]cursor
	used         []int16 // the keys used, then in ascending order
}

// cursor is where the next entries and texts of a part go.
type cursor struct{ ent, wild, text, wtext int32 }

func isWildEntry(ru *rule, bucketed bool) bool { return !bucketed || ru.shape == shapeWild }

// appendSet appends the set of rules, given in file order, to out. Bucketed, it puts
// each rule straight into its bucket's part (a counting sort, which keeps the file
// order within each list of a part); otherwise every rule goes to the generic part's
// wildcard list, in file order. pats holds the rules' patterns, indexed by rule.off.
func (w *setWriter) appendSet(out []byte, rules []rule, pats []string, bucketed bool) []byte {
	used := w.used[:0]
	total := 0
	for i := range rules {
		ru := &rules[i]
		k := int16(-1)
		if bucketed {
			k = ru.key
		}
		if w.np[k+1] == 0 && w.nw[k+1] == 0 {
			used = append(used, k)
		}
		if isWildEntry(ru, bucketed) {
			w.nw[k+1]++
			w.wtext[k+1] += textSize(ru)
		} else {
			w.np[k+1]++
			w.ptext[k+1] += textSize(ru)
		}
		total += entrySize + int(textSize(ru))
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
	hdr := setHeader(nk)
	total += hdr + int(partHeader(w.np[0], w.nw[0]))
	for _, k := range keys {
		total += int(partHeader(w.np[k+1], w.nw[k+1]))
	}
	out = slices.Grow(out, total)[:base+total]
	h := out[base : base+hdr]
	h[0] = 0
	var bounds []byte
	if nk > 0 {
		keySet := [2]uint64{1, 0} // bit 0 marks the long form
		for _, k := range keys {
			keySet[k>>6] |= 1 << (k & 63)
		}
		binary.LittleEndian.PutUint64(h, keySet[0])
		binary.LittleEndian.PutUint64(h[8:], keySet[1])
		bounds = h[16:]
	}
	pos := int32(base + hdr)
	// The generic part first (there is always one, maybe empty), then the buckets in
	// key order.
	pos = w.startPart(out, -1, pos)
	for j, k := range keys {
		binary.LittleEndian.PutUint32(bounds[4*j:], uint32(pos))
		pos = w.startPart(out, k, pos)
	}
	for i := range rules {
		ru := &rules[i]
		k := int16(-1)
		if bucketed {
			k = ru.key
		}
		c := &w.cur[k+1]
		var e, t int32
		if isWildEntry(ru, bucketed) {
			e, t = c.wild, c.wtext
			c.wild += entrySize
			c.wtext += textSize(ru)
		} else {
			e, t = c.ent, c.text
			c.ent += entrySize
			c.text += textSize(ru)
		}
		binary.LittleEndian.PutUint64(out[e:], uint64(ru.word))
		binary.LittleEndian.PutUint16(out[e+8:], uint16(ru.n))
		out[e+10] = ru.flags
		binary.LittleEndian.PutUint32(out[t:], uint32(ru.line))
		if ru.shape == shapeWild {
			binary.LittleEndian.PutUint64(out[t+4:], uint64(ru.pairs))
			t += 8
		}
		copy(out[t+4:], pats[ru.off])
	}
	for _, k := range used {
		w.np[k+1], w.nw[k+1], w.ptext[k+1], w.wtext[k+1] = 0, 0, 0, 0
	}
	w.used = used
	return out
}

// startPart writes the header of the part of key k at pos, sets its cursors and returns
// where the next part starts.
func (w *setWriter) startPart(out []byte, k int16, pos int32) int32 {
	np, nw := w.np[k+1], w.nw[k+1]
	ent := pos + partHeader(np, nw)
	if ent-pos == 4 {
		binary.LittleEndian.PutUint16(out[pos:], uint16(np))
		binary.LittleEndian.PutUint16(out[pos+2:], uint16(nw))
	} else {
		binary.LittleEndian.PutUint32(out[pos:], countMax|countMax<<16)
		binary.LittleEndian.PutUint32(out[pos+4:], uint32(np))
		binary.LittleEndian.PutUint32(out[pos+8:], uint32(nw))
	}
	text := ent + entrySize*(np+nw)
	// The texts of the wildcard entries follow those of the prefix entries.
	w.cur[k+1] = cursor{ent: ent, wild: ent + entrySize*np, text: text, wtext: text + w.ptext[k+1]}
	return text + w.ptext[k+1] + w.wtext[k+1]
}
