package lint

import (
	"cmp"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/internal/testenv"
)

// want is an expected finding: line and code.
type want struct {
	line int
	code Code
}

// Each case is a file that shows one mistake, with what the SPEC (or Google's
// documented interpretation) says crawlers do about it.
var checkTests = []struct {
	name string
	body string
	want []want
}{
	// Usage preferences (draft-ietf-aipref-attach-05, draft-ietf-aipref-vocab, the
	// Content Signals Policy). Every file with such a line gets the info that Google
	// ignores them, on the first.
	{"usage preferences as the drafts write them", "User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\nContent-Signal: search=yes, ai-train=no\n",
		[]want{{4, UsageIgnoredByGoogle}}},
	{"usage upper-case key", "User-agent: *\nContent-Usage: Train-AI=n\n", []want{{2, UsageIgnoredByGoogle}, {2, UsageNotDictionary}}},
	{"usage stray comma", "User-agent: *\nContent-Usage: train-ai=n,, search=y\n", []want{{2, UsageIgnoredByGoogle}, {2, UsageNotDictionary}}},
	{"usage no instead of n", "User-agent: *\nContent-Usage: train-ai=no\n", []want{{2, UsageIgnoredByGoogle}, {2, UsageNotYN}}},
	{"usage string value", "User-agent: *\nContent-Usage: search=y, train-ai=\"n\"\n", []want{{2, UsageIgnoredByGoogle}, {2, UsageNotYN}}},
	{"signal n instead of no", "User-agent: *\nContent-Signal: search=yes, ai-train=n\n", []want{{2, UsageIgnoredByGoogle}, {2, SignalNotYesNo}}},
	{"usage misspelt category", "User-agent: *\nContent-Usage: train_ai=n\n", []want{{2, UsageIgnoredByGoogle}, {2, UsageUnknownCategory}}},
	{"signal word in Content-Usage", "User-agent: *\nContent-Usage: ai-train=n\n", []want{{2, UsageIgnoredByGoogle}, {2, UsageUnknownCategory}}},
	{"usage path without a slash", "User-agent: *\nContent-Usage: *.pdf train-ai=n\n", []want{{2, UsageIgnoredByGoogle}, {2, UsagePathNoSlash}}},
	{"usage before any group", "Content-Usage: train-ai=n\nUser-agent: *\nDisallow: /x\n", []want{{1, UsageIgnoredByGoogle}, {1, UsageNoEffect}}},
	{"usage in a group that fetches nothing", "User-agent: GPTBot\nDisallow: /\nContent-Usage: train-ai=n\n", []want{{1, BlocksAll}, {3, UsageIgnoredByGoogle}, {3, UsageNoEffect}}},
	{"Content-Signals", "User-agent: *\nContent-Signals: ai-train=no\nDisallow: /x\n", []want{{2, UsageMisspelledField}}},
	{"ContentUsage", "User-agent: *\nContentUsage: train-ai=n\nDisallow: /x\n", []want{{2, UsageMisspelledField}}},
	{"usage path alone", "User-agent: *\nContent-Usage: /docs/\n", []want{{2, UsageIgnoredByGoogle}}},
	{"missing colon", "User-agent: *\nDisallow /private\n", []want{{2, MissingColon}}},
	{"misspelled disallow", "User-agent: *\nDissallow: /private\n", []want{{2, MisspelledField}}},
	{"user agent with a space", "User agent: *\nDisallow: /private\n", []want{{1, MisspelledField}}},
	{"field name extended", "User-agent: *\nDisallowed: /private\n", []want{{1 + 1, MisspelledField}}},
	{"colon of a URL taken as the field's", "User-agent: *\nDisallow https://example.com/x\n", []want{{2, MissingColon}}},
	{"unknown field", "User-agent: *\nRestrict: /x\nDisallow: /y\n", []want{{2, UnknownField}}},
	// RSL 1.0's License (rslstandard.org/guide/robots-txt, its example file) and
	// crawler-commons' LLM-Policy are fields crawlers read: no warning.
	// The two mistakes: Content-Usage and Content-Signal say opposite things of
	// training on /blog/; a path-specific line drops search to unknown under its path.
	{"usage signals disagree", "User-agent: *\nAllow: /\nContent-Usage: /blog/ train-ai=y\nContent-Signal: /blog/ ai-train=no\n", []want{{3, UsageIgnoredByGoogle}, {4, UsageSignalsDisagree}}},
	{"usage line drops categories", "User-agent: *\nAllow: /\nContent-Usage: train-ai=n, search=y\nContent-Usage: /blog/ train-ai=y\n", []want{{3, UsageIgnoredByGoogle}, {4, UsageDropsCategories}}},
	{"usage line repeats them", "User-agent: *\nAllow: /\nContent-Usage: train-ai=n, search=y\nContent-Usage: /blog/ train-ai=y, search=y\nContent-Signal: ai-train=no\n", []want{{3, UsageIgnoredByGoogle}}},
	{"RSL guide example", "License: https://example.com/license.xml\n\nUser-agent: Googlebot\nAllow: /\n", nil},
	{"License and LLM-Policy in a group", "User-agent: *\nDisallow: /x\nLicense: https://example.com/a.xml\nLLM-Policy: https://example.com/llm.txt\n", nil},
	{"License not absolute", "License: /license.xml\nUser-agent: *\nDisallow: /x\n", []want{{1, LicenseNotAbsolute}}},
	{"License without a URL", "User-agent: *\nDisallow: /x\nLicense:\n", []want{{3, LicenseNotAbsolute}}},
	{"near miss of a field", "User-agnet: *\nDisallow: /y\n", []want{{1, UnknownField}, {2, RuleOutsideGroup}}},
	{"noindex", "User-agent: *\nNoindex: /drafts/\n", []want{{2, UnsupportedField}}},
	{"invalid line", "User-agent: *\nplease do not crawl us\nDisallow: /x\n", []want{{2, InvalidLine}}},
	// Google's parser reads two words as a field without its colon: "Hello" is a
	// field no crawler reads (robots.UnknownField documents the choice).
	{"two words without a colon", "User-agent: *\nHello world\nDisallow: /x\n", []want{{2, UnknownField}}},
	// Google's parser takes the text before a line's first colon as its field name
	// (RFC 9309 §2.2: the name ends at the colon), so a field glued to the end of other
	// text is a field no crawler reads: the line is lost, and with a user-agent line the
	// group it starts.
	{"user-agent glued to injected HTML", "User-agent: Googlebot\nDisallow: /tmp/\n<div style=\"display:none\"><a href=\"https://spam.example/\">x</a></div>User-agent: *\nDisallow: /wp-admin/\n",
		[]want{{3, GluedField}}},
	{"first user-agent glued to injected HTML", "<div style=\"display:none\">spam</div>User-agent: *\nDisallow: /wp-admin/\n",
		[]want{{1, GluedField}, {2, RuleOutsideGroup}}},
	{"sitemap after a label", "User-agent: *\nDisallow: /x\nImage Sitemap: https://example.com/images.xml\n", []want{{3, GluedField}}},
	{"glued rule without its colon", "User-agent: *\nDisallow: /x\n</div>Disallow /y\n", []want{{3, GluedField}}},
	{"glued field after a # cut", "User-agent: *\nDisallow: /x\n<a href=\"/#top\">top</a>User-agent: *\n", []want{{3, GluedField}}},
	{"field name inside a value is no glued field", "User-agent: *\nDisallow: /user-agent:x\n", nil},
	{"byte order mark inside the file", "User-agent: *\n\uFEFFDisallow: /x\n", []want{{2, UnknownField}}},
	{"invisible characters alone", "\u200B# comment\nUser-agent: *\nDisallow: /x\n", nil},
	{"rule outside any group", "Disallow: /x\nUser-agent: *\nDisallow: /y\n", []want{{1, RuleOutsideGroup}}},
	{"empty user-agent", "User-agent:\nDisallow: /x\n", []want{{1, EmptyUserAgent}}},
	{"value without a slash", "User-agent: *\nAllow: private/\nDisallow: /x\n", []want{{2, NotAPath}}},
	{"full URL as value", "User-agent: *\nDisallow: https://example.com/private\n", []want{{2, NotAPath}}},
	{"dollar in the middle", "User-agent: *\nDisallow: /*.php$,\n", []want{{2, MisplacedDollar}}},
	{"dollar as a literal part of URLs", "User-agent: *\nDisallow: /$cashtag/*\nDisallow: /${id}/\n", nil},
	{"crawl-delay not a number", "User-agent: *\nCrawl-delay: fast\nDisallow: /x\n", []want{{2, InvalidCrawlDelay}}},
	{"relative sitemap", "User-agent: *\nDisallow: /x\nSitemap: /sitemap.xml\n", []want{{3, SitemapNotAbsolute}}},
	{"URL alone on a line", "User-agent: *\nDisallow: /x\nhttps://example.com/sitemap.xml\n", []want{{3, UnknownField}}},
	{"line too long", "User-agent: *\nDisallow: /" + strings.Repeat("a", robots.MaxLineBytes) + "\n", []want{{2, LineTooLong}}},
	{"Latin-1 bytes", "User-agent: *\nDisallow: /caf\xe9\n", []want{{2, InvalidUTF8}}},
	{"Latin-1 bytes in a comment", "# caf\xe9\nUser-agent: *\nDisallow: /x\n", nil},
	{"HTML page", "<!DOCTYPE html>\n<html><head><title>Not Found</title></head>\n<body>Not Found</body></html>\n", []want{{1, HTMLPage}}},
	{"XML error", "<?xml version=\"1.0\"?><Error><Code>NoSuchKey</Code></Error>\n", []want{{1, HTMLPage}}},
	{"plain-text error page", "Not Found\n", []want{{1, NotRobotsTxt}}},
	{"JSON error", "{\"message\": \"Route GET:/robots.txt not found\", \"statusCode\": 404}\n", []want{{1, NotRobotsTxt}}},
	{"only comments", "# nothing to block\n\n", nil},
	{"rules in a pre element", "<pre>\nUser-agent: *\nDisallow: /x\n</pre>\n", []want{{1, InvalidLine}, {4, InvalidLine}}},
	// Google's matcher compares the crawler's name with the token, so no group
	// applies to MJ12bot and blocks-all has nothing to say.
	{"token with digits", "User-agent: MJ12bot\nDisallow: /\n", []want{{1, AgentToken}}},
	{"token with a dot", "User-agent: archive.org_bot\nDisallow: /x\n", []want{{1, AgentToken}}},
	{"no token at all", "User-agent: 360Spider\nDisallow: /x\n", []want{{1, AgentToken}}},
	{"several crawlers on one line", "User-agent: Googlebot, Bingbot\nDisallow: /x\n", []want{{1, AgentToken}}},
	{"whole User-Agent header", "User-agent: Mozilla/5.0 (compatible; FooBot/1.0)\nDisallow: /x\n", []want{{1, AgentToken}}},
	{"version after the token is fine", "User-agent: Googlebot/2.1\nUser-agent: Baiduspider+\nDisallow: /x\n", nil},
	// Only "*" alone is a wildcard (RFC 9309 §2.2.1: "product-token = identifier / "*"");
	// Google's token stops at the "*" ("Google"), a crawler matching the whole value
	// "exactly" finds no crawler.
	{"trailing star after a name", "User-agent: Google*\nDisallow: /x\n", []want{{1, AgentWildcard}}},
	{"trailing star after a crawler's name", "User-agent: Googlebot*\nDisallow: /x\n", []want{{1, AgentWildcard}}},
	{"crawl-delay between user-agents", "User-agent: Yandex\nCrawl-delay: 5\nUser-agent: *\nDisallow: /admin/\n", []want{{3, GroupMerge}}},
	{"sitemap between user-agents", "User-agent: a\nSitemap: https://example.com/s.xml\nUser-agent: b\nDisallow: /x\n", []want{{3, GroupMerge}}},
	{"star after star merges nothing", "User-agent: *\nCrawl-delay: 1\n\nUser-agent: *\nDisallow: /x\n", nil},
	{"merge without rules changes nothing", "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nCrawl-delay: 5\n", nil},
	{"group with only a crawl-delay", "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nCrawl-delay: 5\n", []want{{4, EmptyGroup}, {5, IgnoredCrawlDelay}}},
	// Crawl-delay: Google has never honoured it, Yandex has ignored it since February
	// 2018, bingbot honours it (package crawlers, from the operators' pages).
	{"crawl-delay only Googlebot reads", "User-agent: Googlebot\nDisallow: /x\nCrawl-delay: 10\n", []want{{3, IgnoredCrawlDelay}}},
	{"crawl-delay only Yandex reads", "User-agent: Yandex\nDisallow: /x\nCrawl-delay: 5\n", []want{{3, IgnoredCrawlDelay}}},
	{"crawl-delay bingbot honours", "User-agent: bingbot\nDisallow: /x\nCrawl-delay: 10\n", nil},
	{"crawl-delay shared with bingbot", "User-agent: Googlebot\nUser-agent: bingbot\nDisallow: /x\nCrawl-delay: 10\n", nil},
	{"crawl-delay for a crawler not in the registry", "User-agent: FooBot\nDisallow: /x\nCrawl-delay: 10\n", nil},
	{"explicit empty disallow", "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow:\n", nil},
	{"duplicate rule", "User-agent: *\nDisallow: /x\nDisallow: /x\n", []want{{3, DuplicateRule}}},
	{"allow and disallow with the same value", "User-agent: *\nDisallow: /folder\nAllow: /folder\n", []want{{2, ConflictingRules}}},
	{"shadowed by a longer wildcard", "User-agent: *\nAllow: /\nDisallow: /*\n", []want{{2, ShadowedRule}}},
	{"anchor tie goes to allow", "User-agent: *\nDisallow: /$\nAllow: /*\n", []want{{2, ShadowedRule}}},
	{"redundant under a wildcard", "User-agent: *\nDisallow: /search/\nDisallow: /search/*\n", []want{{2, RedundantRule}}},
	{"a longer rule does not cover a shorter", "User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /*.pdf\nAllow: /p\n", nil},
	{"same agent in two groups", "User-agent: Googlebot\nDisallow: /a\n\nUser-agent: Googlebot\nDisallow: /b\n", []want{{4, RepeatedAgent}}},
	// Old bot lists name versions of one crawler in groups of their own: Google
	// merges them, and the merged rules agree, so there is nothing to say.
	{"same agent, same rules", "User-agent: lwp-trivial\nDisallow: /\nUser-agent: lwp-trivial/1.34\nDisallow: /\n", nil},
	{"two star groups", "User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n", []want{{4, RepeatedStar}}},
	{"two star groups allowing everything", "User-agent: *\nDisallow:\n\nUser-agent: *\nAllow: /\n", nil},
	{"blocks a major AI crawler", "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n", []want{{1, BlocksAll}}},
	{"blocks everyone", "User-agent: *\nDisallow: /\n", []want{{1, BlocksAll}}},
	// A crawler obeys only the groups that name it (SPEC.md; Google: "only one group
	// is valid for a particular crawler"), so a group written as "these too" opens
	// everything the "*" group closes.
	{"allow-only group", "User-agent: *\nDisallow: /wp-admin/\n\nUser-agent: Googlebot\nAllow: /*.css$\nAllow: /*.js$\n", []want{{4, AllowOnlyGroup}}},
	{"allow-only group repeating the * allow", "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n\nUser-agent: bingbot\nAllow: /wp-admin/admin-ajax.php\n", []want{{5, AllowOnlyGroup}}},
	{"allow-only group, some * rules allowed outright", "User-agent: *\nDisallow: /a/\nDisallow: /b/\n\nUser-agent: Googlebot\nAllow: /a/\n", []want{{5, AllowOnlyGroup}}},
	{"allow-only group opening the site on purpose", "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nAllow: /\n", []want{{1, BlocksAll}}},
	{"allow rules with an explicit empty disallow", "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nAllow: /*.css$\nDisallow:\n", nil},
	{"group with limits of its own", "User-agent: *\nDisallow: /wp-admin/\nDisallow: /*?s=\n\nUser-agent: Googlebot-Image\nDisallow: /private/\n", []want{{5, DropsStarRules}}},
	{"group keeping one * rule", "User-agent: *\nDisallow: /a/\nDisallow: /b/\n\nUser-agent: Googlebot\nDisallow: /a/\nDisallow: /c/\n", nil},
	{"a crawler let in under a * group that blocks everything", "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /search\n", []want{{1, BlocksAll}}},
	{"group covering the * rules", "User-agent: *\nDisallow: /admin/\n\nUser-agent: BadBot\nDisallow: /\n", nil},
	{"a well-formed file", `# Example robots.txt
User-agent: *
Disallow: /wp-admin/
Allow: /wp-admin/admin-ajax.php
Disallow: /*?s=
Disallow: /*.pdf$

User-agent: Googlebot-Image
User-agent: bingbot
Disallow: /wp-admin/
Disallow: /private/
Crawl-delay: 2

Sitemap: https://example.com/sitemap.xml
`, nil},
}

func TestCheck(t *testing.T) {
	for _, tt := range checkTests {
		t.Run(tt.name, func(t *testing.T) {
			fs := Check("robots.txt", []byte(tt.body))
			var got []want
			for _, f := range fs {
				got = append(got, want{f.Line, f.Code})
				if f.File != "robots.txt" || f.Message == "" {
					t.Errorf("finding without file or message: %+v", f)
				}
				ci, ok := Describe(f.Code)
				if !ok || ci.Severity != f.Severity {
					t.Errorf("%s: severity %s, code table says %s", f.Code, f.Severity, ci.Severity)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v\n%s", got, tt.want, findings(fs))
			}
		})
	}
}

// parserCodes are the codes of robots.Parse's diagnostics.
var parserCodes = []Code{FileTooLarge, LineTooLong, InvalidLine, MissingColon, MisspelledField, UnknownField, RuleOutsideGroup, EmptyUserAgent}

// checkSameAsParser checks that the findings of the parser's codes are the parser's
// diagnostics, line for line, except on a page that is not robots.txt, where the one
// finding that says so is all, and that a misspelling of a usage field is reported as
// usage-misspelled-field rather than unknown-field.
func checkSameAsParser(t *testing.T, name string, body []byte, fs []Finding) {
	t.Helper()
	var got, fromParser []want
	page := false
	for _, f := range fs {
		page = page || f.Code == HTMLPage || f.Code == NotRobotsTxt
		switch {
		case slices.Contains(parserCodes, f.Code):
			got = append(got, want{f.Line, f.Code})
		case f.Code == UsageMisspelledField: // the parser's unknown-field, named more closely
			got = append(got, want{f.Line, UnknownField})
		case f.Code == GluedField: // the parser's unknown-field or invalid-line, named more closely
			code := UnknownField
			for l := range robots.Lines(body) {
				if l.Num == f.Line && l.Kind == robots.KindInvalid {
					code = InvalidLine
				}
			}
			got = append(got, want{f.Line, code})
		}
	}
	if !page {
		for _, d := range robots.Parse(body).Diagnostics() {
			fromParser = append(fromParser, want{d.Line, d.Code})
		}
	}
	// lint orders the findings of a line by column.
	order := func(a, b want) int {
		return cmp.Or(cmp.Compare(a.line, b.line), strings.Compare(string(a.code), string(b.code)))
	}
	slices.SortFunc(got, order)
	slices.SortFunc(fromParser, order)
	if !slices.Equal(got, fromParser) {
		t.Errorf("%s: lint reports %v, the parser %v", name, got, fromParser)
	}
}

// TestMessages: what a finding says matches what the other findings and the
// documents say. Google reads one product token per user-agent line (agent-token), so
// the crawlers a group names are those tokens; a rule the "*" group repeats is one rule;
// a user-agent line matches no URL; only "*" alone is a wildcard.
func TestMessages(t *testing.T) {
	tests := []struct {
		name, body string
		line       int
		code       Code
		has, lacks []string
	}{
		{"drops-star-rules names the tokens Google reads",
			"User-agent: *\nDisallow: /private\n\nUser-agent: Googlebot, Bingbot\nDisallow: /other\n", 4, DropsStarRules,
			[]string{"(Googlebot)"}, []string{"Bingbot"}},
		{"drops-star-rules lists a repeated rule once",
			"User-agent: *\nDisallow: /private\nDisallow: /private\n\nUser-agent: Googlebot\nDisallow: /other\n", 5, DropsStarRules,
			[]string{`"Disallow: /private" (line 2)`}, []string{"(line 3)"}},
		{"invalid-utf8 on a user-agent line",
			"User-agent: Caf\xe9bot\nDisallow: /x\n", 1, InvalidUTF8,
			[]string{`"Caf"`, "product token"}, []string{"URL"}},
		{"invalid-utf8 on a rule",
			"User-agent: *\nDisallow: /caf\xe9\n", 2, InvalidUTF8,
			[]string{"matches URLs with those escapes"}, nil},
		{"glued-field says how Google reads the line and where the rules go",
			"User-agent: Googlebot\nDisallow: /tmp/\n<div style=\"display:none\">spam</div>User-agent: *\nDisallow: /wp-admin/\n", 3, GluedField,
			[]string{`"User-agent: *" is glued`, `take "<div style=\"display", the text before the line's first colon`,
				"rules from line 4 on join the group of line 1 (User-agent: Googlebot)", "line of its own", "HTML"}, nil},
		{"glued-field before any group",
			"<p>User-agent: *\nDisallow: /x\n", 1, GluedField,
			[]string{`take "<p>User-agent"`, "rules from line 2 on belong to no group"}, nil},
		{"glued-field after text that is no HTML",
			"User-agent: *\nDisallow: /x\nImage Sitemap: https://example.com/i.xml\n", 3, GluedField,
			[]string{`"Sitemap: https://example.com/i.xml" is glued`, `take "Image Sitemap"`}, []string{"HTML", "group"}},
		{"Google* names no Google crawler",
			"User-agent: Google*\nDisallow: /x\n", 1, AgentWildcard,
			[]string{"not a wildcard", `as "Google"`, "Googlebot"}, nil},
		{"Googlebot* is read as Googlebot",
			"User-agent: Googlebot*\nDisallow: /x\n", 1, AgentWildcard,
			[]string{"not a wildcard", `write "Googlebot"`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var msg string
			for _, f := range Check("robots.txt", []byte(tt.body)) {
				if f.Line == tt.line && f.Code == tt.code {
					msg = f.Message
				}
			}
			if msg == "" {
				t.Fatalf("no %s finding on line %d", tt.code, tt.line)
			}
			for _, h := range tt.has {
				if !strings.Contains(msg, h) {
					t.Errorf("message %q does not say %q", msg, h)
				}
			}
			for _, l := range tt.lacks {
				if strings.Contains(msg, l) {
					t.Errorf("message %q says %q", msg, l)
				}
			}
		})
	}
}

func TestSameAsParser(t *testing.T) {
	for _, tt := range checkTests {
		t.Run(tt.name, func(t *testing.T) {
			checkSameAsParser(t, "robots.txt", []byte(tt.body), Check("robots.txt", []byte(tt.body)))
		})
	}
	for _, c := range parserCodes {
		if _, ok := Describe(c); !ok {
			t.Errorf("the parser's code %s is not in lint's table", c)
		}
	}
}

func findings(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintln(&b, f)
	}
	return b.String()
}

// TestEveryCodeTested keeps the table above in step with the list of codes.
func TestEveryCodeTested(t *testing.T) {
	tested := map[Code]bool{FileTooLarge: true, DialectsDisagree: true} // TestFileTooLarge, TestDialects
	for _, tt := range checkTests {
		for _, w := range tt.want {
			tested[w.code] = true
		}
	}
	for _, c := range Codes() {
		if !tested[c.Code] {
			t.Errorf("no test case for %s", c.Code)
		}
	}
}

func TestFileTooLarge(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 0; b.Len() <= robots.DefaultMaxBytes; i++ {
		fmt.Fprintf(&b, "Disallow: /page-%06d\n", i)
	}
	b.WriteString("Disallow: /lost\n")
	fs := Check("big.txt", []byte(b.String()))
	var got []Finding
	for _, f := range fs {
		if f.Code == FileTooLarge {
			got = append(got, f)
		}
	}
	if len(got) != 1 {
		t.Fatalf("got %d file-too-large findings, want 1:\n%s", len(got), findings(got))
	}
	if !strings.Contains(got[0].Message, "are ignored") {
		t.Errorf("message does not say that lines are lost: %s", got[0].Message)
	}
}

func TestColumns(t *testing.T) {
	fs := Check("r.txt", []byte("User-agent: *\n  Disallow: /*.php$,\n"))
	if len(fs) != 1 || fs[0].Code != MisplacedDollar || fs[0].Line != 2 || fs[0].Col != 19 {
		t.Fatalf("got %s, want r.txt:2:19 misplaced-dollar", findings(fs))
	}
}

// slowCovers is covers by brute force: every path up to a small length over the
// letters of the values, matched with the parser's own matcher.
func slowCovers(q, r string) bool {
	rob := robots.Parse([]byte("User-agent: q\nAllow: " + q + "\nUser-agent: r\nAllow: " + r + "\n"))
	alphabet := "/ab$"
	var paths []string
	var gen func(p string)
	gen = func(p string) {
		paths = append(paths, p)
		if len(p) < 5 {
			for i := 0; i < len(alphabet); i++ {
				gen(p + alphabet[i:i+1])
			}
		}
	}
	gen("/")
	for _, p := range paths {
		if rob.Check("r", p).Rule.Line != 0 && rob.Check("q", p).Rule.Line == 0 {
			return false
		}
	}
	return true
}

// TestCoversSound checks that covers never claims a cover that the matcher refutes:
// that is what keeps shadowed-rule and redundant-rule free of false alarms.
func TestCoversSound(t *testing.T) {
	values := []string{"/", "/*", "*", "/a", "/a*", "/a$", "/*a", "/*a$", "/a*b", "/a*b$", "/*b*", "/ab", "/ab$", "/a/", "/*/", "/$", "/**", "/a**b", "*a", "/b$a"}
	for _, q := range values {
		for _, r := range values {
			if covers(q, r) && !slowCovers(q, r) {
				t.Errorf("covers(%q, %q) = true, but some path matches %q and not %q", q, r, r, q)
			}
		}
	}
	// And it finds the covers the checks rely on.
	for _, c := range []struct{ name, q, r string }{
		{"star covers everything", "/*", "/"},
		{"trailing star changes nothing", "/a*", "/a"},
		{"leading star covers the literal", "/*a", "/a"},
		{"prefix covers its anchored self", "/a", "/a$"},
		{"bare star covers a wildcard", "*", "/x*y"},
		{"query wildcard covers a query", "/*?*", "/?"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !covers(c.q, c.r) {
				t.Errorf("covers(%q, %q) = false, want true", c.q, c.r)
			}
		})
	}
}

// corpusStride picks every n-th corpus file, which keeps the test quick under -race;
// the whole corpus is linted by "robots lint" itself (see the notes of issue 3).
const corpusStride = 5

// corpusFile is one file of the shared corpus.
type corpusFile struct {
	name string
	body []byte
}

// corpusFiles reads every n-th file of the shared corpus (testenv.CorpusDir: the
// test skips where the corpus is absent, and fails so with CI=true).
func corpusFiles(t testing.TB, n int) []corpusFile {
	t.Helper()
	dir := filepath.Join(testenv.CorpusDir(t), "robots")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []corpusFile
	for i, e := range ents {
		if i%n != 0 {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, corpusFile{e.Name(), b})
	}
	return files
}

// TestCorpus lints real files of the shared corpus: no panics, and every finding
// well formed.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus run skipped in -short mode")
	}
	files := corpusFiles(t, corpusStride)
	counts := map[Code]int{}
	for _, cf := range files {
		fs := Check(cf.name, cf.body)
		checkSameAsParser(t, cf.name, cf.body, fs)
		for _, f := range fs {
			counts[f.Code]++
			if f.Line < 0 || f.Col < 0 || f.Message == "" {
				t.Errorf("malformed finding %+v", f)
			}
		}
	}
	t.Logf("%d files (every %dth): %v", len(files), corpusStride, counts)
}

func FuzzCheck(f *testing.F) {
	for _, tt := range checkTests {
		f.Add([]byte(tt.body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fs := Check("f", body)
		for _, x := range fs {
			if _, ok := Describe(x.Code); !ok {
				t.Fatalf("unknown code %q", x.Code)
			}
		}
	})
}

// TestCodesDoc checks that CODES.md has a table row for every code with its severity.
func TestCodesDoc(t *testing.T) {
	doc, err := os.ReadFile("CODES.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range Codes() {
		t.Run(string(c.Code), func(t *testing.T) {
			row := fmt.Sprintf("| `%s` | %s |", c.Code, c.Severity)
			if !strings.Contains(string(doc), row) {
				t.Errorf("CODES.md has no row starting %q", row)
			}
		})
	}
}

// TestDialects: the examples of SPEC.md §6 and the 1996 draft (first match wins, no
// wildcards) against Google's longest match.
func TestDialects(t *testing.T) {
	tests := []struct {
		name, body string
		want       []want
	}{
		// Google allows /wp-admin/admin-ajax.php (longer allow); the 1996 draft takes
		// the first match, the disallow; 1994 knows no Allow.
		{"allow after disallow", "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n", []want{{3, DialectsDisagree}}},
		// Written most specific first, Google and the 1996 draft agree; the 1994
		// standard still ignores the Allow line.
		{"allow first", "User-agent: *\nAllow: /wp-admin/admin-ajax.php\nDisallow: /wp-admin/\n", []want{{1 + 1, DialectsDisagree}}},
		// Plain prefixes and no allow: every reading agrees.
		{"plain prefixes only", "User-agent: *\nDisallow: /private/\nDisallow: /tmp\n", nil},
		// A rule Google reads through a misspelling is no rule for the old documents.
		{"misspelling", "User-agent: *\nDissallow: /private/\n", []want{{2, DialectsDisagree}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []want
			for _, f := range CheckWith("robots.txt", []byte(tt.body), Options{Dialects: true}) {
				if f.Code == DialectsDisagree {
					got = append(got, want{f.Line, f.Code})
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
			for _, f := range Check("robots.txt", []byte(tt.body)) {
				if f.Code == DialectsDisagree {
					t.Errorf("Check without Options.Dialects reported %v", f)
				}
			}
		})
	}
}

// TestStarRulesSample: real files of the corpus (testdata/starrules.md says where
// each comes from; their sources state no licence, so they are read from the corpus,
// not copied here) whose groups lose the "*" rules. The lines are those of the
// groups, read off the files.
func TestStarRulesSample(t *testing.T) {
	dir := filepath.Join(testenv.CorpusDir(t), "robots")
	tests := []struct {
		file     string
		sha256   string // the first 16 hex digits: the file the lines were read off
		want     []want
		messages []string // in the first finding's message
	}{
		{"mangaroca.es.txt", "9fffee005e6792aa", []want{{6, AllowOnlyGroup}}, []string{"(Googlebot)", `"Disallow: /wp-admin/" (line 2)`, "/wp-admin/, for one, is disallowed"}},
		{"nytimes.com.txt", "5d00bca2bcb9bbdb", []want{{30, AllowOnlyGroup}, {33, AllowOnlyGroup}}, []string{"(googlebot)", `"Disallow: /ads/" (line 4)`, "19 more", "/ads/, for one"}},
		{"hz.focus.cn.txt", "3633f08817205dfd", []want{{1, AllowOnlyGroup}}, []string{"(Baiduspider-ads)", `"Disallow: /*?*" (line 5)`}},
		{"www.haufe.de.txt", "d51679dccb756701", []want{{1, DropsStarRules}, {20, DropsStarRules}, {23, DropsStarRules}, {27, DropsStarRules}, {30, DropsStarRules},
			{34, DropsStarRules}, {37, DropsStarRules}, {41, DropsStarRules}, {46, DropsStarRules}, {49, DropsStarRules}},
			[]string{"(Slurp)", `"Disallow: /forms/*" (line 55), "Disallow: /suche/*" (line 56), "Disallow: *emos_*" (line 57)`}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			body, err := os.ReadFile(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if sum := fmt.Sprintf("%x", sha256.Sum256(body)); sum[:16] != tt.sha256 {
				t.Fatalf("the corpus's %s has sha256 %s…, not the %s… whose lines this test names: the corpus changed", tt.file, sum[:16], tt.sha256)
			}
			var got []want
			var first string
			for _, f := range Check(tt.file, body) {
				if f.Code == AllowOnlyGroup || f.Code == DropsStarRules {
					if first == "" {
						first = f.Message
					}
					got = append(got, want{f.Line, f.Code})
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
			for _, m := range tt.messages {
				if !strings.Contains(first, m) {
					t.Errorf("message %q does not contain %q", first, m)
				}
			}
		})
	}
}

// TestReadDialects: SPEC.md §6 — Google and RFC 9309 take the longest match, the 1996
// draft the first match in file order, and the 1994 standard knows no Allow.
func TestReadDialects(t *testing.T) {
	rd := ReadDialects([]byte("User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n"))
	if !slices.Equal(rd.Dialects(), robots.Dialects()) {
		t.Fatalf("Dialects = %v, want %v", rd.Dialects(), robots.Dialects())
	}
	type verdict struct {
		allowed bool
		line    int
	}
	tests := []struct {
		name, url string
		want      []verdict // in the order of robots.Dialects: google, rfc9309, legacy1996, legacy1994
		agree     bool
	}{
		{"longest match against first match", "/wp-admin/admin-ajax.php", []verdict{{true, 3}, {true, 3}, {false, 2}, {false, 2}}, false},
		{"one rule matches", "/wp-admin/options.php", []verdict{{false, 2}, {false, 2}, {false, 2}, {false, 2}}, true},
		{"no rule matches", "/blog/", []verdict{{true, 0}, {true, 0}, {true, 0}, {true, 0}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vs, agree := rd.Check("FooBot", tt.url)
			var got []verdict
			for i, v := range vs {
				got = append(got, verdict{v.Allowed, v.Rule.Line})
				if v.Dialect != robots.Dialects()[i] {
					t.Errorf("verdict %d is for %s, want %s", i, v.Dialect, robots.Dialects()[i])
				}
			}
			if !slices.Equal(got, tt.want) || agree != tt.agree {
				t.Errorf("got %v, agree %v; want %v, agree %v", got, agree, tt.want, tt.agree)
			}
		})
	}
}

// TestGroupMergeContentUsage: a Content-Usage line between user-agent lines joins
// them for Google (an unused directive) but ends the group under RFC 9309 with
// draft-ietf-aipref-attach (a rule): the warning says both.
func TestGroupMergeContentUsage(t *testing.T) {
	for _, tt := range []struct {
		body    string
		wantRFC bool
	}{
		{"User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\nDisallow: /\n", true},
		{"User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /\n", false},
	} {
		var msg string
		for _, f := range Check("robots.txt", []byte(tt.body)) {
			if f.Code == GroupMerge {
				msg = f.Message
			}
		}
		if msg == "" {
			t.Fatalf("%q: no group-merge warning", tt.body)
		}
		if got := strings.Contains(msg, "under RFC 9309"); got != tt.wantRFC {
			t.Errorf("%q: message %q; mentions RFC 9309: %v, want %v", tt.body, msg, got, tt.wantRFC)
		}
	}
}

// TestMayCover checks that mayCover, the quick test before a pattern match, never
// turns away a pair that matches: over every pair of rule values of each of some
// corpus files, and of the values of TestCoversSound.
func TestMayCover(t *testing.T) {
	values := []string{"/", "/*", "*", "/a", "/a*", "/a$", "/*a", "/*a$", "/a*b", "/a*b$", "/*b*", "/ab", "/ab$", "/a/", "/*/", "/$", "/**", "/a**b", "*a", "/b$a"}
	pairs := func(values []string) (n int) {
		var ps []*pattern
		for i, v := range values {
			ps = append(ps, newPattern(robots.Rule{Value: v, Line: i + 1}))
		}
		for _, q := range ps {
			for _, p := range ps {
				if q.glob.match(p.glob) {
					n++
					if !q.mayCover(p) {
						t.Errorf("%q matches %q, but mayCover says it cannot", q.rule.Value, p.rule.Value)
					}
				}
			}
		}
		return n
	}
	pairs(values)
	// And it turns away what cannot match.
	q, p := newPattern(robots.Rule{Value: "/*.embed.html"}), newPattern(robots.Rule{Value: "/*.print.html"})
	if q.mayCover(p) {
		t.Errorf("mayCover(%q, %q) = true, want false (no 'e', 'm', 'b', 'd' in the second)", q.rule.Value, p.rule.Value)
	}
	matched := 0
	for _, cf := range corpusFiles(t, 4*corpusStride) {
		seen := map[string]bool{}
		var vs []string
		for _, g := range robots.Parse(cf.body).Groups() {
			for _, r := range g.Rules {
				if isPath(r.Value) && !seen[r.Value] && len(vs) < 300 {
					seen[r.Value] = true
					vs = append(vs, r.Value)
				}
			}
		}
		matched += pairs(vs)
	}
	if matched == 0 {
		t.Error("no pair of corpus rule values matched: the test read nothing")
	}
}

// backtrackMatch is glob matching by backtracking over the whole texts, the
// reference glob.match is checked against.
func backtrackMatch(p, s string) bool {
	pi, si := 0, 0
	star, next := -1, 0
	for si < len(s) || pi < len(p) {
		if pi < len(p) {
			if p[pi] == '*' {
				star, next = pi, si+1
				pi++
				continue
			}
			if si < len(s) && s[si] == p[pi] {
				pi++
				si++
				continue
			}
		}
		if star >= 0 && next <= len(s) {
			pi, si = star+1, next
			next++
			continue
		}
		return false
	}
	return true
}

// TestGlobMatch checks glob.match against backtracking over the patterns' whole
// texts, for every pair of values up to 5 bytes over "/ab*" with or without "$".
func TestGlobMatch(t *testing.T) {
	var values []string
	var gen func(v string)
	gen = func(v string) {
		values = append(values, v, v+"$")
		if len(v) < 5 {
			for _, c := range "/ab*" {
				gen(v + string(c))
			}
		}
	}
	gen("/")
	text := func(v string) string {
		if strings.HasSuffix(v, "$") {
			return v[:len(v)-1]
		}
		return v + "*"
	}
	n := 0
	for _, q := range values {
		for _, r := range values {
			want := backtrackMatch(text(q), text(r))
			if got := globOf(q).match(globOf(r)); got != want {
				t.Fatalf("glob(%q).match(glob(%q)) = %v, want %v", q, r, got, want)
			}
			if want {
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("no pair matched")
	}
}
