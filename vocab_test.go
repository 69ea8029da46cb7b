package robots

import (
	"strings"
	"testing"
)

// TestVocabulary08: the categories of draft-ietf-aipref-vocab-08 (§4, the table of §6.1):
// train-ai, ai-use and search, in that order, each label reaching its constant.
func TestVocabulary08(t *testing.T) {
	want := []struct {
		c     CategoryLabel
		label string
	}{{TrainAI, "train-ai"}, {AIUse, "ai-use"}, {Search, "search"}}
	if len(vocabulary) != len(want) {
		t.Fatalf("%d categories, want %d", len(vocabulary), len(want))
	}
	for i, w := range want {
		if int(w.c) != i || w.c.String() != w.label {
			t.Errorf("category %d: %d %q, want %q at %d", i, w.c, w.c.String(), w.label, i)
		}
		if got, err := ParseCategory(w.label); got != w.c || err != nil {
			t.Errorf("ParseCategory(%q) = %v, %v", w.label, got, err)
		}
	}
	for i, w := range []string{"search", "ai-input", "ai-train"} {
		s := SignalLabel(i)
		if got, err := ParseSignal(w); got != s || err != nil || s.String() != w {
			t.Errorf("ParseSignal(%q) = %v, %v; %d is %q", w, got, err, i, s)
		}
	}
}

// TestParseLabelErrors: a word of the other vocabulary, a typo or a label of an earlier
// draft is an error naming what there is, never a quiet "unknown".
func TestParseLabelErrors(t *testing.T) {
	tests := []struct {
		signal bool
		word   string
		says   []string
	}{
		{false, "ai-train", []string{`"ai-train" is no Content-Usage category`, "train-ai, ai-use, search", "is a Content-Signal signal"}},
		{false, "ai-input", []string{"is a Content-Signal signal"}},
		{false, "train-genai", []string{`"train-genai" is no Content-Usage category`}},
		{false, "Train-AI", []string{"no Content-Usage category"}}, // labels are case-sensitive (§6.1)
		{true, "train-ai", []string{"no Content-Signal signal", "search, ai-input, ai-train", "is a Content-Usage category"}},
		{true, "ai-use", []string{"is a Content-Usage category"}},
	}
	for _, tt := range tests {
		var err error
		if tt.signal {
			_, err = ParseSignal(tt.word)
		} else {
			_, err = ParseCategory(tt.word)
		}
		if err == nil {
			t.Errorf("%q: no error", tt.word)
			continue
		}
		for _, s := range tt.says {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%q: error %q does not say %q", tt.word, err, s)
			}
		}
	}
	// A label made of a number out of range answers unknown under a name that shows it.
	if st := (Usage{ContentUsage: unknowns(vocabulary)}).Category(CategoryLabel(9)); st.Label != "CategoryLabel(9)" || st.Preference != UsageUnknown {
		t.Errorf("CategoryLabel(9): %+v", st)
	}
}

// TestForUse: -08 §4.3, search overrides the other categories for a use that meets
// its conditions; a use that does not is governed by its own category. -07 files
// (train-ai and search only) keep their meaning, and say nothing of ai-use.
func TestForUse(t *testing.T) {
	u := Usage{Fetchable: true}
	u = u.WithHeader(map[string][]string{"Content-Usage": {"train-ai=n, search=y"}})
	if got := u.ForUse(TrainAI, false).Preference; got != UsageDisallowed {
		t.Errorf("training outside search: %v, want disallowed", got)
	}
	if got := u.ForUse(TrainAI, true).Preference; got != UsageAllowed {
		t.Errorf("training a search application's model: %v, want allowed (search overrides)", got)
	}
	if got := u.ForUse(AIUse, false).Preference; got != UsageUnknown {
		t.Errorf("ai-use of a -07 statement: %v, want unknown", got)
	}
	u = (Usage{}).WithHeader(map[string][]string{"Content-Usage": {"ai-use=n, search=n"}})
	if got := u.ForUse(AIUse, false); got.Preference != UsageDisallowed || !got.Header || got.Label != "ai-use" {
		t.Errorf("ai-use=n: %+v", got)
	}
}
