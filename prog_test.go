package robots

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"testing"
)

// checkProg checks the layout invariants listed in prog.go on every rule set of r, reading
// the sets through the layout's own names but checking each field against what it must
// hold: the pattern it was compiled from, its shape, key and sets.
func checkProg(r *Robots) error {
	bucketed := !r.dialect.legacy()
	var progs []string
	if bucketed {
		for i := range r.tokens {
			progs = append(progs, r.setProg(&r.tokens[i].ref))
		}
		if r.star.groupN > 0 {
			progs = append(progs, r.setProg(&r.star))
		}
	} else {
		for gi := range r.groups {
			progs = append(progs, string(r.compileSet([]int32{int32(gi)}, false)))
		}
	}
	for i, prog := range slices.Concat(progs, setProgs(r)) { // without their indexes, and with them
		if len(prog) < progHead+progPad || strings.Trim(prog[len(prog)-progPad:], "\x00") != "" {
			return fmt.Errorf("set %d: prog does not end with %d zero bytes", i, progPad)
		}
		if n := progLength(u32(prog, progLen)); n != len(prog) {
			return fmt.Errorf("set %d: prog of %d bytes says %d", i, len(prog), n)
		}
		end, err := checkSet(r, prog, progHead, bucketed)
		if err != nil {
			return fmt.Errorf("set %d: %w", i, err)
		}
		setEnd := len(prog) - progPad
		if ix := progIndex(prog); ix != 0 {
			if setEnd, err = ix, checkIndex(prog, ix); err != nil {
				return fmt.Errorf("set %d: %w", i, err)
			}
		}
		if end != setEnd {
			return fmt.Errorf("set %d: its last part ends at %d, the index or the padding starts at %d", i, end, setEnd)
		}
	}
	return nil
}

// checkSet checks the set at so and returns where its last part ends.
func checkSet(r *Robots, prog string, so int, bucketed bool) (int, error) {
	nk, bounds, recs := setLayout(prog, so)
	keys := []int16{-1} // the generic part's
	if prog[so+setKeys]&setLongForm != 0 {
		if !bucketed {
			return 0, fmt.Errorf("a legacy set has buckets")
		}
		lo, hi := u64(prog, so+setKeys)&^setLongForm, u64(prog, so+setKeysHi)
		if nk != bits.OnesCount64(lo)+bits.OnesCount64(hi) || nk == 0 {
			return 0, fmt.Errorf("nk = %d for key bits %x %x", nk, lo, hi)
		}
		if n := int(prog[so+setLowKeys] & setLowCount); n != bits.OnesCount64(lo) {
			return 0, fmt.Errorf("%d keys below 64, the header says %d", bits.OnesCount64(lo), n)
		}
		ent, np, nw := partCounts(prog, recs, u64(prog, recs))
		if empty := prog[so+setLowKeys]&setNoGeneric != 0; empty != (np+nw == 0) || ent < recs {
			return 0, fmt.Errorf("generic part of %d+%d entries, the header says empty: %v", np, nw, empty)
		}
		for k := range int16(setKeyLimit) {
			if [2]uint64{lo, hi}[k>>6]&(1<<(k&63)) != 0 {
				keys = append(keys, k)
			}
		}
	} else if prog[so] != 0 {
		return 0, fmt.Errorf("short header byte %#x, want 0", prog[so])
	}
	if recs != so+setHeader(nk) {
		return 0, fmt.Errorf("generic part at %d, want %d", recs, so+setHeader(nk))
	}
	po := recs
	for j, k := range keys {
		if j > 0 {
			if b := int(u32(prog, bounds+boundSize*(j-1))); b != po {
				return 0, fmt.Errorf("bucket of key %d starts at %d, want %d (right after the part before)", k, b, po)
			}
		}
		next, err := checkPart(r, prog, po, k, bucketed)
		if err != nil {
			return 0, fmt.Errorf("part of key %d at %d: %w", k, po, err)
		}
		po = next
	}
	return po, nil
}

// checkPart checks the part at po, of bucket key k (-1 for the generic part), and returns
// where its last text ends.
func checkPart(r *Robots, prog string, po int, k int16, bucketed bool) (int, error) {
	h := u64(prog, po)
	ent, np, nw := partCounts(prog, po, h)
	short := np < countMax && nw < countMax
	if short != (ent == po+partShortHeader) {
		return 0, fmt.Errorf("counts %d, %d in a header of %d bytes", np, nw, ent-po)
	}
	if !bucketed && np != 0 {
		return 0, fmt.Errorf("%d literal entries in a legacy set", np)
	}
	pt := partAt(prog, po)
	t := pt.end
	i, lastLine := 0, [2]int32{}
	for en := range pt.entries(prog) {
		e := pt.ent + entrySize*i
		wildList := e >= pt.wild
		if en.text != t {
			return 0, fmt.Errorf("entry %d: text at %d, want %d", i, en.text, t)
		}
		pat := en.pat(prog, r.body)
		line := en.line(prog)
		if line < lastLine[b2i(wildList)] {
			return 0, fmt.Errorf("entry %d: line %d after line %d: the file's order is lost", i, line, lastLine[b2i(wildList)])
		}
		lastLine[b2i(wildList)] = line
		// The value as written, in the body, compiles to the pattern (or, for the
		// directory Google derives from an index.htm page, to the page's pattern).
		src, n := en.src(prog)
		if src+n > len(r.body) {
			return 0, fmt.Errorf("entry %d: value at %d+%d, past the body's %d bytes", i, src, n, len(r.body))
		}
		// A pattern that is the value as written is read from the body, not copied.
		if asWritten := r.body[src : src+n]; (en.flags&flagBodyPat != 0) != (pat == asWritten) {
			return 0, fmt.Errorf("entry %d: pattern %q, value %q, flagBodyPat %v", i, pat, asWritten, en.flags&flagBodyPat != 0)
		}
		if p := r.dialect.compilePattern(r.body[src : src+n]).s; p != pat {
			if dir, ok := indexDir(p); !ok || dir.s != pat || !en.allow() {
				return 0, fmt.Errorf("entry %d: value %q compiles to %q, the entry's pattern is %q", i, r.body[src:src+n], p, pat)
			}
		}
		if bucketed {
			if want := readPattern(pat).shape(); en.shape() != want || wildList != (want == shapeWild) {
				return 0, fmt.Errorf("entry %d (%q): shape %d in the %v list", i, pat, en.shape(), wildList)
			}
			if readPattern(pat).bucketKey() != k {
				return 0, fmt.Errorf("entry %d (%q): in the part of key %d, its key is %d", i, pat, k, readPattern(pat).bucketKey())
			}
		}
		w := byteSet(u64(prog, e+entryWord))
		if en.shape() == shapeWild {
			need, pairs := readPattern(pat).sets()
			if w != need || en.pairs(prog) != pairs {
				return 0, fmt.Errorf("entry %d (%q): sets %x %x, want %x %x", i, pat, w, en.pairs(prog), need, pairs)
			}
		} else {
			lit := strings.TrimSuffix(pat, "$")
			if en.shape() == shapePrefix {
				lit = pat
			}
			lit = lit[:min(len(lit), wordSize)]
			if int(en.flags>>cmpShift&15) != len(lit) || w != byteSet(u64pad(lit)) {
				return 0, fmt.Errorf("entry %d (%q): word %x of %d bytes, want %q", i, pat, w, en.flags>>cmpShift&15, lit)
			}
		}
		t = en.next()
		i++
	}
	if i != np+nw {
		return 0, fmt.Errorf("%d entries, header says %d + %d", i, np, nw)
	}
	return t, nil
}

// TestProgLayout checks the layout invariants of prog.go on files written to reach both
// forms of a set's header and on the conformance files, under every dialect (bucketed
// in Google and RFC 9309, not in the legacy ones). TestSlowReferenceCorpus checks them
// on the corpus, and TestLongPart on parts in the long form.
func TestProgLayout(t *testing.T) {
	bodies := map[string]string{
		"empty":          "",
		"no rules":       "user-agent: a\n",
		"one bucket":     "user-agent: *\ndisallow: /a\n",
		"all kinds":      "user-agent: a\nuser-agent: *\ndisallow: /\nallow: /$\ndisallow: /x*y$\nallow: /\x7fz\ndisallow: *q\nallow: /x/index.html\n",
		"high key":       "user-agent: *\ndisallow: /~\ndisallow: /\x7f\ndisallow: /A\n",
		"merged":         "user-agent: a\ndisallow: /p\nuser-agent: b\ndisallow: /q\nuser-agent: A\nallow: /pp\n",
		"escaped":        "user-agent: *\ndisallow: /\u00e9*\ndisallow: /%2a\n",
		"decoded escape": "user-agent: *\ndisallow: /%00\nallow: /%41\n",
	}
	for _, file := range conformanceFiles {
		for i, c := range readJSONL[conformanceCase](t, file) {
			bodies[fmt.Sprintf("%s case %d", file, i)] = string(c.body(t))
		}
	}
	for name, body := range bodies {
		for _, d := range Dialects() {
			r := Parse([]byte(body), WithDialect(d), WithMaxBytes(len(body)))
			if err := checkProg(r); err != nil {
				t.Errorf("%s, %s: %v", name, d, err)
			}
		}
	}
}

// checkIndex checks the index at ix of prog: one record for each entry of the set,
// pointing at it, and pieces that are nodes of the index, each ending a piece.
func checkIndex(prog string, ix int) error {
	v := viewIndex(prog, ix)
	nodes := int(u32(prog, ix+ixNodes))
	entries := map[[2]int]bool{}
	so := progHead
	nk, bounds, recs := setLayout(prog, so)
	parts := []int{recs}
	for j := range nk {
		parts = append(parts, int(u32(prog, bounds+boundSize*j)))
	}
	for _, po := range parts {
		pt := partAt(prog, po)
		e := pt.ent
		for en := range pt.entries(prog) {
			entries[[2]int{e, en.text}] = true
			e += entrySize
		}
	}
	seen := 0
	for node := range nodes {
		nd := v.node(uint32(node))
		lo, n := int(u32(prog, nd+nodeRecs)), int(u32(prog, nd+nodeNRecs))
		for r := v.recs + recSize*lo; n > 0; r, n = r+recSize, n-1 {
			k := [2]int{int(u32(prog, r+recEntry)), int(u32(prog, r+recText))}
			if !entries[k] {
				return fmt.Errorf("index: record of node %d names no entry (%v)", node, k)
			}
			seen++
			for i := range int(u32(prog, r+recN)) {
				p := u32(prog, v.pieces+4*(int(u32(prog, r+recPieces))+i))
				if int(p) >= nodes || u16(prog, v.node(p)+nodeLen) == 0 {
					return fmt.Errorf("index: record of node %d has piece %d, which ends no piece", node, p)
				}
			}
		}
	}
	if seen != len(entries) {
		return fmt.Errorf("index: %d records for %d entries", seen, len(entries))
	}
	return nil
}

// setLayout returns where the parts of the set at so start. It reads the second word of
// the header only in the long form, which has one.
func setLayout(prog string, so int) (nk, bounds, recs int) {
	if lo := u64(prog, so+setKeys); lo&setLongForm != 0 {
		nk = bits.OnesCount64(lo&^setLongForm) + bits.OnesCount64(u64(prog, so+setKeysHi))
		return nk, so + setBounds, int(u32(prog, so+setGeneric))
	}
	return 0, so + setBounds, so + setShortHeader
}
