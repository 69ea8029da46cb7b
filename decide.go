package robots

import (
	"math/bits"
	"strings"

	"github.com/gorobots/robots/internal/precedence"
)

// setRef is what applies to one product token: the groups naming it and the rule set
// of all their rules, bucketed (see prog.go), compiled on first use.
type setRef struct {
	prog            lazyProg
	groupLo, groupN int32 // the groups naming the token are r.setGroup[groupLo:groupLo+groupN]
}

type tokenSet struct {
	key    uint64 // foldKey(token): the binary search compares it before the token itself
	off, n uint32 // the token as written is body[off:off+n]; compared case-insensitively
	ref    setRef
}

// foldKey packs the first eight bytes of s, lower-cased, big-endian and padded with
// zeros, so that comparing keys orders strings as compareFold does until the keys are
// equal. Tokens are found without reading their text in most steps of a search.
func foldKey(s string) (k uint64) {
	for i := range 8 {
		k <<= 8
		if i < len(s) {
			k |= uint64(lower(s[i]))
		}
	}
	return k
}

func (r *Robots) groupsOf(s *setRef) []int32 {
	return r.setGroup[s.groupLo : s.groupLo+s.groupN]
}

// setProg returns the rule set of ref, compiling it on first use.
func (r *Robots) setProg(ref *setRef) string {
	if prog := ref.prog.load(); prog != "" {
		return prog
	}
	return r.compileRef(ref)
}

// compileRef compiles the rule set of ref and publishes it (setProg's first use).
func (r *Robots) compileRef(ref *setRef) string {
	return ref.prog.store(r.compileSet(r.groupsOf(ref), false))
}

// noMatch is the best entry before any: every rule beats it. A function, so that a
// decision writes it from constants.
func noMatch() entry { return entry{n: -1, text: -1} }

// matchSet updates best with the rule of ref's set, whose prog is prog, that decides the
// path, if one beats it, and returns the prog it read: through the set's index when that
// costs less for the path than the entry loops (index.go), the index compiled then if the
// set has none yet; else matchParts.
func (r *Robots) matchSet(ref *setRef, prog string, p *pathView, best *entry) string {
	if matchParts(prog, p, best, true) {
		return prog
	}
	return r.matchIndexed(ref, prog, p, best)
}

// matchIndexed is matchSet through the set's index, which it compiles if the set has
// none yet.
func (r *Robots) matchIndexed(ref *setRef, prog string, p *pathView, best *entry) string {
	if progIndex(prog) == 0 {
		prog = ref.prog.swap(prog, r.compileSet(r.groupsOf(ref), true))
	}
	// best may hold the best of a part read already: the index finds it again, or a
	// better one.
	matchIndex(prog, progIndex(prog), p, best, false)
	return prog
}

// matchParts updates best with the rule of the set in prog that decides the path, if one
// beats it: the best of the path's bucket and of the generic part. If limit, it stops
// and returns false at a part so large for the path that the set's index costs less
// (partPays): the parts' headers, which it reads anyway, tell.
func matchParts(prog string, p *pathView, best *entry, limit bool) bool {
	const so = progHead
	recs := so + setShortHeader
	if lo := u64(prog, so+setKeys); lo&setLongForm != 0 { // a set with buckets
		hdr := prog[so : so+setBounds]
		low := hdr[setLowKeys]
		if c, ok := p.second(); ok && c < setKeyLimit {
			// The bucket of key c is the j-th, j being the number of smaller keys.
			bit := uint64(1) << (c & 63)
			keys, j := lo&^setLongForm, 0
			if c >= 64 {
				keys, j = u64(hdr, setKeysHi), int(low&setLowCount)
			}
			if keys&bit != 0 {
				j += bits.OnesCount64(keys & (bit - 1))
				po := int(u32(prog, so+setBounds+boundSize*j))
				if !matchPart(prog, po, u64(prog, po), p, best, limit) {
					return false
				}
			}
		}
		if low&setNoGeneric != 0 { // as in most sets with buckets
			return true
		}
		recs = int(u32(hdr, setGeneric))
	}
	return matchPart(prog, recs, u64(prog, recs), p, best, limit)
}

// pathView is the path a decision matches, as splitPath gives it, with its byte and
// pair sets.
type pathView struct {
	s     string
	w0    uint64  // the first eight bytes of the path ("/" + s when slash), little-endian, zero-padded
	slash bool    // the path is "/" + s
	cut   bool    // s ends where the path does; until then it may run on into a fragment
	mask  byteSet // computed on first use when zero (a path's mask is never zero)
	pairs byteSet // the path's pairSet, computed on first use when zero
	body  string  // the body of the file whose sets are matched, which holds most patterns (flagBodyPat)
	plain int     // CheckOnce: how many bytes of w0 stand for themselves (plainPrefix), -1 until computed
}

// set sets p to a path without its byte set, which is computed when a wildcard
// rule first needs it. Unless cut, s may run on into the URL's fragment, which is cut
// off when a rule first needs the path's end: no pattern holds a '#' (it starts a
// comment), so comparing a pattern with the start of the path is the same either way.
func (p *pathView) set(s string, slash, cut bool) {
	*p = pathView{s: s, w0: firstWord(s, slash), slash: slash, cut: cut, body: p.body}
}

// firstWord is the first eight bytes of the path s, or "/" + s when slash,
// little-endian and zero-padded (pathView.w0).
func firstWord(s string, slash bool) uint64 {
	w0 := u64pad(s)
	if slash {
		w0 = w0<<8 | '/'
	}
	return w0
}

// end cuts the path at its fragment, if not done yet.
func (p *pathView) end() {
	if !p.cut {
		p.cut = true
		if h := indexHash(p.s); h >= 0 {
			p.s = p.s[:h]
		}
	}
}

// computeMask computes the path's byte set. Before the path is cut at its fragment the
// set may hold the fragment's bytes too: rules with those bytes then reach the matcher,
// which cuts the path, and the rare URL with a fragment costs no more than that.
func (p *pathView) computeMask() {
	m := byteMask(p.s)
	if p.slash || m == 0 {
		m |= 1 << (bitOf['/'] & 63) // the empty path is "/"
	}
	p.mask = m
}

// byteSet returns the path's byte set, computing it on first use.
func (p *pathView) byteSet() byteSet {
	if p.mask == 0 {
		p.computeMask()
	}
	return p.mask
}

// pairSet returns the path's pairSet, computing it on first use.
func (p *pathView) pairSet() byteSet {
	if p.pairs == 0 { // like the byte set, maybe with the fragment's pairs
		m := pairSet(p.s)
		if p.slash && len(p.s) > 0 {
			m |= pairBit('/', p.s[0])
		}
		p.pairs = m
	}
	return p.pairs
}

// second returns the byte after the path's leading "/", which selects a bucket.
func (p *pathView) second() (byte, bool) {
	if p.slash {
		if len(p.s) >= 1 {
			return p.s[0], true
		}
	} else if len(p.s) >= 2 {
		return p.s[1], true
	}
	return 0, false
}

// matchPattern reports whether the path matches pt.
func (p *pathView) matchPattern(pt pattern) bool {
	p.end()
	if p.slash {
		return pt.matchSlash(p.s)
	}
	return pt.match(p.s)
}

func (p *pathView) matches(shape uint8, pat string) bool {
	p.end()
	if p.slash {
		return matchesSlash(shape, pat, p.s)
	}
	return matches(shape, pat, p.s)
}

// matchesLiteral reports whether the path matches the prefix or exact entry en, whose
// first bytes are known to match.
func (p *pathView) matchesLiteral(prog string, en entry) bool {
	if p.slash || en.shape() != shapePrefix {
		return p.matches(en.shape(), en.pat(prog, p.body))
	}
	n := en.n
	// The first wordSize bytes matched already (w).
	return len(p.s) >= n && (n <= wordSize || p.s[wordSize:n] == en.pat(prog, p.body)[wordSize:])
}

// beats reports whether en decides over b (see package precedence). The lines, in
// the texts, are read only on a tie.
func (en entry) beats(prog string, b *entry) bool {
	if c := precedence.Compare(en.n, en.allow(), b.n, b.allow()); c != 0 {
		return c > 0
	}
	return en.line(prog) < b.line(prog)
}

// beatsIn is beats for entries of two sets: en of prog, b of bprog.
func (en entry) beatsIn(prog string, b *entry, bprog string) bool {
	if c := precedence.Compare(en.n, en.allow(), b.n, b.allow()); c != 0 {
		return c > 0
	}
	return en.line(prog) < b.line(bprog)
}

// matchPart updates best with the best entry of the part at po, whose header is h,
// that matches p, if it beats best. The prefix and exact entries come first: their
// first bytes are compared with the path's as words, and only a match reads the
// pattern. Then the wildcard entries: their byte sets are compared with the path's,
// then their sets of byte pairs, and only a path with every byte and pair a pattern
// needs runs the matcher.
func matchPart(prog string, po int, h uint64, p *pathView, best *entry, limit bool) bool {
	// partCounts, written out: the call would cost more than the rest of a small part.
	e := po + partShortHeader
	np, nw := shortCounts(h)
	if np == countMax || nw == countMax {
		e, np, nw = partCounts(prog, po, h)
	}
	if limit && np+nw >= partIndexMin && partPays(np, nw, len(p.s)) {
		return false
	}
	wild := e + entrySize*np
	end := wild + entrySize*nw
	t := end
	for e < wild { // no call for a part of wildcard entries only
		if e, t = nextLiteral(prog, e, wild, t, p.w0); e == wild {
			break
		}
		en := entryAt(prog, e, t)
		if en.beats(prog, best) && p.matchesLiteral(prog, en) {
			*best = en
		}
		e, t = e+entrySize, en.next()
	}
	if e == end {
		return true
	}
	lacks := ^p.byteSet()
	for {
		if e, t = nextWild(prog, e, end, t, lacks); e == end {
			break
		}
		en := entryAt(prog, e, t)
		if en.beats(prog, best) && en.pairs(prog)&^p.pairSet() == 0 && p.matches(shapeWild, en.pat(prog, p.body)) {
			*best = en
		}
		e, t = e+entrySize, en.next()
	}
	return true
}

// nextLiteral returns the first prefix or exact entry from e on, up to wild, whose first
// bytes are the path's (w0), and its text; wild when there is none (e < wild: matchPart calls
// it only for a part with such entries). It calls nothing, so that its loop keeps
// everything in registers.
func nextLiteral(prog string, e, wild, t int, w0 uint64) (int, int) {
	// The entries and the byte after them, sliced once so that the loop needs no
	// bounds checks: an entry is read as entryRead bytes, its own and the next one's first.
	ents := prog[e : wild+entryRead-entrySize]
	i := 0
	for ; i+entryRead <= len(ents); i += entrySize {
		b := ents[i : i+entryRead]
		w := u64(b, entryWord)
		lf := u32(b, entryLen) // n, flags and a byte: one load
		if (w^w0)&lowBytes[lf>>(8*(entryFlags-entryLen)+cmpShift)&15] == 0 {
			break
		}
		// countMax: the mask of a u16; a pattern in the body has no bytes here.
		t += textHead + (srcLenSize+int(lf&countMax))&(int(lf>>(8*(entryFlags-entryLen)+bodyPatBit)&1)-1)
	}
	return e + i, t
}

// nextWild is nextLiteral for the wildcard entries: the first whose pattern needs no
// byte the path lacks, lacks being the bytes not in the path's byte set (its complement,
// which the loop tests as it is).
func nextWild(prog string, e, end, t int, lacks byteSet) (int, int) {
	ents := prog[e:end]
	i := 0
	for ; i+entrySize <= len(ents); i += entrySize {
		b := ents[i : i+entrySize]
		if byteSet(u64(b, entryWord))&lacks == 0 { // the entry's need (pattern.need)
			break
		}
		t += textHeadWild + (srcLenSize+u16(b, entryLen))&(int(b[entryFlags]>>bodyPatBit)-1)
	}
	return e + i, t
}

// lookup finds the rule set for one product token, compared case-insensitively,
// without allocating.
func (r *Robots) lookup(agent string) *setRef {
	if len(agent) > 0 && r.initials&initial(agent) == 0 {
		return nil // most crawlers are named by no group: no token starts as the agent does
	}
	return r.search(agent)
}

// initial is a bit for the first two bytes of a non-empty token, lower-cased, hashed
// (Fibonacci hashing) to one of 64: Robots.initials has the bits of its tokens, and a
// token without its bit there is in none. Two bytes tell more tokens apart than one.
func initial(tok string) uint64 {
	k := uint32(lower(tok[0]))
	if len(tok) > 1 {
		k = k<<8 | uint32(lower(tok[1]))
	}
	return 1 << (k * 0x9E3779B1 >> 26)
}

// search is lookup's binary search.
func (r *Robots) search(agent string) *setRef {
	key := foldKey(agent)
	ts, body := r.tokens, r.body
	lo, hi := 0, len(ts)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		t := &ts[m]
		if t.key < key || t.key == key && compareFold(body[t.off:t.off+t.n], agent) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(ts) {
		if t := &ts[lo]; t.key == key && compareFold(body[t.off:t.off+t.n], agent) == 0 {
			return &t.ref
		}
	}
	return nil
}

func (r *Robots) decide(pv *pathView, agent string, agents []string) Decision {
	d := Decision{Allowed: true, Group: -1}
	if r == nil {
		return d
	}
	pv.body = r.body
	if dialect := r.dialect; dialect != Google {
		pv.end()
		path := pv.s
		if pv.slash {
			path = "/" + path
		}
		path = dialect.matchPath(path)
		if dialect == RFC9309 && isRobotsTxt(path) {
			// RFC 9309 §2.2.2: the /robots.txt URI is implicitly allowed (compared, as
			// every URI there, with escapes of unreserved characters decoded).
			return d
		}
		pv.set(path, false, true)
		if dialect.legacy() {
			if agents == nil {
				agents = []string{agent}
			}
			return r.decideLegacy(path, agents)
		}
	}
	// The best rule of each set that applies: for several agents, several sets, whose
	// entries are compared by what they hold rather than where they are.
	var best entry
	var bestProg string
	offer := func(ref *setRef) {
		en := noMatch()
		prog := r.matchSet(ref, r.setProg(ref), pv, &en)
		if en.n >= 0 && (bestProg == "" || en.beatsIn(prog, &best, bestProg)) {
			best, bestProg = en, prog
		}
	}
	found := false
	if agents == nil {
		if ref := r.lookup(agent); ref != nil {
			found = true
			d.Group = int(r.setGroup[ref.groupLo])
			offer(ref)
		}
	} else {
		for _, a := range agents {
			if ref := r.lookup(a); ref != nil {
				// The first group in file order, as for one agent (whose groups are in
				// file order) and in CheckOnce.
				if g := int(r.setGroup[ref.groupLo]); !found || g < d.Group {
					found = true
					d.Group = g
				}
				offer(ref)
			}
		}
	}
	if !found && r.star.groupN > 0 {
		d.Global = true
		d.Group = int(r.setGroup[r.star.groupLo])
		offer(&r.star)
	}
	if bestProg != "" {
		d.Rule = r.ruleAt(bestProg, best)
		d.Allowed = d.Rule.Allow
		d.Group = r.groupOf(int32(d.Rule.Line))
	}
	return d
}

func isRobotsTxt(path string) bool {
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	return path == "/robots.txt"
}

// decideLegacy decides in the old dialects: one record, its rules in file order, the
// first match wins.
func (r *Robots) decideLegacy(path string, agents []string) Decision {
	d := Decision{Allowed: true, Group: -1}
	gi, global := r.legacyGroup(agents)
	if gi < 0 {
		return d
	}
	d.Group, d.Global = gi, global
	lp := &(*r.legacyProgs)[gi]
	prog := lp.load()
	if prog == "" {
		prog = lp.store(r.compileSet([]int32{int32(gi)}, false))
	}
	if pv := (pathView{s: path, cut: true, body: r.body}); len(prog) >= indexGate && indexPays(prog, &pv, true) {
		if progIndex(prog) == 0 {
			prog = lp.swap(prog, r.compileSet([]int32{int32(gi)}, true))
		}
		en := noMatch()
		if matchIndex(prog, progIndex(prog), &pv, &en, true); en.n >= 0 {
			d.Rule = r.ruleAt(prog, en)
			d.Allowed = d.Rule.Allow
		}
		return d
	}
	for en := range partAt(prog, progHead+setShortHeader).entries(prog) {
		if matches(en.shape(), en.pat(prog, r.body), path) {
			d.Rule = r.ruleAt(prog, en)
			d.Allowed = d.Rule.Allow
			break
		}
	}
	return d
}
