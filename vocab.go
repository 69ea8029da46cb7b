package robots

import (
	"fmt"
	"strings"
)

// The vocabularies of usage preferences, as data: to follow a newer draft, edit these
// tables, the label constants (and the tests that quote the draft).

// Category is one category of use that a preference is stated for.
type Category struct {
	Label string // the key in a statement: "train-ai", "search"
	Name  string // what the document calls it
	// Parent is the label of a broader category that this one falls under, or "". When
	// a statement says nothing readable about this category, the parent's preference
	// applies. Parents come before their children in the table.
	Parent string
}

// CategoryLabel names a category of Content-Usage statements (draft-ietf-aipref-vocab).
// It is a number, not a string, so that a label of the other vocabulary or a typo
// ("ai-train", Content-Signal's word) does not compile where a CategoryLabel is wanted;
// a label read at run time goes through ParseCategory, which says what is wrong.
type CategoryLabel uint8

// The categories of draft-ietf-aipref-vocab-08 §4 and §6.1, in the order Usage reports
// them.
const (
	// TrainAI is "train-ai", AI Training: training a generative AI model. -08 narrows it
	// to generative models (models used only to classify, rank or score are not); -05
	// to -07 called it AI Model Training with the same label, so their files keep their
	// meaning.
	TrainAI CategoryLabel = iota
	// AIUse is "ai-use", AI Use (new in -08): using an asset as input to a generative AI
	// model, where the asset is not directly provided by the user, other than to train
	// the model. Files written for -07 do not state it: it is unknown there.
	AIUse
	// Search is "search": using an asset in a search application that directs users to
	// where it is. In -08 a use that meets Search's conditions is governed by the search
	// preference, whatever the other categories say (see Usage.ForUse).
	Search
)

// SignalLabel names a signal of Content-Signal lines (Cloudflare's Content Signals
// Policy); like CategoryLabel, a number so that the two vocabularies never mix.
type SignalLabel uint8

// The signals of the Content Signals Policy, in the order Usage reports them.
const (
	SignalSearch  SignalLabel = iota // "search": a search index and results, not AI summaries
	SignalAIInput                    // "ai-input": input to AI models (RAG, grounding, generated answers)
	SignalAITrain                    // "ai-train": training or fine-tuning AI models
)

// vocabulary is the categories of Content-Usage statements, indexed by CategoryLabel:
// draft-ietf-aipref-vocab-08 (2026-09-14), §4 and the table of §6.1. The draft defines
// no hierarchy; earlier ones did (a more specific category inheriting a broader one's
// preference), which Parent expresses.
var vocabulary = []Category{
	TrainAI: {Label: "train-ai", Name: "AI Training"},
	AIUse:   {Label: "ai-use", Name: "AI Use"},
	Search:  {Label: "search", Name: "Search"},
}

// signalVocabulary is the signals of Content-Signal lines, indexed by SignalLabel:
// Cloudflare's Content Signals Policy (contentsignals.org, CC0), whose values are yes
// and no. Its search is not Content-Usage's search, and the two are never merged.
var signalVocabulary = []Category{
	SignalSearch:  {Label: "search", Name: "Search: building a search index and providing search results (links and short excerpts), not AI-generated summaries"},
	SignalAIInput: {Label: "ai-input", Name: "AI input: inputting content into AI models (retrieval-augmented generation, grounding, real-time generative answers)"},
	SignalAITrain: {Label: "ai-train", Name: "AI training: training or fine-tuning AI models"},
}

// The tokens that state a preference (draft-ietf-aipref-vocab §6.2; the Content Signals
// Policy). Any other value, or none, leaves the category unknown.
const (
	usageYes, usageNo   = "y", "n"
	signalYes, signalNo = "yes", "no"
)

// String returns the label as a statement writes it: "train-ai".
func (c CategoryLabel) String() string {
	if int(c) < len(vocabulary) {
		return vocabulary[c].Label
	}
	return fmt.Sprintf("CategoryLabel(%d)", uint8(c))
}

// String returns the label as a Content-Signal line writes it: "ai-train".
func (s SignalLabel) String() string {
	if int(s) < len(signalVocabulary) {
		return signalVocabulary[s].Label
	}
	return fmt.Sprintf("SignalLabel(%d)", uint8(s))
}

// ParseCategory returns the Content-Usage category whose label is s ("train-ai"). Any
// other word is an error that says which labels there are, and, for a word of the
// Content Signals Policy ("ai-train", "ai-input"), that it is a Content-Signal signal.
func ParseCategory(s string) (CategoryLabel, error) {
	for i, c := range vocabulary {
		if c.Label == s {
			return CategoryLabel(i), nil
		}
	}
	return 0, fmt.Errorf("robots: %q is no Content-Usage category (draft-ietf-aipref-vocab-08 has %s)%s",
		s, labels(vocabulary), otherHint(s, signalVocabulary, "Content-Signal signal"))
}

// ParseSignal returns the Content-Signal signal whose label is s ("ai-train"), or an
// error as ParseCategory's.
func ParseSignal(s string) (SignalLabel, error) {
	for i, c := range signalVocabulary {
		if c.Label == s {
			return SignalLabel(i), nil
		}
	}
	return 0, fmt.Errorf("robots: %q is no Content-Signal signal (the Content Signals Policy has %s)%s",
		s, labels(signalVocabulary), otherHint(s, vocabulary, "Content-Usage category"))
}

func labels(vocab []Category) string {
	var w []string
	for _, c := range vocab {
		w = append(w, c.Label)
	}
	return strings.Join(w, ", ")
}

func otherHint(s string, other []Category, what string) string {
	for _, c := range other {
		if c.Label == s {
			return fmt.Sprintf("; %q is a %s", s, what)
		}
	}
	return ""
}

// Category returns the preference for the category c (TrainAI, AIUse or Search).
func (u Usage) Category(c CategoryLabel) Stated { return find(u.ContentUsage, c.String()) }

// Signal returns the Content-Signal for the signal s (SignalAITrain, …).
func (u Usage) Signal(s SignalLabel) Stated { return find(u.ContentSignal, s.String()) }

// ForUse returns the preference that governs a use of the content that falls in
// category c. draft-ietf-aipref-vocab-08 §4.3: a use that meets the conditions of
// Search (links to where the asset is, excerpts only to judge relevance, no generated
// summaries) is governed by the search preference even when it also falls in another
// category, such as training a ranking model of the search application; search reports
// whether the use meets them. Otherwise c's own preference governs.
func (u Usage) ForUse(c CategoryLabel, search bool) Stated {
	if search {
		return u.Category(Search)
	}
	return u.Category(c)
}

// Categories returns the categories of use that Content-Usage statements are read
// for, in the order Usage reports them: those of the AI preferences vocabulary
// (draft-ietf-aipref-vocab-08), indexed by CategoryLabel. The slice is the caller's.
func Categories() []Category { return append([]Category(nil), vocabulary...) }

// Signals returns the signals that Content-Signal lines are read for, in the order
// Usage reports them: those of Cloudflare's Content Signals Policy, indexed by
// SignalLabel. The slice is the caller's.
func Signals() []Category { return append([]Category(nil), signalVocabulary...) }
