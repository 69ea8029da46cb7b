package robots

import (
	"cmp"
	"encoding/binary"
	"math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/gorobots/robots/internal/precedence"
)

// The index of a large rule set: an automaton (Aho–Corasick) over the literal pieces of
// its patterns, the runs of bytes between their '*'s, which finds in one pass over a path
// every piece the path holds and where each first ends. A rule is a candidate only when
// the piece it is keyed by (its longest) is in the path; it is checked only when every
// piece it has is, and mostly from where they first end, without the matcher. So a
// decision costs the path's length plus the rules that can match it, rather than the
// rules times the path: a file of 28,442 rules "/*xxxxx" cost 61.5 ms per decision on a
// 1,000-byte path before (BenchmarkAdversarial, BENCHMARKS.md). What remains unbounded
// is a pattern whose pieces all occur in the path but not in its order: the matcher then
// reads the path for it.
//
// A set is compiled without an index, and most never get one: the entry loops
// (matchParts) read eleven bytes a rule and, for the paths and files crawlers meet, cost
// less than a pass over the path. The first decision whose path and set would cost the
// entry loops more than a pass of the automaton (partPays, which matchPart asks of each
// part it is about to read; indexPays for Usage and the legacy dialects) compiles the set again with
// its index and publishes it in place of the first (lazyProg.swap); from then on each
// decision takes whichever costs less for its path.
//
// An index follows the set in its prog, and the prog's length word has progIndexed set:
//
//	+0            the index (below), at offset ix
//	then  u32     ix                                                    (progPad bytes before the end)
//
// The index (offsets relative to ix):
//
//	+0  u32       the number of nodes                                   ixNodes
//	+4  u32       where the edges' bytes start                          ixEdgeBytes
//	+8  u32       where the edges' targets start (u32 each)             ixEdgeTo
//	+12 u32       where the rule records start                          ixRecs
//	+16 u32       where the records' pieces start (u32 node ids)        ixPieces
//	+20 256 × u32 the root's transitions                                ixRoot
//	then          the nodes, nodeSize bytes each, node 0 the root
//
// A node: its edges (sorted by byte), the piece it ends (its length, 0 when it ends
// none), its failure link, its output link (the nearest node along the failure links
// that ends a piece), and the records of the rules keyed by its piece, best first (the
// root's are the rules with no piece, candidates for every path). A record: the rule's
// entry and text in the set, and its pieces, in pattern order.

// Indexes.
const (
	progIndexed = 1 << 31 // the bit of a prog's length word that marks an index

	ixNodes     = 0
	ixEdgeBytes = 4
	ixEdgeTo    = 8
	ixRecs      = 12
	ixPieces    = 16
	ixRoot      = 20
	ixHeader    = ixRoot + 4*256

	nodeEdges  = 0  // u32: the first edge
	nodeNEdges = 4  // u16: the number of edges
	nodeLen    = 6  // u16: the length of the piece the node ends, 0 when none
	nodeFail   = 8  // u32
	nodeOut    = 12 // u32: 0 when none
	nodeRecs   = 16 // u32: the first record keyed by the node
	nodeNRecs  = 20 // u32
	nodeSize   = 24

	recEntry  = 0  // u32: the rule's entry in the set
	recText   = 4  // u32: its text
	recPieces = 8  // u32: its first piece
	recN      = 12 // u32: its number of pieces
	recSize   = 16
)

// A piece's length fits nodeLen's u16: a pattern's length fits entryLen's.
const _ uint16 = 3 * MaxLineBytes

// indexGate is the size of the smallest prog whose index may pay (indexPays): one of 32
// rules, each of an entry and the shortest text (a pattern read from the body). Smaller sets cost the entry loops at
// most a few passes over the path.
const indexGate = 32 * (entrySize + textHead)

// progLength is the length of a prog, from its first word.
func progLength(w uint32) int { return int(w &^ progIndexed) }

// progIndex returns where the index of prog starts, or 0 when it has none.
func progIndex(prog string) int {
	if u32(prog, progLen)&progIndexed == 0 {
		return 0
	}
	return int(u32(prog, len(prog)-progPad-4))
}

type indexRec struct {
	key              uint32 // the node of its key piece, 0 when it has none
	e, t             uint32
	pieceLo, pieceHi uint32
	n                int // its priority: the pattern's length, allow, line
	allow            bool
	line             int32
}

// buildIndex returns the index of the set whose rules (their entries and texts placed
// by setWriter.write) and patterns are given. In the legacy dialects (first) the first
// rule in file order that matches decides; otherwise the best by precedence. It uses no
// map: the trie is built from the pieces sorted, so that each node's edges come in
// byte order, and a large set's index costs a sort of its pieces.
func buildIndex(rules []rule, pats []string, first bool) []byte {
	// The pieces of every rule, in order (ref: the rule's, then sorted by text).
	type piece struct {
		s   string
		ref int32 // its place in refs
	}
	var ps []piece
	recs := make([]indexRec, len(rules))
	for i := range rules {
		ru := &rules[i]
		recs[i] = indexRec{e: ru.e, t: ru.t, pieceLo: uint32(len(ps)), n: int(ru.n), allow: ru.flags&flagAllow != 0, line: ru.line}
		// The pieces of its pattern are the index's reading of it; the matcher's is the same (patternOf).
		patternOf(pats[ru.off], ru.shape).pieces(func(s string) { ps = append(ps, piece{s, int32(len(ps))}) })
		recs[i].pieceHi = uint32(len(ps))
	}
	refs := make([]uint32, len(ps)) // the node of each piece, in rule order
	byText := slices.Clone(ps)
	slices.SortFunc(byText, func(a, b piece) int { return strings.Compare(a.s, b.s) })
	// The trie, from the sorted pieces: each shares with the one before the nodes of
	// their common prefix. Edges are (parent, byte, child), made in byte order within
	// each parent.
	depth, ends := []uint32{0}, []bool{false}
	type edge struct {
		parent, child uint32
		c             byte
	}
	var edges []edge
	path := []uint32{0} // the nodes of the previous piece, by depth
	prev := ""
	for _, p := range byText {
		lcp := 0
		for lcp < len(prev) && lcp < len(p.s) && prev[lcp] == p.s[lcp] {
			lcp++
		}
		path = path[:lcp+1]
		for k := lcp; k < len(p.s); k++ {
			node := uint32(len(depth))
			depth, ends = append(depth, uint32(k+1)), append(ends, false)
			edges = append(edges, edge{path[k], node, p.s[k]})
			path = append(path, node)
		}
		node := path[len(p.s)]
		ends[node] = true
		refs[p.ref] = node
		prev = p.s
	}
	n := len(depth)
	// Edges grouped by parent (a counting sort keeps their byte order).
	edgeLo := make([]uint32, n+1)
	for _, e := range edges {
		edgeLo[e.parent+1]++
	}
	for i := 1; i <= n; i++ {
		edgeLo[i] += edgeLo[i-1]
	}
	eb, et := make([]byte, len(edges)), make([]uint32, len(edges))
	fill := slices.Clone(edgeLo[:n])
	for _, e := range edges {
		eb[fill[e.parent]], et[fill[e.parent]] = e.c, e.child
		fill[e.parent]++
	}
	child := func(node uint32, c byte) (uint32, bool) {
		bs := eb[edgeLo[node]:edgeLo[node+1]]
		if i, ok := slices.BinarySearch(bs, c); ok {
			return et[int(edgeLo[node])+i], true
		}
		return 0, false
	}
	for i := range recs {
		keyLen := 0
		for _, node := range refs[recs[i].pieceLo:recs[i].pieceHi] {
			if int(depth[node]) >= keyLen {
				recs[i].key, keyLen = node, int(depth[node])
			}
		}
	}
	// Records by key, best first: once one does not beat the decision's best, none
	// after it does.
	slices.SortStableFunc(recs, func(a, b indexRec) int {
		if c := cmp.Compare(a.key, b.key); c != 0 || first {
			return c // the rules' order is the file's
		}
		if c := precedence.Compare(b.n, b.allow, a.n, a.allow); c != 0 {
			return c
		}
		return cmp.Compare(a.line, b.line)
	})
	// Failure and output links, breadth first.
	fail, out := make([]uint32, n), make([]uint32, n)
	queue := make([]uint32, 0, n)
	queue = append(queue, 0)
	for qi := 0; qi < len(queue); qi++ {
		node := queue[qi]
		for k := edgeLo[node]; k < edgeLo[node+1]; k++ {
			c, next := eb[k], et[k]
			queue = append(queue, next)
			if node == 0 {
				continue
			}
			f := fail[node]
			for {
				if v, ok := child(f, c); ok {
					fail[next] = v
					break
				}
				if f == 0 {
					break
				}
				f = fail[f]
			}
			if fn := fail[next]; ends[fn] {
				out[next] = fn
			} else {
				out[next] = out[fn]
			}
		}
	}
	nodes := ixHeader
	edgeBytes := nodes + nodeSize*n
	edgeTo := edgeBytes + len(edges)
	recAt := edgeTo + 4*len(edges)
	pieceAt := recAt + recSize*len(recs)
	ix := make([]byte, pieceAt+4*len(refs))
	le := binary.LittleEndian
	le.PutUint32(ix[ixNodes:], uint32(n))
	le.PutUint32(ix[ixEdgeBytes:], uint32(edgeBytes))
	le.PutUint32(ix[ixEdgeTo:], uint32(edgeTo))
	le.PutUint32(ix[ixRecs:], uint32(recAt))
	le.PutUint32(ix[ixPieces:], uint32(pieceAt))
	copy(ix[edgeBytes:], eb)
	for i, t := range et {
		le.PutUint32(ix[edgeTo+4*i:], t)
	}
	for k := edgeLo[0]; k < edgeLo[1]; k++ {
		le.PutUint32(ix[ixRoot+4*int(eb[k]):], et[k])
	}
	ri := 0
	for node := range n {
		nd := ix[nodes+nodeSize*node:]
		le.PutUint32(nd[nodeEdges:], edgeLo[node])
		le.PutUint16(nd[nodeNEdges:], uint16(edgeLo[node+1]-edgeLo[node]))
		if ends[node] {
			le.PutUint16(nd[nodeLen:], uint16(depth[node]))
		}
		le.PutUint32(nd[nodeFail:], fail[node])
		le.PutUint32(nd[nodeOut:], out[node])
		lo := ri
		for ri < len(recs) && recs[ri].key == uint32(node) {
			ri++
		}
		le.PutUint32(nd[nodeRecs:], uint32(lo))
		le.PutUint32(nd[nodeNRecs:], uint32(ri-lo))
	}
	for i, rec := range recs {
		r := ix[recAt+recSize*i:]
		le.PutUint32(r[recEntry:], rec.e)
		le.PutUint32(r[recText:], rec.t)
		le.PutUint32(r[recPieces:], rec.pieceLo)
		le.PutUint32(r[recN:], rec.pieceHi-rec.pieceLo)
	}
	for i, p := range refs {
		le.PutUint32(ix[pieceAt+4*i:], p)
	}
	return ix
}

// withIndex returns prog, a prog without index, with the index ix added.
func withIndex(prog, ix []byte) []byte {
	set := prog[:len(prog)-progPad]
	out := make([]byte, len(set)+len(ix)+4+progPad)
	copy(out, set)
	copy(out[len(set):], ix)
	binary.LittleEndian.PutUint32(out[len(set)+len(ix):], uint32(len(set)))
	binary.LittleEndian.PutUint32(out[progLen:], uint32(len(out))|progIndexed)
	return out
}

// indexScratch is what a pass of the automaton marks: for each node seen, the epoch of
// the pass and where the node's piece first ends in the path, so that a pass need not
// clear what the one before marked; and the nodes seen that key records.
type indexScratch struct {
	epoch uint32
	seen  []uint64 // epoch<<32 | end
	keys  []uint32
}

var scratches = sync.Pool{New: func() any { return new(indexScratch) }}

// indexView reads the index at ix of prog.
type indexView struct {
	prog                                       string
	ix, nodes, edgeBytes, edgeTo, recs, pieces int
}

func viewIndex(prog string, ix int) indexView {
	return indexView{prog: prog, ix: ix, nodes: ix + ixHeader,
		edgeBytes: ix + int(u32(prog, ix+ixEdgeBytes)), edgeTo: ix + int(u32(prog, ix+ixEdgeTo)),
		recs: ix + int(u32(prog, ix+ixRecs)), pieces: ix + int(u32(prog, ix+ixPieces))}
}

func (v *indexView) node(n uint32) int { return v.nodes + nodeSize*int(n) }

// step returns the node after node on byte c.
func (v *indexView) step(node uint32, c byte) uint32 {
	prog := v.prog
	for node != 0 {
		nd := v.node(node)
		lo, ne := int(u32(prog, nd+nodeEdges)), u16(prog, nd+nodeNEdges)
		if ne > 0 {
			bs := prog[v.edgeBytes+lo : v.edgeBytes+lo+ne]
			if i := strings.IndexByte(bs, c); i >= 0 {
				return u32(prog, v.edgeTo+4*(lo+i))
			}
		}
		node = u32(prog, nd+nodeFail)
	}
	return u32(prog, v.ix+ixRoot+4*int(c))
}

// scan runs the automaton over s, whose first byte is at pos in the path, from node,
// marking in sc where each piece first ends; it returns the node it ends in.
func (v *indexView) scan(sc *indexScratch, node uint32, s string, pos int) uint32 {
	prog, ep := v.prog, uint64(sc.epoch)<<32
	for i := 0; i < len(s); i++ {
		node = v.step(node, s[i])
		for m := node; m != 0; {
			nd := v.node(m)
			if u16(prog, nd+nodeLen) != 0 {
				if sc.seen[m]>>32 == uint64(sc.epoch) {
					break // and so is every node after it
				}
				sc.seen[m] = ep | uint64(pos+i+1)
				if u32(prog, nd+nodeNRecs) != 0 {
					sc.keys = append(sc.keys, m)
				}
			}
			m = u32(prog, nd+nodeOut)
		}
	}
	return node
}

// end returns where the piece of node first ends in the path, or -1 when it is not in it.
func (sc *indexScratch) end(node uint32) int {
	if s := sc.seen[node]; s>>32 == uint64(sc.epoch) {
		return int(uint32(s))
	}
	return -1
}

// begin readies sc for a pass over an index of n nodes.
func (sc *indexScratch) begin(n int) {
	if len(sc.seen) < n {
		sc.seen = make([]uint64, n)
		sc.epoch = 0
	}
	sc.epoch++
	if sc.epoch == 0 { // wrapped round: clear the marks of old passes
		clear(sc.seen)
		sc.epoch = 1
	}
	sc.keys = sc.keys[:0]
}

// indexPays reports whether the index at ix answers for path p at less cost than the
// entry loops would: these read each entry of the path's bucket and of the generic part,
// and a wildcard entry that the byte sets pass reads the path; the index reads the path
// once, a few times slower a byte.
func indexPays(prog string, p *pathView, legacy bool) bool {
	np, nw := 0, 0
	for _, po := range setParts(prog, p) {
		if po != 0 {
			_, a, b := partCounts(prog, po, u64(prog, po))
			np, nw = np+a, nw+b
		}
	}
	if legacy {
		return 2*(np+nw) > 4*len(p.s)+indexRent
	}
	return partPays(np, nw, len(p.s))
}

// partIndexMin is the fewest entries a part must have for its set's index to cost less
// than its entries (partPays): matchPart compares it first, so that a decision on a small
// part pays one comparison.
const partIndexMin = 32

// partPays reports whether a pass of the index over a path of n bytes costs less than
// the entry loops over np literal and nw wildcard entries, by more than indexRent: each
// entry costs a word compared, a wildcard one that passes the byte sets a read of the
// path; a pass of the automaton a few times a byte.
func partPays(np, nw, n int) bool { return 2*np+nw*(8+n/8) > 4*n+indexRent }

// indexRent is what the entry loops must cost a decision beyond a pass of the automaton
// for a set to be given its index: an index takes about six times its set's memory
// (24 bytes a node, about a node a byte of the patterns' pieces, and a 1 KiB root), held
// as long as the file is. With 256, decisions on "/" gave 194 of the corpus's 19,480 files
// an index of 128 KB on average (1,275 bytes a file, more than their rule sets; 4,096 still
// 17 files, 8,192 two, of several MB); with 16,384 none, while the entry loops cost such a
// decision a few microseconds at most, and the adversarial files, of tens of thousands of
// rules, still get their index on every path (issue 33, memory per cached origin).
const indexRent = 16384

// setParts returns where the parts of the set in prog that may hold rules matching the
// path start: its generic part and the part of the path's bucket, 0 for none. matchParts
// finds them written out: through setParts a decision cost 42 instructions more (797.8
// to 840.0 a decision of the corpus, +5%; through a shared bucket function, too costly to
// inline, 824.5), by "cd bench && ./cachegrind.sh allowed" on 2026-11-28.
func setParts(prog string, p *pathView) (parts [2]int) {
	const so = progHead
	lo := u64(prog, so+setKeys)
	if lo&setLongForm == 0 {
		return [2]int{so + setShortHeader, 0}
	}
	hdr := prog[so : so+setBounds]
	low := hdr[setLowKeys]
	if c, ok := p.second(); ok && c < setKeyLimit {
		bit := uint64(1) << (c & 63)
		keys, j := lo&^setLongForm, 0
		if c >= 64 {
			keys, j = u64(hdr, setKeysHi), int(low&setLowCount)
		}
		if keys&bit != 0 {
			j += bits.OnesCount64(keys & (bit - 1))
			parts[1] = int(u32(prog, so+setBounds+boundSize*j))
		}
	}
	if low&setNoGeneric == 0 {
		parts[0] = int(u32(hdr, setGeneric))
	}
	return parts
}

// scanPath runs the path through the index: it returns a scratch from scratches that
// marks where each of the index's pieces ends in the path, which the caller puts back.
func (v *indexView) scanPath(p *pathView) *indexScratch {
	p.end()
	sc := scratches.Get().(*indexScratch)
	sc.begin(int(u32(v.prog, v.ix+ixNodes)))
	node, pos := uint32(0), 0
	if p.slash {
		node, pos = v.scan(sc, node, "/", 0), 1
	}
	v.scan(sc, node, p.s, pos)
	return sc
}

// matchIndex updates best with the rule of the set in prog that decides the path, as
// matchSet does, through the set's index at ix. In the legacy dialects (first) the
// first rule in file order that matches decides, and best must start as noMatch.
func matchIndex(prog string, ix int, p *pathView, best *entry, first bool) {
	v := viewIndex(prog, ix)
	sc := v.scanPath(p)
	v.offer(sc, 0, p, best, first) // the rules without a piece
	for _, k := range sc.keys {
		v.offer(sc, k, p, best, first)
	}
	scratches.Put(sc)
}

// eachIndexMatch calls visit with every rule of the set in prog, whose index is at ix,
// that matches the path: Robots.Usage's lines, where every longest match counts.
func eachIndexMatch(prog string, ix int, p *pathView, visit func(entry)) {
	v := viewIndex(prog, ix)
	sc := v.scanPath(p)
	for i := -1; i < len(sc.keys); i++ {
		node := uint32(0) // the rules without a piece first
		if i >= 0 {
			node = sc.keys[i]
		}
		nd := v.node(node)
		lo, n := int(u32(prog, nd+nodeRecs)), int(u32(prog, nd+nodeNRecs))
		for r := v.recs + recSize*lo; n > 0; r, n = r+recSize, n-1 {
			if v.allSeen(sc, r) {
				en := entryAt(prog, int(u32(prog, r+recEntry)), int(u32(prog, r+recText)))
				if v.verify(sc, r, en, p) {
					visit(en)
				}
			}
		}
	}
	scratches.Put(sc)
}

// offer offers the records keyed by node, best first, to best.
func (v *indexView) offer(sc *indexScratch, node uint32, p *pathView, best *entry, first bool) {
	prog := v.prog
	nd := v.node(node)
	lo, n := int(u32(prog, nd+nodeRecs)), int(u32(prog, nd+nodeNRecs))
	for r := v.recs + recSize*lo; n > 0; r, n = r+recSize, n-1 {
		if !v.allSeen(sc, r) { // before the entry and its text are read
			continue
		}
		en := entryAt(prog, int(u32(prog, r+recEntry)), int(u32(prog, r+recText)))
		if first {
			if best.n >= 0 && en.line(prog) >= best.line(prog) {
				return
			}
		} else if !en.beats(prog, best) {
			return
		}
		if v.verify(sc, r, en, p) {
			*best = en
			return
		}
	}
}

// allSeen reports whether every piece of the rule of record r is in the path.
func (v *indexView) allSeen(sc *indexScratch, r int) bool {
	prog := v.prog
	lo, n := v.pieces+4*int(u32(prog, r+recPieces)), int(u32(prog, r+recN))
	for i := range n {
		if sc.end(u32(prog, lo+4*i)) < 0 {
			return false
		}
	}
	return true
}

// verify reports whether the rule of record r, entry en, matches the path: each of its
// pieces is in the path, the first at its start unless the pattern starts with '*', and
// each of the others after the one before, which where each first ends tells unless
// that is too early (the matcher then reads the path).
func (v *indexView) verify(sc *indexScratch, r int, en entry, p *pathView) bool {
	prog := v.prog
	lo, n := v.pieces+4*int(u32(prog, r+recPieces)), int(u32(prog, r+recN))
	shape := en.shape()
	if n == 0 {
		return p.matches(shape, en.pat(prog, p.body))
	}
	pat := patternOf(en.pat(prog, p.body), shape)
	pathLen := len(p.s)
	if p.slash {
		pathLen++
	}
	// An end anchor after a piece anchors that piece at the end of the path.
	tail := ""
	if pat.end {
		tail = pat.tail()
	}
	pos, early := 0, false
	for i := range n {
		node := u32(prog, lo+4*i)
		end := sc.end(node)
		if end < 0 {
			return false
		}
		ln := u16(prog, v.node(node)+nodeLen)
		switch {
		case i == 0 && pat.head() != "":
			if end != ln {
				return false // the path does not start with it
			}
		case early:
		case i == n-1 && tail != "":
			return pathLen-pos >= ln && p.hasSuffix(tail)
		case end-ln < pos:
			early = true // it occurs before where it may start: the matcher decides
		}
		if !early {
			pos = end
		}
	}
	if early {
		return p.matches(shape, pat.s)
	}
	return !pat.end || pat.star >= 0 || pathLen == pos // one piece anchored at both ends: the path is that piece
}

// hasSuffix reports whether the path ends with x.
func (p *pathView) hasSuffix(x string) bool {
	if !p.slash || len(x) <= len(p.s) {
		return strings.HasSuffix(p.s, x)
	}
	return len(x) == len(p.s)+1 && x[0] == '/' && x[1:] == p.s
}
