package signals

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/rsl"
	"github.com/gorobots/robots/tdmrep"
)

var now = time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)

func find(as []Answer, p Purpose) Answer {
	for _, a := range as {
		if a.Purpose == p {
			return a
		}
	}
	return Answer{}
}

// TestIssueExample: "robots.txt lets GPTBot fetch /blog/; Content-Usage says
// train-ai=n; the RSL licence permits ai-train for payment; TDM reserved" — with the
// RSL guide's own pairing of Content-Usage: train-ai=n and a licence that permits
// train-ai on a subscription (rslstandard.org/guide/ai-preferences).
func TestIssueExample(t *testing.T) {
	body := "User-Agent: *\nAllow: /\n\nContent-Usage: train-ai=n\nLicense: https://example.com/license.xml\n"
	doc, err := rsl.Parse(strings.NewReader(`<rsl xmlns="https://rslstandard.org/rsl"><content url="/"><license>
<permits type="usage">train-ai</permits><payment type="subscription"><custom>https://your-website.com/contact-form.html</custom></payment>
</license></content></rsl>`))
	if err != nil {
		t.Fatal(err)
	}
	tdm, _ := tdmrep.ParseFile(strings.NewReader(`[{"location":"/","tdm-reservation":1}]`))
	s := Site{Robots: robots.ParseString(body), Body: body, Licenses: []License{{URL: "https://example.com/license.xml", Doc: doc}}, TDM: tdm}
	as := Answers(s, "GPTBot", "https://example.com/blog/post", nil, now)
	a := find(as, AITrain)
	if a.Verdict != Disallowed {
		t.Errorf("ai-train: %s, want disallowed", a.Verdict)
	}
	var sources []string
	for _, sig := range a.Signals {
		sources = append(sources, sig.Source+":"+string(sig.Verdict))
	}
	if got := strings.Join(sources, " "); got != "robots.txt:allowed content-usage:disallowed rsl:licensed tdmrep:disallowed" {
		t.Errorf("signals %s", got)
	}
	if len(a.Contradictions) != 2 || !strings.Contains(a.Contradictions[0], "Content-Usage says train-ai=n (line 4); RSL says the licence https://example.com/license.xml permits ai-train (payment: subscription") {
		t.Errorf("contradictions %q", a.Contradictions)
	}
	// Search: the licence permits only train-ai: RSL disallows search, nothing allows it.
	if s := find(as, Search); s.Verdict != Disallowed || len(s.Contradictions) != 0 {
		t.Errorf("search: %+v", s)
	}
}

// TestBlockedNoindex: a page robots.txt hides cannot show its noindex.
func TestBlockedNoindex(t *testing.T) {
	body := "User-agent: *\nDisallow: /private/\n"
	s := Site{Robots: robots.ParseString(body), Body: body}
	page := &Page{Header: http.Header{"X-Robots-Tag": {"noindex"}}}
	a := find(Answers(s, "Googlebot", "https://example.com/private/a", page, now), Search)
	if a.Verdict != Blocked || len(a.Contradictions) != 1 || !strings.Contains(a.Contradictions[0], "Indexed, though blocked by robots.txt") {
		t.Errorf("%+v", a)
	}
	a = find(Answers(s, "Googlebot", "https://example.com/public", page, now), Search)
	if a.Verdict != Disallowed || a.Signals[1].Says != "noindex (X-Robots-Tag)" {
		t.Errorf("%+v", a)
	}
}

// TestReadings: the issue's file. Google's parser reads the Content-Usage line as an
// unused directive that ends nothing, so ExampleBot's user-agent line joins the group of
// "*" (train-ai=n); under RFC 9309 with draft-ietf-aipref-attach the line is a rule that
// ends the first group, and ExampleBot's group says nothing.
func TestReadings(t *testing.T) {
	body := "User-Agent: *\nContent-Usage: train-ai=n\n\nUser-Agent: ExampleBot\nAllow: /\n"
	for _, d := range []robots.Dialect{robots.Google, robots.RFC9309} {
		s := Site{Robots: robots.ParseString(body, robots.WithDialect(d)), Body: body}
		a := find(Answers(s, "ExampleBot", "https://example.com/x", nil, now), AITrain)
		want := "the readings differ: google reads train-ai=n (line 2), rfc9309 reads nothing"
		if d == robots.RFC9309 {
			want = "the readings differ: rfc9309 reads nothing, google reads train-ai=n (line 2)"
		}
		if a.Readings != want {
			t.Errorf("%s: %q, want %q", d, a.Readings, want)
		}
	}
	s := Site{Robots: robots.ParseString("User-agent: *\nContent-Usage: train-ai=n\n"), Body: "User-agent: *\nContent-Usage: train-ai=n\n"}
	if a := Answers(s, "ExampleBot", "https://example.com/x", nil, now)[0]; a.Readings != "" {
		t.Errorf("one reading: %q", a.Readings)
	}
}

// TestNoSignals: nothing said is unknown; no file at all lets everything be fetched.
func TestNoSignals(t *testing.T) {
	for _, a := range Answers(Site{}, "GPTBot", "https://example.com/", nil, now) {
		if a.Verdict != Unknown || len(a.Signals) != 1 || a.Signals[0].Verdict != Allowed {
			t.Errorf("%+v", a)
		}
	}
}
