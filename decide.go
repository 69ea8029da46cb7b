package robots

import (
	"strings"
	"unsafe"
)

// setRef is what applies to one product token: the rule set in r.prog holding the
// rules of all groups naming it, bucketed (see prog.go), and those groups.
type setRef struct {
	set             int32 // offset of the set in r.prog
	groupLo, groupN int32 // the groups naming the token are r.setGroup[groupLo:groupLo+groupN]
}

type tokenSet struct {
	key   uint64 // foldKey(token): the binary search compares it before the token itself
	token string // as written; compared case-insensitively
	ref   setRef
}

// foldKey packs the first eight bytes of s, lower-cased, big-endian and padded with
// zeros, so that comparing keys orders strings as compareFold does until the keys are
// equal. Tokens are found without reading their text in most steps of a search.
func foldKey(s string) uint64 {
	var k uint64
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

// set is the header of a rule set (see prog.go), read.
type set struct {
	keys   string // the buckets' keys
	bounds string // nk+1 u32 offsets in prog: bucket j is [bounds[j], bounds[j+1])
	recs   int    // the offset in prog of the first record
	genEnd int    // the end of the generic records
}

// readSet reads the header of a set from hdr at so; its records start at recs in prog.
func readSet(hdr string, so, recs int) set {
	nk := u16(hdr, so)
	keys := so + 2
	bounds := hdr[keys+nk : keys+nk+4*(nk+1)]
	return set{hdr[keys : keys+nk], bounds, recs, int(u32(bounds, 0))}
}

func (r *Robots) setAt(so int32) set {
	_, _, _, recs := setLayout(r.prog, int(so))
	return readSet(r.prog, int(so), recs)
}

// starSet reads the header of the "*" set from the copy kept in the Robots when there
// is one: most decisions use that set, and its header then costs no memory read of
// its own, often a cache miss.
func (r *Robots) starSet() set {
	if r.headOK {
		nk := int(r.starNK)
		bounds := unsafe.String(&r.head[nk], 4*(nk+1))
		return set{unsafe.String(&r.head[0], nk), bounds, int(r.starRecs), int(u32(bounds, 0))}
	}
	return r.setAt(r.star.set)
}

// first returns the offset of the record that decides path within the set at so, or
// best (-1 for none) when no record of the set beats it.
func (r *Robots) first(so int32, p *pathView, best int) int {
	return r.setAt(so).first(r.prog, p, best)
}

// first returns the offset of the record of s that decides path, or best (-1 for
// none) when none beats it: the best of the path's bucket and of the generic records.
func (s set) first(prog string, p *pathView, best int) int {
	if second, ok := p.second(); ok {
		// The keys are few and ascending: a loop that stops at the first key not below
		// second is quicker than a call.
		for j := 0; j < len(s.keys) && s.keys[j] <= second; j++ {
			if s.keys[j] == second {
				best = firstMatch(prog, int(u32(s.bounds, 4*j)), int(u32(s.bounds, 4*j+4)), p, best)
				break
			}
		}
	}
	return firstMatch(prog, s.recs, s.genEnd, p, best)
}

// pathView is the path a decision matches, as splitPath gives it, with its byteMask.
type pathView struct {
	s     string
	w0    uint64  // the first eight bytes of s, little-endian, zero-padded
	slash bool    // the path is "/" + s
	mask  byteSet // computed on first use when zero (a path's mask is never zero)
}

func newPathView(s string, slash bool) pathView {
	p := lazyPathView(s, slash)
	p.computeMask()
	return p
}

// lazyPathView is newPathView without the byte set, which is computed when a wildcard
// rule first needs it.
func lazyPathView(s string, slash bool) pathView {
	return pathView{s: s, w0: u64pad(s), slash: slash}
}

func (p *pathView) computeMask() {
	m := byteMask(p.s)
	if p.slash || m == 0 {
		m |= 1 << (bitOf['/'] & 63) // the empty path is "/"
	}
	p.mask = m
}

// has reports whether the path has every byte of a needMask.
func (p *pathView) has(need byteSet) bool {
	if p.mask == 0 {
		p.computeMask()
	}
	return need&^p.mask == 0
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

func (p *pathView) matches(shape uint8, pat string) bool {
	if p.slash {
		return matchesSlash(shape, pat, p.s)
	}
	return matches(shape, pat, p.s)
}

// firstMatch returns the best record in [at, end) that matches p, if it beats best, or
// best: the longest pattern wins and, on a tie, allow; on a full tie the first in file
// order. Plain prefixes are compared at once; the byte set is checked before the
// general matcher only, which is slower than a comparison.
func firstMatch(prog string, at, end int, p *pathView, best int) int {
	bestN, bestAllow := -1, false
	if best >= 0 {
		bestN, bestAllow = recLen(prog, best), recAllow(prog, best)
	}
	for at < end {
		n, flags := recLen(prog, at), prog[at+2]
		shape := flags & 3
		start := at + recHeader
		if shape == shapeWild {
			start += 8
		}
		next := start + n
		if n < bestN || n == bestN && (bestAllow || flags&flagAllow == 0) {
			at = next
			continue
		}
		match := false
		switch {
		case shape == shapePrefix && !p.slash:
			// Most prefixes differ from the path in their first eight bytes, which
			// one comparison of words tells (prog ends with eight spare bytes, so
			// the word can always be read). The mask keeps the pattern's bytes.
			x := (p.w0 ^ u64(prog, start)) & (^uint64(0) >> (64 - 8*min(n, 8)))
			match = x == 0 && len(p.s) >= n && (n <= 8 || p.s[8:n] == prog[start+8:next])
		case shape == shapeWild:
			match = p.has(recNeed(prog, at)) && p.matches(shape, prog[start:next])
		default:
			match = p.matches(shape, prog[start:next])
		}
		if match {
			best, bestN, bestAllow = at, n, flags&flagAllow != 0
		}
		at = next
	}
	return best
}

// lookup finds the rule set for one product token, compared case-insensitively,
// without allocating.
func (r *Robots) lookup(agent string) *setRef {
	if len(agent) > 0 && r.initials&(1<<(lower(agent[0])&63)) == 0 {
		return nil // most crawlers are named by no group: no token starts as the agent does
	}
	key := foldKey(agent)
	lo, hi := 0, len(r.tokens)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		t := &r.tokens[m]
		if t.key < key || t.key == key && compareFold(t.token, agent) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(r.tokens) && r.tokens[lo].key == key && compareFold(r.tokens[lo].token, agent) == 0 {
		return &r.tokens[lo].ref
	}
	return nil
}

func (r *Robots) decide(path string, slash bool, agent string, agents []string) Decision {
	d := Decision{Allowed: true, Group: -1}
	if r == nil {
		return d
	}
	if dialect := r.opts.dialect; dialect != Google {
		if slash {
			path, slash = "/"+path, false
		}
		if dialect == RFC9309 && isRobotsTxt(path) {
			return d // RFC 9309 §2.2.2: the /robots.txt URI is implicitly allowed
		}
		path = dialect.matchPath(path)
		if dialect.legacy() {
			if agents == nil {
				agents = []string{agent}
			}
			return r.decideLegacy(path, agents)
		}
	}
	best := -1
	found := false
	pv := lazyPathView(path, slash)
	if agents == nil {
		if ref := r.lookup(agent); ref != nil {
			found = true
			d.Group = int(r.setGroup[ref.groupLo])
			best = r.first(ref.set, &pv, -1)
		}
	} else {
		for _, a := range agents {
			if ref := r.lookup(a); ref != nil {
				if !found {
					found = true
					d.Group = int(r.setGroup[ref.groupLo])
				}
				best = r.first(ref.set, &pv, best)
			}
		}
	}
	if !found && r.star.set >= 0 {
		d.Global = true
		d.Group = int(r.setGroup[r.star.groupLo])
		best = r.starSet().first(r.prog, &pv, -1)
	}
	if best >= 0 {
		d.Rule = r.ruleAt(best)
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
	prog := r.prog
	at, end := setRecords(prog, int(r.groups[gi].set))
	for ; at < end; at = recNext(prog, at) {
		if matches(recShape(prog, at), recPat(prog, at), path) {
			d.Rule = r.ruleAt(at)
			d.Allowed = d.Rule.Allow
			break
		}
	}
	return d
}
