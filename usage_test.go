package robots

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gorobots/robots/internal/testenv"
)

// prefs writes the preferences of st as "label=preference" words, with "@line" and
// "+header" for what stated each, in the order of st.
func prefs(st []Stated) string {
	var w []string
	for _, s := range st {
		v := s.Label + "=" + s.Preference.String()
		if s.Line > 0 {
			v += fmt.Sprintf("@%d", s.Line)
		}
		if s.Header {
			v += "+header"
		}
		w = append(w, v)
	}
	return strings.Join(w, " ")
}

// TestReadStatement: the statements of draft-ietf-aipref-vocab §6 and §6.5, read as
// the draft says, and the tokens of the Content Signals Policy.
func TestReadStatement(t *testing.T) {
	tests := []struct {
		name   string
		signal bool
		stmt   string
		want   string // preferences in vocabulary order
		err    bool   // the statement does not parse
	}{
		// §6: "a preference to allow model training, disallow search".
		{name: "vocab 6 example", stmt: "train-ai=y, search=n", want: "allowed unknown disallowed"},
		// §6.5.1: "all preferences being unknown": the last values are a boolean and a string.
		{name: "vocab 6.5.1 duplicated keys", stmt: `train-ai=y, train-ai, search=n, search="n"`, want: "unknown unknown unknown"},
		// §6.5.1: "keys include uppercase characters": the Dictionary does not parse.
		{name: "vocab 6.5.1 upper-case key", stmt: "Train-AI=n", want: "unknown unknown unknown", err: true},
		{name: "upper-case later in the dictionary", stmt: "search=y, Train-ai=n", want: "unknown unknown unknown", err: true},
		// §6.5.2: "carries no parameters, and a preference to allow the usage".
		{name: "vocab 6.5.2 overwritten parameters", stmt: "train-ai;allow=n, train-ai=y", want: "allowed unknown unknown"},
		// §6.5.2: "has parameters even though the preference is unknown". As printed, with a
		// trailing ';', the example is no Dictionary (RFC 9651 §4.2.3.2 wants a key after
		// every ';'): unknown either way.
		{name: "vocab 6.5.2 parameters on an unknown preference as printed", stmt: `train-ai;has;parameters="?";`, want: "unknown unknown unknown", err: true},
		{name: "vocab 6.5.2 parameters on an unknown preference", stmt: `train-ai;has;parameters="?"`, want: "unknown unknown unknown"},
		// §6.2: only the tokens y and n; §6.4: unknown keys and parameters are ignored.
		{name: "no is not n", stmt: "train-ai=no", want: "unknown unknown unknown"},
		{name: "tokens are case-sensitive", stmt: "train-ai=N, search=Y", want: "unknown unknown unknown"},
		{name: "string n", stmt: `train-ai="n"`, want: "unknown unknown unknown"},
		{name: "inner list", stmt: "train-ai=(n)", want: "unknown unknown unknown"},
		{name: "parameters ignored", stmt: "train-ai=n;until=@1767225600, search=y;q", want: "disallowed unknown allowed"},
		// -08 §4.2 adds ai-use; labels of earlier drafts are unknown keys (§6.4), ignored.
		{name: "ai-use is a category", stmt: "train-genai=n, search=y, ai-use=n", want: "unknown disallowed allowed"},
		{name: "earlier drafts' labels ignored", stmt: "bots=n, all=n, train-genai=n, ai-output=n, tdm=n", want: "unknown unknown unknown"},
		{name: "empty", stmt: "", want: "unknown unknown unknown"},
		{name: "stray comma", stmt: "train-ai=n,, search=y", want: "unknown unknown unknown", err: true},
		{name: "trailing comma", stmt: "train-ai=n,", want: "unknown unknown unknown", err: true},
		// The Content Signals Policy: yes and no; a signal not listed expresses nothing.
		{name: "signals", signal: true, stmt: "search=yes, ai-train=no", want: "allowed unknown disallowed"},
		{name: "signals without spaces", signal: true, stmt: "search=yes,ai-input=yes,ai-train=no", want: "allowed allowed disallowed"},
		{name: "signals take yes and no only", signal: true, stmt: "search=y, ai-train=n", want: "unknown unknown unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vocab, yes, no := vocabulary, usageYes, usageNo
			if tt.signal {
				vocab, yes, no = signalVocabulary, signalYes, signalNo
			}
			got, err := readStatement(vocab, yes, no, tt.stmt)
			var words []string
			for _, p := range got {
				words = append(words, p.String())
			}
			if g := strings.Join(words, " "); g != tt.want || (err != nil) != tt.err {
				t.Errorf("readStatement(%q) = %s, error %v; want %s, error %v", tt.stmt, g, err, tt.want, tt.err)
			}
		})
	}
}

// TestReadStatementParents: a category left unknown takes its parent's preference,
// for a vocabulary shaped like the earlier drafts' (a broad category, a narrower one
// under it, and one under that).
func TestReadStatementParents(t *testing.T) {
	vocab := []Category{{Label: "all"}, {Label: "train-ai", Parent: "all"}, {Label: "train-genai", Parent: "train-ai"}, {Label: "search", Parent: "all"}}
	tests := []struct{ stmt, want string }{
		{"all=n", "disallowed disallowed disallowed disallowed"},
		{"all=n, train-ai=y", "disallowed allowed allowed disallowed"},
		{"train-genai=y", "unknown unknown allowed unknown"},
		{"all=y, train-genai=n, train-ai=maybe", "allowed allowed disallowed allowed"},
		{"ALL=n", "unknown unknown unknown unknown"},
	}
	for _, tt := range tests {
		got, _ := readStatement(vocab, usageYes, usageNo, tt.stmt)
		var words []string
		for _, p := range got {
			words = append(words, p.String())
		}
		if g := strings.Join(words, " "); g != tt.want {
			t.Errorf("readStatement(%q) = %s, want %s", tt.stmt, g, tt.want)
		}
	}
}

// TestVocabularyTables: labels are keys RFC 9651 can write, each once, and a parent
// comes before its children, as readStatement needs.
func TestVocabularyTables(t *testing.T) {
	for name, vocab := range map[string][]Category{"vocabulary": vocabulary, "signals": signalVocabulary} {
		for i, c := range vocab {
			if _, err := readStatement(vocab, "y", "n", c.Label+"=y"); err != nil {
				t.Errorf("%s: label %q is no Dictionary key: %v", name, c.Label, err)
			}
			if slices.IndexFunc(vocab[:i], func(p Category) bool { return p.Label == c.Label }) >= 0 {
				t.Errorf("%s: label %q twice", name, c.Label)
			}
			if c.Parent != "" && slices.IndexFunc(vocab[:i], func(p Category) bool { return p.Label == c.Parent }) < 0 {
				t.Errorf("%s: parent %q of %q is not before it", name, c.Parent, c.Label)
			}
		}
	}
}

// attachExample is the example of draft-ietf-aipref-attach-05 §3.4, its lines as a
// reader keeps them for each group.
var attachExample = map[string][]UsageLine{
	// User-Agent: *  Allow: /  Disallow: /never/  (lines 1 to 3)
	"*": {
		{Statement: "train-ai=n", Line: 4},
		{Path: "/ai-ok/", Statement: "train-ai=y", Line: 5},
	},
	// User-Agent: ExampleBot  Allow: /  (lines 7 and 8)
	"ExampleBot": {
		{Statement: "train-ai=y", Line: 9},
	},
}

// TestUsageAttachExample: the table of draft-ietf-aipref-attach-05 §3.4, and what it
// says of ExampleBot ("apply usage preferences of "ai=y"": the draft's text keeps the
// label of an earlier vocabulary; its file says train-ai=y). /never/test, which
// may not be crawled, is in TestUsageParse.
func TestUsageAttachExample(t *testing.T) {
	tests := []struct {
		group, path, want string
	}{
		{"*", "/test", "train-ai=disallowed@4 ai-use=unknown search=unknown"},
		{"*", "/ai-ok/test", "train-ai=allowed@5 ai-use=unknown search=unknown"},
		{"ExampleBot", "/test", "train-ai=allowed@9 ai-use=unknown search=unknown"},
		{"ExampleBot", "/ai-ok/test", "train-ai=allowed@9 ai-use=unknown search=unknown"},
	}
	for _, d := range []Dialect{Google, RFC9309} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s %s %s", d, tt.group, tt.path), func(t *testing.T) {
				u := d.usage(attachExample[tt.group], tt.path)
				if got := prefs(u.ContentUsage); got != tt.want || !u.Fetchable {
					t.Errorf("got %s (fetchable %v), want %s", got, u.Fetchable, tt.want)
				}
			})
		}
	}
}

// TestUsageLines: which lines apply to a path, and how they combine
// (draft-ietf-aipref-attach-05 §3.1: "the same path prefix matching rules as defined
// for Allow and Disallow", "the number of bytes in the encoded path"; identical paths
// combine per draft-ietf-aipref-vocab §5.1, most restrictively).
func TestUsageLines(t *testing.T) {
	tests := []struct {
		name    string
		dialect Dialect
		lines   []UsageLine
		path    string
		usage   string // Content-Usage preferences
		signal  string // Content-Signal preferences
		applied []int  // the lines that apply
	}{
		{
			name:  "identical paths combine most restrictively",
			lines: []UsageLine{{Path: "/a/", Statement: "train-ai=y, search=y", Line: 1}, {Path: "/a/", Statement: "train-ai=n", Line: 2}},
			path:  "/a/b", usage: "train-ai=disallowed@2 ai-use=unknown search=allowed@1", applied: []int{1, 2},
		},
		{
			name:  "identical paths: the first line that gives the result names it",
			lines: []UsageLine{{Path: "/a/", Statement: "train-ai=n", Line: 1}, {Path: "/a/", Statement: "train-ai=n", Line: 2}},
			path:  "/a/b", usage: "train-ai=disallowed@1 ai-use=unknown search=unknown", applied: []int{1, 2},
		},
		{
			name:  "a line without a path is as a line for /",
			lines: []UsageLine{{Statement: "train-ai=y", Line: 1}, {Path: "/", Statement: "train-ai=n", Line: 2}},
			path:  "/x", usage: "train-ai=disallowed@2 ai-use=unknown search=unknown", applied: []int{1, 2},
		},
		{
			name:  "the longest match applies, the other says nothing",
			lines: []UsageLine{{Statement: "train-ai=n", Line: 1}, {Path: "/docs/", Statement: "search=y", Line: 2}},
			path:  "/docs/a", usage: "train-ai=unknown ai-use=unknown search=allowed@2", applied: []int{2},
		},
		{
			name:  "a line of another path does not apply",
			lines: []UsageLine{{Statement: "train-ai=n", Line: 1}, {Path: "/docs/", Statement: "search=y", Line: 2}},
			path:  "/doc", usage: "train-ai=disallowed@1 ai-use=unknown search=unknown", applied: []int{1},
		},
		{
			name:  "wildcard and end anchor count their bytes",
			lines: []UsageLine{{Path: "/docs/", Statement: "train-ai=y", Line: 1}, {Path: "/*.pdf$", Statement: "train-ai=n", Line: 2}},
			path:  "/docs/a.pdf", usage: "train-ai=disallowed@2 ai-use=unknown search=unknown", applied: []int{2},
		},
		{
			name:  "end anchor that does not match",
			lines: []UsageLine{{Path: "/docs/", Statement: "train-ai=y", Line: 1}, {Path: "/*.pdf$", Statement: "train-ai=n", Line: 2}},
			path:  "/docs/a.pdf?x", usage: "train-ai=allowed@1 ai-use=unknown search=unknown", applied: []int{1},
		},
		{
			name:  "different paths that match as long combine",
			lines: []UsageLine{{Path: "/a*", Statement: "train-ai=y, search=n", Line: 1}, {Path: "/ab", Statement: "train-ai=n", Line: 2}},
			path:  "/abc", usage: "train-ai=disallowed@2 ai-use=unknown search=disallowed@1", applied: []int{1, 2},
		},
		{
			name:  "query is matched",
			lines: []UsageLine{{Path: "/a?print", Statement: "train-ai=n", Line: 1}, {Statement: "train-ai=y", Line: 2}},
			path:  "/a?print=1", usage: "train-ai=disallowed@1 ai-use=unknown search=unknown", applied: []int{1},
		},
		{
			name:  "google: non-ASCII in the path is percent-encoded",
			lines: []UsageLine{{Path: "/café/", Statement: "train-ai=n", Line: 1}},
			path:  "/caf%C3%A9/menu", usage: "train-ai=disallowed@1 ai-use=unknown search=unknown", applied: []int{1},
		},
		{
			name:  "google: escapes of unreserved characters are not decoded",
			lines: []UsageLine{{Path: "/%7Ejoe/", Statement: "train-ai=n", Line: 1}},
			path:  "/~joe/x", usage: "train-ai=unknown ai-use=unknown search=unknown",
		},
		{
			name: "rfc9309: escapes of unreserved characters are decoded", dialect: RFC9309,
			lines: []UsageLine{{Path: "/%7Ejoe/", Statement: "train-ai=n", Line: 1}},
			path:  "/~joe/x", usage: "train-ai=disallowed@1 ai-use=unknown search=unknown", applied: []int{1},
		},
		{
			name:  "a statement that does not parse makes every category unknown",
			lines: []UsageLine{{Statement: "Train-AI=n, search=y", Line: 1}},
			path:  "/x", usage: "train-ai=unknown ai-use=unknown search=unknown", applied: []int{1},
		},
		{
			name:  "a path with no statement states nothing",
			lines: []UsageLine{{Statement: "train-ai=n", Line: 1}, {Path: "/open/", Line: 2}},
			path:  "/open/x", usage: "train-ai=unknown ai-use=unknown search=unknown", applied: []int{2},
		},
		{
			name: "Content-Signal is matched apart and read with its own words",
			lines: []UsageLine{
				{Statement: "train-ai=y, search=y", Line: 1},
				{Signal: true, Statement: "search=yes, ai-train=no", Line: 2},
				{Signal: true, Path: "/x/", Statement: "ai-input=no", Line: 3},
			},
			path:  "/x/y",
			usage: "train-ai=allowed@1 ai-use=unknown search=allowed@1", signal: "search=unknown ai-input=disallowed@3 ai-train=unknown", applied: []int{1, 3},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := tt.dialect.usage(tt.lines, tt.path)
			if got := prefs(u.ContentUsage); got != tt.usage {
				t.Errorf("Content-Usage %s, want %s", got, tt.usage)
			}
			signal := tt.signal
			if signal == "" {
				signal = "search=unknown ai-input=unknown ai-train=unknown"
			}
			if got := prefs(u.ContentSignal); got != signal {
				t.Errorf("Content-Signal %s, want %s", got, signal)
			}
			var applied []int
			for _, l := range u.Lines {
				applied = append(applied, l.Line)
				if (l.Error != "") != strings.HasPrefix(l.Statement, "Train") {
					t.Errorf("line %d: error %q", l.Line, l.Error)
				}
			}
			if !slices.Equal(applied, tt.applied) {
				t.Errorf("lines %v apply, want %v", applied, tt.applied)
			}
		})
	}
}

// TestUsageWithHeader: the response's Content-Usage header combines with robots.txt
// most restrictively (draft-ietf-aipref-vocab §5.1: disallowed if any statement
// disallows, else allowed if any allows, else unknown).
func TestUsageWithHeader(t *testing.T) {
	file := Usage{Fetchable: true,
		ContentUsage:  []Stated{{Label: "train-ai", Preference: UsageAllowed, Line: 3}, {Label: "ai-use"}, {Label: "search", Preference: UsageDisallowed, Line: 4}},
		ContentSignal: []Stated{{Label: "search"}, {Label: "ai-input"}, {Label: "ai-train", Preference: UsageAllowed, Line: 5}},
	}
	tests := []struct {
		name   string
		u      Usage
		header map[string][]string
		usage  string
		signal string
	}{
		{"no header", file, nil, "train-ai=allowed@3 ai-use=unknown search=disallowed@4", "search=unknown ai-input=unknown ai-train=allowed@5"},
		{"header disallows what the file allows", file, map[string][]string{"Content-Usage": {"train-ai=n"}},
			"train-ai=disallowed+header ai-use=unknown search=disallowed@4", "search=unknown ai-input=unknown ai-train=allowed@5"},
		{"header allows what the file disallows", file, map[string][]string{"Content-Usage": {"search=y"}},
			"train-ai=allowed@3 ai-use=unknown search=disallowed@4", "search=unknown ai-input=unknown ai-train=allowed@5"},
		{"header says the same", file, map[string][]string{"Content-Usage": {"train-ai=y, search=n"}},
			"train-ai=allowed@3+header ai-use=unknown search=disallowed@4+header", "search=unknown ai-input=unknown ai-train=allowed@5"},
		// RFC 9651 §4.2: the field lines make one Dictionary, whose last value of a key wins.
		{"field lines are one dictionary", file, map[string][]string{"Content-Usage": {"train-ai=n", "train-ai=y"}},
			"train-ai=allowed@3+header ai-use=unknown search=disallowed@4", "search=unknown ai-input=unknown ai-train=allowed@5"},
		{"a field that does not parse states nothing", file, map[string][]string{"Content-Usage": {"Train-AI=n"}},
			"train-ai=allowed@3 ai-use=unknown search=disallowed@4", "search=unknown ai-input=unknown ai-train=allowed@5"},
		{"Content-Signal header", file, map[string][]string{"Content-Signal": {"ai-train=no, search=yes"}},
			"train-ai=allowed@3 ai-use=unknown search=disallowed@4", "search=allowed+header ai-input=unknown ai-train=disallowed+header"},
		{"the header alone", Usage{}, map[string][]string{"Content-Usage": {"train-ai=n"}},
			"train-ai=disallowed+header ai-use=unknown search=unknown", "search=unknown ai-input=unknown ai-train=unknown"},
		{"a URL robots.txt does not let the crawler fetch", Usage{ContentUsage: unknowns(vocabulary), ContentSignal: unknowns(signalVocabulary)},
			map[string][]string{"Content-Usage": {"search=y"}}, "train-ai=unknown ai-use=unknown search=allowed+header", "search=unknown ai-input=unknown ai-train=unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := prefs(tt.u.ContentUsage)
			got := tt.u.WithHeader(tt.header)
			if g := prefs(got.ContentUsage); g != tt.usage {
				t.Errorf("Content-Usage %s, want %s", g, tt.usage)
			}
			if g := prefs(got.ContentSignal); g != tt.signal {
				t.Errorf("Content-Signal %s, want %s", g, tt.signal)
			}
			if prefs(tt.u.ContentUsage) != before {
				t.Errorf("WithHeader changed the Usage it was called on")
			}
			if got.Fetchable != tt.u.Fetchable {
				t.Errorf("Fetchable %v, want %v", got.Fetchable, tt.u.Fetchable)
			}
		})
	}
}

func TestSplitUsageValue(t *testing.T) {
	tests := []struct{ value, path, stmt string }{
		{"train-ai=n", "", "train-ai=n"},
		{"/ai-ok/ train-ai=y", "/ai-ok/", "train-ai=y"},
		{"/a\t \ttrain-ai=y, search=n", "/a", "train-ai=y, search=n"},
		{"/only-a-path", "/only-a-path", ""},
		{"*.pdf train-ai=n", "", "*.pdf train-ai=n"}, // no leading "/": all statement
		{"", "", ""},
	}
	for _, tt := range tests {
		if p, s := splitUsageValue(tt.value); p != tt.path || s != tt.stmt {
			t.Errorf("splitUsageValue(%q) = %q, %q; want %q, %q", tt.value, p, s, tt.path, tt.stmt)
		}
	}
}

// TestUsageParse: the example file of draft-ietf-aipref-attach-05 §3.4 and its table,
// read by Parse in each dialect.
func TestUsageParse(t *testing.T) {
	const file = "User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n\n" +
		"User-Agent: ExampleBot\nAllow: /\nContent-Usage: train-ai=y\n"
	tests := []struct {
		agent, path string
		fetchable   bool
		want        string
	}{
		// The draft's table.
		{"SomeBot", "/test", true, "train-ai=disallowed@4 ai-use=unknown search=unknown"},
		{"SomeBot", "/never/test", false, "train-ai=unknown ai-use=unknown search=unknown"}, // "N/A"
		{"SomeBot", "/ai-ok/test", true, "train-ai=allowed@5 ai-use=unknown search=unknown"},
		// "A crawler that identifies as "ExampleBot" uses the second group."
		{"ExampleBot", "/test", true, "train-ai=allowed@9 ai-use=unknown search=unknown"},
		{"examplebot", "/never/test", true, "train-ai=allowed@9 ai-use=unknown search=unknown"},
	}
	for _, d := range Dialects() {
		r := Parse([]byte(file), WithDialect(d))
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s %s %s", d, tt.agent, tt.path), func(t *testing.T) {
				want := tt.want
				if d.legacy() { // neither document knows the field
					want = "train-ai=unknown ai-use=unknown search=unknown"
				}
				u := r.Usage(tt.agent, "https://example.com"+tt.path)
				if got := prefs(u.ContentUsage); got != want || u.Fetchable != tt.fetchable && !d.legacy() {
					t.Errorf("Usage = %s (fetchable %v), want %s (fetchable %v)", got, u.Fetchable, want, tt.fetchable)
				}
				if !u.Fetchable && len(u.Lines) > 0 {
					t.Errorf("lines %v apply to a URL the crawler may not fetch", u.Lines)
				}
			})
		}
	}
}

// TestUsageJSON: the one JSON shape of preferences, which the tools and the service
// write as they are.
func TestUsageJSON(t *testing.T) {
	r := Parse([]byte("User-agent: *\nContent-Usage: /a/ Train-ai=n\nContent-Signal: ai-train=no\n"))
	b, err := json.Marshal(r.Usage("x", "/a/b"))
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"fetchable":true,` +
		`"content_usage":[{"label":"train-ai","preference":"unknown","line":0},{"label":"ai-use","preference":"unknown","line":0},{"label":"search","preference":"unknown","line":0}],` +
		`"content_signal":[{"label":"search","preference":"unknown","line":0},{"label":"ai-input","preference":"unknown","line":0},{"label":"ai-train","preference":"disallowed","line":3}],` +
		`"lines":[{"signal":false,"path":"/a/","statement":"Train-ai=n","line":2,"error":"structured field: upper-case letter 'T' where it needs a key: keys are lower case at byte 0"},` +
		`{"signal":true,"path":"","statement":"ai-train=no","line":3}]}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	var back Usage
	if err := json.Unmarshal(b, &back); err != nil || back.Signal(SignalAITrain).Preference != UsageDisallowed {
		t.Errorf("read back: %+v, %v", back, err)
	}
	r = Parse([]byte("User-agent: *\nContent-Usage: /a/ train-ai=n\n"))
	if b, _ := json.Marshal(r.Usage("x", "/elsewhere")); !strings.Contains(string(b), `"lines":[]`) {
		t.Errorf("no lines apply: %s; want an empty array", b)
	}
}

func TestUsageString(t *testing.T) {
	r := Parse([]byte("User-agent: *\nContent-Usage: train-ai=n, search=y\nContent-Signal: search=yes, ai-train=no\n"))
	u := r.Usage("x", "/")
	if got, want := u.String(), "train-ai=n (line 2), search=y (line 2), search=yes (line 3), ai-train=no (line 3)"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	h := u.WithHeader(map[string][]string{"Content-Usage": {"train-ai=n"}, "Content-Signal": {"ai-input=no"}})
	if got, want := h.String(), "train-ai=n (line 2, header), search=y (line 2), search=yes (line 3), ai-input=no (header), ai-train=no (line 3)"; got != want {
		t.Errorf("with the header: got  %s\nwant %s", got, want)
	}
	if got := r.Usage("x", "/").WithHeader(nil); got.String() == "" || (Usage{}).String() != "" {
		t.Errorf("nothing stated should be empty")
	}
}

// FuzzUsage: any file, any URL: Usage does not panic; a URL the crawler may not fetch
// has no preference; every stated preference names a line that applies, whose
// statement states it; the combination never allows what one applying line disallows.
func FuzzUsage(f *testing.F) {
	f.Add("User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n", "/ai-ok/test", uint8(0))
	f.Add("User-agent: *\nContent-Usage: /a* train-ai=y, search=n\nContent-Usage: /ab train-ai=n\nContent-Signal: ai-train=no\n", "/abc?x", uint8(1))
	f.Add("User-agent: *\nContent-Usage: Train-AI=n\nContent-Usage: /caf\xc3\xa9/ search=y;q=1\n", "/caf%C3%A9/", uint8(0))
	f.Add("User-agent: FooBot\nContent-Usage: train-ai=n\nUser-agent: *\nContent-Signal: ai-train=no\nDisallow: /p\n", "/x", uint8(1))
	f.Fuzz(func(t *testing.T, body, path string, dialect uint8) {
		d := Dialects()[int(dialect)%len(Dialects())]
		r := Parse([]byte(body), WithDialect(d))
		u := r.Usage("FooBot", "https://example.com"+path)
		// The lines read for the crawler's groups are those the detailed reading files
		// under them as fields.
		if !d.legacy() {
			groups, _ := r.GroupsFor("FooBot")
			all := r.Groups()
			var fromFields, fromIndex []int
			for _, gi := range groups {
				for _, f := range all[gi].Fields {
					if f.Name == "content-usage" || f.Name == "content-signal" {
						fromFields = append(fromFields, f.Line)
					}
				}
			}
			ix := r.usageIndex()
			for i, gi := range ix.group {
				if slices.Contains(groups, int(gi)) {
					fromIndex = append(fromIndex, ix.lines[i].Line)
				}
			}
			if !slices.Equal(fromFields, fromIndex) {
				t.Fatalf("usage lines %v, the groups' fields %v", fromIndex, fromFields)
			}
		}
		if len(u.ContentUsage) != len(vocabulary) || len(u.ContentSignal) != len(signalVocabulary) {
			t.Fatalf("%d categories, %d signals", len(u.ContentUsage), len(u.ContentSignal))
		}
		if u.Fetchable != r.Allowed("FooBot", "https://example.com"+path) {
			t.Fatalf("fetchable %v, Allowed says otherwise", u.Fetchable)
		}
		if (!u.Fetchable || d.legacy()) && (len(u.Lines) > 0 || u.String() != "") {
			t.Fatalf("fetchable %v in %s, yet %q from lines %v", u.Fetchable, d, u, u.Lines)
		}
		for _, field := range []struct {
			signal  bool
			st      []Stated
			vocab   []Category
			yes, no string
		}{{false, u.ContentUsage, vocabulary, usageYes, usageNo}, {true, u.ContentSignal, signalVocabulary, signalYes, signalNo}} {
			var applied [][]Preference
			for _, l := range u.Lines {
				if l.Signal == field.signal {
					p, _ := readStatement(field.vocab, field.yes, field.no, l.Statement)
					applied = append(applied, p)
				}
			}
			for c, s := range field.st {
				var most Preference
				for _, p := range applied {
					most = max(most, p[c])
				}
				if s.Preference != most {
					t.Fatalf("%s: %s, the lines that apply say %s (lines %v)", s.Label, s.Preference, most, u.Lines)
				}
				if s.Preference != UsageUnknown && !slices.ContainsFunc(u.Lines, func(l UsageLine) bool { return l.Line == s.Line && l.Signal == field.signal }) {
					t.Fatalf("%s stated by line %d, which does not apply (lines %v)", s.Label, s.Line, u.Lines)
				}
			}
		}
	})
}

// BenchmarkUsage: the preferences of one URL, from a parsed file that states some and
// from one that states none (what a server pays for every URL of such a file).
func BenchmarkUsage(b *testing.B) {
	files := map[string]string{
		"preferences": "User-agent: *\nDisallow: /account/\nContent-Usage: train-ai=n, search=y\nContent-Usage: /press/ train-ai=y\nContent-Signal: search=yes, ai-train=no\n\nUser-agent: GPTBot\nDisallow: /\n",
		"none":        "User-agent: *\nDisallow: /account/\nDisallow: /search\nAllow: /search/about\n\nUser-agent: GPTBot\nDisallow: /\n",
	}
	for _, name := range []string{"preferences", "none"} {
		r := Parse([]byte(files[name]))
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = r.Usage("ExampleBot", "https://example.com/press/2026/release")
			}
		})
	}
}

// BenchmarkStatesUsage: what a server pays once per file it parses to know whether the
// file states usage preferences, next to the parse (BenchmarkParse): every corpus file
// parsed, then asked, per op.
func BenchmarkStatesUsage(b *testing.B) {
	c := testenv.Corpus(b)
	for _, ask := range []bool{false, true} {
		b.Run(fmt.Sprintf("ask=%v", ask), func(b *testing.B) {
			b.ReportAllocs()
			states := 0
			for b.Loop() {
				states = 0
				for _, f := range c.Files {
					r := Parse(f.Body)
					if ask && r.StatesUsage() {
						states++
					}
				}
			}
			b.ReportMetric(float64(states), "files-stating")
		})
	}
}

// TestGroupUsage: each group lists its usage lines, read as Usage reads them; the
// legacy dialects know none.
func TestGroupUsage(t *testing.T) {
	const file = "Content-Usage: train-ai=n\nUser-agent: a\nContent-Usage: /x/ Train-AI=n\nDisallow: /p\n\nUser-agent: b\nContent-Signal: ai-train=no\n"
	for _, d := range Dialects() {
		gs := Parse([]byte(file), WithDialect(d)).Groups()
		var got []string
		for _, g := range gs {
			for _, l := range g.Usage {
				got = append(got, fmt.Sprintf("%d %v %q %q %v", l.Line, l.Signal, l.Path, l.Statement, l.Error != ""))
			}
		}
		want := []string{`3 false "/x/" "Train-AI=n" true`, `7 true "" "ai-train=no" false`}
		if d.legacy() {
			want = nil
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", d, got, want)
		}
	}
}

// TestWithHeaderLimit: a Content-Usage header of one 8 MiB inner list, which any site
// can send and which cost 1.83 GB of allocations before the parser had limits (issue
// 33), states nothing and costs a few allocations; a header within the limit still
// states what it says.
func TestWithHeaderLimit(t *testing.T) {
	huge := map[string][]string{"Content-Usage": {"train-ai=n, a=(" + strings.Repeat("x ", 4<<20) + ")"}}
	var u Usage
	allocs := testing.AllocsPerRun(1, func() { u = Usage{}.WithHeader(huge) })
	if st := u.Category(TrainAI); st.Preference != UsageUnknown {
		t.Errorf("an 8 MiB header states train-ai %v", st.Preference)
	}
	if allocs > 16 {
		t.Errorf("an 8 MiB header took %v allocations", allocs)
	}
	small := map[string][]string{"Content-Usage": {"train-ai=n"}}
	if st := (Usage{}).WithHeader(small).Category(TrainAI); st.Preference != UsageDisallowed || !st.Header {
		t.Errorf("train-ai=n in the header: %+v", st)
	}
}

// The reference for Usage: the lines of the groups that apply, each compiled and its
// statement read for every URL, as Usage did before its lines were compiled once
// (issue 33). TestUsageReference checks Usage against it.

// usage is what lines (the Content-Usage and Content-Signal lines of the groups that
// apply to a crawler) say about path, the path and query of a URL as splitPath gives
// it, for a crawler that may fetch it.
func (d Dialect) usage(lines []UsageLine, path string) Usage {
	path = d.matchPath(path)
	u := Usage{Fetchable: true}
	var cu, cs []UsageLine
	cu, u.ContentUsage = d.applyLines(lines, false, path, vocabulary, usageYes, usageNo)
	cs, u.ContentSignal = d.applyLines(lines, true, path, signalVocabulary, signalYes, signalNo)
	u.Lines = append(append([]UsageLine{}, cu...), cs...)
	slices.SortFunc(u.Lines, func(a, b UsageLine) int { return a.Line - b.Line })
	return u
}

// applyLines picks the lines of one field (Content-Signal when signal is set) whose
// paths match path longest, and combines their statements.
func (d Dialect) applyLines(lines []UsageLine, signal bool, path string, vocab []Category, yes, no string) ([]UsageLine, []Stated) {
	var best []UsageLine
	bestLen := -1
	for _, l := range lines {
		if l.Signal != signal {
			continue
		}
		p := l.Path
		if p == "" {
			p = "/"
		}
		pat := d.compilePattern(p)
		if !matches(pat.shape(), pat.s, path) || len(pat.s) < bestLen {
			continue
		}
		if len(pat.s) > bestLen {
			best, bestLen = best[:0], len(pat.s)
		}
		best = append(best, l)
	}
	st := unknowns(vocab)
	for i := range best {
		prefs, err := readStatement(vocab, yes, no, best[i].Statement)
		if err != nil {
			best[i].Error = err.Error()
		}
		for c, p := range prefs {
			// Lines in file order: the first that gives the combined preference names it.
			if s := &st[c]; p > s.Preference {
				s.Preference, s.Line = p, best[i].Line
			}
		}
	}
	return best, st
}

// refUsageAgents is UsageAgents as the reference reads it: the lines of the groups that
// apply (GroupsFor), each compiled and matched, its statement read (Dialect.usage).
func refUsageAgents(r *Robots, agents []string, url string) Usage {
	u := Usage{ContentUsage: unknowns(vocabulary), ContentSignal: unknowns(signalVocabulary), Lines: []UsageLine{}}
	if !r.CheckAgents(agents, url).Allowed {
		return u
	}
	u.Fetchable = true
	if !r.StatesUsage() {
		return u
	}
	ix := r.usageIndex()
	groups, _ := r.GroupsFor(agents...)
	var lines []UsageLine
	for i, gi := range ix.group {
		if _, ok := slices.BinarySearch(groups, int(gi)); ok {
			l := ix.lines[i]
			l.Error = ""
			lines = append(lines, l)
		}
	}
	return r.dialect.usage(lines, pathOf(url))
}

// checkUsage checks UsageAgents and CheckUsage against the reference.
func checkUsage(t *testing.T, r *Robots, agents []string, url string) {
	t.Helper()
	want := refUsageAgents(r, agents, url)
	d, got := r.CheckUsage(agents, url)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s, %q, %q:\n got %+v\nwant %+v", r.Dialect(), agents, url, got, want)
	}
	if wd := r.CheckAgents(agents, url); d != wd {
		t.Fatalf("%s, %q, %q: CheckUsage decides %+v, CheckAgents %+v", r.Dialect(), agents, url, d, wd)
	}
}

// TestUsageReference checks Usage on files of many usage lines, whose sets get an
// index, and on lines that tie, against the reference.
func TestUsageReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 2))
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "abc/"[rng.IntN(4)]
		}
		return string(b)
	}
	var many strings.Builder
	many.WriteString("User-agent: *\nDisallow: /b/c\n")
	for i := range 400 {
		field, stmt := "Content-Usage", []string{"train-ai=n", "train-ai=y", "search=n", "x", "ai-use=y"}[i%5]
		if i%3 == 0 {
			field, stmt = "Content-Signal", []string{"ai-train=no", "search=yes", "ai-input=no"}[i%3]
		}
		path := "/" + word(1+rng.IntN(3))
		switch i % 4 {
		case 1:
			path = "/*" + word(2)
		case 2:
			path += "$"
		case 3:
			path = ""
		}
		fmt.Fprintf(&many, "%s: %s %s\n", field, path, stmt)
		if i%50 == 0 {
			fmt.Fprintf(&many, "User-agent: a%d\nUser-agent: b\n", i)
		}
	}
	files := []string{
		many.String(),
		"User-agent: *\nContent-Usage: /a* train-ai=n\nContent-Usage: /*b train-ai=y, search=n\nContent-Usage: / search=y\n",
		"User-agent: b\nContent-Usage: /x train-ai=n\nUser-agent: *\nContent-Usage: /x train-ai=y\nContent-Signal: /x ai-train=no\n",
	}
	for _, body := range files {
		for _, d := range Dialects() {
			r := Parse([]byte(body), WithDialect(d))
			for range 300 {
				path := "/" + word(rng.IntN(12))
				for _, agents := range [][]string{{"b"}, {"z"}, {"a0", "b"}, {"a50"}} {
					checkUsage(t, r, agents, "https://h"+path)
				}
			}
			checkUsage(t, r, []string{"b"}, "https://h/"+strings.Repeat(word(8), 200))
		}
	}
}

// FuzzUsageReference checks Usage on any file against the reference.
func FuzzUsageReference(f *testing.F) {
	f.Add("User-agent: *\nContent-Usage: /a* train-ai=n\nContent-Usage: /*b train-ai=y\n", "x", "/ab")
	f.Add("User-agent: b\nContent-Signal: ai-train=no\nContent-Usage: /x$ train-ai=n\n", "b", "https://h/x")
	f.Fuzz(func(t *testing.T, body, agent, url string) {
		if len(body) > 4096 || len(url) > 512 {
			return
		}
		for _, d := range Dialects() {
			checkUsage(t, Parse([]byte(body), WithDialect(d)), []string{agent}, url)
		}
	})
}

// TestMayStateUsage: the pre-filter of readUsage finds the stem of the usage fields'
// names (Content-Usage, Content-Signal) in any case, and nothing else.
func TestMayStateUsage(t *testing.T) {
	if usageStem != "content-" {
		t.Fatalf("usageStem = %q, want %q", usageStem, "content-")
	}
	for _, tc := range []struct {
		body string
		want bool
	}{
		{"User-agent: *\nContent-Usage: train-ai=n\n", true},
		{"User-agent: *\nCONTENT-SIGNAL: search=yes\n", true},
		{"content-", true},
		{"User-agent: *\nDisallow: /content\nDisallow: /a-b\n", false},
		{"User-agent: *\nDisallow: /contents-\n", false},
		{"-content", false},
		{"", false},
	} {
		if got := mayStateUsage(tc.body); got != tc.want {
			t.Errorf("mayStateUsage(%q) = %v, want %v", tc.body, got, tc.want)
		}
	}
	// Against a look at every place, on strings of the stem's bytes in both cases and
	// of the bytes that differ from them by the case bit alone ('\r' from '-').
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "cCoOnNtTeE--\r\x03x\n"
	for range 20_000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if rng.IntN(4) == 0 { // the stem in some case, somewhere
			at := rng.IntN(len(b) + 1)
			stem := []byte(usageStem)
			for i := range stem {
				if rng.IntN(2) == 0 && 'a' <= stem[i] && stem[i] <= 'z' {
					stem[i] -= 'a' - 'A'
				}
			}
			b = append(b[:at], append(stem, b[at:]...)...)
		}
		body, want := string(b), false
		for i := 0; i+len(usageStem) <= len(body); i++ {
			want = want || equalFold(body[i:i+len(usageStem)], usageStem)
		}
		if got := mayStateUsage(body); got != want {
			t.Fatalf("mayStateUsage(%q) = %v, want %v", body, got, want)
		}
	}
}
