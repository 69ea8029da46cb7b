package robots_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/internal/testenv"
)

// TestCheckOnceCorpus: on real cases of the corpus, the one-pass decision is the
// decision of the parsed file.
func TestCheckOnceCorpus(t *testing.T) {
	c := testenv.Corpus(t)
	for i, cs := range c.Cases() {
		if i%7 != 0 { // every 7th of the 86,300 cases keeps the test quick under -race
			continue
		}
		body := c.Files[cs.File].Body
		got := robots.CheckOnce(body, cs.Agent, cs.URL)
		if want := robots.Parse(body).Check(cs.Agent, cs.URL); got != want {
			t.Fatalf("%s, %s, %s: CheckOnce = %+v, Parse+Check = %+v", c.Files[cs.File].Host, cs.Agent, cs.URL, got, want)
		}
	}
}

func ExampleCheckOnce() {
	body := []byte("User-agent: *\nDisallow: /private/\n")
	d := robots.CheckOnce(body, "Googlebot", "https://example.com/private/a")
	fmt.Println(d.Allowed, d.Rule)
	// Output:
	// false Disallow: /private/
}

// TestCheckOnceRuleValues covers what CheckOnce reads of a rule line before
// classifying it (the value compared with the path as written, not yet cut at its
// comment): the expected decisions follow Google's parser and matcher, and Parse and
// Check must agree.
func TestCheckOnceRuleValues(t *testing.T) {
	const star = "User-agent: *\n"
	disallow := func(v string, line int) robots.Decision {
		return robots.Decision{Allowed: false, Rule: robots.Rule{Value: v, Line: line}, Group: 0, Global: true}
	}
	allow := func(v string, line int) robots.Decision {
		return robots.Decision{Allowed: true, Rule: robots.Rule{Allow: true, Value: v, Line: line}, Group: 0, Global: true}
	}
	none := robots.Decision{Allowed: true, Group: 0, Global: true}
	for _, tt := range []struct {
		name, body, url string
		want            robots.Decision
	}{
		{"comment after the value", star + "Disallow: /a #no", "/a", disallow("/a", 2)},
		{"comment right after the value", star + "Disallow: /a#b", "/ab", disallow("/a", 2)},
		{"value longer than the path", star + "Disallow: /ab#", "/a", none},
		{"white space after the value", star + "Disallow: /a \t\v", "https://h/a", disallow("/a", 2)},
		{"white space inside the value", star + "Disallow: /a b", "/a b/c", disallow("/a b", 2)},
		{"NUL ends the value", star + "Disallow: /a\x00bc", "/a", disallow("/a", 2)},
		{"tab before the value", star + "DISALLOW:\t/x", "/x", disallow("/x", 2)},
		{"non-ASCII value is percent-encoded", star + "Disallow: /\xc3\xa9", "/%C3%A9", disallow("/\xc3\xa9", 2)},
		{"escape upper-cased", star + "Disallow: /%7e", "/%7Ea", disallow("/%7e", 2)},
		{"exact match", star + "Disallow: /a$", "/a", disallow("/a$", 2)},
		{"exact match fails", star + "Disallow: /a$", "/ab", none},
		{"wildcard", star + "Disallow: /a*c", "/abc", disallow("/a*c", 2)},
		{"index.html allows its directory", star + "Disallow: /\nAllow: /x/index.html", "/x/", allow("/x/index.html", 3)},
		{"index.htm at the root", star + "Disallow: /\nallow: /index.htm", "https://h/", allow("/index.htm", 3)},
		{"query without a path", star + "Disallow: /?q", "https://h?q", disallow("/?q", 2)},
		{"value without a slash", star + "Disallow: ?q", "https://h?q", none},
		{"longest match wins", star + "Disallow: /a\nAllow: /a/b\nDisallow: /a/c", "/a/b", allow("/a/b", 3)},
		{"misspelt key", star + "Dissallow: /a", "/a", disallow("/a", 2)},
		{"key with white space before the colon", star + "Disallow : /a", "/a", disallow("/a", 2)},
		// A line is cut at MaxLineBytes before it is read: the rule is its first bytes.
		{"line longer than the limit", star + "Disallow: /" + strings.Repeat("a", robots.MaxLineBytes) + "b",
			"/" + strings.Repeat("a", robots.MaxLineBytes) + "c", disallow("/"+strings.Repeat("a", robots.MaxLineBytes-len("Disallow: /")), 2)},
		{"lone CR ends a line", "User-agent: *\rDisallow: /a\r\nAllow: /a/b", "/a/b", allow("/a/b", 3)},
		{"CR LF line ends", "User-agent: *\r\nDisallow: /a\r\nAllow: /a/b", "/a/c", disallow("/a", 2)},
	} {
		t.Run(tt.name, func(t *testing.T) { checkOnceAndParsed(t, []byte(tt.body), "bot", tt.url, tt.want) })
	}
}

// checkOnceAndParsed checks that CheckOnce, and Check on the parsed body, decide want.
func checkOnceAndParsed(t *testing.T, body []byte, agent, url string, want robots.Decision) {
	t.Helper()
	if got := robots.CheckOnce(body, agent, url); got != want {
		t.Errorf("CheckOnce = %+v, want %+v", got, want)
	}
	if got := robots.Parse(body).Check(agent, url); got != want {
		t.Errorf("Parse+Check = %+v, want %+v", got, want)
	}
}

// TestCheckOnceAgents covers how CheckOnce finds the groups that name the agent: Google
// compares the product token at the start of a user-agent value (its leading
// [A-Za-z_-]) with the agent, in any case; an agent that is not a product token names
// no group. Parse and Check must agree.
func TestCheckOnceAgents(t *testing.T) {
	const url = "https://example.com/a"
	named := robots.Decision{Allowed: false, Rule: robots.Rule{Value: "/", Line: 2}, Group: 0}
	star := robots.Decision{Allowed: false, Rule: robots.Rule{Value: "/", Line: 5}, Group: 1, Global: true}
	none := robots.Decision{Allowed: true, Group: -1}
	for _, tt := range []struct {
		name, first, agent string
		want               robots.Decision
	}{
		{"same token", "Googlebot", "Googlebot", named},
		{"other case", "GOOGLEBOT", "googlebot", named},
		{"version after the token", "Googlebot/2.1", "googlebot", named},
		{"wildcard after the token", "googlebot*", "Googlebot", named},
		{"white space after the token", "Googlebot \t", "Googlebot", named},
		{"comment after the token", "Googlebot#x", "Googlebot", named},
		{"longer token", "Googlebot-Image", "Googlebot", star},
		{"shorter token", "Google", "Googlebot", star},
		{"different first byte", "Bingbot", "Googlebot", star},
		{"agent is not a token", "Googlebot/2.1", "Googlebot/2.1", star},
		{"empty agent", "/x", "", named},
		{"empty token", "*bot", "bot", star},
	} {
		t.Run(tt.name, func(t *testing.T) {
			body := []byte("User-agent: " + tt.first + "\nDisallow: /\n\nUser-agent: *\nDisallow: /\n")
			checkOnceAndParsed(t, body, tt.agent, url, tt.want)
		})
	}
	t.Run("no group", func(t *testing.T) {
		if got := robots.CheckOnce([]byte("User-agent: Bingbot\nDisallow: /\n"), "Googlebot", url); got != none {
			t.Errorf("CheckOnce = %+v, want %+v", got, none)
		}
	})
}

// TestCheckOnceAllocs: CheckOnce allocates nothing but the copy of the rule that
// decides (the decision must not refer to the caller's bytes).
func TestCheckOnceAllocs(t *testing.T) {
	body := []byte("User-agent: Bingbot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\nAllow: /private/ok\n")
	for _, tt := range []struct {
		url  string
		want float64
	}{
		{"https://example.com/public", 0},
		{"https://example.com/private/x", 1},
	} {
		t.Run(tt.url, func(t *testing.T) {
			if n := testing.AllocsPerRun(100, func() { robots.CheckOnce(body, "Googlebot", tt.url) }); n != tt.want {
				t.Errorf("%v allocations, want %v", n, tt.want)
			}
		})
	}
}
