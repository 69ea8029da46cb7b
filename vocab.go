package robots

// The vocabularies of usage preferences, as data: to follow a newer draft, edit these
// tables (and the tests that quote the draft).

// Category is one category of use that a preference is stated for.
type Category struct {
	Label string // the key in a statement: "train-ai", "search"
	Name  string // what the document calls it
	// Parent is the label of a broader category that this one falls under, or "". When
	// a statement says nothing readable about this category, the parent's preference
	// applies. Parents come before their children in the table.
	Parent string
}

// vocabulary is the categories of Content-Usage statements: draft-ietf-aipref-vocab,
// the editor's copy of 2026-08-19 (published with draft-ietf-aipref-attach-05), §4 and
// the table of §6.1. That draft defines no hierarchy; earlier ones did (a more
// specific category inheriting a broader one's preference), which Parent expresses.
var vocabulary = []Category{
	{Label: "train-ai", Name: "AI Model Training"},
	{Label: "search", Name: "Search"},
}

// signalVocabulary is the signals of Content-Signal lines: Cloudflare's Content
// Signals Policy (contentsignals.org, CC0), whose values are yes and no. Its search is
// not Content-Usage's search, and the two are never merged.
var signalVocabulary = []Category{
	{Label: "search", Name: "Search: building a search index and providing search results (links and short excerpts), not AI-generated summaries"},
	{Label: "ai-input", Name: "AI input: inputting content into AI models (retrieval-augmented generation, grounding, real-time generative answers)"},
	{Label: "ai-train", Name: "AI training: training or fine-tuning AI models"},
}

// The tokens that state a preference (draft-ietf-aipref-vocab §6.2; the Content Signals
// Policy). Any other value, or none, leaves the category unknown.
const (
	usageYes, usageNo   = "y", "n"
	signalYes, signalNo = "yes", "no"
)

// Categories returns the categories of use that Content-Usage statements are read
// for, in the order Usage reports them: those of the AI preferences vocabulary
// (draft-ietf-aipref-vocab). The slice is the caller's.
func Categories() []Category { return append([]Category(nil), vocabulary...) }

// Signals returns the signals that Content-Signal lines are read for, in the order
// Usage reports them: those of Cloudflare's Content Signals Policy. The slice is the
// caller's.
func Signals() []Category { return append([]Category(nil), signalVocabulary...) }
