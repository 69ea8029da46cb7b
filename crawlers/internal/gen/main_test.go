package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestUpToDate fails when airobots_gen.go is not what go generate writes for the
// committed robots.json: edit the input, then run "go generate ./crawlers".
func TestUpToDate(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "data", "ai.robots.txt", "robots.json"))
	if err != nil {
		t.Fatal(err)
	}
	ops, err := os.ReadFile(filepath.Join("..", "..", "data", "operators.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	known, err := parseOperators(ops)
	if err != nil {
		t.Fatal(err)
	}
	want, err := generate(src, known)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", "airobots_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("crawlers/airobots_gen.go is stale: run go generate ./crawlers")
	}
}

// TestPurposes holds the mapping to the function texts of robots.json (August 2026).
func TestPurposes(t *testing.T) {
	tests := []struct {
		name, function, description string
		want                        []string
	}{
		{"assistants", "AI Assistants", "", []string{"AIUser"}},
		{"agents", "AI Agents", "", []string{"AIUser"}},
		{"coding agents", "AI Coding Agents", "", []string{"AIUser"}},
		{"search crawlers", "AI Search Crawlers", "", []string{"AISearch"}},
		{"scrapers", "AI Data Scrapers", "", []string{"AITrain"}},
		{"scraper, other case", "AI data scraper", "", []string{"AITrain"}},
		{"providers", "AI Data Providers", "", []string{"AITrain", "AISearch"}},
		{"undocumented", "Undocumented AI Agents", "it answers user prompts", []string{"Other"}},
		{"training", "LLM training.", "", []string{"AITrain"}},
		{"scrapes to train", "Scrapes data to train OpenAI's products.", "", []string{"AITrain"}},
		{"search result", "Search result generation.", "", []string{"AISearch"}},
		{"scrapes for search", "Scrapes data for search engine and LLMs.", "", []string{"AITrain", "AISearch"}},
		{"user prompts", "Retrieves data to provide responses to user-initiated prompts.", "", []string{"AIUser"}},
		{"answers", "Crawls sites to provide answers to user queries.", "", []string{"AISearch", "AIUser"}},
		{"research is not search", "AI research crawler", "", []string{"AITrain"}},
		{"seo", "Checks URLs on your site for SEO Writing Assistant.", "", []string{"SEO", "AIUser"}},
		{"description read", "Unclear at this time.", "Collects training data.", []string{"AITrain"}},
		{"nothing said", "Live chat support and lead generation.", "", []string{"Other"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := purposes(tt.function, tt.description); !slices.Equal(got, tt.want) {
				t.Errorf("purposes(%q) = %q, want %q", tt.function, got, tt.want)
			}
		})
	}
}

func TestOperator(t *testing.T) {
	tests := []struct{ in, want string }{
		{"[Ai2](https://allenai.org/crawler)", "Ai2"},
		{"Amazon, used for fetching web content", "Amazon"},
		{"Cohere to download training data", "Cohere"},
		{"Naget Inc (founded by someone)", "Naget Inc"},
		{"Lyrenth that builds an AI-readable index", "Lyrenth"},
		{"Unclear at this time.", ""},
		{"Unknown", ""},
		{"https://safe.search.brave.com/help/brave-search-crawler", ""},
		{"ByteDance", "ByteDance"},
		{"Anyone who downloads the client. Possibly used by a [botnet](https://example.com/x).", "Anyone who downloads the client"},
	}
	for _, tt := range tests {
		if got := operator(tt.in); got != tt.want {
			t.Errorf("operator(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDocURL(t *testing.T) {
	tests := []struct{ name, respect, operator, want string }{
		{"respect first", "[Yes](https://commoncrawl.org/ccbot)", "[CC](https://commoncrawl.org/about)", "https://commoncrawl.org/ccbot"},
		{"operator page", "Yes", "[Ai2](https://allenai.org/crawler)", "https://allenai.org/crawler"},
		{"home page skipped", "Yes", "[OpenAI](https://openai.com)", ""},
		{"third party skipped", "[Yes](https://news.ycombinator.com/item?id=1)", "[X](https://x.dev/bot)", "https://x.dev/bot"},
		{"github skipped", "[No](https://github.com/a/b/issues/40)", "Meta", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := docURL(tt.respect, tt.operator); got != tt.want {
				t.Errorf("docURL(%q, %q) = %q, want %q", tt.respect, tt.operator, got, tt.want)
			}
		})
	}
}

func TestGenerateErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"not json", `[`, "unexpected end"},
		{"array", `[]`, "cannot unmarshal"},
		{"empty", `{}`, "no agents"},
		{"empty name", `{"": {"function": "x"}}`, "empty name"},
		{"newline", `{"a\nb": {"function": "x"}}`, "control character"},
		{"star", `{"*": {"function": "x"}}`, "'*'"},
		{"long", `{"` + strings.Repeat("a", maxName+1) + `": {}}`, "longer than"},
		{"no operator", `{"XBot": {"operator": "Unclear at this time.", "function": "x"}}`, `"XBot": robots.json names no operator`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := generate([]byte(tt.in), nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("generate(%q) error %v, want one containing %q", tt.in, err, tt.want)
			}
		})
	}
}

// TestDuplicates: names equal but for case are one crawler, the one with an operator kept.
func TestDuplicates(t *testing.T) {
	out, err := generate([]byte(`{"meta-x": {"operator": "[Meta](https://m.example/bots)", "function": "AI Assistants"},
		"Meta-X": {"operator": "Unclear at this time.", "function": "AI Data Scrapers"},
		"B": {"operator": "Bee", "function": "AI Agents"}, "b": {"operator": "Bee", "function": "AI Agents"}}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{`{"meta-x", "", "Meta", "", p(AIUser), "https://m.example/bots", StanceUnknown, ""}`, `{"B", "", "Bee", "", p(AIUser)`} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %s:\n%s", want, s)
		}
	}
	for _, not := range []string{`"Meta-X"`, `{"b",`} {
		if strings.Contains(s, not) {
			t.Errorf("output keeps %s:\n%s", not, s)
		}
	}
}

// FuzzGenerate: any input gives an error or Go source, never a panic.
func FuzzGenerate(f *testing.F) {
	f.Add([]byte(`{"GPTBot": {"operator": "[OpenAI](https://openai.com)", "function": "LLM training."}}`))
	f.Add([]byte(`{"a": {"operator": "[x](http://)", "respect": "http://[::1", "function": "AI"}}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		out, err := generate(src, map[string]known{"a": {"A", "test"}})
		if err == nil && !bytes.Contains(out, []byte("var aiRobots")) {
			t.Fatalf("no table in %q", out)
		}
	})
}

// TestTokens: a key with a space or '/' is a User-Agent pattern; Name is its
// token, the pattern kept, and keys whose tokens are equal one crawler.
func TestTokens(t *testing.T) {
	out, err := generate([]byte(`{
		"MistralAI-User/1.0": {"operator": "Mistral AI", "respect": "Yes", "function": "AI Assistants"},
		"Kangaroo Bot": {"operator": "Unclear at this time.", "respect": "No", "function": "AI Data Scrapers"},
		"iaskspider": {"operator": "Unclear at this time.", "function": "AI Agents"},
		"iaskspider/2.0": {"operator": "iAsk", "respect": "[No](https://iask.example/bot)", "function": "AI Agents"}}`),
		map[string]known{"Kangaroo Bot": {"Kangaroo LLM", `description: "the company Kangaroo LLM"`}, "iaskspider": {"iAsk", "sibling"}})
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{
		`{"MistralAI-User", "MistralAI-User/1.0", "Mistral AI", "", p(AIUser), "", Obeys, ""}`,
		`{"Kangaroo", "Kangaroo Bot", "Kangaroo LLM", "description: \"the company Kangaroo LLM\"", p(AITrain), "", Ignores, ""}`,
		`{"iaskspider", "iaskspider/2.0", "iAsk", "", p(AIUser), "https://iask.example/bot", Ignores, "https://iask.example/bot"}`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %s:\n%s", want, s)
		}
	}
	if strings.Count(s, `{"iaskspider"`) != 1 {
		t.Errorf("iaskspider not merged:\n%s", s)
	}
}

func TestOperatorsFile(t *testing.T) {
	_, err := generate([]byte(`{"A": {"operator": "Ay", "function": "x"}}`), map[string]known{"A": {"Ay", "e"}})
	if err == nil || !strings.Contains(err.Error(), "drop the row") {
		t.Errorf("a row for an operator robots.json gives: %v", err)
	}
	_, err = generate([]byte(`{"A": {"operator": "Ay", "function": "x"}}`), map[string]known{"Gone": {"G", "e"}})
	if err == nil || !strings.Contains(err.Error(), "Gone") {
		t.Errorf("a row for an agent robots.json lacks: %v", err)
	}
	for _, bad := range []string{"A\tB\n", "A\tB\tC\nA\tB\tC\n", "A\t\tC\n"} {
		if _, err := parseOperators([]byte(bad)); err == nil {
			t.Errorf("parseOperators(%q) accepted", bad)
		}
	}
}

// TestDocumentedUpToDate fails when documented_gen.go is not what go generate
// writes for data/verification.tsv and data/stances.tsv.
func TestDocumentedUpToDate(t *testing.T) {
	v, err := os.ReadFile(filepath.Join("..", "..", "data", "verification.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := os.ReadFile(filepath.Join("..", "..", "data", "stances.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := generateDocumented(v, s)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", "documented_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("crawlers/documented_gen.go is stale: run go generate ./crawlers")
	}
}

func TestDocumentedErrors(t *testing.T) {
	const okV = "A\thttps://a.example/r.json\ta.example\t-\thttps://a.example/doc\t2026-11-28\n"
	const okS = "A\tobeys\thttps://a.example/doc\t2026-11-28\tthe words\n"
	if _, err := generateDocumented([]byte(okV), []byte(okS)); err != nil {
		t.Fatalf("valid rows: %v", err)
	}
	tests := []struct{ name, v, s, want string }{
		{"short row", "A\t-\n", okS, "want 6 columns"},
		{"no method", "A\t-\t-\t-\thttps://a.example/doc\t2026-11-28\n", okS, "no way to verify"},
		{"http list", "A\thttp://a.example/r.json\t-\t-\thttps://a.example/doc\t2026-11-28\n", okS, "not an https URL"},
		{"bad suffix", "A\t-\t.A.example\t-\thttps://a.example/doc\t2026-11-28\n", okS, "DNS suffix"},
		{"bad date", "A\t-\ta.example\t-\thttps://a.example/doc\t28/11/2026\n", okS, "YYYY-MM-DD"},
		{"twice", okV + okV, okS, "twice"},
		{"bad stance", okV, "A\tsometimes\thttps://a.example/doc\t2026-11-28\tw\n", "stance \"sometimes\""},
	}
	for _, tt := range tests {
		if _, err := generateDocumented([]byte(tt.v), []byte(tt.s)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}
