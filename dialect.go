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
	//
	// Google's page and Google's parser disagree on lines the page calls invalid: the page
	// says a line is "<field>:<value><#optional-comment>", while the parser reads
	// "Disallow /x" (no colon) and "Dissallow: /x" (a misspelling) as disallow rules
	// (the conformance data's accepted-mistakes cases). This reading takes the parser's
	// side: it is what Googlebot does with the file, the page describes how to write a
	// valid file rather than what the crawler makes of an invalid one, and the conformance
	// data is the executable form of Google's reading. Lint reports such lines
	// (misspelled-field) because other crawlers skip them.
	//
	// Content-Usage lines (the IETF AI Preferences drafts) and Content-Signal lines
	// (Cloudflare's Content Signals Policy), which Google's crawlers ignore, are read for
	// Robots.Usage as lines of their group; as in Google's parser, they do not end a
	// group's user-agent lines.
	Google Dialect = iota

	// RFC9309 follows RFC 9309 §2.2.2–2.2.3 (draft-koster-rep-00) where it differs from
	// Google: /robots.txt is always allowed ("The /robots.txt URI is implicitly
	// allowed"), and the URL's path and query and each rule's value are compared in one
	// canonical form, which both sides are rewritten to:
	//
	//   - "If a percent-encoded US-ASCII octet is encountered in the URI, it MUST be
	//     unencoded prior to comparison, unless it is a reserved character": %xx of
	//     unreserved characters (A–Z a–z 0–9 - . _ ~) are decoded ("%62%61%7A" matches
	//     "baz"); other escapes stay encoded, their hex compared case-insensitively.
	//   - "Octets … outside the range of the US-ASCII coded character set, and those in the
	//     reserved range defined by RFC3986, MUST be percent-encoded as defined by RFC3986
	//     prior to comparison": non-ASCII bytes are percent-encoded, and so are reserved
	//     characters (":/?#[]@!$&'()*+,;=") where they are data, that is everywhere except
	//     the path's '/', the '?' that starts the query, and the query's '=' and '&'.
	//   - §2.2.3: in a rule, '*' and a final '$' are the special characters and stay;
	//     "If crawlers match special characters verbatim in the URI, crawlers SHOULD use
	//     "%" encoding", so "%2A" in a rule matches a literal '*' in the URL and "%24" a
	//     literal '$' (a '$' inside a rule, which Google reads as a literal, is encoded).
	//
	// The draft's sentence and its table disagree: read alone, the sentence encodes every
	// reserved octet, while the table leaves "/foo/bar?baz=quz" as it is and encodes
	// "/foo/bar?baz=http://foo.bar" as "/foo/bar?baz=http%3A%2F%2Ffoo.bar", only the
	// query value's ':' and '/'. This reading takes the table's side, which is the
	// sentence's "as defined by RFC3986": RFC 3986 §2.2 percent-encodes a reserved
	// character when it is data and never when it delimits a component ("/" between
	// segments, "?" before the query, "=" and "&" between a query's names and values),
	// and it keeps a delimiter and its escape apart ("/a%2Fb" is not "/a/b"), which
	// encoding every reserved octet would merge. So a rule written either way matches a
	// URL written either way: "/foo/bar?baz=http%3A%2F%2Ffoo.bar" matches the URL
	// "/foo/bar?baz=http://foo.bar" and the reverse, and "/path/file-with-a-%2A.html"
	// matches ".../path/file-with-a-*.html". Everything else is as Google, including the
	// misspellings and missing colons its parser accepts: the draft's grammar asks
	// readers to "be lenient when reading lines that don't conform. Apply Postel's law".
	// Package fetch reads its access rules with this dialect: a file that was fetched
	// lives at most 24 hours, "unless the robots.txt is unreachable" (§2.4).
	//
	// Content-Usage lines (draft-ietf-aipref-attach-05, which updates RFC 9309) and
	// Content-Signal lines are read for Robots.Usage as under Google. The draft makes
	// Content-Usage a rule of the group ("rule =/ content-usage"), and RFC 9309 draws a
	// group as user-agent lines "followed by rules", so a Content-Usage line ends the
	// group's user-agent lines as an allow line does: in
	//
	//   User-agent: a
	//   Content-Usage: train-ai=n
	//   User-agent: b
	//   Disallow: /
	//
	// this reading sees two groups, a with the Content-Usage rule and no access rule
	// (a may fetch everything), and b with Disallow: / (Google's sees one group naming
	// a and b, both kept out). Every reading of groups follows it: decisions, Groups,
	// GroupsFor, Usage and CrawlDelay. Like a rule, a Content-Usage line before the
	// first user-agent line belongs to no group; unlike allow and disallow, it gets no
	// rule-outside-group diagnostic (lint reports it as usage-no-effect). Content-Signal,
	// which no RFC 9309 document names, ends nothing, as under Google. Lines still calls
	// a Content-Usage line KindOther: it reads as Google's parser does.
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
	// not allow, starts a new record, as Google does. Package fetch reads the draft's
	// access rules with this dialect: redirects are followed "until a resource can be
	// found" (§3.1), up to a safety limit of 20 and never round a loop. The draft knows
	// neither Content-Usage nor Content-Signal: Robots.Usage reads no preference.
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
	// and Google a group with no rules. The standard knows neither Content-Usage nor
	// Content-Signal: Robots.Usage reads no preference.
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
		if equalFold(name, n) {
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
	return r.dialect
}

func (d Dialect) legacy() bool { return d == Legacy1996 || d == Legacy1994 }

// compilePattern turns a rule value into the pattern matched.
func (d Dialect) compilePattern(v string) pattern {
	switch d {
	case RFC9309:
		return readPattern(canonRFC(v, true))
	case Legacy1996:
		return literalPattern(decode1996(v))
	case Legacy1994:
		return literalPattern(v)
	}
	// Most values need no escaping (eight bytes at a time tell).
	if !plainASCII(v) {
		v = escapePattern(v)
	}
	return readPattern(v)
}

// matchPath turns the path of a URL into what the dialect's patterns are matched against.
func (d Dialect) matchPath(p string) string {
	switch d {
	case RFC9309:
		return canonRFC(p, false)
	case Legacy1996:
		return decode1996(p)
	}
	return p
}

func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// isReserved reports whether c is in RFC 3986's reserved set (§2.2): the gen-delims
// ":/?#[]@" and the sub-delims "!$&'()*+,;=".
func isReserved(c byte) bool {
	return strings.IndexByte(":/?#[]@!$&'()*+,;=", c) >= 0
}

// canonRFC is what RFC 9309 §2.2.2 compares of a URL's path and query, or with rule of
// a rule's value (see [RFC9309]): %xx of unreserved characters decoded, other escapes
// with upper-case hex, non-ASCII bytes percent-encoded, and reserved characters
// percent-encoded except where they delimit: '/' in the path, the '?' that starts the
// query, '=' and '&' in the query, and in a rule '*' anywhere and '$' at the end (§2.2.3's
// special characters). It returns s itself when nothing changes.
func canonRFC(s string, rule bool) string {
	var b []byte // nil until the first change
	grow := func(i int) {
		if b == nil {
			b = append(make([]byte, 0, len(s)+8), s[:i]...)
		}
	}
	query := false
	body, _ := cutEnd(s) // a rule's end anchor stays
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			v := unhex(s[i+1])<<4 | unhex(s[i+2])
			switch {
			case isUnreserved(v):
				grow(i)
				b = append(b, v)
			case s[i+1] != upperHex[v>>4] || s[i+2] != upperHex[v&15]: // hex digits in lower case
				grow(i)
				b = append(b, '%', upperHex[v>>4], upperHex[v&15])
			case b != nil:
				b = append(b, s[i:i+3]...)
			}
			i += 2
			continue
		case c >= 0x80:
		case !isReserved(c):
			c = 0
		case c == '?' && !query:
			query, c = true, 0
		case c == '/' && !query, (c == '=' || c == '&') && query:
			c = 0
		case rule && (c == anyRun || i >= len(body)): // the end anchor (cutEnd)
			c = 0
		}
		if c == 0 { // kept as it is
			if b != nil {
				b = append(b, s[i])
			}
			continue
		}
		grow(i)
		b = append(b, '%', upperHex[c>>4], upperHex[c&15])
	}
	if b == nil {
		return s
	}
	return string(b)
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
				b.WriteByte(upperHex[v>>4])
				b.WriteByte(upperHex[v&15])
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
			v := unhex(s[i+1])<<4 | unhex(s[i+2])
			if decode != nil && decode(v) || s[i+1] != upperHex[v>>4] || s[i+2] != upperHex[v&15] {
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
			if slices.ContainsFunc(agents, func(robot string) bool { return r.dialect.legacyAgentMatches(a.Name, robot) }) {
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
