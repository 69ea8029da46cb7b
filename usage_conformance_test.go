package robots

import (
	"testing"
)

// usageCase is a case of testdata/conformance/usage_cases.jsonl (its README says the
// format).
type usageCase struct {
	Source        string              `json:"source"`
	Sentence      string              `json:"sentence"`
	Robots        string              `json:"robots"`
	Header        map[string][]string `json:"header"`
	Agent         string              `json:"agent"`
	URL           string              `json:"url"`
	Dialect       string              `json:"dialect"`
	Fetchable     bool                `json:"fetchable"`
	ContentUsage  map[string]string   `json:"content_usage"`
	ContentSignal map[string]string   `json:"content_signal"`
}

// TestUsageConformance runs the published Content-Usage and Content-Signal cases: the
// small runner the README of testdata/conformance describes.
func TestUsageConformance(t *testing.T) {
	cases := readJSONL[usageCase](t, "usage_cases.jsonl")
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	for i, c := range cases {
		dialects := []Dialect{Google, RFC9309}
		if c.Dialect != "any" {
			d, err := ParseDialect(c.Dialect)
			if err != nil {
				t.Fatalf("case %d: %v", i+1, err)
			}
			dialects = []Dialect{d}
		}
		for _, d := range dialects {
			u := ParseString(c.Robots, WithDialect(d)).Usage(c.Agent, c.URL)
			if c.Header != nil {
				u = u.WithHeader(c.Header)
			}
			if u.Fetchable != c.Fetchable {
				t.Errorf("case %d (%s, %s): fetchable %v, want %v\n  %s", i+1, c.Source, d, u.Fetchable, c.Fetchable, c.Sentence)
			}
			for _, f := range []struct {
				st   []Stated
				want map[string]string
			}{{u.ContentUsage, c.ContentUsage}, {u.ContentSignal, c.ContentSignal}} {
				for label, want := range f.want {
					if got := find(f.st, label).Preference.String(); got != want {
						t.Errorf("case %d (%s, %s): %s %s, want %s\n  %s", i+1, c.Source, d, label, got, want, c.Sentence)
					}
				}
			}
		}
	}
}
