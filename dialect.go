package robots

import (
	"fmt"
	"slices"
	"strings"
)

// Dialect is an interpretation of robots.txt. The same file can mean different things
// to crawlers that follow different documents; [Google] is the default.
type Dialect uint8

const (
	// Google follows Google's reference parser and matcher (RFC 9309 with Google's
	// reading): accepted misspellings and missing colons, product tokens cut at the first
	// character outside [A-Za-z_-], groups naming a token merged, longest match wins and
	// allow wins ties, '*' and a final '$' are special, URLs are matched as given and rule
	// values have non-ASCII bytes percent-encoded.
	Google Dialect = iota

	// RFC9309 follows RFC 9309 §2.2.2–2.2.3 where it differs from Google: /robots.txt is
	// always allowed, and %xx escapes of unreserved characters (A–Z a–z 0–9 - . _ ~) are
	// decoded in both the URL and the rule before matching ("%62%61%7A" matches "baz"),
	// while escapes of reserved characters stay encoded; non-ASCII bytes in the URL are
	// percent-encoded like those in rules, and hex digits compare case-insensitively.
	// Everything else is as Google.
	RFC9309

	// Legacy1996 follows the 1996 draft "A Method for Robots Exclusion" (§3.2): fields
	// User-agent, Allow and Disallow spelt exactly (no misspellings, a colon required);
	// the first record whose user-agent equals the robot's name (case-insensitively,
	// without version) applies, else the "*" record; its rules are tried in file order and
	// the first match wins; a match is a plain prefix match ('*' and '$' are ordinary
	// characters) after %xx escapes are decoded in both, except %2F.
	//
	// Records are read as the draft's grammar (§3.3) draws them: "record *( 1*commentblank
	// 1*record )", where a blank line ("*space CRLF") ends a record and a comment line
	// does not. So a rule line after a blank line and before the next User-agent line
	// belongs to no record and is ignored, and a record whose User-agent lines are followed
	// by a blank line before any rule has no rules: the robots it names may fetch
	// everything, and do not fall back to the "*" record, which is for robots "for which
	// no explicit User-agent line can be found in any of the records". (The grammar wants
	// at least one rule line per record; a record without one is read as one that
	// excludes nothing, as Legacy1994 reads a record without a Disallow line.) Fields the
	// draft does not define (Crawl-delay, Sitemap, …) are skipped and neither start nor
	// end a record. A User-agent line straight after a rule line, which the grammar does
	// not allow, starts a new record, as Google does.
	Legacy1996

	// Legacy1994 follows the 1994 "Standard for Robot Exclusion": only User-agent and
	// Disallow (Allow is an unknown field); the first record whose user-agent value is a
	// case-insensitive substring of the robot's name applies ("sidewinder" applies to
	// "Infoseek-Sidewinder"), else the "*" record; a URL is disallowed when its path
	// starts with a Disallow value, octet for octet; an empty Disallow allows everything.
	//
	// "The file consists of one or more records separated by one or more blank lines":
	// a blank line (nothing but white space) ends a record, and "lines containing only a
	// comment are ignored completely", so they do not. A Disallow line after a blank line
	// and before the next User-agent line belongs to no record and is ignored.
	// "Unrecognised headers are ignored", Allow among them. A User-agent line straight
	// after a Disallow line starts a new record, as Google does.
	//
	// The standard says "at least one Disallow field needs to be present in a record",
	// but not what a robot should make of a record without one (User-agent lines followed
	// by a blank line, or only by lines it does not know, such as Allow). Such a record
	// still applies to the robots it names, and disallows nothing: the "*" record is "the
	// default access policy for any robot that has not matched any of the other records",
	// and this robot has matched one; a record that names no partial URL "not to be
	// visited" excludes nothing, as "Disallow:" with an empty value, which the standard
	// says "indicates that all URLs can be retrieved". Falling back to the "*" record
	// instead would give the robot rules the file wrote for other robots, which is the
	// mistake this reading exists to avoid. Legacy1996 reads such a record the same way,
	// and Google a group with no rules.
	Legacy1994
)

// Dialects returns every dialect, the default first. The slice is the caller's.
func Dialects() []Dialect {
	return []Dialect{Google, RFC9309, Legacy1996, Legacy1994}
}

var dialectNames = [...]string{"google", "rfc9309", "legacy1996", "legacy1994"}

func (d Dialect) String() string {
	if int(d) < len(dialectNames) {
		return dialectNames[d]
	}
	return fmt.Sprintf("dialect(%d)", int(d))
}

// ParseDialect returns the dialect with the given name: "google", "rfc9309",
// "legacy1996" or "legacy1994" ("" means google).
func ParseDialect(name string) (Dialect, error) {
	if name == "" {
		return Google, nil
	}
	for i, n := range dialectNames {
		if strings.EqualFold(name, n) {
			return Dialect(i), nil
		}
	}
	return Google, fmt.Errorf("unknown dialect %q (want one of %s)", name, strings.Join(dialectNames[:], ", "))
}

// WithDialect makes Parse and the decisions of the result follow dialect d.
func WithDialect(d Dialect) Option {
	return func(o *options) {
		if int(d) < len(dialectNames) {
			o.dialect = d
		}
	}
}

// Dialect returns the dialect r was parsed with.
func (r *Robots) Dialect() Dialect {
	if r == nil {
		return Google
	}
	return r.opts.dialect
}

func (d Dialect) legacy() bool { return d == Legacy1996 || d == Legacy1994 }

// legacyKind recognises field names the way the old documents define them: exactly,
// ignoring case.
func legacyKind(d Dialect, key string) Kind {
	switch {
	case equalFold(key, "user-agent"):
		return KindUserAgent
	case equalFold(key, "disallow"):
		return KindDisallow
	case equalFold(key, "allow") && d == Legacy1996:
		return KindAllow
	case equalFold(key, "sitemap"):
		return KindSitemap
	}
	for _, f := range otherFields {
		if equalFold(key, f) {
			return KindOther
		}
	}
	return KindUnknown
}

// compilePattern turns a rule value into the pattern matched and its shape.
func (d Dialect) compilePattern(v string) (string, uint8) {
	switch d {
	case RFC9309:
		p := normalizeRFC(v)
		return p, shapeOf(p)
	case Legacy1996:
		return decode1996(v), shapePrefix
	case Legacy1994:
		return v, shapePrefix
	}
	// Most values need no escaping (eight bytes at a time tell) and have no '*'
	// (a vectorised search tells).
	if !plainASCII(v) {
		v = escapePattern(v)
	}
	if strings.IndexByte(v, '*') >= 0 {
		return v, shapeWild
	}
	if v != "" && v[len(v)-1] == '$' {
		return v, shapeExact
	}
	return v, shapePrefix
}

// matchPath turns the path of a URL into what the dialect's patterns are matched against.
func (d Dialect) matchPath(p string) string {
	switch d {
	case RFC9309:
		return normalizeRFC(p)
	case Legacy1996:
		return decode1996(p)
	}
	return p
}

func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// normalizeRFC applies RFC 9309 §2.2.2: %xx of unreserved characters decoded, other
// escapes with upper-case hex, non-ASCII bytes percent-encoded. It returns s itself
// when nothing changes.
func normalizeRFC(s string) string {
	return rewriteEscapes(s, isUnreserved, true)
}

// decode1996 applies the 1996 draft's comparison rule: %xx decoded, except %2F.
func decode1996(s string) string {
	return rewriteEscapes(s, func(c byte) bool { return c != '/' }, false)
}

// rewriteEscapes decodes the %xx escapes whose byte satisfies decode (none when decode
// is nil), upper-cases the hex of the others and, if encodeHigh, percent-encodes bytes
// outside US-ASCII. It returns s itself when that changes nothing.
func rewriteEscapes(s string, decode func(byte) bool, encodeHigh bool) string {
	i := firstRewrite(s, decode, encodeHigh)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			v := unhex(s[i+1])<<4 | unhex(s[i+2])
			if decode != nil && decode(v) {
				b.WriteByte(v)
			} else {
				b.WriteByte('%')
				b.WriteByte(toUpper(s[i+1]))
				b.WriteByte(toUpper(s[i+2]))
			}
			i += 2
		case encodeHigh && c >= 0x80:
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// firstRewrite returns the index of the first byte of s that rewriteEscapes changes,
// or -1.
func firstRewrite(s string, decode func(byte) bool, encodeHigh bool) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			if decode != nil && decode(unhex(s[i+1])<<4|unhex(s[i+2])) ||
				s[i+1] != toUpper(s[i+1]) || s[i+2] != toUpper(s[i+2]) {
				return i
			}
			i += 2
		case encodeHigh && c >= 0x80:
			return i
		}
	}
	return -1
}

// legacyName is the robot name of a user-agent value, without version information.
func legacyName(v string) string {
	if i := strings.IndexAny(v, "/ \t"); i >= 0 {
		v = v[:i]
	}
	return v
}

// legacyAgentMatches reports whether a user-agent value of the file names the robot.
// Case is ignored in ASCII letters only, as everywhere in this package: Unicode case
// folding would take any two invalid UTF-8 bytes for the same letter.
func (d Dialect) legacyAgentMatches(value, robot string) bool {
	name := legacyName(value)
	if name == "" || name == "*" {
		return false
	}
	if d == Legacy1994 {
		for i := 0; i+len(name) <= len(robot); i++ { // a substring of the robot's name
			if compareFold(robot[i:i+len(name)], name) == 0 {
				return true
			}
		}
		return false
	}
	return compareFold(name, legacyName(robot)) == 0
}

// legacyGroup finds the record that applies in the old dialects: the first naming the
// robot (any of its names), else the first "*" record.
func (r *Robots) legacyGroup(agents []string) (int, bool) {
	d := r.details()
	for gi, sp := range d.spans {
		for _, a := range d.agents[sp.agentLo:sp.agentHi] {
			if slices.ContainsFunc(agents, func(robot string) bool { return r.opts.dialect.legacyAgentMatches(a.Name, robot) }) {
				return gi, false
			}
		}
	}
	for gi, sp := range d.spans {
		if slices.ContainsFunc(d.agents[sp.agentLo:sp.agentHi], func(a Agent) bool { return legacyName(a.Name) == "*" }) {
			return gi, true
		}
	}
	return -1, false
}
