package lint

import (
	"slices"
	"strings"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/internal/precedence"
)

// MaxCoverChecks bounds the pattern comparisons made to find rules that never decide,
// so that a file with thousands of wildcard rules is checked in bounded time. Past it
// the remaining rules are not checked for shadowing (duplicates still are).
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
	budget := MaxCoverChecks
	in := map[int]int{}      // rule line → number of sets containing it
	dead := map[int]int{}    // rule line → number of sets where it never decides
	why := map[int]verdict{} // rule line → the reason in the first such set
	groupOf := map[int]int{} // rule line → group
	for gi, g := range f.groups {
		for _, r := range g.Rules {
			groupOf[r.Line] = gi
		}
	}
	for _, s := range f.ruleSets() {
		byValue := map[string][]robots.Rule{}
		var wild wildRules
		for _, r := range s.rules {
			if !isPath(r.Value) {
				continue
			}
			byValue[r.Value] = append(byValue[r.Value], r)
			p := f.pattern(r)
			if p.wild && p.ascii {
				wild.add(p)
			}
		}
		for _, r := range s.rules {
			if f.stopped() {
				return
			}
			if !isPath(r.Value) {
				continue
			}
			in[r.Line]++
			v, ok := neverDecides(f.pattern(r), byValue[r.Value], &wild, groupOf, &budget)
			if !ok {
				continue
			}
			dead[r.Line]++
			if _, ok := why[r.Line]; !ok {
				why[r.Line] = v
			}
		}
	}
	for line, n := range in {
		if dead[line] != n {
			continue
		}
		v := why[line]
		r := f.pats[line].rule
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

// pattern is a rule prepared for comparison with others.
type pattern struct {
	rule   robots.Rule
	glob   glob
	prefix string    // glob up to its first "*": every path the rule matches starts with it
	bytes  [4]uint64 // the set of bytes of glob other than "*" (see mayCover)
	wild   bool      // the value has a "*"
	ascii  bool
}

func newPattern(r robots.Rule) *pattern {
	p := &pattern{rule: r, glob: globOf(r.Value), wild: strings.IndexByte(r.Value, '*') >= 0, ascii: isASCII(r.Value)}
	p.prefix = p.glob.base
	if i := strings.IndexByte(p.prefix, '*'); i >= 0 {
		p.prefix = p.prefix[:i]
	}
	for i := 0; i < len(p.glob.base); i++ {
		if c := p.glob.base[i]; c != '*' {
			p.bytes[c/64] |= 1 << (c % 64)
		}
	}
	return p
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

// pattern returns r prepared for comparison, made once per rule of the file.
func (f *file) pattern(r robots.Rule) *pattern {
	if r.Line < 1 || r.Line > len(f.lines) {
		return newPattern(r)
	}
	if f.pats == nil {
		f.pats = make([]*pattern, len(f.lines)+1)
	}
	if f.pats[r.Line] == nil {
		f.pats[r.Line] = newPattern(r)
	}
	return f.pats[r.Line]
}

// neverDecides reports whether the rule of p never decides in a set whose rules with
// the same value are same and whose ASCII rules with wildcards are wild, and why.
// groupOf maps each rule's line to its group.
func neverDecides(p *pattern, same []robots.Rule, wild *wildRules, groupOf map[int]int, budget *int) (verdict, bool) {
	r := p.rule
	for _, q := range same {
		if q.Line == r.Line || !beats(q, r) {
			continue
		}
		if q.Allow != r.Allow {
			return verdict{ConflictingRules, q}, true
		}
		// The same rule in another group naming the same crawler is what merging
		// groups does; repeated-agent speaks of it when it matters.
		if groupOf[q.Line] == groupOf[r.Line] {
			return verdict{DuplicateRule, q}, true
		}
		return verdict{}, false
	}
	// Only a value with "*" can cover a different value of at least the same length.
	// Values with non-ASCII bytes are compared by the parser after escaping, which can
	// change their length; they are left alone. So is an allow of ".../index.html",
	// which the parser widens to the directory.
	if !p.ascii || r.Allow && strings.Contains(r.Value, "/index.htm") || *budget <= 0 {
		return verdict{}, false // past the budget, the wildcard rules are not read again for each rule
	}
	// The candidates are the wildcard rules whose text before their first "*" starts
	// p's (the others cannot match it): those of each length of that text p has.
	// Which wins does not depend on the order they are read in, nor does the budget
	// they use (one per candidate).
	var best robots.Rule
	spent := false
	wild.candidates(p, func(q *pattern) bool {
		if q.rule.Line == r.Line || q.rule.Value == r.Value || !beats(q.rule, r) {
			return true
		}
		if *budget <= 0 {
			spent = true
			return false
		}
		*budget--
		if q.mayCover(p) && q.glob.match(p.glob) && (best.Line == 0 || beats(q.rule, best)) {
			best = q.rule
		}
		return true
	})
	if spent || best.Line == 0 {
		return verdict{}, false
	}
	if best.Allow != r.Allow {
		return verdict{ShadowedRule, best}, true
	}
	return verdict{RedundantRule, best}, true
}

// wildRules are the ASCII rules with wildcards of a rule set, by their text before
// the first "*" (pattern.prefix), so that a rule is compared only with those that
// can match it (a file of a thousand "/dir/*.ext" rules made each rule read them all).
// They are kept by a hash of that text (FNV-1a), which a rule computes for each
// length of its own text in one pass: a file whose wildcard rules have a thousand
// lengths of text costs no more than the text read. Two texts of one hash would only
// make a candidate more, which glob.match turns away.
type wildRules struct {
	byPrefix map[uint64][]*pattern
	lengths  []int // the lengths of the prefixes, ascending
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func (w *wildRules) add(p *pattern) {
	if w.byPrefix == nil {
		w.byPrefix = map[uint64][]*pattern{}
	}
	h := uint64(fnvOffset)
	for i := 0; i < len(p.prefix); i++ {
		h = (h ^ uint64(p.prefix[i])) * fnvPrime
	}
	w.byPrefix[h] = append(w.byPrefix[h], p)
	if i, found := slices.BinarySearch(w.lengths, len(p.prefix)); !found {
		w.lengths = slices.Insert(w.lengths, i, len(p.prefix))
	}
}

// candidates calls yield with each wildcard rule whose text before its first "*"
// starts p's (and, rarely, one of the same hash), shortest texts first; it stops
// when yield returns false.
func (w *wildRules) candidates(p *pattern, yield func(q *pattern) bool) {
	h, n := uint64(fnvOffset), 0
	for _, l := range w.lengths {
		if l > len(p.prefix) {
			return
		}
		for ; n < l; n++ {
			h = (h ^ uint64(p.prefix[n])) * fnvPrime
		}
		for _, q := range w.byPrefix[h] {
			if !yield(q) {
				return
			}
		}
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
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
