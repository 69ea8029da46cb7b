package robots

import (
	"fmt"
	"strings"
	"testing"
)

// slowMatch is a literal transcription of the matching rule of RFC 9309 §2.2.3 and
// Google's matcher: it keeps the set of every path position the pattern can have
// reached so far. It is slow and obviously correct; the fast matcher is tested against it.
func slowMatch(pat, path string) bool {
	pos := []int{0}
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		if c == '$' && i == len(pat)-1 {
			for _, p := range pos {
				if p == len(path) {
					return true
				}
			}
			return false
		}
		var next []int
		if c == '*' {
			for p := pos[0]; p <= len(path); p++ {
				next = append(next, p)
			}
		} else {
			for _, p := range pos {
				if p < len(path) && path[p] == c {
					next = append(next, p+1)
				}
			}
		}
		if len(next) == 0 {
			return false
		}
		pos = next
	}
	return true
}

func TestMatchTable(t *testing.T) {
	tests := []struct {
		pat, path string
		want      bool
	}{
		{"/", "/", true},
		{"/fish", "/fish", true},
		{"/fish", "/fish.html", true},
		{"/fish", "/Fish.asp", false},
		{"/fish", "/catfish", false},
		{"/fish*", "/fishheads/yummy.html", true},
		{"/fish*", "/fis", false},
		{"/fish/", "/fish", false},
		{"/*.php", "/folder/filename.php?parameters", true},
		{"/*.php", "/windows.PHP", false},
		{"/*.php$", "/filename.php", true},
		{"/*.php$", "/filename.php?parameters", false},
		{"/*.php$", "/filename.php5", false},
		{"/fish*.php", "/fishheads/catfish.php?parameters", true},
		{"/fish*.php", "/Fish.PHP", false},
		{"/a$b", "/a$b", true}, // '$' is literal except at the end
		{"/a$b", "/ab", false},
		{"/$", "/", true},
		{"/$", "/x", false},
		{"*", "/anything", true},
		{"*$", "", true},
		{"/a*b*c$", "/aXbYc", true},
		{"/a*b*c$", "/aXbYcZ", false},
		{"/a*bc$", "/abcbc", true}, // needs the last piece at the end, not the first occurrence
		{"/a**b", "/ab", true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q on %q", tt.pat, tt.path), func(t *testing.T) {
			if got := slowMatch(tt.pat, tt.path); got != tt.want {
				t.Errorf("slowMatch(%q, %q) = %v, want %v", tt.pat, tt.path, got, tt.want)
			}
			if got := matches(readPattern(tt.pat).shape(), tt.pat, tt.path); got != tt.want {
				t.Errorf("matches(%q, %q) = %v, want %v", tt.pat, tt.path, got, tt.want)
			}
		})
	}
}

// TestSpecExamples holds the examples of Google's page as summarised in SPEC.md §5.
func TestSpecExamples(t *testing.T) {
	tests := []struct {
		path, rules string
		want        bool
	}{
		{"/page", "allow: /p\ndisallow: /", true},
		{"/folder/page", "allow: /folder\ndisallow: /folder", true},
		{"/page.htm", "allow: /page\ndisallow: /*.htm", false},
		{"/page.php5", "allow: /page\ndisallow: /*.ph", true},
		{"/", "allow: /$\ndisallow: /", true},
		{"/page.htm", "allow: /$\ndisallow: /", false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s with %q", tt.path, tt.rules), func(t *testing.T) {
			body := "user-agent: *\n" + tt.rules + "\n"
			if got := Parse([]byte(body)).Allowed("foobot", "https://example.com"+tt.path); got != tt.want {
				t.Errorf("%s with %q: got %v, want %v", tt.path, tt.rules, got, tt.want)
			}
		})
	}
}

// FuzzMatch checks that the fast matcher agrees with the literal one.
func FuzzMatch(f *testing.F) {
	for _, s := range [][2]string{{"/a*b$", "/axxb"}, {"/*.php$", "/x.php"}, {"*", ""}, {"/a$b", "/a$b"}, {"/**/x*y$", "/q/x/y"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pat, path string) {
		if len(pat) > 64 || len(path) > 256 {
			return // the literal matcher is quadratic; keep it quick
		}
		if got, want := matches(readPattern(pat).shape(), pat, path), slowMatch(pat, path); got != want {
			t.Fatalf("matches(%q, %q) = %v, slowMatch = %v", pat, path, got, want)
		}
	})
}

// FuzzDecide checks whole decisions, under every dialect, for one agent and for two,
// and the groups read, against the slow reference (slowref_test.go).
func FuzzDecide(f *testing.F) {
	f.Add("user-agent: foo\ndisallow: /a\nallow: /a/b$\nuser-agent: *\ndisallow: /", "foo", "/a/b")
	f.Add("user-agent: *\nallow: /x/index.html\ndisallow: /", "bar", "http://e.com/x/")
	f.Add("User-Agent: FOO BAR\nDisallow: /*.php$\n\nuser-agent:foo\nallow: /", "foo", "/a.php")
	f.Add("User-agent: *\nDisallow: /private/\n\nUser-agent: googlebot\nAllow: /x\n# c\nDisallow: /%7e\n", "Googlebot", "/~a")
	f.Add("User-agent: *\nDisallow: /\n", "x", "https://example.com/robots%2Etxt")
	// Records of the legacy dialects: blank and comment lines, CR line ends, a rule
	// outside any record, escapes the 1996 draft decodes, a robot name with a version.
	f.Add("User-agent: *\nDisallow: /private/\n\nUser-agent: googlebot\nAllow: /x\n\nUser-agent: omgilibot\nDisallow: /\n", "Googlebot", "/a")
	f.Add("User-agent: foobot\nCrawl-delay: 5\n\nUser-agent: barbot\nDisallow: /\n", "foobot", "/a")
	f.Add("User-agent: a\n# c\nDisallow: /%7e\n  \nDisallow: /b\r\rUser-agent: *\nDisallow: /a%2fb\n", "a/1.0", "/~x")
	// RFC 9309's reserved characters: a query value written raw or encoded, %2A and %24
	// for a literal '*' and '$', a '$' inside a rule.
	f.Add("User-agent: *\nDisallow: /foo/bar?baz=http%3A%2F%2Ffoo.bar\nAllow: /a%2A*$\n", "x", "/foo/bar?baz=http://foo.bar")
	f.Add("User-agent: *\nDisallow: /path/foo-%24\nDisallow: /a$b?c=d&e\n", "x", "/a$b?c=d&e/f")
	// Content-Usage, a rule under RFC 9309 (draft-ietf-aipref-attach) that ends the
	// user-agent lines, and an unused directive under Google.
	f.Add("User-agent: foo\nContent-Usage: train-ai=n\nUser-agent: b\nDisallow: /\n", "foo", "/a")
	f.Add("Content-Usage: /x/ train-ai=n\nuser-agent: foo\n\n content-usage train-ai=y\nUser-agent: *\nDisallow: /a\n", "foo", "/a")
	f.Fuzz(func(t *testing.T, body, agent, url string) {
		if len(body) > 2048 || len(url) > 256 {
			return
		}
		rf := newRefFile("fuzz", []byte(body))
		if err := rf.checkGroups(); err != nil {
			t.Fatalf("%v\nbody:\n%s", err, body)
		}
		for _, agents := range [][]string{{agent}, {agent, "foo"}, {"foo", agent}} {
			if err := rf.check(agents, url); err != nil {
				t.Fatalf("%v\nbody:\n%s", err, body)
			}
		}
	})
}

// slowPathOf is the path, params and query of a URL as Google's GetPathParamsQuery
// gives them, written from what it does rather than how: a leading "//" (a
// scheme-relative URL) is dropped, then the fragment, then the scheme up to "://" when
// no '/', '?' or ';' comes before it; the path starts at the first '/', '?' or ';' of
// what is left (after the authority), "/" when there is none, with a '/' put in front
// when it starts otherwise.
func slowPathOf(url string) string {
	u := strings.TrimPrefix(url, "//")
	u, _, _ = strings.Cut(u, "#")
	if scheme, rest, ok := strings.Cut(u, "://"); ok && !strings.ContainsAny(scheme, "/?;") {
		u = rest
	}
	i := strings.IndexAny(u, "/?;")
	switch {
	case i < 0:
		return "/"
	case u[i] != '/':
		return "/" + u[i:]
	}
	return u[i:]
}

func FuzzPathOf(f *testing.F) {
	for _, u := range []string{"http://a.b/c?d#e", "https://x#y/z", "//a/b", "a;b", "http://a?b", "https://a.b", "ftp://x/y", "http:/x"} {
		f.Add(u)
	}
	f.Fuzz(func(t *testing.T, url string) {
		if got, want := pathOf(url), slowPathOf(url); got != want {
			t.Fatalf("pathOf(%q) = %q, want %q", url, got, want)
		}
	})
}

// TestLongPatternOrder checks the decision order with patterns longer than 1<<15
// bytes, which escaping non-ASCII bytes can produce from a line of MaxLineBytes.
func TestLongPatternOrder(t *testing.T) {
	long := "/" + strings.Repeat("\u00e9", MaxLineBytes/2-2) // each é escapes to 6 bytes
	// The shorter rule comes first, in the same bucket: the longer must still decide.
	body := "user-agent: *\nallow: /%C3%A9\ndisallow: " + long + "\n"
	r := Parse([]byte(body))
	url := escapePattern(long) + "x"
	if len(escapePattern(long)) < 1<<15 {
		t.Fatalf("pattern too short for the test: %d", len(escapePattern(long)))
	}
	if d := r.Check("bot", url); d.Allowed || d.Rule.Line != 3 {
		t.Errorf("Check = %+v, want the long disallow on line 3", d)
	}
}

// TestLongPart checks a part of more than 65,534 rules of each kind, whose header takes
// the long form (prog.go): 70,000 prefix rules in the bucket of 'a' and 66,000 wildcard
// rules in the generic part.
func TestLongPart(t *testing.T) {
	var b strings.Builder
	b.WriteString("user-agent: *\n")
	const nPrefix, nWild = 70000, 66000
	for i := range nPrefix {
		fmt.Fprintf(&b, "disallow: /a%d\n", i) // line i+2
	}
	for i := range nWild {
		fmt.Fprintf(&b, "allow: /*x%d\n", i) // line nPrefix+i+2
	}
	r := Parse([]byte(b.String()), WithMaxBytes(4<<20))
	if err := checkProg(r); err != nil {
		t.Errorf("layout: %v", err)
	}
	tests := []struct {
		url   string
		allow bool
		line  int
	}{
		{"https://e.com/a69999", false, 69999 + 2},             // also matched by /a6999, /a699, …: the longest decides
		{"https://e.com/a0", false, 0 + 2},                     // the first rule of the bucket
		{"https://e.com/q/x65999", true, nPrefix + 65999 + 2},  // the last wildcard rule
		{"https://e.com/a5/x12345", true, nPrefix + 12345 + 2}, // /*x12345 (8 bytes) beats /a5 (3)
		{"https://e.com/b", true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			d := r.Check("bot", tt.url)
			if d.Allowed != tt.allow || d.Rule.Line != tt.line {
				t.Errorf("Check(%q) = allowed %v, line %d; want %v, line %d", tt.url, d.Allowed, d.Rule.Line, tt.allow, tt.line)
			}
			if got := r.Allowed("bot", tt.url); got != tt.allow {
				t.Errorf("Allowed(%q) = %v, want %v", tt.url, got, tt.allow)
			}
		})
	}
	if gs := r.Groups(); len(gs) != 1 || len(gs[0].Rules) != nPrefix+nWild {
		t.Errorf("Groups: %d groups, want 1 with %d rules", len(gs), nPrefix+nWild)
	}
}

// FuzzPairSet checks the seven-pairs-a-word pairSet against its definition.
func FuzzPairSet(f *testing.F) {
	for _, s := range []string{"", "/", "/a", "/abcdefg", "/abcdefgh", "/abcdefghijklmno", "/a/b?c=d&e#f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want byteSet
		for i := 0; i+1 < len(s); i++ {
			want |= pairBit(s[i], s[i+1])
		}
		if got := pairSet(s); got != want {
			t.Fatalf("pairSet(%q) = %x, want %x", s, got, want)
		}
	})
}

// FuzzByteMask checks the eight-at-a-time byte set against its definition.
func FuzzByteMask(f *testing.F) {
	for _, s := range []string{"", "/", "/ab", "/abc", "/abcd", "/abcde", "/a/b?c=d&e#f", "/\xff\x80%41"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want byteSet
		for i := 0; i < len(s); i++ {
			want |= 1 << bitOf[s[i]]
		}
		if got := byteMask(s); got != want {
			t.Fatalf("byteMask(%q) = %x, want %x", s, got, want)
		}
	})
}

func FuzzEscapePattern(f *testing.F) {
	f.Add("/a%2fb/\u00e9/%zz%")
	f.Fuzz(func(t *testing.T, s string) {
		plain := true
		for i := 0; i < len(s); i++ {
			if s[i] >= 0x80 || s[i] == '%' {
				plain = false
			}
		}
		if got := plainASCII(s); got != plain {
			t.Fatalf("plainASCII(%q) = %v, want %v", s, got, plain)
		}
	})
}

// FuzzMatchSlash checks that matching "/"+rest without building it agrees with the
// literal matcher on the built string.
func FuzzMatchSlash(f *testing.F) {
	for _, s := range [][2]string{{"/?a", "?a"}, {"*?a$", "?a"}, {"**/?*", "?x"}, {"/$", ""}, {"$", "x"}, {"*/", ";"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pat, rest string) {
		if len(pat) > 64 || len(rest) > 256 {
			return
		}
		if got, want := matchesSlash(readPattern(pat).shape(), pat, rest), slowMatch(pat, "/"+rest); got != want {
			t.Fatalf("matchesSlash(%q, %q) = %v, slowMatch(%q, %q) = %v", pat, rest, got, pat, "/"+rest, want)
		}
	})
}

// FuzzCompilePattern checks the compilation of Google's patterns against its
// definition: escapePattern, then the shape ('*' anywhere, else a final '$') and, for
// wildcard patterns (the only ones decisions filter by byte and pair sets), the bytes
// and pairs of its literal pieces (the runs between '*'s, without a final '$').
func FuzzCompilePattern(f *testing.F) {
	for _, s := range []string{"/a*b$", "/caf\u00e9", "/%2f*", "/$", "$", "*", "/a$b", "/ab*cd*$", "**x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		p := Google.compilePattern(v)
		wp := escapePattern(v)
		wshape := shapePrefix
		switch {
		case strings.Contains(wp, "*"):
			wshape = shapeWild
		case strings.HasSuffix(wp, "$"):
			wshape = shapeExact
		}
		if p.s != wp || p.shape() != wshape {
			t.Fatalf("compilePattern(%q) = %q, %d; want %q, %d", v, p.s, p.shape(), wp, wshape)
		}
		if wshape != shapeWild {
			return
		}
		var wneed, wpairs byteSet
		for _, piece := range strings.Split(strings.TrimSuffix(wp, "$"), "*") {
			for i := 0; i < len(piece); i++ {
				wneed |= 1 << (bitOf[piece[i]] & 63)
				if i > 0 {
					wpairs |= pairBit(piece[i-1], piece[i])
				}
			}
		}
		if need, pairs := p.sets(); need != wneed || pairs != wpairs || p.need() != wneed {
			t.Fatalf("sets(%q) = %x, %x, need %x; want %x, %x", wp, need, pairs, p.need(), wneed, wpairs)
		}
	})
}

// pathOf is splitPath with the path built, for the tests.
func pathOf(url string) string {
	p, slash := splitPath(url)
	if slash {
		return "/" + p
	}
	return p
}

// FuzzCanonRFC checks RFC 9309's rewriting of paths and rule values against the
// reference's transcription of it (refPattern).
func FuzzCanonRFC(f *testing.F) {
	for _, s := range []string{"/foo/bar?baz=http://foo.bar", "/foo/bar/%62%61%7A", "/path/file-with-a-%2a.html", "/a$b?c=d&e$", "/caf\u00e9*", "/%e3%83%84?q=%3d"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, rule bool) {
		if got, want := canonRFC(s, rule), refPattern(RFC9309, s, !rule); got != want {
			t.Fatalf("canonRFC(%q, %v) = %q, want %q", s, rule, got, want)
		}
	})
}
