package rsl

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

func parseFile(t *testing.T, name string) (*Document, error) {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return Parse(bytes.NewReader(b))
}

// straight replaces the typographic quotes the guide prints with straight ones.
func straight(b []byte) []byte {
	return bytes.ReplaceAll(b, []byte("”"), []byte(`"`))
}

// TestGuideTemplates: rslstandard.org/guide/getting-started's templates. As printed,
// their url attribute is in typographic quotes: not XML, a clear error. With straight
// quotes, "Prohibit AI training ... but permits other applications including using the
// content for websearch applications", and "Allow AI training ... explicitly gives
// permission ... for AI training" (a <permits> lists what the licence permits: other
// uses are not permitted).
func TestGuideTemplates(t *testing.T) {
	for _, name := range []string{"prohibit-ai-training.xml", "allow-ai-training.xml"} {
		if _, err := parseFile(t, name); !errors.Is(err, ErrNotXML) {
			t.Errorf("%s as printed: error %v, want ErrNotXML", name, err)
		}
	}
	tests := []struct {
		file  string
		usage Usage
		want  Answer
	}{
		{"prohibit-ai-training.xml", AITrain, Prohibited},
		{"prohibit-ai-training.xml", Search, Permitted},
		{"prohibit-ai-training.xml", AIInput, Permitted},
		{"prohibit-ai-training.xml", All, Permitted}, // "all" is not named: only ai-train is prohibited
		{"allow-ai-training.xml", AITrain, Permitted},
		{"allow-ai-training.xml", Search, Prohibited},
		{"allow-ai-training.xml", AIAll, Prohibited},
	}
	for _, tt := range tests {
		b, _ := os.ReadFile("testdata/" + tt.file)
		doc, err := Parse(bytes.NewReader(straight(b)))
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		v := doc.Check("https://example.com/any/page", Query{Usage: tt.usage})
		if v.Answer != tt.want {
			t.Errorf("%s %s: %s (%s), want %s", tt.file, tt.usage, v.Answer, v.Reason, tt.want)
		}
		if tt.want == Permitted && (len(v.Payments) != 1 || v.Payments[0].Type != "free") {
			t.Errorf("%s %s: payments %v, want free (no <payment>)", tt.file, tt.usage, v.Payments)
		}
	}
}

// TestPublishedLicences: the licence of rslstandard.org/guide/ai-preferences (AI
// training permitted on a subscription, through a custom agreement) and the RSL
// Collective's two (rslcollective.org/license: royalties, attribution), each at
// content url "/".
func TestPublishedLicences(t *testing.T) {
	tests := []struct {
		file, payment string
		server        string
	}{
		{"ai-preferences.xml", "subscription https://your-website.com/contact-form.html", ""},
		{"collective-royalty.xml", "royalty https://rslcollective.org/license", "https://rslcollective.org/api"},
		{"collective-attribution.xml", "attribution https://rslcollective.org/license", "https://rslcollective.org/api"},
	}
	for _, tt := range tests {
		doc, err := parseFile(t, tt.file)
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		if len(doc.Contents) != 1 || doc.Contents[0].URL != "/" || doc.Contents[0].Server != tt.server {
			t.Errorf("%s: contents %+v", tt.file, doc.Contents)
		}
		v := doc.Check("https://your-website.com/blog/post", Query{Usage: AITrain})
		if v.Answer != Permitted || len(v.Payments) != 1 || v.Payments[0].String() != tt.payment || v.Content != "/" {
			t.Errorf("%s: %+v, want permitted on %q", tt.file, v, tt.payment)
		}
		if v := doc.Check("https://your-website.com/", Query{Usage: AIInput}); v.Answer != Prohibited {
			t.Errorf("%s: ai-input %s, want prohibited (only train-ai is permitted)", tt.file, v.Answer)
		}
		if l := doc.Contents[0].Licenses[0]; l.Err != "" || len(l.Warnings) != 0 {
			t.Errorf("%s: licence error %q, warnings %q", tt.file, l.Err, l.Warnings)
		}
	}
}

const ns = `xmlns="https://rslstandard.org/rsl"`

// TestContentMatch: <content url> patterns follow robots.txt matching (RSL 1.0: "the
// URL-matching rules of the Robots Exclusion Protocol (RFC 9309), including support for
// the special characters * ... and $"), the longest pattern winning; a full URL
// matches its own origin only.
func TestContentMatch(t *testing.T) {
	doc, err := Parse(strings.NewReader(`<rsl ` + ns + `>
<content url="/"><license><permits type="usage">search</permits></license></content>
<content url="/premium/"><license><prohibits type="usage">all</prohibits></license></content>
<content url="/*.pdf$"><license><permits type="usage">ai-all</permits><payment type="purchase"><amount currency="USD">0.25</amount></payment></license></content>
<content url="https://cdn.example.net/img/*"><license><permits type="usage">ai-train</permits></license></content>
<content url="/caf%C3%A9/"><license><prohibits type="usage">ai-input</prohibits></license></content>
</rsl>`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		url     string
		content string
		usage   Usage
		want    Answer
	}{
		{"https://example.com/news/1", "/", Search, Permitted},
		{"https://example.com/news/1", "/", AITrain, Prohibited},
		{"https://example.com/premium/a", "/premium/", Search, Prohibited},
		{"https://example.com/premium/a.pdf", "/*.pdf$", AITrain, Permitted}, // 7 bytes beat 9? no: "/*.pdf$" is 7, "/premium/" 9
		{"https://example.com/docs/a.pdf", "/*.pdf$", AIIndex, Permitted},
		{"https://example.com/docs/a.pdf?x=1", "/", AIIndex, Prohibited},
		{"https://cdn.example.net/img/a.png", "https://cdn.example.net/img/*", AITrain, Permitted},
		{"https://example.com/img/a.png", "/", AITrain, Prohibited},
		{"https://example.com/caf%C3%A9/menu", "/caf%C3%A9/", Search, Permitted},
	}
	for _, tt := range tests {
		v := doc.Check(tt.url, Query{Usage: tt.usage})
		if tt.url == "https://example.com/premium/a.pdf" {
			tt.content, tt.want = "/premium/", Prohibited // the longer pattern wins
		}
		if v.Content != tt.content || v.Answer != tt.want {
			t.Errorf("%s %s: content %q %s (%s), want %q %s", tt.url, tt.usage, v.Content, v.Answer, v.Reason, tt.content, tt.want)
		}
	}
	if v := doc.Check("https://example.com/docs/a.pdf", Query{Usage: AITrain}); len(v.Payments) != 1 || v.Payments[0].String() != "purchase 0.25 USD" {
		t.Errorf("payments %v", v.Payments)
	}
	// No content matches: unknown.
	one, _ := Parse(strings.NewReader(`<rsl ` + ns + `><content url="/a/"><license/></content></rsl>`))
	if v := one.Check("https://example.com/b", Query{Usage: Search}); v.Answer != Unknown || v.Content != "" {
		t.Errorf("no match: %+v", v)
	}
}

// TestPermitsProhibits: users and places, prohibits over permits, alternatives.
func TestPermitsProhibits(t *testing.T) {
	doc, err := Parse(strings.NewReader(`<rsl ` + ns + `>
<content url="/">
  <license>
    <permits type="usage">ai-all, search</permits>
    <prohibits type="usage">ai-train</prohibits>
    <permits type="user">education personal</permits>
    <prohibits type="geo">us</prohibits>
  </license>
  <license>
    <permits type="usage">ai-train</permits>
    <permits type="user">commercial</permits>
    <payment type="training"><amount currency="EUR">100</amount></payment>
  </license>
</content></rsl>`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		q       Query
		want    Answer
		license []int
	}{
		{Query{Usage: AIInput, User: "education", Geo: "FR"}, Permitted, []int{3}},
		{Query{Usage: AIInput, User: "education", Geo: "us"}, Prohibited, []int{3, 9}}, // geo is upper-cased
		{Query{Usage: AIInput, User: "commercial"}, Prohibited, []int{3, 9}},
		{Query{Usage: AITrain, User: "commercial"}, Permitted, []int{9}},
		{Query{Usage: AITrain, User: "personal"}, Prohibited, []int{3, 9}},
		{Query{Usage: Search}, Permitted, []int{3}}, // users and places not asked: conditions
	}
	for _, tt := range tests {
		v := doc.Check("https://example.com/x", tt.q)
		if v.Answer != tt.want || !equalInts(v.Licenses, tt.license) {
			t.Errorf("%+v: %s %v (%s), want %s %v", tt.q, v.Answer, v.Licenses, v.Reason, tt.want, tt.license)
		}
	}
	v := doc.Check("https://example.com/x", Query{Usage: Search})
	if strings.Join(v.Conditions, "; ") != "user: only education, personal; geo: not US" {
		t.Errorf("conditions %q", v.Conditions)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// repeat is a reader of s repeated n times, without holding it.
func repeat(s string, n int) io.Reader {
	r := make([]io.Reader, 0, 3)
	r = append(r, strings.NewReader(`<rsl `+ns+`>`))
	r = append(r, io.LimitReader(&loop{s: s}, int64(len(s)*n)))
	r = append(r, strings.NewReader(`</rsl>`))
	return io.MultiReader(r...)
}

type loop struct {
	s string
	i int
}

func (l *loop) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c := copy(p[n:], l.s[l.i:])
		n += c
		l.i = (l.i + c) % len(l.s)
	}
	return n, nil
}

// TestBadInput: what Parse cannot read is an error naming why, and what it reads but
// cannot understand answers Unknown: never Permitted.
func TestBadInput(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   io.Reader
		want error
		says string
	}{
		{"not XML", strings.NewReader("License: https://example.com/license.xml\n"), ErrNotXML, ""},
		{"HTML page", strings.NewReader("<!doctype html><html><body>Not found</body></html>"), ErrNotRSL, "<html>"},
		{"HTML page, not XML", strings.NewReader("<!doctype html><p>Not found<br>"), ErrNotRSL, "<p>"},
		{"text then markup", strings.NewReader("Not found <b>"), ErrNotXML, ""},
		{"50 MB", repeat(`<!-- padding, padding, padding -->`, 50<<20/35), ErrTooLarge, ""},
		{"too many contents", repeat(`<content url="/x"/>`, MaxContents+1), nil, "more than 10000 <content>"},
		{"nested without end", strings.NewReader(`<rsl ` + ns + `>` + strings.Repeat("<a>", 1<<20)), ErrTooDeep, ""},
		{"nested and closed", strings.NewReader(`<rsl ` + ns + `>` + strings.Repeat("<a>", 40) + strings.Repeat("</a>", 40) + `</rsl>`), ErrTooDeep, ""},
		{"cut off", strings.NewReader(`<rsl ` + ns + `><content url="/">`), ErrNotXML, "unexpected EOF"},
		{"wrong namespace", strings.NewReader(`<rsl xmlns="https://example.com/rsl"></rsl>`), ErrNotRSL, "not in the namespace"},
		{"no namespace", strings.NewReader(`<rsl><content url="/"/></rsl>`), ErrNotRSL, ""},
		{"RSS feed", strings.NewReader(`<rss xmlns:rsl="https://rslstandard.org/rsl" version="2.0"></rss>`), ErrNotRSL, "feed"},
		{"entity", strings.NewReader(`<!DOCTYPE rsl [<!ENTITY a "aaaa">]><rsl ` + ns + `><content url="&a;"/></rsl>`), ErrNotXML, ""},
		{"two roots", strings.NewReader(`<rsl ` + ns + `></rsl><rsl ` + ns + `></rsl>`), ErrNotXML, "second root"},
		{"latin-1", strings.NewReader(`<?xml version="1.0" encoding="ISO-8859-1"?><rsl ` + ns + `></rsl>`), ErrNotXML, ""},
	} {
		doc, err := Parse(tt.in)
		if doc != nil || err == nil || tt.want != nil && !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("%s: %v, %v; want %v saying %q", tt.name, doc, err, tt.want, tt.says)
		}
	}
	// Licences that cannot be understood answer Unknown, whatever else they say; a
	// readable alternative still permits.
	for _, tt := range []struct{ name, licence, says string }{
		{"unknown usage in prohibits", `<prohibits type="usage">ai-train, ai-everything</prohibits>`, `unknown usage "ai-everything"`},
		{"unknown usage in permits", `<permits type="usage">all-ai</permits>`, `unknown usage "all-ai"`},
		{"unknown type", `<permits type="agent">GPTBot</permits>`, `unknown type "agent"`},
		{"unknown user", `<permits type="user">robots</permits>`, `unknown user "robots"`},
		{"bad place", `<prohibits type="geo">EU-27</prohibits>`, `not an ISO 3166-1`},
		{"unknown element", `<permits type="usage">all</permits><condition>only on Sundays</condition>`, "unknown element <condition>"},
	} {
		doc, err := Parse(strings.NewReader(`<rsl ` + ns + `><content url="/"><license>` + tt.licence + `</license></content></rsl>`))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		for _, u := range usages {
			v := doc.Check("https://example.com/", Query{Usage: u})
			if v.Answer != Unknown || !strings.Contains(v.Reason, tt.says) {
				t.Errorf("%s, %s: %s (%s), want unknown saying %q", tt.name, u, v.Answer, v.Reason, tt.says)
			}
		}
	}
	// An unknown payment type is a warning: the permission stands.
	doc, err := Parse(strings.NewReader(`<rsl ` + ns + `><content url="/"><license><permits>search</permits><payment type="barter"/></license></content></rsl>`))
	if err != nil {
		t.Fatal(err)
	}
	if v := doc.Check("https://example.com/", Query{Usage: Search}); v.Answer != Permitted || len(doc.Contents[0].Licenses[0].Warnings) != 1 {
		t.Errorf("unknown payment type: %+v %q", v, doc.Contents[0].Licenses[0].Warnings)
	}
	// A usage the caller names that RSL does not have is unknown, with the list.
	if v := doc.Check("https://example.com/", Query{Usage: "ai-use"}); v.Answer != Unknown || !strings.Contains(v.Reason, "ai-all, ai-train") {
		t.Errorf("ai-use: %+v", v)
	}
	// A content URL no path can match says so and matches nothing.
	doc, err = Parse(strings.NewReader(`<rsl ` + ns + `><content url="news"><license/></content><content><license/></content></rsl>`))
	if err != nil || doc.Contents[0].Err == "" || doc.Contents[1].Err == "" {
		t.Errorf("content errors: %v %+v", err, doc)
	}
}

// FuzzParse: no panic, and an answer is never Permitted unless a readable licence
// permits.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"ai-preferences.xml", "collective-royalty.xml"} {
		b, _ := os.ReadFile("testdata/" + name)
		f.Add(b)
	}
	f.Add([]byte(`<rsl ` + ns + `><content url="/*.pdf$"><license><prohibits>ai-all</prohibits></license></content></rsl>`))
	f.Fuzz(func(t *testing.T, b []byte) {
		doc, err := Parse(bytes.NewReader(b))
		if err != nil {
			return
		}
		for _, u := range usages {
			v := doc.Check("https://example.com/a/b.pdf", Query{Usage: u})
			if v.Answer != Permitted {
				continue
			}
			c := doc.Match("https://example.com/a/b.pdf")
			ok := false
			for _, l := range c.Licenses {
				if a, _ := l.check(Query{Usage: u}); l.Err == "" && a == Permitted {
					ok = true
				}
			}
			if !ok {
				t.Fatalf("%s permitted with no readable licence permitting it", u)
			}
		}
	})
}
