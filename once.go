package robots

import (
	"math/bits"
	"strings"

	"github.com/gorobots/robots/internal/precedence"
)

// CheckOnce decides one URL straight from a robots.txt body, as Parse(body,
// opts...).Check(agent, url) would, but in a single pass that keeps only the rules
// that apply to the agent and match the URL. Use it when a body serves one decision
// (a crawler that fetches robots.txt for a single URL); to decide many URLs, Parse once.
// Dialects other than Google fall back to Parse.
func CheckOnce(body []byte, agent, url string, opts ...Option) Decision {
	return decideOnce(body, url, agent, nil, opts)
}

// candidate is the best matching rule seen so far for one side (named or "*").
type candidate struct {
	n     int // pattern length: the priority
	allow bool
	line  int
	value string
	group int
}

func (c *candidate) offer(n int, allow bool, line int, value string, group int) {
	if c.line == 0 || precedence.Outranks(n, allow, line, c.n, c.allow, c.line) {
		*c = candidate{n, allow, line, value, group}
	}
}

// decideOnce is CheckOnce for the agent and, if any, more agents (as CheckAgents). The
// agents are passed apart so that CheckOnce's one agent needs no slice, which would be
// allocated: the reader keeps them.
func decideOnce(body []byte, url, agent string, more []string, opts []Option) Decision {
	o := options{maxBytes: DefaultMaxBytes}
	if len(opts) > 0 {
		o = readOptions(opts) // apart: the options escape to the heap when read
	}
	if o.dialect != Google {
		return Parse(body, opts...).CheckAgents(append([]string{agent}, more...), url)
	}
	if len(body) > o.maxBytes {
		body = body[:o.maxBytes]
	}
	s := view(body)
	// Whether the body has a NUL byte is not looked for: only the few lines classified
	// need to know, and classify searches them (a search of the whole body cost more).
	var pv pathView
	p, slash := splitPath(url)
	pv.set(p, slash, true) // its byte set is computed if a wildcard rule needs it
	pv.plain = -1          // computed if a rule line is to be skipped (reader.skipRules)
	budget := onceBudget + 64*len(body)
	gr := groupReader{decide: true,
		once: onceReader{agent: agent, more: more, pv: pv, firstNamed: -1, firstStar: -1, budget: budget, budget0: budget}}
	gr.readBody(s, Google)
	if gr.once.budget < 0 {
		// The wildcard rules that apply have read the path 64 times the body's length
		// over: the parsed file's rule set and its index (index.go) cost less.
		return Parse(body, opts...).CheckAgents(append([]string{agent}, more...), url)
	}
	return gr.once.decision()
}

// onceBudget is how many bytes of the path, beyond 64 times the body's length,
// CheckOnce lets the wildcard rules that apply read before it parses the body instead,
// whose index reads the path once: on a file of many wildcard rules and a long path the
// matcher would read the path for each (BenchmarkAdversarial, wild-once: 28,442 rules
// "/*xxxxx" and a 16 KB path cost 2.1 s, now 0.22 s; parsing and indexing 500 KiB cost
// more than the matcher on paths up to about 2 KB, hence the factor).
const onceBudget = 64 << 10

// readOptions returns the options opts set.
func readOptions(opts []Option) options {
	o := options{maxBytes: DefaultMaxBytes}
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// onceReader is what CheckOnce records of a body as groupReader reads it: whether the
// group being read applies to the agent, and the best rule seen so far on each side.
// Only the rules of the groups that apply are read past their name.
type onceReader struct {
	agent string
	more  []string // more agents, as CheckAgents's after the first
	pv    pathView

	named, star candidate
	cur         int  // the group being read
	firstNamed  int  // the first group naming an agent, -1 when none
	firstStar   int  // the first "*" group, -1 when none
	curNamed    bool // the group names an agent
	curStar     bool // the group is for "*"
	budget      int  // the bytes the matcher may still read (onceBudget); below 0, the reading stops
	budget0     int  // budget before the reading
}

// reset forgets what a first reading found, for a second (groupReader.readBody).
func (once *onceReader) reset() {
	*once = onceReader{agent: once.agent, more: once.more, pv: once.pv, firstNamed: -1, firstStar: -1,
		budget: once.budget0, budget0: once.budget0}
}

// applies reports whether the rules of the group being read count: it names the agent,
// or it is for "*" and no group has named the agent yet (once one has, the "*" groups
// no longer count).
func (once *onceReader) applies() bool {
	return once.curNamed || once.curStar && once.firstNamed < 0
}

// rule reads the rule line s[start:end] of a group that applies, of kind and name length
// n as reader.next returned them (l holds the line when n is 0: it was classified), and
// reports whether the reading is to go on: false once the budget has run out. Most rule
// lines of the groups that apply are "Disallow: /value" or "Allow: /value" whose value
// differs from the path in its first bytes: such a line is recognised by its name
// (reader.next), and its value compared with the path (cannotMatch), before the line is
// cut at its comment and classified, which most of them then need not be.
func (once *onceReader) rule(rd *reader, l *Line, start, end int, kind Kind, n int) bool {
	if n > 0 {
		if cannotMatch(trimLeft(cutLine(rd.s[start:end])[n+1:]), kind == KindAllow, &once.pv) {
			return true
		}
		rd.classify(l, start, end, kind, n)
	}
	if l.Value == "" || cannotMatch(l.Value, kind == KindAllow, &once.pv) {
		return true
	}
	once.offer(kind == KindAllow, l.Value, l.Num)
	return once.budget >= 0
}

// userAgent reads a user-agent line of group cur, of product token tok, or "*"
// (global); starts says it starts the group.
func (once *onceReader) userAgent(starts bool, cur int, tok string, global bool) {
	if starts {
		once.cur, once.curNamed, once.curStar = cur, false, false
	}
	switch {
	case global:
		once.curStar = true
		if once.firstStar < 0 {
			once.firstStar = cur
		}
	case once.names(tok):
		once.curNamed = true
		if once.firstNamed < 0 {
			once.firstNamed = cur
		}
	}
}

// names reports whether tok is one of the agents, in any case.
func (once *onceReader) names(tok string) bool {
	if equalFold(tok, once.agent) {
		return true
	}
	for _, a := range once.more {
		if equalFold(tok, a) {
			return true
		}
	}
	return false
}

// offer offers the rule on line num, of the group being read (which applies), to its
// side when it matches the path.
func (once *onceReader) offer(allow bool, value string, num int) {
	side := &once.star
	if once.curNamed { // a group naming the agent and "*" counts as naming it
		side = &once.named
	}
	pv := &once.pv
	pat := Google.compilePattern(value)
	shape := pat.shape()
	if shape == shapeWild {
		once.budget -= len(pv.s)
	}
	if (shape != shapeWild || pat.need()&^pv.byteSet() == 0) && pv.matchPattern(pat) {
		side.offer(len(pat.s), allow, num, value, once.cur)
	}
	if allow {
		if dir, ok := indexDir(pat.s); ok && pv.matchPattern(dir) {
			side.offer(len(dir.s), true, num, value, once.cur)
		}
	}
}

// decision is the decision of the body read.
func (once *onceReader) decision() Decision {
	d := Decision{Allowed: true, Group: -1}
	best := &once.named
	switch {
	case once.firstNamed >= 0:
		d.Group = once.firstNamed
	case once.firstStar >= 0:
		d.Group, d.Global, best = once.firstStar, true, &once.star
	default:
		return d
	}
	if best.line > 0 {
		d.Allowed = best.allow
		// The value is part of the caller's body (see view): the decision keeps a copy.
		d.Rule = Rule{Allow: best.allow, Value: strings.Clone(best.value), Line: best.line}
		d.Group = best.group
	}
	return d
}

// differsPlain reports whether a rule value whose first eight bytes are x (little-endian;
// they may run past the value's end, where no byte stands for itself: plainBytes)
// cannot match a path whose first eight bytes are w0, of which the first plain stand
// for themselves: they differ at a byte that stands for itself, after bytes that do
// (being the path's). It reports false when it cannot tell: the eight bytes are the
// path's, or the path's or the value's are not plain up to where they differ. An allow
// value naming an index.htm page is the caller's to leave to the matcher (see
// cannotMatch).
func differsPlain(x, w0 uint64, plain int) bool {
	d := x ^ w0
	i := bits.TrailingZeros64(d) >> 3 // 8 when d is 0
	return i <= plain && plainBytes[byte(x>>(8*i))]
}

// plainPrefix returns how many of the first bytes of w0, a path's first eight
// (little-endian, zero-padded), stand for themselves (plainBytes): differsPlain's plain.
func plainPrefix(w0 uint64) int {
	i := 0
	for i < 8 && plainBytes[byte(w0>>(8*i))] {
		i++
	}
	return i
}

// cannotMatch reports that the rule value v cannot match the path: the literal bytes
// it starts with differ from the path's. Most rules of a group fail here, before the
// cost of compiling them. Only the bytes before the first one that may be special
// (isSpecial: the value is not cut yet, so an end anchor is not known), that escaping may change ('%', non-ASCII), or that may end the value as
// written (white space, '#', NUL) are compared, so v may be the rest of a line as
// written, not yet cut at its comment. An allow value naming an index.htm page is
// left to the matcher, since the directory Google derives from it (indexDir) may
// match where the value does not.
func cannotMatch(v string, allow bool, pv *pathView) bool {
	path := pv.s
	if pv.slash { // the path is "/" + pv.s
		if v == "" || v[0] != '/' {
			return v != "" && plainBytes[v[0]]
		}
		v = v[1:]
	}
	i := 0
	for i < len(v) && i < len(path) && v[i] == path[i] && plainBytes[v[i]] {
		i++
	}
	if i == len(v) || !plainBytes[v[i]] {
		return false // a prefix of the path, as far as the bytes that stand for themselves go
	}
	return !allow || !strings.Contains(v, indexPage)
}

// plainBytes marks the bytes that stand for themselves in a compiled pattern and
// cannot end a value (see cannotMatch).
var plainBytes = func() (t [256]bool) {
	for c := range t {
		t[c] = c > ' ' && c < 0x7f && !isSpecial(byte(c)) && c != '%' && c != '#'
	}
	return t
}()
