package robots

import (
	"encoding/binary"
	"iter"
	"math/bits"
	"sync/atomic"
	"unsafe"
)

// A rule set is kept in a string, its prog, laid out for decisions: what a decision
// reads is small and sits together, since a decision on a file nobody has looked at
// lately waits on memory reads that miss the cache. Parse compiles no set: a set is
// compiled from the body on the first decision that needs it (Robots.compileSet) and
// published through a lazyProg, which holds a pointer to the prog's first byte; the
// prog starts with its own length, so that a decision finds a set in one memory read.
// Integers are little-endian. The constants below name every offset and width; the
// code reads the layout only through them.
//
// A prog:
//
//	+0  u32  its length in bytes, progPad included                 progLen
//	+4       the set                                               progHead
//	then     progPad zero bytes
//
// A set (at offset so in prog):
//
//	short form, no buckets (three sets in four):
//	  +0  u8       0                                           setShortHeader bytes in all
//	long form, nk buckets:
//	  +0  2 × u64  the buckets' keys as a set of 128 bits       setKeys, setKeysHi
//	               (bit 0 set: it marks this form)
//	  +16 u32      where the generic part starts in prog        setGeneric
//	  +20 u8       the number of keys below 64 (setLowCount),   setLowKeys
//	               and setNoGeneric when the generic part is empty
//	  +21 nk × u32 where the part of the j-th key, in ascending setBounds, boundSize
//	               order, starts in prog
//	then           the generic part (rules that can match any path), then the buckets' parts
//
// A key is the byte after a path's leading '/', always ASCII and never NUL (which ends a
// line, so bit 0 is free to mark the form); nk is the number of key bits set. The bucket
// of key c is the j-th, j being the number of keys below c: setLowKeys and one count of
// bits in the word of c (bits.OnesCount64) give it, and setGeneric finds the generic part
// without counting all the keys. Most sets with buckets have an empty generic part, which
// a decision then need not read (setNoGeneric).
//
// A part (at offset po):
//
//	short form (both counts below countMax):
//	  +0  u16      np, the number of prefix and exact entries    partNP
//	  +2  u16      nw, the number of wildcard entries            partNW
//	  +4           the entries                                   partShortHeader
//	long form (either count countMax or more, for parts of more than 65,534 rules):
//	  +0  2 × u16  countMax, countMax: the mark of this form
//	  +4  u32      np                                            partLongNP
//	  +8  u32      nw                                            partLongNW
//	  +12          the entries                                   partLongHeader
//	then  np+nw entries of entrySize bytes, the prefix and exact ones first
//	then  a text per entry, in the same order; the first starts where the entries end
//
// An entry:
//
//	+0  u64  w: the pattern's first bytes, or for a wildcard   entryWord
//	         pattern its need (pattern.need)
//	+8  u16  n, the pattern's length (its priority)             entryLen
//	+10 u8   flags: the shape in bits 0–1 (shapeMask),          entryFlags
//	         flagAllow, the number of bytes of w that are the
//	         pattern's in bits 3–6 (cmpShift), flagBodyPat
//	+11      the next entry                                     entrySize
//
// A text:
//
//	+0  u32  the rule's line                                    textLine
//	+4  u32  where the rule's value as written starts in the    textSrc
//	         body (Robots.body), which a Rule reports
//	+8  u64  for a wildcard pattern only: its pairSet            textPairs
//	then, unless flagBodyPat:                                   textHead (textHeadWild)
//	+8  u16  (+16 for a wildcard pattern) the value's length
//	+10      (+18 for a wildcard pattern) the n bytes of the    textPat, textPatWild
//	         pattern
//
// flagBodyPat says that the pattern is the value as written: its length is n, and it is
// read from the body. Most rules are so; their texts held half of a set's bytes, copies
// of the body's (issue 33, memory per cached origin).
//
// w holds the first bytes of the pattern (at most eight, and never the final '$' of an exact
// pattern), zero-padded. A decision reads the entries, eleven bytes a rule, and a pattern's
// text only when the first bytes match, which is rare. Within each list of a part the rules
// keep the file's order; a decision takes the best match of the path's bucket and of the
// generic part (entry.beats, by the rule of package internal/precedence), and on a full
// tie the first line.
// In the legacy dialects a set has no buckets, and its generic part lists every rule as a
// wildcard entry, in file order: there the first match decides.
//
// Invariants, and the tests that guard them:
//   - A prog's first word is its length; it ends with progPad zero bytes, so that a part's
//     header, or an entry and the byte after it, can be read as whole words wherever they
//     are (TestProgLayout).
//   - A text's value as written, in the body, compiles to its pattern, or for the
//     directory Google derives from an index.htm page, to that page's; flagBodyPat is
//     set exactly when the pattern is the value as written (TestProgLayout).
//   - A published prog never changes: decisions read it without a lock (lazyProg;
//     TestConcurrentFirstDecisions under -race).
//   - A key is ASCII and not NUL, so the key set fits 128 bits and bit 0 is free
//     (TestProgLayout; pattern.bucketKey).
//   - A long header's setGeneric is where its generic part starts, its setLowKeys counts
//     the keys below 64 (at most 63, so setLowCount holds it) and has setNoGeneric
//     exactly when the generic part is empty (TestProgLayout).
//   - A pattern's length fits entryLen's u16: a line is at most MaxLineBytes and escaping
//     at most triples it (the assertion below; TestLongPatternOrder).
//   - A count in the short form is below countMax (TestLongPart writes both forms).
//   - A set's parts follow its header, the generic part first and then the buckets' in key
//     order, each starting where the one before ends (TestProgLayout).
//   - Texts follow the entries in entry order, and each list keeps the file's order
//     (TestProgLayout; the legacy dialects' first match in TestLegacy1996FirstMatch).
//   - A wildcard entry's w is the need of its pattern and its textPairs the pairs of
//     its literal pieces; a literal entry's w and cmp count are its first bytes
//     (TestProgLayout; FuzzCompilePattern).

// Progs.
const (
	progLen  = 0 // u32: the prog's length
	progHead = 4 // the set starts here
	progPad  = 8 // the number of zero bytes that end a prog
)

// Rule sets.
const (
	setShortHeader = 1  // the size of a set's header without buckets
	setKeys        = 0  // u64: keys 0–63, bit 0 marking the long form
	setKeysHi      = 8  // u64: keys 64–127
	setGeneric     = 16 // u32: the offset of the generic part
	setLowKeys     = 20 // u8: the number of keys 1–63 (setLowCount), and setNoGeneric
	setLowCount    = 0x7F
	setNoGeneric   = 0x80 // the bit of setLowKeys set when the generic part is empty
	setBounds      = 21   // nk u32 offsets of the buckets' parts
	boundSize      = 4
	setLongForm    = 1   // the bit of the first key word that marks the long form
	setKeyLimit    = 128 // keys are below this: two words of bits
)

// Parts.
const (
	partNP          = 0      // u16: prefix and exact entries, short form
	partNW          = 2      // u16: wildcard entries, short form
	partShortHeader = 4      // the entries start here in the short form
	partLongNP      = 4      // u32: prefix and exact entries, long form
	partLongNW      = 8      // u32: wildcard entries, long form
	partLongHeader  = 12     // the entries start here in the long form
	countMax        = 0xFFFF // a short count at or above this means the long form; also the mask of a short count
)

// Entries.
const (
	entryWord  = 0 // u64
	entryLen   = 8 // u16
	entryFlags = 10
	entrySize  = 11
	// entryRead is what the entry loops read of an entry: its bytes and the next one's
	// first (progPad makes that byte exist after the last entry).
	entryRead = entrySize + 1
	shapeMask = 3 // flags&shapeMask is the shape
	flagAllow = 1 << 2
	cmpShift  = 3 // flags>>cmpShift&15 is the number of bytes of w that are the pattern's
	// bodyPatBit is the bit of flags that marks a pattern written as it is in the body:
	// its text holds no copy (flagBodyPat).
	bodyPatBit  = 7
	flagBodyPat = 1 << bodyPatBit
	wordSize    = 8 // bytes of w
)

// Texts.
const (
	textLine     = 0 // u32
	textSrc      = 4 // u32
	textHead     = 8 // the text of a prefix or exact entry with flagBodyPat ends here
	textPairs    = 8 // u64, wildcard patterns only
	pairsSize    = 8
	textHeadWild = textHead + pairsSize      // and that of a wildcard entry
	srcLenSize   = 2                         // the u16 before a pattern: its value's length
	textPat      = textHead + srcLenSize     // the pattern of a prefix or exact entry
	textPatWild  = textHeadWild + srcLenSize // the pattern of a wildcard entry
)

// A value's length must fit its u16 (srcLenSize): a value is part of a line.
const _ uint16 = MaxLineBytes

// A pattern's length must fit entryLen's u16: a line is at most MaxLineBytes, and
// escaping turns each byte into at most three. The conversion fails to compile otherwise.
const _ uint16 = 3 * MaxLineBytes

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
		return setShortHeader
	}
	return setBounds + boundSize*nk
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
	np, nw = shortCounts(h)
	if np == countMax || nw == countMax {
		return po + partLongHeader, int(u32(prog, po+partLongNP)), int(u32(prog, po+partLongNW))
	}
	return po + partShortHeader, np, nw
}

// shortCounts reads the counts of a short part header from its first eight bytes, h.
func shortCounts(h uint64) (np, nw int) {
	return int(h >> (8 * partNP) & countMax), int(h >> (8 * partNW) & countMax)
}

// partHeader is the size of the header of a part of np and nw entries.
func partHeader(np, nw int32) int32 {
	if np >= countMax || nw >= countMax {
		return partLongHeader
	}
	return partShortHeader
}

// entry is an entry of a part with the offset of its text.
type entry struct {
	n     int
	flags uint8
	text  int // where its text starts
}

func entryAt(prog string, e, text int) entry {
	return entry{u16(prog, e+entryLen), prog[e+entryFlags], text}
}

func (en entry) shape() uint8           { return en.flags & shapeMask }
func (en entry) allow() bool            { return en.flags&flagAllow != 0 }
func (en entry) line(prog string) int32 { return int32(u32(prog, en.text+textLine)) }

// src returns where the rule's value as written is in the body, and its length.
func (en entry) src(prog string) (int, int) {
	if en.flags&flagBodyPat != 0 {
		return int(u32(prog, en.text+textSrc)), en.n
	}
	return int(u32(prog, en.text+textSrc)), u16(prog, en.patStart()-srcLenSize)
}

// patStart is where the pattern starts, unless flagBodyPat: after the line, the value's
// start, for a wildcard pattern its pairs, and the value's length.
func (en entry) patStart() int {
	if en.shape() == shapeWild {
		return en.text + textPatWild
	}
	return en.text + textPat
}

func (en entry) next() int {
	if en.flags&flagBodyPat != 0 {
		return en.patStart() - srcLenSize
	}
	return en.patStart() + en.n
}

// pat returns the entry's pattern: from the text, or when it is the value as written,
// from body, the body of the file the set was compiled from.
func (en entry) pat(prog, body string) string {
	if en.flags&flagBodyPat != 0 {
		src := int(u32(prog, en.text+textSrc))
		return body[src : src+en.n]
	}
	start := en.patStart()
	return prog[start : start+en.n]
}

// pairs is the pairSet of a wildcard pattern.
func (en entry) pairs(prog string) byteSet { return byteSet(u64(prog, en.text+textPairs)) }

// textSize is the size of the text of a rule's entry.
func textSize(ru *rule) int32 {
	n := int32(srcLenSize + ru.n)
	if ru.flags&flagBodyPat != 0 {
		n = 0
	}
	if ru.shape == shapeWild {
		return textHeadWild + n
	}
	return textHead + n
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

// lazyProg is a rule set compiled on first use. Decisions on one Robots may run at once:
// the first to need the set compiles it and publishes it with a compare-and-swap; a
// goroutine that loses the race drops its own copy (the same bytes) and uses the one
// published. A published prog never changes.
type lazyProg struct{ p atomic.Pointer[byte] }

// load returns the prog, or "" when it is not compiled yet.
func (lp *lazyProg) load() string {
	p := lp.p.Load()
	if p == nil {
		return ""
	}
	return unsafe.String(p, progLength(u32(unsafe.String(p, progHead), progLen)))
}

// swap publishes prog, the set old with its index, in place of old, unless another
// goroutine did first, and returns the set published. A decision that read old still
// reads it: old never changes either.
func (lp *lazyProg) swap(old string, prog []byte) string {
	lp.p.CompareAndSwap(unsafe.StringData(old), &prog[0])
	return lp.load()
}

// store publishes prog, which starts with its length, unless another goroutine
// published its set first, and returns the set published.
func (lp *lazyProg) store(prog []byte) string {
	lp.p.CompareAndSwap(nil, &prog[0])
	return lp.load()
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

// A set is written in two passes over its rules, in file order: plan counts the rules
// and text bytes of each part and returns the set's size, then write puts each rule
// straight into its bucket's part (a counting sort, which keeps the file order within
// each list of a part). Bucketed, a rule goes to its key's part; otherwise every rule goes
// to the generic part's wildcard list, in file order. The caller allocates the set's
// bytes between the two, so that they are written once, where they stay.

// plan counts the rules of each part of the set and returns the set's size.
func (w *setWriter) plan(rules []rule, bucketed bool) int {
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
		n := textSize(ru)
		if isWildEntry(ru, bucketed) {
			w.nw[k+1]++
			w.wtext[k+1] += n
		} else {
			w.np[k+1]++
			w.ptext[k+1] += n
		}
		total += entrySize + int(n)
	}
	for i := 1; i < len(used); i++ { // few keys: an insertion sort
		for j := i; j > 0 && used[j] < used[j-1]; j-- {
			used[j], used[j-1] = used[j-1], used[j]
		}
	}
	w.used = used
	total += setHeader(len(w.keys())) + int(partHeader(w.np[0], w.nw[0]))
	for _, k := range w.keys() {
		total += int(partHeader(w.np[k+1], w.nw[k+1]))
	}
	return total
}

// keys returns the bucket keys of the set planned, in ascending order.
func (w *setWriter) keys() []int16 {
	if keys := w.used; len(keys) > 0 && keys[0] < 0 {
		return keys[1:]
	}
	return w.used
}

// write writes the set planned at out[base:], which holds exactly its size, and makes
// the writer ready for the next set. pats holds the rules' patterns, indexed by rule.off.
func (w *setWriter) write(out []byte, base int, rules []rule, pats []string, bucketed bool) {
	keys := w.keys()
	nk := len(keys)
	hdr := setHeader(nk)
	h := out[base : base+hdr]
	h[0] = 0
	var bounds []byte
	if nk > 0 {
		keySet := [2]uint64{setLongForm, 0}
		for _, k := range keys {
			keySet[k>>6] |= 1 << (k & 63)
		}
		binary.LittleEndian.PutUint64(h[setKeys:], keySet[0])
		binary.LittleEndian.PutUint64(h[setKeysHi:], keySet[1])
		binary.LittleEndian.PutUint32(h[setGeneric:], uint32(base+hdr))
		h[setLowKeys] = uint8(bits.OnesCount64(keySet[0] &^ setLongForm))
		if w.np[0] == 0 && w.nw[0] == 0 {
			h[setLowKeys] |= setNoGeneric
		}
		bounds = h[setBounds:]
	}
	pos := int32(base + hdr)
	// The generic part first (there is always one, maybe empty), then the buckets in
	// key order.
	pos = w.startPart(out, -1, pos)
	for j, k := range keys {
		binary.LittleEndian.PutUint32(bounds[boundSize*j:], uint32(pos))
		pos = w.startPart(out, k, pos)
	}
	for i := range rules {
		ru := &rules[i]
		k := int16(-1)
		if bucketed {
			k = ru.key
		}
		c := &w.cur[k+1]
		n := textSize(ru)
		var e, t int32
		if isWildEntry(ru, bucketed) {
			e, t = c.wild, c.wtext
			c.wild += entrySize
			c.wtext += n
		} else {
			e, t = c.ent, c.text
			c.ent += entrySize
			c.text += n
		}
		// Sliced once each, so that the writes below need no more bounds checks.
		en, tx := out[e:e+entrySize], out[t:t+n]
		ru.e, ru.t = uint32(e), uint32(t)
		binary.LittleEndian.PutUint64(en[entryWord:], uint64(ru.word))
		binary.LittleEndian.PutUint16(en[entryLen:], uint16(ru.n))
		en[entryFlags] = ru.flags
		binary.LittleEndian.PutUint32(tx[textLine:], uint32(ru.line))
		binary.LittleEndian.PutUint32(tx[textSrc:], ru.src)
		tail := tx[textHead:]
		if ru.shape == shapeWild {
			binary.LittleEndian.PutUint64(tx[textPairs:], uint64(ru.pairs))
			tail = tx[textHeadWild:]
		}
		if ru.flags&flagBodyPat == 0 {
			binary.LittleEndian.PutUint16(tail, ru.srcLen)
			copy(tail[srcLenSize:], pats[ru.off])
		}
	}
	for _, k := range w.used {
		w.np[k+1], w.nw[k+1], w.ptext[k+1], w.wtext[k+1] = 0, 0, 0, 0
	}
}

// startPart writes the header of the part of key k at pos, sets its cursors and returns
// where the next part starts.
func (w *setWriter) startPart(out []byte, k int16, pos int32) int32 {
	np, nw := w.np[k+1], w.nw[k+1]
	ent := pos + partHeader(np, nw)
	if ent-pos == partShortHeader {
		binary.LittleEndian.PutUint16(out[pos+partNP:], uint16(np))
		binary.LittleEndian.PutUint16(out[pos+partNW:], uint16(nw))
	} else {
		binary.LittleEndian.PutUint16(out[pos+partNP:], countMax)
		binary.LittleEndian.PutUint16(out[pos+partNW:], countMax)
		binary.LittleEndian.PutUint32(out[pos+partLongNP:], uint32(np))
		binary.LittleEndian.PutUint32(out[pos+partLongNW:], uint32(nw))
	}
	text := ent + entrySize*(np+nw)
	// The texts of the wildcard entries follow those of the prefix entries.
	w.cur[k+1] = cursor{ent: ent, wild: ent + entrySize*np, text: text, wtext: text + w.ptext[k+1]}
	return text + w.ptext[k+1] + w.wtext[k+1]
}
