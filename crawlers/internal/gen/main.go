// Command gen turns the ai.robots.txt project's robots.json into the Go table of
// package crawlers (airobots_gen.go). "go generate ./crawlers" runs it on the copy
// in crawlers/data/ai.robots.txt/; to refresh the registry, replace that copy with a
// newer robots.json and run the command again.
//
// # From robots.json to an entry
//
// Each key of the JSON object is a crawler's Name. Names equal but for case are one
// crawler: the entry kept is the one with a known operator, else the first in byte
// order. Entries are written in byte order of Name, lower-cased.
//
// Operator: the text of the Markdown link the field starts with ("[Ai2](https://…)"
// gives "Ai2"); otherwise the field's text up to the first ", ", " that ", " to ", " (" or
// ". " ("Amazon, used for …" gives "Amazon"); "" for "Unclear at this time.",
// "Unknown" and a bare URL.
//
// URL: the first link in the "respect" field, then in the "operator" field, that is
// on the operator's own site and names a page (a path other than "/"): links to
// github.com, news.ycombinator.com, web.archive.org, knownagents.com and forms.gle
// are third parties' pages and skipped, as are bare home pages.
//
// Purposes, from the "function" field, compared ignoring case:
//
//  1. A label of the categories ai.robots.txt takes from knownagents.com, matched
//     whole (see categories): "AI Assistants", "AI Agents" and "AI Coding Agents"
//     are ai-user; "AI Search Crawlers" ai-search; "AI Data Scrapers" ai-train;
//     "AI Data Providers" ai-train and ai-search (they sell data for both);
//     "Undocumented AI Agents" other.
//  2. Otherwise free text: each phrase of keywords found at the start of a word adds
//     its purpose, in the order of that table ("Scrapes data for search engine and
//     LLMs." is ai-train and ai-search).
//  3. When the function names none, the description is read as in 2; when that
//     names none either, the purpose is other.
//
// Crawl-delay is not in robots.json: every entry's CrawlDelay is Unknown. The
// hand-written entries of crawlers/curated.go take precedence over these.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"io"
	"net/url"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxInput bounds the robots.json read: the file is 73 KB for 166 agents in
// August 2026, and a copy fifty times larger is not that file.
const maxInput = 4 << 20

// maxName bounds a crawler name: the longest in the file has 27 bytes; a longer
// one is more likely a sentence in the wrong field than a product token.
const maxName = 64

func main() {
	in := flag.String("in", "data/ai.robots.txt/robots.json", "robots.json to read")
	out := flag.String("out", "airobots_gen.go", "Go file to write")
	flag.Parse()
	if err := run(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, maxInput+1))
	if err != nil {
		return err
	}
	if len(src) > maxInput {
		return fmt.Errorf("%s: larger than %d bytes", in, maxInput)
	}
	code, err := generate(src)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	return os.WriteFile(out, code, 0o644)
}

// agent is one value of robots.json, as the ai.robots.txt project writes it.
type agent struct {
	Operator    string `json:"operator"`
	Respect     string `json:"respect"`
	Function    string `json:"function"`
	Description string `json:"description"`
}

// entry is one line of the generated table.
type entry struct {
	name, operator, url, function string
	purposes                      []string // constant names in package crawlers
}

// generate returns the Go source of the table for robots.json's content.
func generate(src []byte) ([]byte, error) {
	var agents map[string]agent
	if err := json.Unmarshal(src, &agents); err != nil {
		return nil, err
	}
	if len(agents) == 0 {
		return nil, errors.New("no agents")
	}
	byKey := map[string]entry{}
	for name, a := range agents {
		if err := checkName(name); err != nil {
			return nil, err
		}
		e := entry{name: name, operator: operator(a.Operator), function: a.Function}
		e.url = docURL(a.Respect, a.Operator)
		e.purposes = purposes(a.Function, a.Description)
		k := strings.ToLower(name)
		if prev, dup := byKey[k]; dup && !better(e, prev) {
			continue
		}
		byKey[k] = e
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)

	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("var aiRobots = []entry{\n")
	for _, k := range keys {
		e := byKey[k]
		fmt.Fprintf(&b, "\t// function: %s\n", strconv.Quote(e.function))
		fmt.Fprintf(&b, "\t{%s, %s, p(%s), %s, Unknown, false},\n",
			strconv.Quote(e.name), strconv.Quote(e.operator), strings.Join(e.purposes, ", "), strconv.Quote(e.url))
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}

const header = `// Code generated by crawlers/internal/gen from data/ai.robots.txt/robots.json; DO NOT EDIT.

// The entries below derive from the ai.robots.txt project's robots.json
// (github.com/ai-robots-txt/ai.robots.txt), Copyright (c) 2024 ai.robots.txt,
// under the MIT licence in data/ai.robots.txt/LICENSE; the quoted "function"
// texts are that project's words. See data/ai.robots.txt/README.md.

package crawlers

// aiRobots are the crawlers of ai.robots.txt's list, with purposes mapped from
// their "function" as internal/gen documents.
`

// checkName rejects what cannot be a user-agent line's value.
func checkName(name string) error {
	switch {
	case name == "":
		return errors.New("an agent with an empty name")
	case len(name) > maxName:
		return fmt.Errorf("agent %q: name longer than %d bytes", name, maxName)
	case !utf8.ValidString(name):
		return fmt.Errorf("agent %q: name not UTF-8", name)
	case strings.TrimSpace(name) != name:
		return fmt.Errorf("agent %q: name has surrounding spaces", name)
	case strings.ContainsAny(name, "#*\x7f") || strings.IndexFunc(name, unicode.IsControl) >= 0:
		return fmt.Errorf("agent %q: name has a control character, '#' or '*'", name)
	}
	return nil
}

// better reports whether e should replace prev, a name equal but for case.
func better(e, prev entry) bool {
	if (e.operator != "") != (prev.operator != "") {
		return e.operator != ""
	}
	return e.name < prev.name
}

var mdLink = regexp.MustCompile(`\[([^\]]*)\]\((https?://[^)\s]+)\)`)
var bareURL = regexp.MustCompile(`https?://[^)\s]+`)

// unknownOperator are the operator texts that say nobody knows.
var unknownOperator = []string{"unclear at this time.", "unclear at this time", "unknown", ""}

func operator(s string) string {
	s = strings.TrimSpace(s)
	if slices.Contains(unknownOperator, strings.ToLower(s)) {
		return ""
	}
	if m := mdLink.FindStringSubmatchIndex(s); m != nil && m[0] == 0 {
		return strings.TrimSpace(s[m[2]:m[3]])
	}
	if bareURL.MatchString(s) && strings.HasPrefix(s, "http") {
		return ""
	}
	for _, sep := range []string{", ", " that ", " to ", " (", ". "} {
		if i := strings.Index(s, sep); i > 0 {
			s = s[:i]
		}
	}
	return strings.TrimSpace(s)
}

// thirdParty are hosts whose pages are about a crawler but not by its operator.
var thirdParty = []string{"github.com", "news.ycombinator.com", "web.archive.org", "knownagents.com", "forms.gle"}

func docURL(fields ...string) string {
	for _, f := range fields {
		for _, raw := range bareURL.FindAllString(f, -1) {
			u, err := url.Parse(raw)
			if err != nil || u.Host == "" || slices.Contains(thirdParty, strings.TrimPrefix(u.Host, "www.")) {
				continue
			}
			if strings.Trim(u.Path, "/") == "" {
				continue
			}
			return raw
		}
	}
	return ""
}

// categories are the function labels of the agents ai.robots.txt imports from
// knownagents.com, lower-cased.
var categories = map[string][]string{
	"ai assistants":          {"AIUser"},
	"ai agents":              {"AIUser"},
	"ai coding agents":       {"AIUser"},
	"ai search crawlers":     {"AISearch"},
	"ai data scrapers":       {"AITrain"},
	"ai data scraper":        {"AITrain"},
	"ai data providers":      {"AITrain", "AISearch"},
	"undocumented ai agents": {"Other"},
}

// keywords map phrases of free-text functions to purposes; a phrase matches at the
// start of a word ("search" is not found in "research").
var keywords = []struct{ phrase, purpose string }{
	{"seo", "SEO"},
	{"train", "AITrain"},
	{"machine learning", "AITrain"},
	{"dataset", "AITrain"},
	{"data set", "AITrain"},
	{"scrap", "AITrain"},
	{"data collection", "AITrain"},
	{"data is sold", "AITrain"},
	{"ai development", "AITrain"},
	{"ai research", "AITrain"},
	{"search", "AISearch"},
	{"answer", "AISearch"},
	{"user", "AIUser"},
	{"prompt", "AIUser"},
	{"assistant", "AIUser"},
	{"agent", "AIUser"},
}

func purposes(function, description string) []string {
	if ps, ok := categories[strings.ToLower(strings.TrimSpace(function))]; ok {
		return ps
	}
	if ps := fromText(function); len(ps) > 0 {
		return ps
	}
	if ps := fromText(description); len(ps) > 0 {
		return ps
	}
	return []string{"Other"}
}

func fromText(s string) []string {
	s = strings.ToLower(s)
	var out []string
	for _, k := range keywords {
		if !slices.Contains(out, k.purpose) && atWordStart(s, k.phrase) {
			out = append(out, k.purpose)
		}
	}
	return out
}

func atWordStart(s, phrase string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], phrase)
		if j < 0 {
			return false
		}
		j += i
		if j == 0 {
			return true
		}
		r, _ := utf8.DecodeLastRuneInString(s[:j])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return true
		}
		i = j + 1
	}
}
