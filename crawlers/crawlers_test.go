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
		if c, _ := Lookup(got[i]); got[i] != want[i] && c.UserAgent != want[i] {
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
		{"token", "Sogou", "Sogou", "Sogou"},
		{"user-agent pattern", "Sogou web spider", "Sogou", "Sogou"},
		{"pattern with version", "MistralAI-User/1.0", "MistralAI-User", "Mistral"},
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

// TestTokensAndOperators: issue 35 — every name is a product token (no space, no
// '/'), and every crawler has an operator, "unknown" only with a reason.
func TestTokensAndOperators(t *testing.T) {
	unknown := 0
	for _, c := range All() {
		if strings.ContainsAny(c.Name, " /") {
			t.Errorf("%q is not a product token", c.Name)
		}
		if c.UserAgent != "" && !strings.HasPrefix(strings.ToLower(c.UserAgent), strings.ToLower(c.Name)) {
			t.Errorf("%s: User-Agent pattern %q does not start with the token", c.Name, c.UserAgent)
		}
		switch {
		case c.Operator == "":
			t.Errorf("%s: no operator", c.Name)
		case c.Operator == "unknown":
			unknown++
			if c.OperatorSource == "" {
				t.Errorf("%s: operator unknown, no reason given", c.Name)
			}
		}
	}
	// The 16 names of issue 35 with a space or '/' became these tokens.
	for pattern, token := range map[string]string{
		"Brightbot 1.0": "Brightbot", "MistralAI-User/1.0": "MistralAI-User", "ChatGPT Agent": "ChatGPT",
		"iaskspider/2.0": "iaskspider", "Screaming Frog SEO Spider": "Screaming", "Sogou web spider": "Sogou",
		"Kangaroo Bot": "Kangaroo", "Terra Cotta": "Terra",
	} {
		if c, ok := Lookup(pattern); !ok || c.Name != token || !strings.EqualFold(c.UserAgent, pattern) {
			t.Errorf("Lookup(%q) = %q (%q), %v; want %q", pattern, c.Name, c.UserAgent, ok, token)
		}
	}
	// operators.tsv names 17 unknown operators, each with its reason.
	if unknown != 17 {
		t.Errorf("%d operators unknown, operators.tsv gives 17", unknown)
	}
	// Operators read from the registry's own descriptions (operators.tsv).
	for name, op := range map[string]string{"Amzn-SearchBot": "Amazon", "ApifyBot": "Apify", "Claude-Code": "Anthropic", "HenkBot": "Valyu", "Operator": "OpenAI"} {
		if c, _ := Lookup(name); c.Operator != op {
			t.Errorf("%s: operator %q, want %q", name, c.Operator, op)
		}
	}
}

// TestStances: the documented stances on robots.txt, with their pages.
func TestStances(t *testing.T) {
	tests := []struct {
		name string
		want Stance
		page string // prefix of RobotsURL
	}{
		{"Googlebot", Obeys, "https://developers.google.com/"},
		{"GPTBot", Obeys, "https://platform.openai.com/docs/bots"},
		{"ChatGPT-User", UserTriggered, "https://platform.openai.com/docs/bots"},
		{"Perplexity-User", Ignores, "https://docs.perplexity.ai/"},
		{"FeedFetcher-Google", Ignores, "https://developers.google.com/search/docs/crawling-indexing/google-user-triggered-fetchers"},
		// From ai.robots.txt's "respect": "No" with no page.
		{"Bytespider", Ignores, ""},
		{"DeepSeekBot", Ignores, ""},
		{"Meta-ExternalFetcher", Ignores, "https://developers.facebook.com/"},
		{"iaskspider", Ignores, ""},
		{"Linguee", Ignores, ""},
		{"Twitterbot", StanceUnknown, ""},
	}
	for _, tt := range tests {
		c, ok := Lookup(tt.name)
		if !ok {
			t.Errorf("%s not in the registry", tt.name)
			continue
		}
		if c.Robots != tt.want || !strings.HasPrefix(c.RobotsURL, tt.page) {
			t.Errorf("%s: %q (%s), want %q (%s…)", tt.name, c.Robots, c.RobotsURL, tt.want, tt.page)
		}
	}
	// ai.robots.txt's "respect" field says No for ten crawlers (Meta-ExternalFetcher
	// twice, in two cases); Google's user-triggered fetchers add five.
	var ign []string
	for _, c := range All() {
		if c.Robots == Ignores {
			ign = append(ign, c.Name)
		}
	}
	if len(ign) != 15 {
		t.Errorf("%d crawlers documented as ignoring robots.txt, want 10 + 5: %q", len(ign), ign)
	}
}

// TestVerification: the verification facts name crawlers of the registry, with
// https URLs, suffixes and their source page and date.
func TestVerification(t *testing.T) {
	for name, v := range verification {
		c, ok := Lookup(name)
		if !ok || c.Name != name {
			t.Errorf("verification for %q, not a registry name", name)
			continue
		}
		if !v.Known() || v.Source == "" || len(v.Read) != len("2006-01-02") {
			t.Errorf("%s: %+v lacks a method, source or date", name, v)
		}
		for _, u := range v.Ranges {
			if !strings.HasPrefix(u, "https://") || !strings.HasSuffix(u, ".json") {
				t.Errorf("%s: range list %q", name, u)
			}
		}
		for _, d := range v.DNS {
			if strings.HasPrefix(d, ".") || strings.HasSuffix(d, ".") || strings.ToLower(d) != d {
				t.Errorf("%s: DNS suffix %q", name, d)
			}
		}
	}
	for name := range stances {
		if c, ok := Lookup(name); !ok || c.Name != name || c.Source != SourceCurated {
			t.Errorf("stance for %q, not a curated registry name", name)
		}
	}
	for name, want := range map[string]string{
		"Googlebot": "googlebot.json", "bingbot": "bingbot.json", "GPTBot": "gptbot.json", "OAI-SearchBot": "searchbot.json",
		"ChatGPT-User": "chatgpt-user.json", "PerplexityBot": "perplexitybot.json", "Perplexity-User": "perplexity-user.json",
		"Applebot": "applebot.json", "CCBot": "ccbot.json",
	} {
		c, _ := Lookup(name)
		if len(c.Verify.Ranges) == 0 || !strings.HasSuffix(c.Verify.Ranges[0], "/"+want) {
			t.Errorf("%s: ranges %q, want …/%s", name, c.Verify.Ranges, want)
		}
	}
}

// TestFetches: the tokens their operators document as making no request of their
// own (Google's and Apple's pages, quoted in controls.go) fetch nothing; the
// crawlers named beside them do, and so does a name the registry does not know.
func TestFetches(t *testing.T) {
	for name, want := range map[string]bool{"Google-Extended": false, "applebot-extended": false, "Googlebot": true, "Applebot": true, "GPTBot": true, "NoSuchBot": true} {
		if got := Fetches(name); got != want {
			t.Errorf("Fetches(%q) = %v, want %v", name, got, want)
		}
		if c, ok := Lookup(name); ok && c.Fetches() != want {
			t.Errorf("%s.Fetches() = %v, want %v", name, c.Fetches(), want)
		}
	}
}
