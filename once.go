package robots

import (
	"strings"

	"github.com/gorobots/robots/internal/precedence"
)

// CheckOnce decides one URL straight from a robots.txt body, as Parse(body,
// opts...).Check(agent, url) would, but in a single pass that keeps only the rules
// that apply to the agent and match the URL. Use it when a body serves one decision
// (a crawler that fetches robots.txt for a single URL); to decide many URLs, Parse once.
// Dialects other than Google fall back to Parse.
func CheckOnce(body []byte, agent, url string, opts ...Option) Decision {
	return decideOnce(body, url, []string{agent}, opts)
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

func decideOnce(body []byte, url string, agents []string, opts []Option) Decision {
	o := options{maxBytes: DefaultMaxBytes}
	for _, opt := range opts {
		opt(&o)
	}
	if o.dialect != Google {
		return Parse(body, opts...).CheckAgents(agents, url)
	}
	if len(body) > o.maxBytes {
		body = body[:o.maxBytes]
	}
	p, slash := splitPath(url)
	pv := newPathView(p, slash)
	var named, star candidate
	group, firstNamed, firstStar := -1, -1, -1
	inRules, curNamed, curStar := false, false, false
	var sc scanner
	sc.init(view(body))
	s := sc.s
	var l Line
	for {
		start, end, ok := sc.line()
		if !ok {
			break
		}
		// Only user-agent, allow and disallow lines count, and of these only user-agent
		// lines while the rules read belong to no group or to a group that does not
		// apply. Their field names start with u, a or d (misspellings too), in either
		// case, after optional white space: every other line is passed over unread.
		if start == end {
			continue
		}
		c := s[start]
		rules := group >= 0 && (!inRules || curNamed || curStar && firstNamed < 0)
		if c|0x20 != 'u' && !spaces[c] && !(rules && (c|0x20 == 'a' || c|0x20 == 'd')) {
			continue
		}
		if rules && c|0x20 != 'u' && !spaces[c] {
			// Most allow and disallow lines are written "Disallow: /value": such a line
			// is recognised, and its value compared with the path, before the line is cut
			// at its comment and classified, which most of them then need not be.
			text := s[start:end]
			if kind, n := knownKey(text); n > 0 {
				applies := curNamed || curStar && firstNamed < 0
				if !applies || cannotMatch(trimLeft(text[n+1:]), kind == KindAllow, pv) {
					inRules = true
					continue
				}
			}
		}
		classify(&l, sc.num, s[start:end], sc.noNUL, sc.hash(start, end))
		switch l.Kind {
		case KindUserAgent:
			if group < 0 || inRules {
				group++
				inRules, curNamed, curStar = false, false, false
			}
			if isGlobal(l.Value) {
				curStar = true
				if firstStar < 0 {
					firstStar = group
				}
				continue
			}
			tok := leadingToken(l.Value)
			for _, a := range agents {
				if compareFold(tok, a) == 0 {
					curNamed = true
					if firstNamed < 0 {
						firstNamed = group
					}
					break
				}
			}
		case KindAllow, KindDisallow:
			if group < 0 {
				continue
			}
			inRules = true
			// Once a group names the agent, the "*" groups no longer count.
			if l.Value == "" || !curNamed && (!curStar || firstNamed >= 0) {
				continue
			}
			if cannotMatch(l.Value, l.Kind == KindAllow, pv) {
				continue
			}
			side := &star
			if curNamed { // a group naming the agent and "*" counts as naming it
				side = &named
			}
			allow := l.Kind == KindAllow
			pat, shape := Google.compilePattern(l.Value)
			if (shape != shapeWild || needMask(pat)&^pv.mask == 0) && pv.matches(shape, pat) {
				side.offer(len(pat), allow, l.Num, l.Value, group)
			}
			if allow {
				if dir, ok := indexDir(pat); ok && pv.matches(shapeOf(dir), dir) {
					side.offer(len(dir), true, l.Num, l.Value, group)
				}
			}
		}
	}
	d := Decision{Allowed: true, Group: -1}
	best := &named
	switch {
	case firstNamed >= 0:
		d.Group = firstNamed
	case firstStar >= 0:
		d.Group, d.Global, best = firstStar, true, &star
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
