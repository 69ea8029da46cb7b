package robots

import (
	"fmt"
	"strings"
	"testing"
)

// The matching table of the 1996 draft, §3.2.2 (seeds/003_f3cddee2096a03c3.txt).
func TestLegacy1996MatchingTable(t *testing.T) {
	tests := []struct {
		record, path string
		match        bool
	}{
		{"/tmp", "/tmp", true},
		{"/tmp", "/tmp.html", true},
		{"/tmp", "/tmp/a.html", true},
		{"/tmp/", "/tmp", false},
		{"/tmp/", "/tmp/", true},
		{"/tmp/", "/tmp/a.html", true},
		{"/a%3cd.html", "/a%3cd.html", true},
		{"/a%3Cd.html", "/a%3cd.html", true},
		{"/a%3cd.html", "/a%3Cd.html", true},
		{"/a%3cd.html", "/a%3cd.html", true},
		{"/a%2fb.html", "/a%2fb.html", true},
		{"/a%2fb.html", "/a%2Fb.html", true},
		{"/a%2fb.html", "/a/b.html", false},
		{"/%7ejoe/index.html", "/~joe/index.html", true},
		{"/~joe/index.html", "/%7Ejoe/index.html", true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("record %s, path %s", tt.record, tt.path), func(t *testing.T) {
			body := "User-agent: *\nDisallow: " + tt.record + "\n"
			r := Parse([]byte(body), WithDialect(Legacy1996))
			if got := !r.Allowed("webcrawler", "http://example.com"+tt.path); got != tt.match {
				t.Errorf("record %q, path %q: match = %v, want %v", tt.record, tt.path, got, tt.match)
			}
			if got := !refAllowed(body, Legacy1996, "webcrawler", "http://example.com"+tt.path); got != tt.match {
				t.Errorf("reference: record %q, path %q: match = %v, want %v", tt.record, tt.path, got, tt.match)
			}
		})
	}
}

// The 1996 draft: rules in order, first match wins (its §3.2.2 example record).
func TestLegacy1996FirstMatch(t *testing.T) {
	body := "User-agent: webcrawler\nUser-agent: infoseek\nAllow: /tmp/ok.html\nDisallow: /tmp\nDisallow: /user/foo\n"
	tests := []struct {
		dialect Dialect
		path    string
		want    bool
	}{
		{Legacy1996, "/tmp/ok.html", true},
		{Legacy1996, "/tmp/other", false},
		{Legacy1996, "/user/foo/x", false},
		{Legacy1996, "/elsewhere", true},
		// 1996 is first-match: a later, longer allow does not rescue.
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			r := Parse([]byte(body), WithDialect(tt.dialect))
			if got := r.Allowed("InfoSeek", tt.path); got != tt.want {
				t.Errorf("%s %s: got %v, want %v", tt.dialect, tt.path, got, tt.want)
			}
		})
	}
	order := "User-agent: *\nDisallow: /a\nAllow: /a/b\n"
	if Parse([]byte(order), WithDialect(Legacy1996)).Allowed("x", "/a/b") {
		t.Errorf("legacy1996: first match (Disallow: /a) should decide /a/b")
	}
	if !Parse([]byte(order)).Allowed("x", "/a/b") {
		t.Errorf("google: longest match (Allow: /a/b) should decide /a/b")
	}
	// '*' and '$' are ordinary characters in the old dialects.
	wild := "User-agent: *\nDisallow: /*.php$\n"
	if !Parse([]byte(wild), WithDialect(Legacy1996)).Allowed("x", "/index.php") {
		t.Errorf("legacy1996: '*' should be literal")
	}
	if Parse([]byte(wild), WithDialect(Legacy1996)).Allowed("x", "/*.php$x") {
		t.Errorf("legacy1996: the literal value should match as a prefix")
	}
}

// The examples of the 1994 standard (seeds/000_b7ee26fd7b291c68.txt).
func TestLegacy1994Examples(t *testing.T) {
	files := map[string]string{
		"closed":    "User-agent: *\nDisallow: /closeddir/test/\nDisallow: /tmp/\n",
		"scooter":   "User-agent: *\nDisallow: /closeddir/test/\n\nUser-agent: scooter\nDisallow:\n",
		"nothing":   "User-agent: *\nDisallow: /\n",
		"optimised": "# Infoseek robot (SideWinder) can visit Infoseek-optimized dir,\n# but not Northern Light-optimized directory.\nUser-agent: sidewinder\nDisallow: /northernlight_optimised_directory/\n# Northern Light (Gulliver) can visit Northern Light-optimized dir,\n# but not Infoseek-optimized directory.\nUser-agent: gulliver\nDisallow: /infoseek_optimised_directory/\n# All other robots denied access to both directories\nUser-agent: *\nDisallow: /infoseek_optimised_directory/\nDisallow: /northernlight_optimised_directory/\n",
		// The same three records "separated by one or more blank lines", as the
		// standard's format requires (the copy in seeds/ prints them without).
		"optimised, blank lines":    "# Infoseek robot (SideWinder) can visit Infoseek-optimized dir,\n# but not Northern Light-optimized directory.\nUser-agent: sidewinder\nDisallow: /northernlight_optimised_directory/\n\n# Northern Light (Gulliver) can visit Northern Light-optimized dir,\n# but not Infoseek-optimized directory.\nUser-agent: gulliver\nDisallow: /infoseek_optimised_directory/\n\n# All other robots denied access to both directories\nUser-agent: *\nDisallow: /infoseek_optimised_directory/\nDisallow: /northernlight_optimised_directory/\n",
		"closed, blank line before": "\nUser-agent: *\nDisallow: /closeddir/test/\nDisallow: /tmp/\n\n",
		"empty":                     "",
	}
	// What the standard says each example means.
	said := map[string]string{
		"closed":                    `"specifies that no robots should visit any URL starting with /closeddir/test/ or /tmp/"`,
		"closed, blank line before": `"specifies that no robots should visit any URL starting with /closeddir/test/ or /tmp/"; "one or more records separated by one or more blank lines"`,
		"scooter":                   `"no robots should visit any URL starting with /closeddir/test/, except the robot called scooter"`,
		"nothing":                   `"no robots should visit this site beyond the current directory"`,
		"optimised":                 `"lets the Infoseek robot visit the pages within a directory specifically created and optimized [...] Lastly it denies access to both directories to all the other robots"; "A case insensitive substring match of the name without version information is recommended."`,
		"optimised, blank lines":    `the same; "The file consists of one or more records separated by one or more blank lines"`,
		"empty":                     `"The presence of an empty /robots.txt file will be treated as if it was not present at all and all robots will have access to all files and directories."`,
	}
	tests := []struct {
		file, robot, path string
		want              bool
	}{
		{"closed", "AnyBot", "/closeddir/test/x.html", false},
		{"closed", "AnyBot", "/tmp/", false},
		{"closed", "AnyBot", "/closeddir/other", true},
		{"scooter", "Scooter", "/closeddir/test/x.html", true}, // empty Disallow: everything allowed
		{"scooter", "ArchitextSpider", "/closeddir/test/x.html", false},
		{"nothing", "Lycos", "/", false},
		{"nothing", "Lycos", "/any/thing", false},
		{"optimised", "Infoseek-Sidewinder", "/infoseek_optimised_directory/a.html", true},
		{"optimised", "Infoseek-Sidewinder", "/northernlight_optimised_directory/a.html", false},
		{"optimised", "Gulliver/1.1", "/northernlight_optimised_directory/a.html", true},
		{"optimised", "Gulliver/1.1", "/infoseek_optimised_directory/a.html", false},
		{"optimised", "Slurp", "/infoseek_optimised_directory/a.html", false},
		{"optimised", "Slurp", "/northernlight_optimised_directory/a.html", false},
		{"optimised", "Slurp", "/index.html", true},
		{"optimised, blank lines", "Infoseek-Sidewinder", "/infoseek_optimised_directory/a.html", true},
		{"optimised, blank lines", "Infoseek-Sidewinder", "/northernlight_optimised_directory/a.html", false},
		{"optimised, blank lines", "Gulliver/1.1", "/northernlight_optimised_directory/a.html", true},
		{"optimised, blank lines", "Gulliver/1.1", "/infoseek_optimised_directory/a.html", false},
		{"optimised, blank lines", "Slurp", "/infoseek_optimised_directory/a.html", false},
		{"optimised, blank lines", "Slurp", "/northernlight_optimised_directory/a.html", false},
		{"closed, blank line before", "AnyBot", "/tmp/", false},
		{"empty", "Scooter", "/anything", true},
	}
	for _, tt := range tests {
		t.Run(tt.file+" "+tt.robot+" "+tt.path, func(t *testing.T) {
			r := Parse([]byte(files[tt.file]), WithDialect(Legacy1994))
			if got := r.Allowed(tt.robot, tt.path); got != tt.want {
				t.Errorf("got %v, want %v: %s", got, tt.want, said[tt.file])
			}
			if got := refAllowed(files[tt.file], Legacy1994, tt.robot, tt.path); got != tt.want {
				t.Errorf("reference: got %v, want %v", got, tt.want)
			}
		})
	}
	// Google does not match "sidewinder" inside "Infoseek-Sidewinder".
	if Parse([]byte(files["optimised"])).Allowed("Infoseek-Sidewinder", "/infoseek_optimised_directory/a.html") {
		t.Errorf("google: Infoseek-Sidewinder should get the * record")
	}
	// 1994 knows no Allow: the line is an unknown field.
	r := Parse([]byte("User-agent: *\nDisallow: /a\nAllow: /a/b\n"), WithDialect(Legacy1994))
	if r.Allowed("x", "/a/b/c") {
		t.Errorf("legacy1994: Allow should be ignored")
	}
	if d := r.Diagnostics(); len(d) != 1 || d[0].Code != UnknownField || d[0].Line != 3 {
		t.Errorf("legacy1994 diagnostics = %v, want one unknown-field on line 3", d)
	}
}

// The encoding table of draft-koster-rep-00 §2.2.2 (RFC 9309 §2.2.2): each row's
// "Path" and "Encoded Path" are compared as its "Path to match", as the path of a URL
// and as a rule, so a rule written in any of the three columns matches a URL written
// in any of them. The second row is the one the draft's sentence and table disagree on
// (see [RFC9309]): the query value's ':' and '/' are encoded, the path's '/' and the
// query's '?' and '=' are not.
func TestRFC9309EncodingTable(t *testing.T) {
	rows := []struct{ name, path, encoded, toMatch string }{
		{"query left alone", "/foo/bar?baz=quz", "/foo/bar?baz=quz", "/foo/bar?baz=quz"},
		{"reserved characters in a query value", "/foo/bar?baz=http://foo.bar", "/foo/bar?baz=http%3A%2F%2Ffoo.bar", "/foo/bar?baz=http%3A%2F%2Ffoo.bar"},
		{"non-ASCII encoded", "/foo/bar/\u30c4", "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84"},
		{"non-ASCII already encoded", "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84"},
		{"unreserved escapes decoded", "/foo/bar/%62%61%7A", "/foo/bar/%62%61%7A", "/foo/bar/baz"},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			for _, col := range []string{row.path, row.encoded, row.toMatch} {
				if got := RFC9309.matchPath(col); got != row.toMatch {
					t.Errorf("URL path %q is matched as %q, want %q", col, got, row.toMatch)
				}
				if got := RFC9309.compilePattern(col).s; got != row.toMatch {
					t.Errorf("rule %q is matched as %q, want %q", col, got, row.toMatch)
				}
			}
			for _, rule := range []string{row.path, row.encoded, row.toMatch} {
				for _, url := range []string{row.path, row.encoded, row.toMatch} {
					body := "User-agent: FooBot\nDisallow: /\nAllow: " + rule + "\n"
					if !Parse([]byte(body), WithDialect(RFC9309)).Allowed("FooBot", "http://foo.bar"+url) {
						t.Errorf("rule %q should match URL path %q", rule, url)
					}
					if !refAllowed(body, RFC9309, "FooBot", "http://foo.bar"+url) {
						t.Errorf("reference: rule %q should match URL path %q", rule, url)
					}
				}
			}
		})
	}
}

// The examples of draft-koster-rep-00 §2.2.3 (RFC 9309 §2.2.3): "If crawlers match
// special characters verbatim in the URI, crawlers SHOULD use "%" encoding", while the
// special characters written as they are keep their meaning ("$" the end of the
// pattern, "*" any run), and the reserved characters that delimit (the path's '/', the
// query's '&') stay apart from their escapes.
func TestRFC9309SpecialCharacters(t *testing.T) {
	tests := []struct {
		name, pattern, url string
		match              bool
	}{
		{"table: %2A matches a literal *", "/path/file-with-a-%2A.html", "https://www.example.com/path/file-with-a-*.html", true},
		{"table: %24 matches a literal $", "/path/foo-%24", "https://www.example.com/path/foo-$", true},
		{"%2a in lower case matches a literal *", "/path/file-with-a-%2a.html", "https://www.example.com/path/file-with-a-*.html", true},
		{"%2A matches %2A in the URL", "/path/file-with-a-%2A.html", "https://www.example.com/path/file-with-a-%2A.html", true},
		{"%2A is not a wildcard", "/path/file-with-a-%2A.html", "https://www.example.com/path/file-with-a-x.html", false},
		{"%24 is not an anchor", "/path/foo-%24", "https://www.example.com/path/foo-", false},
		{"a raw * stays a wildcard", "/path/file-with-a-*.html", "https://www.example.com/path/file-with-a-x.html", true},
		{"a raw * also matches a literal *", "/path/file-with-a-*.html", "https://www.example.com/path/file-with-a-*.html", true},
		{"a final raw $ stays an anchor", "/path/foo-$", "https://www.example.com/path/foo-", true},
		{"a final raw $ does not match a literal $", "/path/foo-$", "https://www.example.com/path/foo-$", false},
		{"a raw $ inside a pattern is a literal $", "/a$b", "https://www.example.com/a$b", true},
		{"a raw $ inside a pattern matches %24", "/a$b", "https://www.example.com/a%24b", true},
		{"%2F is not the path's /", "/a%2Fb", "https://www.example.com/a/b", false},
		{"/ is not %2F in the path", "/a/b", "https://www.example.com/a%2Fb", false},
		{"%26 is not the query's &", "/q?a=1%262", "https://www.example.com/q?a=1&2", false},
		{"%3D is not the query's =", "/q?a%3D1", "https://www.example.com/q?a=1", false},
		{"a second ? is data in the query", "/q?a=b%3Fc", "https://www.example.com/q?a=b?c", true},
		{"a sub-delimiter in the path is data", "/a%2Cb", "https://www.example.com/a,b", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := "User-agent: FooBot\nDisallow: " + tt.pattern + "\n"
			if got := !Parse([]byte(body), WithDialect(RFC9309)).Allowed("FooBot", tt.url); got != tt.match {
				t.Errorf("pattern %q on %q: match = %v, want %v", tt.pattern, tt.url, got, tt.match)
			}
			if got := !refAllowed(body, RFC9309, "FooBot", tt.url); got != tt.match {
				t.Errorf("reference: pattern %q on %q: match = %v, want %v", tt.pattern, tt.url, got, tt.match)
			}
		})
	}
}

// TestRFC9309RobotsTxtAlwaysAllowed: "The /robots.txt URI is implicitly allowed"
// (RFC 9309 §2.2.2), compared as the same section compares every URI: escapes of
// unreserved characters decoded.
func TestRFC9309RobotsTxtAlwaysAllowed(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /\n")
	tests := []struct {
		name    string
		dialect Dialect
		url     string
		want    bool
	}{
		{"rfc9309: /robots.txt", RFC9309, "https://example.com/robots.txt", true},
		{"rfc9309: /robots.txt with a query", RFC9309, "https://example.com/robots.txt?x=1", true},
		{"rfc9309: an unreserved character escaped", RFC9309, "https://example.com/robots%2Etxt", true},
		{"rfc9309: another file", RFC9309, "https://example.com/robots.txt.bak", false},
		{"google: Disallow: / covers /robots.txt", Google, "https://example.com/robots.txt", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Parse(body, WithDialect(tt.dialect)).Allowed("x", tt.url); got != tt.want {
				t.Errorf("Allowed(%q) = %v, want %v", tt.url, got, tt.want)
			}
		})
	}
}

// Cases of the protego and texting_robots suites whose "allowed" verdict follows a
// document other than Google's reading. Each entry names the case by file and source
// line and says which dialect it follows:
//   - rfc9309: /robots.txt always allowed (texting_robots), %xx of unreserved characters
//     decoded and hex compared case-insensitively, non-ASCII URL bytes percent-encoded,
//     reserved characters that are data compared percent-encoded (%2A matches a literal
//     '*', %24 and a '$' inside a pattern a literal '$');
//   - legacy1996: protego's test_1996rfc_examples, which are the draft's own example.
//
// The other disagreements are left out because they follow neither document: protego's
// agent prefix matching and digits in tokens, its final '$' that also matches a literal
// '$' (test_special_symbols_dual_behaviour: §2.2.3 says a literal '$' is written %24),
// its decoding of characters that are neither reserved nor unreserved ('<'), its closing of a group at an unknown
// field; texting_robots' rules before any user-agent line.
var dialectCases = []struct {
	file    string
	line    int
	dialect Dialect
}{
	{"protego.jsonl", 117, RFC9309},
	{"protego.jsonl", 122, RFC9309},
	{"protego.jsonl", 457, RFC9309},
	{"protego.jsonl", 461, RFC9309},
	{"protego.jsonl", 808, RFC9309},
	{"protego.jsonl", 975, RFC9309},
	{"protego.jsonl", 980, RFC9309},
	{"protego.jsonl", 984, RFC9309},
	{"texting_robots.jsonl", 935, RFC9309},
	{"texting_robots.jsonl", 937, RFC9309},
	{"texting_robots.jsonl", 946, RFC9309},
	{"texting_robots.jsonl", 602, RFC9309},
	{"texting_robots.jsonl", 620, RFC9309},
	{"protego.jsonl", 1006, RFC9309}, // test_nonterminal_dollar
	{"protego.jsonl", 1007, RFC9309},
	{"protego.jsonl", 1008, RFC9309},
	{"protego.jsonl", 1009, RFC9309},
	{"protego.jsonl", 1010, RFC9309},
	{"protego.jsonl", 1011, RFC9309},
	{"protego.jsonl", 1012, RFC9309},
	{"protego.jsonl", 1013, RFC9309},
	{"protego.jsonl", 1019, RFC9309}, // test_escaped_special_symbols: §2.2.3's examples
	{"protego.jsonl", 1020, RFC9309},
	{"protego.jsonl", 1021, RFC9309},
	{"protego.jsonl", 1022, RFC9309},
	{"protego.jsonl", 1023, RFC9309},
	{"protego.jsonl", 1024, RFC9309},
	{"protego.jsonl", 1030, RFC9309},
	{"protego.jsonl", 736, Legacy1996},
	{"protego.jsonl", 744, Legacy1996},
	{"protego.jsonl", 745, Legacy1996},
	{"protego.jsonl", 808, Legacy1996},
}

func TestDialectSuiteCases(t *testing.T) {
	byKey := map[string][]conformanceCase{}
	for _, file := range []string{"protego.jsonl", "texting_robots.jsonl"} {
		for _, c := range readJSONL[conformanceCase](t, file) {
			k := fmt.Sprintf("%s:%d", file, c.Line)
			byKey[k] = append(byKey[k], c)
		}
	}
	for _, dc := range dialectCases {
		k := fmt.Sprintf("%s:%d", dc.file, dc.line)
		cases := byKey[k]
		if len(cases) == 0 {
			t.Fatalf("%s: no such case", k)
		}
		for _, c := range cases {
			if got := Parse(c.body(t), WithDialect(dc.dialect)).Allowed(c.Agent, c.URL); got != c.Allowed {
				t.Errorf("%s %s (%s): agent %q url %q: got %v, want %v", k, c.Name, dc.dialect, c.Agent, c.URL, got, c.Allowed)
			}
		}
	}
}

func TestParseDialect(t *testing.T) {
	for _, d := range Dialects() {
		got, err := ParseDialect(d.String())
		if err != nil || got != d {
			t.Errorf("ParseDialect(%q) = %v, %v", d.String(), got, err)
		}
	}
	if d, err := ParseDialect(""); err != nil || d != Google {
		t.Errorf(`ParseDialect("") = %v, %v; want google`, d, err)
	}
	if _, err := ParseDialect("bing"); err == nil {
		t.Errorf("ParseDialect(bing): want an error")
	}
}

// What the 1994 standard (seeds/000_b7ee26fd7b291c68.txt) and the 1996 draft
// (seeds/003_f3cddee2096a03c3.txt) say about records, quoted beside the cases that
// follow from it.
const (
	said1994Records  = `1994: "The file consists of one or more records separated by one or more blank lines (terminated by CR,CR/NL, or NL)."`
	said1994Comments = `1994: "Lines containing only a comment are ignored completely."`
	said1994Unknown  = `1994: "Unrecognised headers are ignored."`
	said1994Default  = `1994: "If the value is *, the record describes the default access policy for any robot that has not matched any of the other records."`
	said1994Need     = `1994: "At least one Disallow field needs to be present in a record." (not said: what a record without one means; see Legacy1994)`
	said1994Start    = `1994: "The record starts with one or more User-agent lines, followed by one or more Disallow lines"`
	said1996Records  = `1996 §3.3: "robotstxt = ... *blankcomment record *( 1*commentblank 1*record )", "commentblank = *commentline blank *(blankcomment)"`
	said1996Blank    = `1996 §3.3: "blank = *space CRLF", "space = 1*(SP | HT)"`
	said1996Record   = `1996 §3.3: "record = *commentline agentline *(commentline | agentline) 1*ruleline *(commentline | ruleline)"`
	said1996Default  = `1996 §3.2.1: "*", indicating this record is the default record for robots for which no explicit User-agent line can be found in any of the records."`
	said1996Order    = `1996 §3.2.2: "in the order they occur in the record. The first match found is used."`
)

// TestLegacyRecords: a blank line ends a record in the old dialects; comment lines do
// not; rules outside a record are ignored; a record may be left without rules. Google's
// reading, which ignores blank lines, is given beside them and must not change. record
// is the line of the first User-agent line of the record that applies in both old
// dialects (0: none).
func TestLegacyRecords(t *testing.T) {
	const (
		issueFirst = "User-agent: *\nDisallow: /private/\n\nUser-agent: googlebot\nAllow: /x\n\nUser-agent: omgilibot\nDisallow: /\n"
		issueDelay = "User-agent: foobot\nCrawl-delay: 5\n\nUser-agent: barbot\nDisallow: /\n"
	)
	tests := []struct {
		name, said                     string
		body, robot, path              string
		google, legacy1996, legacy1994 bool // allowed
		record                         int
	}{
		{"issue: googlebot's record closed by a blank line", said1994Records + " " + said1994Unknown,
			issueFirst, "Googlebot", "/a", true, true, true, 4},
		{"issue: googlebot does not get the * rules", said1994Default,
			issueFirst, "Googlebot", "/private/a", true, true, true, 4},
		{"issue: omgilibot keeps its own record", said1994Records,
			issueFirst, "omgilibot", "/a", false, false, false, 7},
		{"issue: other robots get the * record", said1994Default,
			issueFirst, "SomeBot", "/private/a", false, false, false, 1},
		{"issue: crawl-delay record closed by a blank line", said1996Records + " " + said1996Record,
			issueDelay, "foobot", "/a", false, true, true, 1},
		{"issue: barbot's record", said1996Records,
			issueDelay, "barbot", "/a", false, false, false, 4},
		{"comment lines do not end a record", said1994Comments + " " + said1996Record,
			"User-agent: a\n# only robot a\nDisallow: /x\n# and\nDisallow: /y\n", "a", "/y", false, false, false, 1},
		{"an indented comment line is not blank", said1996Blank,
			"User-agent: a\n   # note\nDisallow: /x\n", "a", "/x", false, false, false, 1},
		{"white space only is a blank line", said1996Blank,
			"User-agent: a\n \t\nDisallow: /x\n", "a", "/x", false, true, true, 1},
		{"a rule after a blank line belongs to no record", said1994Start + " " + said1996Record,
			"User-agent: *\nDisallow: /a\n\nDisallow: /b\n", "x", "/b", false, true, true, 1},
		{"the rules before the blank line still apply", said1994Records,
			"User-agent: *\nDisallow: /a\n\nDisallow: /b\n", "x", "/a", false, false, false, 1},
		{"user-agent lines closed before any rule: no rules, no fallback", said1994Default + " " + said1996Default,
			"User-agent: googlebot\n\nUser-agent: *\nDisallow: /\n", "Googlebot", "/a", false, true, true, 1},
		{"the * record after it", said1994Default,
			"User-agent: googlebot\n\nUser-agent: *\nDisallow: /\n", "bingbot", "/a", false, false, false, 3},
		{"a record without a Disallow line excludes nothing (1994)", said1994Need,
			"User-agent: *\nDisallow: /\n\nUser-agent: scooter\nAllow: /public/\n", "Scooter", "/private/a", true, true, true, 4},
		{"CR and CR LF end lines, and blank lines", said1994Records,
			"User-agent: a\r\rUser-agent: *\r\nDisallow: /\r\n", "a", "/x", false, true, true, 1},
		{"several blank lines are one separator", said1994Records,
			"User-agent: *\nDisallow: /a\n\n\n\nUser-agent: b\nDisallow: /b\n", "b", "/a", true, true, true, 6},
		{"a user-agent line after a rule starts a record", said1994Start,
			"User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n", "a", "/y", true, true, true, 1},
		{"the draft's example record, then the * record", said1996Order,
			"User-agent: webcrawler\nUser-agent: infoseek\nAllow: /tmp/ok.html\nDisallow: /tmp\nDisallow: /user/foo\n\nUser-agent: *\nDisallow: /\n",
			"webcrawler", "/tmp/ok.html", true, true, false, 1},
		{"the draft's example record: other robots", said1996Default,
			"User-agent: webcrawler\nUser-agent: infoseek\nAllow: /tmp/ok.html\nDisallow: /tmp\nDisallow: /user/foo\n\nUser-agent: *\nDisallow: /\n",
			"figtree", "/tmp/ok.html", false, false, false, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := "https://example.com" + tt.path
			for _, c := range []struct {
				d    Dialect
				want bool
			}{{Google, tt.google}, {Legacy1996, tt.legacy1996}, {Legacy1994, tt.legacy1994}} {
				r := Parse([]byte(tt.body), WithDialect(c.d))
				if got := r.Allowed(tt.robot, url); got != c.want {
					t.Errorf("%s: Allowed(%q, %q) = %v, want %v (%s)", c.d, tt.robot, tt.path, got, c.want, tt.said)
				}
				if got := refAllowed(tt.body, c.d, tt.robot, url); got != c.want {
					t.Errorf("%s: reference: refAllowed(%q, %q) = %v, want %v", c.d, tt.robot, tt.path, got, c.want)
				}
				if !c.d.legacy() {
					continue
				}
				record := 0
				if gs, _ := r.GroupsFor(tt.robot); len(gs) == 1 {
					record = r.Groups()[gs[0]].Line
				}
				if record != tt.record {
					t.Errorf("%s: record of %q starts on line %d, want %d", c.d, tt.robot, record, tt.record)
				}
			}
		})
	}
}

// TestLegacyRuleOutsideRecord: a rule line after a blank line is reported as outside
// any group, and saying why; Google reads it as part of the group.
func TestLegacyRuleOutsideRecord(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /a\n\nDisallow: /b\n")
	for _, d := range []Dialect{Legacy1996, Legacy1994} {
		t.Run(d.String(), func(t *testing.T) {
			diags := Parse(body, WithDialect(d)).Diagnostics()
			if len(diags) != 1 || diags[0].Code != RuleOutsideGroup || diags[0].Line != 4 || !strings.Contains(diags[0].Message, "blank line") {
				t.Errorf("diagnostics = %v, want one %s on line 4 naming the blank line", diags, RuleOutsideGroup)
			}
		})
	}
	if diags := Parse(body).Diagnostics(); len(diags) != 0 {
		t.Errorf("google: diagnostics = %v, want none", diags)
	}
}
