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
	rd := onceReader{s: s, agent: agent, more: more, tokens: validToken(agent) && allTokens(more)}
	p, slash := splitPath(url)
	rd.pv.set(p, slash, true) // its byte set is computed if a wildcard rule needs it
	from := len(s) - len(skipBOM(s))
	if !rd.readLF(from) {
		// A CR ends a line by itself somewhere: read again with the scanner, which
		// knows every line end.
		rd = onceReader{s: s, agent: agent, more: more, tokens: rd.tokens, pv: rd.pv}
		rd.read(from)
	}
	return rd.decision()
}

// readOptions returns the options opts set.
func readOptions(opts []Option) options {
	o := options{maxBytes: DefaultMaxBytes}
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// allTokens reports whether every agent is a product token.
func allTokens(agents []string) bool {
	for _, a := range agents {
		if !validToken(a) {
			return false
		}
	}
	return true
}

// onceReader is CheckOnce's reading of a body: which group it is in, whether that
// group applies to the agent, and the best rule seen so far on each side.
//
// Only user-agent, allow and disallow lines count, and of these only user-agent lines
// while the rules read belong to no group or to a group that does not apply. Their
// field names start with u, a or d (misspellings too), in either case, after optional
// white space: every other line is passed over by its first byte (passOver).
type onceReader struct {
	s      string // the body, the caller's bytes (see view)
	agent  string
	more   []string // more agents, as CheckAgents's after the first
	tokens bool     // every agent is a product token (validToken): names compares them faster
	pv     pathView

	named, star candidate
	group       int   // the group being read, -1 before the first
	firstNamed  int   // the first group naming an agent, -1 when none
	firstStar   int   // the first "*" group, -1 when none
	inRules     bool  // a rule has been read since the group's user-agent lines
	curNamed    bool  // the group names an agent
	curStar     bool  // the group is for "*"
	rules       uint8 // what a line starting with a or d is to the reading (see ruleMode)
	l           Line
}

// What a line that starts with a or d, most likely an allow or disallow line, is to the
// reading: onceReader.rules, set from ruleMode wherever what it derives from changes (a
// user-agent line, the first rule of a group).
const (
	rulesPass = iota // nothing: there is no group yet, or its user-agent lines have ended and its rules do not count
	rulesEnd         // the end of the group's user-agent lines, which is read
	rulesRead        // a rule of the group, which counts and is read
)

// ruleMode returns what rd.rules should be.
func (rd *onceReader) ruleMode() uint8 {
	switch {
	case rd.group < 0:
		return rulesPass
	case rd.applies():
		return rulesRead
	case !rd.inRules:
		return rulesEnd
	}
	return rulesPass
}

// applies reports whether the rules of the group being read count: it names the agent,
// or it is for "*" and no group has named the agent yet (once one has, the "*" groups
// no longer count).
func (rd *onceReader) applies() bool {
	return rd.curNamed || rd.curStar && rd.firstNamed < 0
}

// What the reading (readLF, read) does with a line by its first byte, in each state of
// the reading (onceReader.rules): lineActs[rules][c]. Empty lines pass too (an empty
// line's first byte, for readLF, is its LF or the CR before it).
const (
	actPass  = iota // nothing: the line changes nothing
	actAgent        // read it as a user-agent line
	actEnd          // read it as the first rule of a group that does not apply
	actRead         // read it (line)
)

var lineActs = func() (t [3][256]uint8) {
	for rules := range t {
		for c := range 256 {
			a := uint8(actRead)
			switch {
			case passOver[c] || c == '\n' || c == '\r':
				a = actPass
			case c|0x20 == 'u':
				a = actAgent
			case c|0x20 == 'a' || c|0x20 == 'd':
				a = [...]uint8{rulesPass: actPass, rulesEnd: actEnd, rulesRead: actRead}[rules]
			}
			t[rules][c] = a
		}
	}
	return t
}()

// readLF reads the lines from pos, a line start, when they end in LF or CR LF, as most
// bodies' do: each line end costs one search (as grouper.skimLF). It reports false when
// some CR ends a line by itself; rd is then to be read again with read.
func (rd *onceReader) readLF(pos int) bool {
	s := rd.s
	crs := strings.Count(s, "\r")
	hasCR := crs > 0
	rd.group, rd.firstNamed, rd.firstStar, rd.rules = -1, -1, -1, rulesPass
	num := 0           // the lines read
	for pos < len(s) { // a last line that is empty changes nothing
		if rd.rules == rulesRead && (s[pos]|0x20 == 'd' || s[pos]|0x20 == 'a') {
			// Most rule lines of the groups that apply are "Disallow: /value" or "Allow:
			// /value" whose value differs from the path in its first bytes.
			var n int
			pos, n, crs = rd.passRules(pos, crs)
			num += n
			if pos >= len(s) {
				break
			}
		}
		num++
		start, end, found := pos, len(s), false
		if i := strings.IndexByte(s[pos:], '\n'); i >= 0 {
			end, found = pos+i, true
		}
		pos = end + 1
		if hasCR && found && end > start && s[end-1] == '\r' {
			end--
			crs--
		}
		// One look-up of the line's first byte, in the reading's state, passes over
		// most lines (an empty one's first byte is its LF, or the CR before it).
		switch lineActs[rd.rules][s[start]] {
		case actPass:
			continue
		case actAgent:
			if end-start >= 11 && end-start <= MaxLineBytes && userAgentKey(s, start) {
				rd.userAgentLine(start+11, end)
				continue
			}
		case actEnd:
			// The first rule of a group that does not apply: the group's user-agent
			// lines end, and its rules are passed over.
			if end-start >= 9 && ruleKey(s, start) {
				rd.inRules = true
				rd.rules = rd.ruleMode()
				continue
			}
		}
		rd.line(start, end, num, -2)
	}
	return crs == 0
}

// passRules passes over the rule lines from pos, a line start, that cannot match the
// path, for as long as they run, in a loop of their own: they are most lines of the
// groups that apply. Such a line starts with "disallow:" or "allow:" in any case, and
// the first eight bytes of its value (after the white space that follows the colon)
// differ from the path's at some byte, the value's bytes up to that one standing for
// themselves (plainByte). As in cannotMatch, an allow value naming an index.htm page is
// left to the matcher. The value is read as written, not yet cut at its comment: no byte
// that ends a line or a value is plain, so a value shorter than the path's first
// differing byte fails the comparison too. passRules returns where the first line it
// does not pass over starts (past len(s) when none is left), how many lines it passed
// over, and crs less the CRs that ended them (before their LF).
func (rd *onceReader) passRules(pos, crs int) (next, lines, crsLeft int) {
	s, w0 := rd.s, rd.pv.w0
	for ; pos+9 <= len(s); lines++ {
		w := u64(s, pos)
		v, allow := 0, false
		switch {
		case w|foldDisallow == wordDisallow && s[pos+8] == ':':
			v = pos + 9
		case w&keepAllowColon|foldAllowColon == wordAllowColon:
			v, allow = pos+6, true
		default:
			return pos, lines, crs
		}
		for v < len(s) && (s[v] == ' ' || s[v] == '\t') {
			v++
		}
		// Eight bytes are read from v, within s and before the line's cut (MaxLineBytes).
		if v+8 > len(s) || v+8 > pos+MaxLineBytes {
			return pos, lines, crs
		}
		x := u64(s, v)
		// The first byte that differs from the path, and the first that is not plain, as
		// byte offsets (8: none), computed without branches, whose outcome would depend on
		// each line's bytes.
		i := bits.TrailingZeros64(x^w0) / 8
		j := bits.TrailingZeros64(notPlain(x)) / 8
		if i >= j {
			return pos, lines, crs
		}
		// The line ends at the first LF from v+j, which is often that byte itself.
		lf := v + j
		if j == 8 || s[lf] != '\n' {
			if k := strings.IndexByte(s[lf:], '\n'); k >= 0 {
				lf += k
			} else {
				lf = len(s)
			}
		}
		if allow && strings.Contains(s[v:lf], "/index.htm") {
			return pos, lines, crs
		}
		if lf < len(s) && s[lf-1] == '\r' {
			crs--
		}
		rd.inRules = true
		pos = lf + 1
	}
	return pos, lines, crs
}

// notPlain returns a word whose lowest set bit is the high bit of the first byte of x
// (little-endian) that may not be plain (see plainByte), or 0 when all are plain. To
// take fewer steps it counts '!' and '"' as not plain too, with every byte below them
// and '#', '$', '%' just above: such a value is merely read in full. Bits above the
// lowest may be set wrongly (a borrow or carry from that byte): only it is to be read.
func notPlain(x uint64) uint64 {
	below := (x - '&'*ones) & ^x & highs // < '&': controls, white space, '!' to '%'
	above := ((x + ones) | x) & highs    // >= 0x7f: DEL, non-ASCII
	y := x ^ '*'*ones
	star := (y - ones) & ^y & highs
	return below | above | star
}

// read reads the lines from pos with the scanner, which ends a line at CR, LF or CR LF.
func (rd *onceReader) read(pos int) {
	var sc scanner
	sc.initAt(rd.s, pos, 0, false)
	rd.group, rd.firstNamed, rd.firstStar, rd.rules = -1, -1, -1, rulesPass
	for {
		start, end, ok := sc.line()
		if !ok {
			return
		}
		if end > start && lineActs[rd.rules][rd.s[start]] != actPass {
			rd.line(start, end, sc.num, sc.hash(start, end))
		}
	}
}

// line reads line num, s[start:end], which lineActs did not pass over. hash is where its
// first '#' is (see scanner.hash), or -2 when the line has not been searched for one.
func (rd *onceReader) line(start, end, num, hash int) {
	rd.readLine(start, end, num, hash)
	rd.rules = rd.ruleMode()
}

// readLine is line without the update of rd.rules.
func (rd *onceReader) readLine(start, end, num, hash int) {
	s := rd.s
	if end-start > MaxLineBytes {
		end = start + MaxLineBytes // as classify cuts it, before the value is compared below
	}
	text := s[start:end]
	if w := s[start] | 0x20; w == 'a' || w == 'd' {
		// Most allow and disallow lines are written "Disallow: /value": such a line is
		// recognised, and its value compared with the path, before the line is cut at
		// its comment and classified, which most of them then need not be.
		if kind, n := knownKey(text); n > 0 {
			if !rd.applies() || cannotMatch(trimLeft(text[n+1:]), kind == KindAllow, rd.pv) {
				rd.inRules = true
				return
			}
		}
	} else if end-start >= 11 && userAgentKey(s, start) {
		rd.userAgentLine(start+11, end)
		return
	}
	if hash == -2 {
		hash = strings.IndexByte(text, '#')
	}
	l := &rd.l
	classify(l, num, text, false, hash)
	switch l.Kind {
	case KindUserAgent:
		rd.userAgent(rd.names(l.Value), isGlobal(l.Value))
	case KindAllow, KindDisallow:
		if rd.group < 0 {
			return
		}
		rd.inRules = true
		if l.Value == "" || !rd.applies() || cannotMatch(l.Value, l.Kind == KindAllow, rd.pv) {
			return
		}
		rd.rule(l.Kind == KindAllow, l.Value, l.Num)
	}
}

// ruleKey reports whether the line at start, of at least 9 bytes, starts with
// "disallow:" or "allow:" in any case: the shape of most rule lines.
func ruleKey(s string, start int) bool {
	return ruleWord(u64(s, start), s[start+8])
}

// userAgentKey reports whether the line at start, of at least 11 bytes, starts with
// "user-agent:" in any case: the shape of most user-agent lines.
func userAgentKey(s string, start int) bool {
	return userAgentWord(u64(s, start), s[start+8:start+11])
}

// userAgentLine reads a user-agent line whose value starts at v (after the colon) and
// whose text ends at end, no more than MaxLineBytes after its start.
func (rd *onceReader) userAgentLine(v, end int) {
	s := rd.s
	for v < end && spaces[s[v]] {
		v++
	}
	if v < end && s[v] == '*' {
		// "*" alone, or followed by white space or by what ends the value (see
		// userAgentValue); any other value starting with '*' has an empty token.
		global := v+1 == end || spaces[s[v+1]] || s[v+1] == '#' || s[v+1] == 0
		rd.userAgent(!global && rd.names(""), global)
	} else {
		rd.userAgent(rd.names(s[v:end]), false)
	}
	rd.rules = rd.ruleMode()
}

// names reports whether the user-agent value v names one of the agents: its product
// token (leadingToken) is one of them, in any case.
func (rd *onceReader) names(v string) bool {
	if !rd.tokens {
		tok := leadingToken(v)
		if compareFold(tok, rd.agent) == 0 {
			return true
		}
		for _, a := range rd.more {
			if compareFold(tok, a) == 0 {
				return true
			}
		}
		return false
	}
	if startsToken(v, rd.agent) {
		return true
	}
	for _, a := range rd.more {
		if startsToken(v, a) {
			return true
		}
	}
	return false
}

// startsToken reports whether the product token of v is a, in any case, when a is a
// product token: v starts with a and the token ends there. Most values differ from a
// in their first byte.
func startsToken(v, a string) bool {
	return len(v) >= len(a) && foldCase[v[0]] == foldCase[a[0]] && (len(v) == len(a) || !tokenBytes[v[len(a)]]) &&
		equalFoldBytes(v[:len(a)], a)
}

// foldCase maps each byte to itself, ASCII upper-case letters to lower case.
var foldCase = func() (t [256]byte) {
	for c := range 256 {
		t[c] = lower(byte(c))
	}
	return t
}()

// equalFoldBytes reports whether a and b, of the same length, are equal in any ASCII case.
func equalFoldBytes(a, b string) bool {
	for i := 0; i < len(a); i++ {
		if foldCase[a[i]] != foldCase[b[i]] {
			return false
		}
	}
	return true
}

// userAgent reads a user-agent line that names one of the agents (named), or "*"
// (global), or neither.
func (rd *onceReader) userAgent(named, global bool) {
	if rd.group < 0 || rd.inRules {
		rd.group++
		rd.inRules, rd.curNamed, rd.curStar = false, false, false
	}
	if global {
		rd.curStar = true
		if rd.firstStar < 0 {
			rd.firstStar = rd.group
		}
	} else if named {
		rd.curNamed = true
		if rd.firstNamed < 0 {
			rd.firstNamed = rd.group
		}
	}
}

// rule offers the rule on line num, of the group being read (which applies), to its
// side when it matches the path.
func (rd *onceReader) rule(allow bool, value string, num int) {
	side := &rd.star
	if rd.curNamed { // a group naming the agent and "*" counts as naming it
		side = &rd.named
	}
	pv := &rd.pv
	pat, shape := Google.compilePattern(value)
	if (shape != shapeWild || needMask(pat)&^pv.byteSet() == 0) && pv.matches(shape, pat) {
		side.offer(len(pat), allow, num, value, rd.group)
	}
	if allow {
		if dir, ok := indexDir(pat); ok && pv.matches(shapeOf(dir), dir) {
			side.offer(len(dir), true, num, value, rd.group)
		}
	}
}

// decision is the decision of the body read.
func (rd *onceReader) decision() Decision {
	d := Decision{Allowed: true, Group: -1}
	best := &rd.named
	switch {
	case rd.firstNamed >= 0:
		d.Group = rd.firstNamed
	case rd.firstStar >= 0:
		d.Group, d.Global, best = rd.firstStar, true, &rd.star
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

// cannotMatch reports that the rule value v cannot match the path: the literal bytes
// it starts with differ from the path's. Most rules of a group fail here, before the
// cost of compiling them. Only the bytes before the first one that is special ('*',
// '$'), that escaping may change ('%', non-ASCII), or that may end the value as
// written (white space, '#', NUL) are compared, so v may be the rest of a line as
// written, not yet cut at its comment. An allow value naming an index.htm page is
// left to the matcher, since the directory Google derives from it (indexDir) may
// match where the value does not.
func cannotMatch(v string, allow bool, pv pathView) bool {
	path := pv.s
	if pv.slash { // the path is "/" + pv.s
		if v == "" || v[0] != '/' {
			return v != "" && plainByte(v[0])
		}
		v = v[1:]
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !plainByte(c) {
			return false
		}
		if i >= len(path) || path[i] != c {
			return !allow || !strings.Contains(v, "/index.htm")
		}
	}
	return false
}

// plainByte reports whether c stands for itself in a compiled pattern and cannot end
// a value (see cannotMatch).
func plainByte(c byte) bool {
	return c > ' ' && c < 0x7f && c != '*' && c != '$' && c != '%' && c != '#'
}

// trimLeft trims ASCII white space (C's isspace) from the start of s.
func trimLeft(s string) string {
	for len(s) > 0 && spaces[s[0]] {
		s = s[1:]
	}
	return s
}
