package lint

import (
	"cmp"
	"slices"
	"strings"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/internal/precedence"
)

// MaxCoverChecks bounds the pattern comparisons made to find rules that never decide,
// so that a file with thousands of wildcard rules is checked in bounded time. Past it
// the remaining rules are not checked for shadowing (duplicates still are). It counts
// every candidate pair (a wildcard rule whose text before its "*" starts the other
// rule's, and that wins over it), also those the index lets lint skip, so that what
// a file past it reports does not depend on how the index is built.
const MaxCoverChecks = 1 << 20

// verdict is why a rule never decides in one rule set.
type verdict struct {
	code  Code
	other robots.Rule
}

// checkRules finds rules that never decide anything: duplicates, allow and disallow
// with the same value, and rules always beaten by a longer rule that matches every
// URL they match. A rule is reported only when that holds for every crawler it
// applies to.
func checkRules(f *file) {
	for _, d := range f.deadRules(MaxCoverChecks) {
		line, v, r := d.line, d.verdict, d.rule
		col := max(f.line(line).ValueCol, 1)
		switch v.code {
		case DuplicateRule:
			f.add(line, col, DuplicateRule, "%q repeats %s for the same crawlers; remove one", r.String(), describe(v.other))
		case ConflictingRules:
			f.add(line, col, ConflictingRules, "%q and %s have the same value: Google and RFC 9309 allow (allow wins a tie), crawlers that take the first matching rule follow line %d; keep one of them",
				r.String(), describe(v.other), min(line, v.other.Line))
		case ShadowedRule:
			f.add(line, col, ShadowedRule, "%q never decides anything: %s matches every URL it matches and wins (longer), so those URLs are %s",
				r.String(), describe(v.other), allowedWord(v.other.Allow))
		case RedundantRule:
			f.add(line, col, RedundantRule, "%q never decides anything: %s matches every URL it matches with the same verdict; remove it", r.String(), describe(v.other))
		}
	}
}

// deadRule is a rule that never decides, by line, and why (in the first rule set
// where it does not).
type deadRule struct {
	line int
	rule robots.Rule
	verdict
}

// deadRules returns the rules that never decide for any crawler they apply to, in
// line order, having compared budget pairs of rules at most; nil when the lint is
// stopped.
func (f *file) deadRules(budget int) []deadRule {
	// By rule line: the number of sets containing it, of those where it
	// never decides, and the reason in the first such set (1 + an index of why).
	type state struct{ in, dead, why int32 }
	st := make([]state, len(f.lines)+1)
	var group []int32
	var why []deadRule
	longest := 0 // the most rules of a set
	for _, s := range f.ruleSets() {
		longest = max(longest, len(s.rules))
	}
	paths := make([]robots.Rule, 0, longest)
	ids, count := f.valueIDs()
	var same sameValue
	var wild wildRules
	for _, s := range f.ruleSets() {
		paths = paths[:0]
		repeats := false // a value of the set is written on more than one line of the file
		for i := range s.rules {
			if r := &s.rules[i]; isPath(r.Value) && r.Line > 0 && r.Line < len(st) {
				paths = append(paths, *r)
				repeats = repeats || count[ids[r.Line]] > 1
			}
		}
		sv := (*sameValue)(nil) // nil when no value of the set repeats (most sets)
		if repeats {
			sv = &same
			same.link(paths, ids, len(count))
			if group == nil {
				group = f.ruleGroups()
			}
		}
		wild.reset()
		for i := range paths {
			if strings.IndexByte(paths[i].Value, '*') < 0 {
				continue
			}
			p := f.pattern(paths[i])
			if p.prep(); p.ascii {
				wild.add(p, longest)
			}
		}
		wild.index()
		for i := range paths {
			if f.stopped() {
				return nil
			}
			r := &paths[i]
			s := &st[r.Line]
			s.in++
			v, ok := neverDecides(f, r, paths, sv, i, &wild, group, &budget)
			if !ok {
				continue
			}
			s.dead++
			if s.why == 0 {
				why = append(why, deadRule{r.Line, *r, v})
				s.why = int32(len(why))
			}
		}
	}
	var out []deadRule
	for _, s := range st {
		if s.in > 0 && s.dead == s.in {
			out = append(out, why[s.why-1])
		}
	}
	return out
}

// ruleGroups returns, by rule line, the index of the rule's group.
func (f *file) ruleGroups() []int32 {
	group := make([]int32, len(f.lines)+1)
	for gi, g := range f.groups {
		for _, r := range g.Rules {
			if r.Line > 0 && r.Line < len(group) {
				group[r.Line] = int32(gi)
			}
		}
	}
	return group
}

// valueIDs numbers the distinct values of the file's rules: by line, the number of
// the rule's value (0 to n-1), and by number, how many rules have that value. Made
// once per file, so that the checks comparing values within each rule set index
// slices by it, where each made a map of values.
func (f *file) valueIDs() (ids []int32, count []int32) {
	if f.ids == nil {
		total := 0
		for _, g := range f.groups {
			total += len(g.Rules)
		}
		f.ids = make([]int32, len(f.lines)+1)
		f.counts = make([]int32, 0, total)
		of := make(map[string]int32, total)
		for _, g := range f.groups {
			for _, r := range g.Rules {
				if r.Line < 1 || r.Line > len(f.lines) {
					continue
				}
				id, ok := of[r.Value]
				if !ok {
					id = int32(len(of))
					of[r.Value] = id
					f.counts = append(f.counts, 0)
				}
				f.ids[r.Line] = id
				f.counts[id]++
			}
		}
	}
	return f.ids, f.counts
}

// sameValue links the rules of a set that have the same value, in the set's order.
type sameValue struct {
	head []int32 // position → position of the first rule of its value
	next []int32 // position → position of the next rule of its value, or -1
	last []int32 // value number → position of its last rule so far, or -1
}

func (s *sameValue) link(rules []robots.Rule, ids []int32, n int) {
	if len(s.last) < n {
		s.last = make([]int32, n)
		for i := range s.last {
			s.last[i] = -1
		}
	}
	s.head, s.next = s.head[:0], s.next[:0]
	for i, r := range rules {
		pos, id := int32(i), ids[r.Line]
		s.head, s.next = append(s.head, pos), append(s.next, -1)
		if l := s.last[id]; l >= 0 {
			s.head[i] = s.head[l]
			s.next[l] = pos
		}
		s.last[id] = pos
	}
	for _, r := range rules {
		s.last[ids[r.Line]] = -1
	}
}

func allowedWord(allow bool) string {
	if allow {
		return "allowed"
	}
	return "disallowed"
}

// isPath reports whether a rule value can match a URL path at all.
func isPath(v string) bool {
	return v != "" && (v[0] == '/' || v[0] == '*')
}

// beats reports whether rule a takes precedence over rule b for a URL both match
// (package precedence).
func beats(a, b robots.Rule) bool {
	return precedence.Outranks(len(a.Value), a.Allow, a.Line, len(b.Value), b.Allow, b.Line)
}

// pattern is a rule prepared for comparison with others. Its bytes, lit and ascii
// are read by prep, for the rules that are compared with others (most files have
// no wildcard rule to compare).
type pattern struct {
	rule   robots.Rule
	glob   glob
	prefix string    // glob up to its first "*": every path the rule matches starts with it
	wild   bool      // the value has a "*"
	ready  bool      // prep has run
	ascii  bool      // the value is ASCII
	lit    int       // the bytes of glob other than "*": a text it matches is as long at least
	bytes  [4]uint64 // the set of bytes of glob other than "*" (see mayCover)
}

func newPattern(r robots.Rule) *pattern {
	p := new(pattern)
	p.init(r)
	p.prep()
	return p
}

func (p *pattern) init(r robots.Rule) {
	*p = pattern{rule: r, glob: globOf(r.Value)}
	p.prefix = p.glob.base
	if i := strings.IndexByte(p.prefix, '*'); i >= 0 {
		p.prefix, p.wild = p.prefix[:i], true
	}
}

// prep reads the bytes of the pattern, once.
func (p *pattern) prep() {
	if p.ready {
		return
	}
	p.ready = true
	base := p.glob.base
	// The ASCII bytes (nearly all) are gathered in two words held in registers.
	var lo, hi uint64
	stars := 0
	for i := 0; i < len(base); i++ {
		c := base[i]
		if c >= 64 {
			if c < 128 {
				hi |= 1 << (c & 63)
			} else {
				p.bytes[c>>6] |= 1 << (c & 63)
			}
			continue
		}
		lo |= 1 << (c & 63)
		if c == '*' {
			stars++
		}
	}
	p.bytes[0] |= lo &^ (1 << '*')
	p.bytes[1] |= hi
	p.ascii = p.bytes[2]|p.bytes[3] == 0
	p.lit = len(base) - stars
}

// mayCover is a quick test that rules out most pairs before q.glob.match(p.glob):
// q's pattern can match p's read as text only when p starts with q's text up to its
// first "*" and every byte of q other than "*" is a byte of p other than "*" (a "*" of
// p can be matched only by a "*" of q). On the shared corpus it turns away nearly all
// of the comparisons that made lint's cost (BenchmarkCorpus).
func (q *pattern) mayCover(p *pattern) bool {
	for i := range q.bytes {
		if q.bytes[i]&^p.bytes[i] != 0 {
			return false
		}
	}
	return strings.HasPrefix(p.glob.base, q.prefix)
}

// pattern returns r prepared for comparison, made once per rule of the file, all
// in one allocation.
func (f *file) pattern(r robots.Rule) *pattern {
	if r.Line < 1 || r.Line > len(f.lines) {
		return newPattern(r)
	}
	if f.pats == nil {
		f.pats = make([]*pattern, len(f.lines)+1)
		n := 0
		for _, g := range f.groups {
			n += len(g.Rules)
		}
		f.slab = make([]pattern, 0, n)
	}
	if f.pats[r.Line] == nil {
		if len(f.slab) == cap(f.slab) {
			f.pats[r.Line] = newPattern(r)
		} else {
			f.slab = f.slab[:len(f.slab)+1]
			p := &f.slab[len(f.slab)-1]
			p.init(r)
			f.pats[r.Line] = p
		}
	}
	return f.pats[r.Line]
}

// neverDecides reports whether rule r, rules[i], never decides in a set of rules
// linked by value by same (when a value of the set repeats) and whose ASCII rules
// with wildcards are wild, and why. group maps each rule's line to its group.
func neverDecides(f *file, r *robots.Rule, rules []robots.Rule, same *sameValue, i int, wild *wildRules, group []int32, budget *int) (verdict, bool) {
	if same != nil { // r's value may repeat: the rules of the set with r's value
		for k := same.head[i]; k >= 0; k = same.next[k] {
			q := &rules[k]
			if q.Line == r.Line || !beats(*q, *r) {
				continue
			}
			if q.Allow != r.Allow {
				return verdict{ConflictingRules, *q}, true
			}
			// The same rule in another group naming the same crawler is what merging
			// groups does; repeated-agent speaks of it when it matters.
			if group[q.Line] == group[r.Line] {
				return verdict{DuplicateRule, *q}, true
			}
			return verdict{}, false
		}
	}
	// Only a value with "*" can cover a different value of at least the same length,
	// and only one at least as long can win over r.
	if len(r.Value) > wild.longest {
		return verdict{}, false // no wildcard rule wins over r (nor counts against the budget)
	}
	// Values with non-ASCII bytes are compared by the parser after escaping, which can
	// change their length; they are left alone. So is an allow of ".../index.html",
	// which the parser widens to the directory.
	if r.Allow && strings.Contains(r.Value, "/index.htm") || *budget <= 0 {
		return verdict{}, false // past the budget, the wildcard rules are not read again for each rule
	}
	// The candidates are found from r's text before its first "*": a rule with none
	// (nor any cost against the budget) is not read further.
	p := f.pattern(*r)
	n := wild.candidates(p)
	if n == 0 {
		return verdict{}, false
	}
	if p.prep(); !p.ascii {
		return verdict{}, false
	}
	if n > *budget { // none is compared, and the budget is spent
		*budget = 0
		return verdict{}, false
	}
	*budget -= n
	best := wild.cover(p)
	if best == nil {
		return verdict{}, false
	}
	if best.rule.Allow != r.Allow {
		return verdict{ShadowedRule, best.rule}, true
	}
	return verdict{RedundantRule, best.rule}, true
}

// wildRules are the ASCII rules with wildcards of a rule set, by their text before
// the first "*" (pattern.prefix), so that a rule is compared only with those that
// can match it (a file of a thousand "/dir/*.ext" rules made each rule read them all).
// They are kept by a hash of that text (FNV-1a), which a rule computes for each
// length of its own text in one pass: a file whose wildcard rules have a thousand
// lengths of text costs no more than the text read. Two texts of one hash would only
// make a candidate more, which mayCover turns away.
//
// The rules of one hash are sorted by precedence, so that those winning over a rule
// are the last ones, and the longest that can match it (no longer in text than its
// own text, see pattern.lit) are found by their length.
type wildRules struct {
	rules   []wildRule // by hash, then by precedence: a rule wins over those before it
	buckets []wildBucket
	hashes  []uint64   // of buckets, ascending
	lengths []int      // the lengths of the prefixes, ascending
	masks   []uint64   // by length: bit h>>58 set for the hash h of each prefix so long
	visit   []wildSpan // cover's
	longest int        // the longest value: a rule longer wins over them all
}

type wildRule struct {
	h uint64 // of the prefix
	*pattern
}

// wildBucket is the rules of one hash: rules[lo:hi]. extra is the most that the
// value of one of them is longer than its text (its "*" and final "$").
type wildBucket struct {
	h             uint64
	lo, hi, extra int
}

// wildSpan is rules[lo:hi] of a bucket, winning over the rule cover looks at.
type wildSpan struct{ lo, hi, extra int }

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func (w *wildRules) reset() {
	w.rules, w.buckets, w.lengths = w.rules[:0], w.buckets[:0], w.lengths[:0]
	w.hashes, w.masks = w.hashes[:0], w.masks[:0]
	w.longest = 0
}

func (w *wildRules) add(p *pattern, most int) {
	if w.rules == nil { // as many as the largest set has rules, made once
		w.rules, w.lengths = make([]wildRule, 0, most), make([]int, 0, most)
	}
	h := uint64(fnvOffset)
	for i := 0; i < len(p.prefix); i++ {
		h = (h ^ uint64(p.prefix[i])) * fnvPrime
	}
	w.rules = append(w.rules, wildRule{h, p})
	w.longest = max(w.longest, len(p.rule.Value))
	w.lengths = append(w.lengths, len(p.prefix))
}

// index sorts the rules added since reset.
func (w *wildRules) index() {
	if len(w.rules) == 0 {
		return
	}
	slices.SortFunc(w.rules, func(a, b wildRule) int {
		if c := cmp.Compare(a.h, b.h); c != 0 {
			return c // most pairs: precedence is not read (cmp.Or would read it)
		}
		return byPrecedence(a.rule, b.rule)
	})
	if w.buckets == nil {
		w.hashes, w.buckets = make([]uint64, 0, cap(w.rules)), make([]wildBucket, 0, cap(w.rules))
	}
	for lo := 0; lo < len(w.rules); {
		b := wildBucket{h: w.rules[lo].h, lo: lo}
		for b.hi = lo; b.hi < len(w.rules) && w.rules[b.hi].h == b.h; b.hi++ {
			b.extra = max(b.extra, len(w.rules[b.hi].rule.Value)-w.rules[b.hi].lit)
		}
		w.hashes = append(w.hashes, b.h)
		w.buckets = append(w.buckets, b)
		lo = b.hi
	}
	slices.Sort(w.lengths)
	w.lengths = slices.Compact(w.lengths)
	w.masks = append(w.masks, make([]uint64, len(w.lengths))...)
	for _, q := range w.rules {
		j, _ := slices.BinarySearch(w.lengths, len(q.prefix))
		w.masks[j] |= 1 << (q.h >> 58)
	}
}

// byPrecedence orders rules that match the same URL by precedence: the one that
// decides last.
func byPrecedence(a, b robots.Rule) int {
	switch {
	case beats(a, b):
		return 1
	case beats(b, a):
		return -1
	}
	return 0
}

// candidates counts the wildcard rules that can match every path p's rule matches
// and win over it: those whose text before their first "*" starts p's (the others
// cannot match it) and that win over p's rule. Each counts against MaxCoverChecks,
// whether cover compares it or not. It reads p's text before its first "*" and p's
// rule only (p need not be prepared); cover then reads the spans it found.
func (w *wildRules) candidates(p *pattern) int {
	n := 0
	w.visit = w.visit[:0]
	h, i := uint64(fnvOffset), 0
	for j, l := range w.lengths {
		if l > len(p.prefix) {
			break
		}
		for ; i < l; i++ {
			h = (h ^ uint64(p.prefix[i])) * fnvPrime
		}
		if w.masks[j]&(1<<(h>>58)) == 0 {
			continue // no prefix of this length has this hash: most lengths of most rules
		}
		k, found := slices.BinarySearch(w.hashes, h)
		if !found {
			continue
		}
		b := w.buckets[k]
		lo, hi := b.lo, b.hi // to the first that wins over p's rule
		for lo < hi {
			if m := int(uint(lo+hi) >> 1); beats(w.rules[m].rule, p.rule) {
				hi = m
			} else {
				lo = m + 1
			}
		}
		if lo < b.hi {
			n += b.hi - lo
			w.visit = append(w.visit, wildSpan{lo, b.hi, b.extra})
		}
	}
	return n
}

// cover returns the rule that wins over p's of those that match every path p's
// matches, or nil, comparing the candidates found for p (candidates): the rules that
// can win over p's are read from the one that wins most, down to the first that
// matches. p is prepared.
func (w *wildRules) cover(p *pattern) *pattern {
	var best *pattern
	text := len(p.glob.base)
	for _, s := range w.visit {
		// A rule whose value is longer than p's text and its own "*"s cannot match it.
		top, hi := s.lo, s.hi // to the first too long
		for top < hi {
			if m := int(uint(top+hi) >> 1); len(w.rules[m].rule.Value) > text+s.extra {
				hi = m
			} else {
				top = m + 1
			}
		}
		for k := top - 1; k >= s.lo; k-- {
			q := w.rules[k].pattern
			if best != nil && !beats(q.rule, best.rule) {
				break
			}
			if q.lit <= text && q.mayCover(p) && q.glob.match(p.glob) {
				best = q
				break
			}
		}
	}
	return best
}

// glob is a rule value as a pattern over the whole path: a value matches as a
// prefix unless it ends in "$", so "/a" is the pattern "/a*" and "/a$" the pattern
// "/a". It is read in place, without building the pattern's text.
type glob struct {
	base string // the value without its final "$"
	open bool   // no final "$": the pattern goes on with a "*"
}

func globOf(v string) glob {
	if strings.HasSuffix(v, "$") {
		return glob{base: v[:len(v)-1]}
	}
	return glob{base: v, open: true}
}

// covers reports whether every path that rule value r matches is also matched by
// rule value q. With "*" the only wildcard, that holds when q's pattern matches r's
// pattern read as text, each "*" of r being a character only a "*" of q can match.
func covers(q, r string) bool {
	return globOf(q).match(globOf(r))
}

// match matches s, read as text, against p, where "*" in p matches any run of
// bytes and every other byte of p itself ("*" in s is text only a "*" of p can
// match). With "*" the only wildcard, matching each piece of p between stars at
// its leftmost place in s is enough; the pieces are found with strings.Index.
func (p glob) match(s glob) bool {
	pat, text := p.base, s.base
	i := strings.IndexByte(pat, '*')
	if i < 0 {
		if !p.open { // p is all text: s must be the same text
			return !s.open && text == pat
		}
		return strings.HasPrefix(text, pat) // pat, then a "*" that takes the rest
	}
	if !strings.HasPrefix(text, pat[:i]) {
		return false
	}
	text, pat = text[i:], pat[i+1:]
	// A star was read: the pieces between the next stars, leftmost each.
	for {
		j := strings.IndexByte(pat, '*')
		if j < 0 {
			break
		}
		piece := pat[:j]
		pat = pat[j+1:]
		k := strings.Index(text, piece)
		if k < 0 {
			return false
		}
		text = text[k+len(piece):]
	}
	// pat is the piece after the last star of p's value.
	if p.open { // ... * pat *
		return strings.Contains(text, pat)
	}
	if s.open { // p ends in pat, s in a "*" that only a "*" of p can match
		return pat == ""
	}
	return strings.HasSuffix(text, pat)
}
