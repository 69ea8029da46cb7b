package robots

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"
)

func TestProductToken(t *testing.T) {
	tests := []struct{ header, want string }{
		// The example of issue 2 and Google's documented crawler strings.
		{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"},
		{"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0.2272.96 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"},
		{"Googlebot-Image/1.0", "Googlebot-Image"},
		{"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "bingbot"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)", "GPTBot"},
		{"Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)", "Slurp"},
		// Google reads MJ12bot as MJ in robots.txt; the token returned is the one that matches.
		{"Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)", "MJ"},
		{"facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", "facebookexternalhit"},
		{"curl/8.5.0", "curl"},
		{"", ""},
		{"1234 ???", ""},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q", tt.header), func(t *testing.T) {
			if got := ProductToken(tt.header); got != tt.want {
				t.Errorf("ProductToken(%q) = %q, want %q", tt.header, got, tt.want)
			}
		})
	}
}

// TestSizeLimit: content past the limit is ignored and reported (RFC 9309 §2.5); the
// limit can be raised but not lowered below 500 KiB. Parse and ParseString agree.
func TestSizeLimit(t *testing.T) {
	pad := "# " + strings.Repeat("x", 100) + "\n"
	body := "User-agent: *\nDisallow: /a\n" + strings.Repeat(pad, DefaultMaxBytes/len(pad)+1) + "Disallow: /b\n"
	tests := []struct {
		name      string
		opts      []Option
		bAllowed  bool
		truncated bool
	}{
		{"default", nil, true, true},
		{"raised", []Option{WithMaxBytes(2 * DefaultMaxBytes)}, false, false},
		{"below the minimum", []Option{WithMaxBytes(10)}, true, true},
	}
	parsers := []struct {
		name  string
		parse func(opts []Option) *Robots
	}{
		{"Parse", func(opts []Option) *Robots { return Parse([]byte(body), opts...) }},
		{"ParseString", func(opts []Option) *Robots { return ParseString(body, opts...) }},
	}
	for _, p := range parsers {
		for _, tt := range tests {
			t.Run(p.name+"/"+tt.name, func(t *testing.T) {
				r := p.parse(tt.opts)
				if got := r.Allowed("bot", "/b"); got != tt.bAllowed {
					t.Errorf("/b allowed = %v, want %v", got, tt.bAllowed)
				}
				if r.Allowed("bot", "/a") {
					t.Errorf("/a, before the limit, must stay disallowed")
				}
				truncated := false
				for _, d := range r.Diagnostics() {
					truncated = truncated || d.Code == FileTooLarge
				}
				if truncated != tt.truncated {
					t.Errorf("file-too-large reported = %v, want %v", truncated, tt.truncated)
				}
			})
		}
	}
}

// TestParseStringKeepsBody: ParseString keeps the caller's string, which no one can
// change, rather than a copy; past the size limit it keeps a copy of the part read
// only, so that the rest can be freed. Parse always keeps a copy.
func TestParseStringKeepsBody(t *testing.T) {
	small := "User-agent: *\nDisallow: /a\n"
	if r := ParseString(small); unsafe.StringData(r.body) != unsafe.StringData(small) || r.body != small {
		t.Errorf("ParseString kept a copy of a body within the limit")
	}
	large := small + strings.Repeat("#\n", DefaultMaxBytes)
	r := ParseString(large)
	if unsafe.StringData(r.body) == unsafe.StringData(large) || r.body != large[:DefaultMaxBytes] {
		t.Errorf("ParseString of %d bytes kept %d bytes of the caller's string; want a copy of the first %d",
			len(large), len(r.body), DefaultMaxBytes)
	}
	b := []byte(small)
	r = Parse(b)
	b[len("User-agent: *\nDisallow: /")] = 'b'
	if r.Allowed("bot", "/a") || !r.Allowed("bot", "/b") {
		t.Errorf("a write into the bytes given to Parse changed its decisions")
	}
}

// TestConcurrentUse shares one Robots between goroutines; run with -race.
func TestConcurrentUse(t *testing.T) {
	r := Parse([]byte("User-agent: a\nUser-agent: b\nDisallow: /x\nCrawl-delay: 1.5\n\nUser-agent: *\nAllow: /x/y\nDisallow: /\n"))
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				if r.Allowed("A", "/x/1") || !r.Allowed("c", "/x/y") || r.Check("b", "/x/q").Rule.Line != 3 {
					t.Error("wrong decision under concurrent use")
					return
				}
				if d, ok := r.CrawlDelay("b"); !ok || d != 1500*time.Millisecond {
					t.Errorf("CrawlDelay = %v, %v", d, ok)
					return
				}
				_ = r.Groups()
			}
		}()
	}
	wg.Wait()
}

// TestConcurrentFirstDecisions decides on a fresh Robots from many goroutines at once,
// each for its own crawler, so that the first decisions for several rule sets, and the
// first reading of the groups and diagnostics, race with each other; run with -race.
// The expected verdicts follow from the file by the rules of RFC 9309: the group naming
// the crawler applies, else the "*" group; the longest matching rule decides.
func TestConcurrentFirstDecisions(t *testing.T) {
	body := []byte("User-agent: a\nDisallow: /a\nAllow: /a/open\n\n" +
		"User-agent: b\nUser-agent: c\nDisallow: /b*x$\n\n" +
		"User-agent: a\nDisallow: /more\n\n" + // a second group for a: merged with the first
		"User-agent: *\nDisallow: /\nAllow: /public/\nCrawl-delay: 2\nnot a field line\n")
	tests := []struct {
		agent, url string
		allowed    bool
		line       int // of the deciding rule, 0 when none
	}{
		{"a", "/a/secret", false, 2},
		{"A", "/a/open/x", true, 3},
		{"a", "/more/x", false, 10},
		{"a", "/public/x", true, 0},
		{"b", "/b/1x", false, 7},
		{"c", "/b/1xy", true, 0},
		{"d", "/x", false, 13},
		{"googlebot", "/public/y", true, 14},
	}
	const rounds, copies = 50, 4
	for range rounds {
		r := Parse(body)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for range copies {
			for _, tt := range tests {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					if got := r.Allowed(tt.agent, tt.url); got != tt.allowed {
						t.Errorf("Allowed(%q, %q) = %v, want %v", tt.agent, tt.url, got, tt.allowed)
					}
					if d := r.Check(tt.agent, tt.url); d.Allowed != tt.allowed || d.Rule.Line != tt.line {
						t.Errorf("Check(%q, %q) = %+v, want allowed %v by line %d", tt.agent, tt.url, d, tt.allowed, tt.line)
					}
				}()
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				if gs := r.Groups(); len(gs) != 4 || len(gs[3].Rules) != 2 || gs[3].Fields[0].Name != "crawl-delay" {
					t.Errorf("Groups = %+v, want 4 groups, the last with 2 rules and a crawl-delay", gs)
				}
				if ds := r.Diagnostics(); len(ds) != 1 || ds[0].Line != 16 || ds[0].Code != InvalidLine {
					t.Errorf("Diagnostics = %v, want one invalid-line on line 16 (no colon, four words)", ds)
				}
			}()
			// Lines makes the same reading as Groups and Diagnostics on its way.
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				lines := slices.Collect(r.Lines())
				if len(lines) != 17 || lines[15].Kind != KindInvalid || lines[16].Kind != KindBlank {
					t.Errorf("Lines gave %d lines, want 17: line 16 invalid, 17 empty", len(lines))
				}
				if gs := r.Groups(); len(gs) != 4 {
					t.Errorf("Groups after Lines = %+v, want 4 groups", gs)
				}
			}()
		}
		close(start)
		wg.Wait()
		if t.Failed() {
			return
		}
	}
}

// TestFieldsAndGroups checks the accessors for non-rule fields, with their lines.
func TestFieldsAndGroups(t *testing.T) {
	body := "Host: example.com\nSitemap: https://example.com/s.xml\nUser-agent: Yandex\nClean-param: ref /a\nCrawl-delay: 2\nVisit-time: 0600-0845\nRequest-rate: 1/5\nDisallow: /tmp\nX-Custom: 1\n"
	r := Parse([]byte(body))
	wantFields := []Field{{"host", "example.com", 1}, {"sitemap", "https://example.com/s.xml", 2},
		{"clean-param", "ref /a", 4}, {"crawl-delay", "2", 5}, {"visit-time", "0600-0845", 6},
		{"request-rate", "1/5", 7}, {"X-Custom", "1", 9}}
	got := r.Fields()
	if len(got) != len(wantFields) {
		t.Fatalf("Fields = %v, want %v", got, wantFields)
	}
	for i := range got {
		if got[i] != wantFields[i] {
			t.Errorf("field %d = %+v, want %+v", i, got[i], wantFields[i])
		}
	}
	gs := r.Groups()
	if len(gs) != 1 || len(gs[0].Fields) != 5 || gs[0].Fields[0].Name != "clean-param" {
		t.Errorf("group fields = %+v, want the five fields of lines 4-7 and 9", gs)
	}
	if d, ok := gs[0].CrawlDelay(); !ok || d != 2*time.Second {
		t.Errorf("CrawlDelay = %v, %v; want 2s", d, ok)
	}
	if s := r.Sitemaps(); len(s) != 1 || s[0] != "https://example.com/s.xml" {
		t.Errorf("Sitemaps = %v", s)
	}
}

// TestNoAliasing: Parse and CheckOnce read the caller's bytes without copying them
// first, so everything they return must have been copied out: overwriting the body
// afterwards must change nothing.
func TestNoAliasing(t *testing.T) {
	src := "Sitemap: https://e.com/s.xml\nUser-agent: FooBot\nDisallow: /caf\u00e9/\nAllow: /a/index.html\nCrawl-delay: 3\nUnicorns: yes\nDisallow /missing-colon\n"
	body := []byte(src)
	r := Parse(body)
	d := CheckOnce(body, "foobot", "/missing-colon/x")
	snapshot := func() string {
		var b strings.Builder
		for _, g := range r.Groups() {
			fmt.Fprintf(&b, "%+v\n", g)
		}
		fmt.Fprintf(&b, "%+v %+v %v\n", r.Fields(), r.Diagnostics(), r.Sitemaps())
		fmt.Fprintf(&b, "%+v %+v\n", r.Check("FooBot", "/a/"), d)
		return b.String()
	}
	before := snapshot()
	for i := range body {
		body[i] = 'X'
	}
	if after := snapshot(); after != before {
		t.Errorf("results changed with the body:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if !strings.Contains(before, "Unicorns") || !strings.Contains(before, "caf\u00e9") || d.Rule.Value != "/missing-colon" {
		t.Errorf("snapshot lacks what it should show:\n%s\n%+v", before, d)
	}
}

// TestCheckOnceOptions: options reach the one-pass decision (size limit) or send it to
// Parse (dialects).
func TestCheckOnceOptions(t *testing.T) {
	order := []byte("User-agent: *\nDisallow: /a\nAllow: /a/b\n")
	if d := CheckOnce(order, "x", "/a/b"); !d.Allowed || d.Rule.Line != 3 {
		t.Errorf("google: %+v, want allowed by line 3", d)
	}
	if d := CheckOnce(order, "x", "/a/b", WithDialect(Legacy1996)); d.Allowed || d.Rule.Line != 2 {
		t.Errorf("legacy1996: %+v, want disallowed by line 2 (first match)", d)
	}
	pad := strings.Repeat("#\n", DefaultMaxBytes/2)
	late := []byte("User-agent: *\n" + pad + "Disallow: /late\n")
	if !CheckOnce(late, "x", "/late").Allowed {
		t.Errorf("a rule past the default limit must be ignored")
	}
	if CheckOnce(late, "x", "/late", WithMaxBytes(2*DefaultMaxBytes)).Allowed {
		t.Errorf("a rule within a raised limit must apply")
	}
}

// TestNoHandlesInside: a Robots is immutable, so what its accessors return belongs to
// the caller. Editing the groups (agents, rules, fields) or the dialect list changes
// no later decision, in any dialect (the legacy dialects read the agents' names).
func TestNoHandlesInside(t *testing.T) {
	body := []byte("User-agent: foobot\nDisallow: /private/\nCrawl-delay: 5\n\nUser-agent: *\nDisallow: /\n")
	for _, d := range Dialects() {
		t.Run(d.String(), func(t *testing.T) {
			r := Parse(body, WithDialect(d))
			before := r.Check("foobot", "/public")
			for _, g := range r.Groups() {
				for i := range g.Agents {
					g.Agents[i].Name = "*"
				}
				for i := range g.Rules {
					g.Rules[i].Value = "/"
				}
				for i := range g.Fields {
					g.Fields[i].Value = "99"
				}
			}
			fs := r.Fields()
			for i := range fs {
				fs[i].Value = "1"
			}
			if after := r.Check("foobot", "/public"); after != before {
				t.Errorf("after editing Groups(): Check = %+v, want %+v", after, before)
			}
			if got := r.Groups()[0].Agents[0].Name; got != "foobot" {
				t.Errorf("Groups()[0].Agents[0].Name = %q after editing an earlier result, want %q", got, "foobot")
			}
			if delay, _ := r.CrawlDelay("foobot"); delay != 5*time.Second {
				t.Errorf("CrawlDelay = %v after editing Groups(), want 5s", delay)
			}
		})
	}
	ds := Dialects()
	ds[0] = Legacy1994
	if got := Dialects()[0]; got != Google {
		t.Errorf("Dialects()[0] = %v after editing an earlier result, want %v", got, Google)
	}
}

// TestManyGroupsOneToken: a file of many groups naming the same crawler is read as one
// merged group (RFC 9309 §2.2.1: "If there is more than one group matching the
// user-agent, the matching groups' rules MUST be combined"). Issue 14 found the index
// quadratic in such groups (160,000 took 11.7 s); BenchmarkParseGroupsOneToken shows
// the growth, this test the result.
func TestManyGroupsOneToken(t *testing.T) {
	const n = 160_000
	body := manyGroups(n)
	r := Parse(body, WithMaxBytes(len(body)))
	if got := len(r.Groups()); got != n {
		t.Fatalf("len(Groups()) = %d, want %d", got, n)
	}
	for _, tt := range []struct {
		url  string
		line int
	}{
		{"/g0/x", 3},              // the first group's rule: lines 1-2 user-agents, 3 disallow
		{"/g159999/x", 4*n - 1},   // the last group's rule
		{"/g80000/", 4*80000 + 3}, // one in the middle
	} {
		t.Run(tt.url, func(t *testing.T) {
			d := r.Check("bot", tt.url)
			if d.Allowed || d.Rule.Line != tt.line {
				t.Errorf("Check(bot, %s) = allowed %v by line %d, want disallowed by line %d", tt.url, d.Allowed, d.Rule.Line, tt.line)
			}
		})
	}
	if gs, global := r.GroupsFor("BOT"); len(gs) != n || global {
		t.Errorf("GroupsFor(BOT) = %d groups (global %v), want %d named", len(gs), global, n)
	}
}

// manyGroups returns n groups, each naming "bot" twice, with one rule of its own.
func manyGroups(n int) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "User-agent: bot\nuser-agent: BOT\nDisallow: /g%d/\n\n", i)
	}
	return []byte(b.String())
}

func BenchmarkParseGroupsOneToken(b *testing.B) {
	for _, n := range []int{10_000, 40_000, 160_000} {
		body := manyGroups(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				Parse(body, WithMaxBytes(len(body)))
			}
		})
	}
}

// TestParseCrawlDelay: a number of seconds, fractions allowed, not negative, small
// enough for a time.Duration; the error names what is wrong with any other value.
func TestParseCrawlDelay(t *testing.T) {
	tests := []struct {
		name, value string
		want        time.Duration
		err         string // a part of the error; "" for none
	}{
		{"whole seconds", "10", 10 * time.Second, ""},
		{"fraction", "0.5", 500 * time.Millisecond, ""},
		{"zero", "0", 0, ""},
		{"white space around", " 2 ", 2 * time.Second, ""},
		{"the largest", "1000000000", 1e9 * time.Second, ""},
		{"empty", "", 0, "no value"},
		{"a word", "fast", 0, `"fast" is not a number of seconds`},
		{"a unit", "5s", 0, `"5s" is not a number of seconds`},
		{"not a number", "NaN", 0, "is not a number of seconds"},
		{"negative", "-1", 0, `"-1" is negative`},
		{"too large", "1e10", 0, "is more than 1e+09 seconds"},
		{"infinite", "Inf", 0, "is more than 1e+09 seconds"},
		{"past float64", "1e400", 0, "is more than 1e+09 seconds"},
		{"negative past float64", "-1e400", 0, "is negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseCrawlDelay(tt.value)
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("ParseCrawlDelay(%q): %v, want %v", tt.value, err, tt.want)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("ParseCrawlDelay(%q) = %v, %v; want an error saying %q", tt.value, got, err, tt.err)
			case got != tt.want:
				t.Errorf("ParseCrawlDelay(%q) = %v, want %v", tt.value, got, tt.want)
			}
		})
	}
}

// TestDiagnostics: one finding for each problem of a line, judged by what crawlers
// do. Where Google's reference parser has a say, the case follows its per-line report
// (reporting_robots_test.cc, in testdata/conformance/google_other_cases.jsonl): the
// field it finds, whether it is a typo, whether the colon is missing.
func TestDiagnostics(t *testing.T) {
	type lineCode struct {
		line int
		code Code
	}
	tests := []struct {
		name    string
		dialect Dialect
		body    string
		want    []lineCode
	}{
		// Reference: "User-Agent bar" is user-agent with is_missing_colon_separator.
		{"missing colon", Google, "User-agent bar\nDisallow /x\n", []lineCode{{1, MissingColon}, {2, MissingColon}}},
		{"missing colon, unused field", Google, "User-agent: *\nCrawl-delay 5\n", []lineCode{{2, MissingColon}}},
		// Google reads "Disallow https" as disallow (names match by prefix): the only
		// colon is the URL's.
		{"colon of a URL", Google, "User-agent: *\nDisallow https://example.com/x\n", []lineCode{{2, MissingColon}}},
		// Reference: "useragent", "disallaw", "site-map" are acceptable typos.
		{"typos Google accepts", Google, "useragent: a\ndisallaw: /x\nsite-map: https://e/s.xml\n",
			[]lineCode{{1, MisspelledField}, {2, MisspelledField}, {3, MisspelledField}}},
		{"name that starts with a field name", Google, "User-agent: *\nDisallowed: /x\n", []lineCode{{2, MisspelledField}}},
		{"typo and no colon", Google, "Useragent a\nDisallow: /x\n", []lineCode{{1, MissingColon}, {1, MisspelledField}}},
		// Reference: "unicorns: /extinct" is an unknown directive.
		{"unknown field", Google, "User-agent: *\nunicorns: /extinct\n", []lineCode{{2, UnknownField}}},
		// Two words and no colon: Google's parser finds the field "foo" (a directive,
		// missing its colon) and knows no such field. No crawler reads it.
		{"two words without a colon", Google, "User-agent: *\nfoo bar\n", []lineCode{{2, UnknownField}}},
		// Reference: "absolutely random line" and "Error #and comment" hold no directive.
		{"no field at all", Google, "absolutely random line\nError #and comment\n", []lineCode{{1, InvalidLine}, {2, InvalidLine}}},
		// Reference (ID_UTF8ByteOrderMarkIsSkipped): a byte order mark is skipped only at
		// the start of the file; before a field later on, it makes the name unknown.
		{"byte order mark inside the file", Google, "User-agent: *\n\ufeffAllow: /x\n", []lineCode{{2, UnknownField}}},
		{"invisible characters alone", Google, "\u200b# comment\n\ufeff\nUser-agent: *\n\u00a0\n", nil},
		{"byte order mark saved twice, then a comment", Google, "\u00ef\u00bb\u00bf# comment\nUser-agent: *\n", nil},
		{"byte order mark saved twice, then a field", Google, "\u00ef\u00bb\u00bfUser-agent: *\n", []lineCode{{1, UnknownField}}},
		// Reference: noarchive is a known ("unused") field; clean-param likewise.
		{"unused fields", Google, "User-agent: *\nnoarchive: /x\nClean-param: ref\n", nil},
		{"rule outside group", Google, "Allow: /x\nUser-agent: *\n", []lineCode{{1, RuleOutsideGroup}}},
		{"empty user-agent", Google, "User-agent:\nDisallow: /x\n", []lineCode{{1, EmptyUserAgent}}},
		{"line too long", Google, "User-agent: *\nDisallow: /" + strings.Repeat("a", MaxLineBytes) + "\n", []lineCode{{2, LineTooLong}}},
		// The 1996 draft reads exact names with a colon: a misspelling names an unknown
		// field and "name value" is no field at all.
		{"legacy: misspelling", Legacy1996, "User-agent: *\nDissallow: /x\nDisallowed: /y\n", []lineCode{{2, UnknownField}, {3, UnknownField}}},
		{"legacy: missing colon", Legacy1996, "User-agent: *\nDisallow /x\nfoo bar\n", []lineCode{{2, InvalidLine}, {3, InvalidLine}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []lineCode
			for _, d := range Parse([]byte(tt.body), WithDialect(tt.dialect)).Diagnostics() {
				got = append(got, lineCode{d.Line, d.Code})
				if d.Message == "" {
					t.Errorf("%v without a message", d)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestFileTooLargeLine: the size limit is reported on the line where it falls.
func TestFileTooLargeLine(t *testing.T) {
	line := "Disallow: /" + strings.Repeat("a", 88) + "\n" // 100 bytes
	body := "User-agent: *\n" + strings.Repeat(line, DefaultMaxBytes/100+10)
	// The limit falls within line 1 + n, n the number of whole rule lines before it.
	want := 1 + (DefaultMaxBytes-len("User-agent: *\n"))/100 + 1
	ds := Parse([]byte(body)).Diagnostics()
	if len(ds) != 1 || ds[0].Code != FileTooLarge || ds[0].Line != want {
		t.Fatalf("got %v, want file-too-large on line %d", ds, want)
	}
}
