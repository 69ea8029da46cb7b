package robots

import (
	"fmt"
	"strconv"
	"strings"
)

// The slow reference: a plain transcription of the documents (SPEC.md in the shared
// directory, and the 1994, 1996 and RFC 9309 texts it summarises) that shares no code
// with the package: not its reader, its escaping, its matcher or its precedence rule.
// It reads a file into groups of rules as written and decides by walking every rule of
// the groups that apply. It is slow and meant to be obvious; TestSlowReference* run it
// against the package on every conformance case and on the corpus. It reads lines with
// refScan (scanref_test.go), and matches with slowMatch and takes a URL's path with
// slowPathOf (reference_test.go), all three transcriptions too.

// refGroup is a group (Google, RFC 9309) or a record (the legacy dialects) of a file.
type refGroup struct {
	agents []string // the user-agent values as written
	rules  []refRule
}

// refRule is an allow or disallow line with a non-empty value.
type refRule struct {
	allow bool
	value string // as written
	line  int
	pat   string // the value as the dialect compares it (refPattern)
}

// refGoogleKinds is what the kinds of lines refScan reads are to refParse.
var refGoogleKinds = map[Kind]refKind{KindBlank: refBlank, KindUserAgent: refAgent, KindAllow: refAllow, KindDisallow: refDisallow}

// refKind is what a line is to the reference.
type refKind int

const (
	refOther   refKind = iota // any other field, or a line that is no field
	refBlank                  // nothing but white space: ends a record in the legacy dialects
	refComment                // nothing but a comment (and white space)
	refAgent
	refAllow
	refDisallow
	refUsage // a Content-Usage line in RFC 9309: a rule (draft-ietf-aipref-attach), but not an access rule
)

// refSpace is C's isspace, which Google's parser uses to trim keys and values.
func refSpace(r rune) bool { return strings.ContainsRune(" \t\n\v\f\r", r) }

// refLowerASCII lower-cases the ASCII letters of s only, as the protocol compares names.
func refLowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

// refLegacyLine reads a line as the 1994 standard and the 1996 draft define it:
// "<field>:<optionalspace><value><optionalspace>", the field name exact but of any case
// (white space around it tolerated, as "robots should be liberal in accepting files"),
// '#' starting a comment ("any preceding space and the remainder of the line ... is
// ignored"). The 1994 standard knows User-agent and Disallow; the draft adds Allow.
func refLegacyLine(d Dialect, line string) (refKind, string) {
	comment := false
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line, comment = line[:i], true
	}
	if strings.TrimFunc(line, refSpace) == "" {
		if comment {
			return refComment, "" // "Lines containing only a comment are ignored completely"
		}
		return refBlank, ""
	}
	field, value, found := strings.Cut(line, ":")
	if !found {
		return refOther, ""
	}
	value = strings.TrimFunc(value, refSpace)
	switch refLowerASCII(strings.TrimFunc(field, refSpace)) {
	case "user-agent":
		return refAgent, value
	case "disallow":
		return refDisallow, value
	case "allow":
		if d == Legacy1996 {
			return refAllow, value
		}
	}
	return refOther, value
}

// refParse reads the groups of a file. Google and RFC 9309 (SPEC.md §4): a group is one
// or more user-agent lines and the rules after them, a user-agent line after a rule
// starts a new group, and rules before the first group are ignored. The legacy
// dialects read records as their documents define them: "records separated by one or
// more blank lines" (1994; 1996: "blank = *space CRLF"), a record starting with its
// user-agent lines; comment lines end nothing; a rule outside a record is ignored.
// draft-ietf-aipref-attach, which updates RFC 9309, adds Content-Usage to its rules
// ("rule =/ content-usage"): under RFC 9309 a Content-Usage line ends the user-agent
// lines of its group as an allow line does, and restricts nothing. Google's parser
// reads it as an unused directive, which ends nothing.
func refParse(body []byte, d Dialect) []refGroup {
	if len(body) > DefaultMaxBytes {
		body = body[:DefaultMaxBytes] // SPEC.md §2: content past the limit is ignored
	}
	var groups []refGroup
	open, inRules := false, false // a group is open; it has seen a rule line
	for i, l := range refScan(string(body)) {
		var kind refKind
		var value string
		if d.legacy() {
			text, _, _ := strings.Cut(l.Text, "\x00") // the line as Google's parser reads it
			kind, value = refLegacyLine(d, text)
		} else {
			kind, value = refGoogleKinds[l.Kind], l.Value
			if d == RFC9309 && l.Kind == KindOther && refLowerASCII(l.Key) == "content-usage" {
				kind = refUsage
			}
		}
		switch kind {
		case refBlank:
			if d.legacy() {
				open = false
			}
		case refAgent:
			if !open || inRules {
				groups = append(groups, refGroup{})
				open, inRules = true, false
			}
			g := &groups[len(groups)-1]
			g.agents = append(g.agents, value)
		case refAllow, refDisallow, refUsage:
			if !open {
				continue
			}
			inRules = true
			if value == "" || kind == refUsage {
				continue // "Disallow:" with no value restricts nothing
			}
			g := &groups[len(groups)-1]
			g.rules = append(g.rules, refRule{kind == refAllow, value, i + 1, refPattern(d, value, false)})
		}
	}
	return groups
}

// refHex is the upper-case %XX escape of c.
func refHex(c byte) string { return fmt.Sprintf("%%%02X", c) }

// refRewrite rewrites the %xx escapes and the bytes outside US-ASCII of s for
// comparison: an escape whose byte keep says to decode is decoded, other escapes are
// written with upper-case hex (hex digits compare case-insensitively), and, if
// encodeHigh, a byte outside US-ASCII is percent-encoded.
func refRewrite(s string, decode func(byte) bool, encodeHigh bool) string {
	var out strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				v := byte(n)
				if decode(v) {
					out.WriteByte(v)
				} else {
					out.WriteString(refHex(v))
				}
				i += 2
				continue
			}
		}
		if encodeHigh && s[i] >= 0x80 {
			out.WriteString(refHex(s[i]))
			continue
		}
		out.WriteByte(s[i])
	}
	return out.String()
}

// refPattern is what a rule value, or with isPath a URL's path, is compared as.
// Google (SPEC.md §5): bytes outside US-ASCII percent-encoded, escapes with upper-case
// hex; the path as given. RFC 9309 §2.2.2 also decodes escapes of unreserved
// characters, in the path too. The 1996 draft decodes every escape except %2F; the 1994
// standard compares octet for octet.
func refPattern(d Dialect, s string, isPath bool) string {
	unreserved := func(c byte) bool {
		return strings.IndexByte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~", c) >= 0
	}
	switch d {
	case Google:
		if isPath {
			return s
		}
		return refRewrite(s, func(byte) bool { return false }, true)
	case RFC9309:
		return refRFC9309(refRewrite(s, unreserved, true), isPath)
	case Legacy1996:
		return refRewrite(s, func(c byte) bool { return c != '/' }, false)
	}
	return s
}

// refRFC9309 percent-encodes the reserved characters (RFC 3986 §2.2) of s, a path and
// query whose escapes are already rewritten, where they are data: all but '/' in the
// path, the '?' that starts the query, and '=' and '&' in the query; a rule's '*' and
// final '$' are RFC 9309 §2.2.3's special characters and stay.
func refRFC9309(s string, isPath bool) string {
	path, query, hasQuery := strings.Cut(s, "?")
	enc := func(part, keep string, last bool) string {
		var out strings.Builder
		for i := 0; i < len(part); i++ {
			c := part[i]
			special := !isPath && (c == '*' || c == '$' && last && i == len(part)-1)
			if strings.IndexByte(":/?#[]@!$&'()*+,;=", c) >= 0 && strings.IndexByte(keep, c) < 0 && !special {
				out.WriteString(refHex(c))
			} else {
				out.WriteByte(c)
			}
		}
		return out.String()
	}
	out := enc(path, "/", !hasQuery)
	if hasQuery {
		out += "?" + enc(query, "=&", true)
	}
	return out
}

// refToken is the product token Google compares of a user-agent value: the leading run
// of [A-Za-z_-].
func refToken(v string) string {
	end := strings.IndexFunc(v, func(r rune) bool {
		return !(r == '-' || r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z')
	})
	if end < 0 {
		return v
	}
	return v[:end]
}

// refLegacyName is a user-agent value or a robot's name "without version information":
// up to the first '/' or white space.
func refLegacyName(v string) string {
	if i := strings.IndexAny(v, "/ \t"); i >= 0 {
		return v[:i]
	}
	return v
}

// refNames reports whether a user-agent value of the file names the crawler, which
// answers to any of agents, and whether it is the catch-all.
func refNames(d Dialect, value string, agents []string) (named, star bool) {
	if d.legacy() {
		name := refLegacyName(value)
		if name == "*" {
			return false, true
		}
		for _, a := range agents {
			switch {
			case name == "":
			case d == Legacy1994 && strings.Contains(refLowerASCII(a), refLowerASCII(name)):
				named = true // "A case insensitive substring match of the name"
			case d == Legacy1996 && refLowerASCII(name) == refLowerASCII(refLegacyName(a)):
				named = true // "The name comparisons are case-insensitive"
			}
		}
		return named, false
	}
	// Google: "*", alone or followed by white space, is the catch-all.
	if value == "*" || strings.HasPrefix(value, "*") && refSpace(rune(value[1])) {
		return false, true
	}
	tok := refLowerASCII(refToken(value))
	for _, a := range agents {
		if tok == refLowerASCII(a) {
			named = true
		}
	}
	return named, false
}

// refAllowed is the reference's verdict on a file's text for one crawler; the
// dialect tests check it against the documents' own examples.
func refAllowed(body string, d Dialect, agent, url string) bool {
	return refDecide(refParse([]byte(body), d), d, []string{agent}, url).Allowed
}

// refDecide decides url for a crawler answering to agents, as the documents say.
//
// Google and RFC 9309 (SPEC.md §4–5): the groups naming the crawler apply, merged; if
// none does, the "*" groups, merged; if neither exists, nothing is disallowed. Of the
// rules of the groups that apply, those whose pattern matches the path (slowMatch: '*'
// any run, a final '$' the end) compete: the longest pattern (in octets, after escaping)
// wins, allow wins a tie, and the first line wins a full tie (Google's matcher keeps the
// first of equal priority). An allow rule whose pattern's last segment starts with
// "index.htm" also allows its directory (".../$", Google's reading). RFC 9309 §2.2.2:
// /robots.txt is always allowed.
//
// Legacy: the first record naming the crawler applies, else the first "*" record; its
// rules are tried in order and the first whose pattern is a prefix of the path decides
// (1996 §3.2.2; in 1994 there are only Disallow rules).
//
// Group is the group whose rule decided, else the first group (in file order) that
// applied; Global says that the "*" groups applied.
func refDecide(groups []refGroup, d Dialect, agents []string, url string) Decision {
	none := Decision{Allowed: true, Group: -1}
	path := refPattern(d, slowPathOf(url), true)
	if d == RFC9309 {
		if p, _, _ := strings.Cut(path, "?"); p == "/robots.txt" {
			return none
		}
	}
	var named, star []int
	for gi, g := range groups {
		isNamed, isStar := false, false
		for _, v := range g.agents {
			n, s := refNames(d, v, agents)
			isNamed, isStar = isNamed || n, isStar || s
		}
		if isNamed {
			named = append(named, gi)
		}
		if isStar {
			star = append(star, gi)
		}
	}
	apply, global := named, false
	if len(apply) == 0 {
		apply, global = star, true
	}
	if len(apply) == 0 {
		return none
	}
	if d.legacy() {
		apply = apply[:1] // one record applies
	}
	dec := Decision{Allowed: true, Group: apply[0], Global: global}
	if d.legacy() {
		for _, r := range groups[apply[0]].rules {
			if strings.HasPrefix(path, r.pat) {
				dec.Allowed, dec.Rule = r.allow, Rule{Allow: r.allow, Value: r.value, Line: r.line}
				break
			}
		}
		return dec
	}
	bestLen, bestGroup := -1, -1
	var best refRule
	consider := func(gi int, r refRule, pat string) {
		// A pattern matches from the start of the path, so the path starts with what
		// comes before its first '*' (but for a final '$'): a quick test before slowMatch.
		lit, _, wild := strings.Cut(pat, "*")
		if !wild {
			lit = strings.TrimSuffix(lit, "$")
		}
		if !strings.HasPrefix(path, lit) || !slowMatch(pat, path) {
			return
		}
		better := len(pat) > bestLen ||
			len(pat) == bestLen && r.allow && !best.allow ||
			len(pat) == bestLen && r.allow == best.allow && r.line < best.line
		if better {
			bestLen, best, bestGroup = len(pat), r, gi
		}
	}
	for _, gi := range apply {
		for _, r := range groups[gi].rules {
			pat := r.pat
			consider(gi, r, pat)
			if slash := strings.LastIndex(pat, "/"); r.allow && slash >= 0 && strings.HasPrefix(pat[slash:], "/index.htm") {
				consider(gi, r, pat[:slash+1]+"$")
			}
		}
	}
	if bestLen >= 0 {
		dec.Allowed, dec.Rule, dec.Group = best.allow, Rule{Allow: best.allow, Value: best.value, Line: best.line}, bestGroup
	}
	return dec
}
