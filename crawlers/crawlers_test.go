package crawlers

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gorobots/robots/internal/testenv"
)

// TestMajorMatchesCorpus checks the list against the hand-picked "major" tokens of
// the shared corpus, which were each checked against Common Crawl's counts.
func TestMajorMatchesCorpus(t *testing.T) {
	f, err := os.Open(filepath.Join(testenv.CorpusDir(t), "agents.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var want []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) == 3 && strings.Contains(","+cols[2]+",", ",major,") {
			want = append(want, cols[0])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	got := Names()
	if len(got) != len(want) {
		t.Fatalf("got %d major crawlers, corpus lists %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("crawler %d: got %q, corpus has %q", i, got[i], want[i])
		}
	}
	for _, c := range Major() {
		if c.Operator == "" || len(c.Purposes) == 0 {
			t.Errorf("%s: operator or purpose missing", c.Name)
		}
	}
}

func TestMajorIsACopy(t *testing.T) {
	m := Major()
	m[0].Name = "changed"
	m[0].Purposes[0] = Other
	if c := Major()[0]; c.Name != "Googlebot" || c.Purposes[0] != Search {
		t.Fatal("Major returned the package's own slice")
	}
	a := All()
	a[0].Purposes[0] = Other
	if c, _ := Lookup("Googlebot"); c.Purposes[0] != Search {
		t.Fatal("All returned the package's own purposes")
	}
}

func TestParsePurpose(t *testing.T) {
	tests := []struct {
		name, in string
		want     Purpose
		ok       bool
	}{
		{"search", "search", Search, true},
		{"ai-train", "ai-train", AITrain, true},
		{"ai-search", "ai-search", AISearch, true},
		{"ai-user", "ai-user", AIUser, true},
		{"seo", "seo", SEO, true},
		{"social", "social", Social, true},
		{"archive", "archive", Archive, true},
		{"ads", "ads", Ads, true},
		{"other", "other", Other, true},
		{"upper case", "AI-Train", AITrain, true},
		{"spaces", " ads ", Ads, true},
		{"old ai", "ai", "", false},
		{"underscore", "ai_train", "", false},
		{"empty", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParsePurpose(tt.in)
			if (err == nil) != tt.ok || got != tt.want {
				t.Errorf("ParsePurpose(%q) = %q, %v; want %q, ok %v", tt.in, got, err, tt.want, tt.ok)
			}
			if err != nil && !strings.Contains(err.Error(), strconv.Quote(tt.in)) {
				t.Errorf("error %q does not name the input", err)
			}
		})
	}
}

func TestPurposes(t *testing.T) {
	want := []Purpose{"search", "ai-train", "ai-search", "ai-user", "seo", "social", "archive", "ads", "other"}
	if got := Purposes(); !slices.Equal(got, want) {
		t.Errorf("Purposes() = %q, want %q", got, want)
	}
	for _, p := range want {
		if want := strings.HasPrefix(string(p), "ai-"); p.IsAI() != want {
			t.Errorf("%s.IsAI() = %v", p, !want)
		}
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		name, in string
		want     string // Name found, "" for none
		operator string
	}{
		{"exact", "Googlebot", "Googlebot", "Google"},
		{"lower case", "googlebot", "Googlebot", "Google"},
		{"upper case", "BINGBOT", "bingbot", "Microsoft"},
		{"with space", "Sogou web spider", "Sogou web spider", "Sogou"},
		{"prefix only", "Google", "", ""},
		{"longer", "Googlebot-Imagex", "", ""},
		{"empty", "", "", ""},
		{"star", "*", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ok := Lookup(tt.in)
			if ok != (tt.want != "") || c.Name != tt.want || c.Operator != tt.operator {
				t.Errorf("Lookup(%q) = %q (%q), %v; want %q (%q)", tt.in, c.Name, c.Operator, ok, tt.want, tt.operator)
			}
		})
	}
}

// TestCrawlDelay checks the facts issue 27 asks the tools to tell, as the operators
// document them (see the comment above curated).
func TestCrawlDelay(t *testing.T) {
	tests := []struct {
		name string
		want Support
	}{
		// "Google doesn't support the crawl-delay rule" (Google's robots.txt specification).
		{"Googlebot", Ignored},
		{"Googlebot-Image", Ignored},
		{"AdsBot-Google", Ignored},
		{"Google-Extended", Ignored},
		// Yandex stopped reading Crawl-delay on 22 February 2018.
		{"Yandex", Ignored},
		{"YandexBot", Ignored},
		{"YandexImages", Ignored},
		// Bing: "bingbot honors the crawl-delay directive".
		{"bingbot", Honoured},
		{"msnbot", Honoured},
		// Amazon: "Amazonbot does not support the crawl-delay directive".
		{"Amazonbot", Ignored},
		{"Slurp", Honoured},
		// OpenAI's page says nothing of Crawl-delay.
		{"GPTBot", Unknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ok := Lookup(tt.name)
			if !ok {
				t.Fatalf("%s not in the registry", tt.name)
			}
			if c.CrawlDelay != tt.want {
				t.Errorf("%s: CrawlDelay = %q, want %q", tt.name, c.CrawlDelay, tt.want)
			}
		})
	}
	// The statements cover every crawler the two operators document.
	for _, c := range All() {
		documented := strings.HasPrefix(c.URL, "https://developers.google.com/") || strings.HasPrefix(c.URL, "https://yandex.com/")
		if documented && c.CrawlDelay != Ignored {
			t.Errorf("%s (%s): CrawlDelay %q, want ignored like every crawler its operator documents", c.Name, c.Operator, c.CrawlDelay)
		}
	}
}

func TestWithPurpose(t *testing.T) {
	tests := []struct {
		p      Purpose
		has    []string
		hasNot []string
	}{
		{Search, []string{"Googlebot", "bingbot", "YandexBot", "Baiduspider", "DuckDuckBot", "Applebot"}, []string{"GPTBot", "AhrefsBot"}},
		{AITrain, []string{"GPTBot", "ClaudeBot", "CCBot", "Google-Extended", "Applebot-Extended"}, []string{"Googlebot", "ChatGPT-User"}},
		{AISearch, []string{"OAI-SearchBot", "PerplexityBot"}, []string{"GPTBot"}},
		{AIUser, []string{"ChatGPT-User"}, []string{"OAI-SearchBot"}},
		{SEO, []string{"AhrefsBot", "SemrushBot", "MJ12bot", "DotBot"}, []string{"Googlebot"}},
		{Social, []string{"facebookexternalhit", "Twitterbot", "LinkedInBot"}, []string{"bingbot"}},
		{Archive, []string{"ia_archiver", "archive.org_bot"}, []string{"GPTBot"}},
		{Ads, []string{"AdsBot-Google", "Mediapartners-Google", "adidxbot"}, []string{"Googlebot"}},
	}
	for _, tt := range tests {
		t.Run(string(tt.p), func(t *testing.T) {
			var names []string
			for _, c := range WithPurpose(tt.p) {
				if !c.Has(tt.p) {
					t.Errorf("%s listed without purpose %s: %q", c.Name, tt.p, c.Purposes)
				}
				names = append(names, c.Name)
			}
			for _, n := range tt.has {
				if !slices.Contains(names, n) {
					t.Errorf("WithPurpose(%s) lacks %s", tt.p, n)
				}
			}
			for _, n := range tt.hasNot {
				if slices.Contains(names, n) {
					t.Errorf("WithPurpose(%s) has %s", tt.p, n)
				}
			}
		})
	}
	if got := WithPurpose("ai"); len(got) != 0 {
		t.Errorf("WithPurpose(%q) = %d entries, want none", "ai", len(got))
	}
}

// TestCount: issue 26 asks for at least 150 crawlers with purposes.
func TestCount(t *testing.T) {
	const min = 150
	if n := len(All()); n < min {
		t.Errorf("%d crawlers, want at least %d", n, min)
	}
	if n := len(Names()); n != 75 {
		t.Errorf("%d major crawlers, want the 75 of the corpus", n)
	}
}

// TestEntries checks every entry: a name, at least one purpose from the documented
// set and none twice, a known Support value, no name twice ignoring case.
func TestEntries(t *testing.T) {
	seen := map[string]string{}
	for _, c := range All() {
		if c.Name == "" || strings.TrimSpace(c.Name) != c.Name {
			t.Errorf("bad name %q", c.Name)
		}
		k := strings.ToLower(c.Name)
		if prev, dup := seen[k]; dup {
			t.Errorf("%q and %q name the same crawler", prev, c.Name)
		}
		seen[k] = c.Name
		if len(c.Purposes) == 0 {
			t.Errorf("%s: no purpose", c.Name)
		}
		for i, p := range c.Purposes {
			if !slices.Contains(Purposes(), p) {
				t.Errorf("%s: purpose %q not in the documented set", c.Name, p)
			}
			if slices.Contains(c.Purposes[:i], p) {
				t.Errorf("%s: purpose %q twice", c.Name, p)
			}
		}
		switch c.CrawlDelay {
		case Unknown, Honoured, Ignored:
		default:
			t.Errorf("%s: CrawlDelay %q", c.Name, c.CrawlDelay)
		}
		if c.URL != "" && !strings.HasPrefix(c.URL, "https://") && !strings.HasPrefix(c.URL, "http://") {
			t.Errorf("%s: URL %q", c.Name, c.URL)
		}
	}
}
