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
// Operator, when robots.json gives none ("Unclear at this time.", "Unknown", a bare
// URL): the operator data/operators.tsv gives, read from the same file's
// descriptions, with its evidence (or "unknown" and why). Every entry ends with an
// operator; a row of operators.tsv for a name robots.json lacks, or whose operator
// robots.json now gives, is an error, so that a refresh is looked at again.
//
// Name: a product token. A key with a space or a '/' is the crawler's User-Agent
// pattern, not a token: Name is its part before the first space or '/' (what RFC
// 9309 and Google's parser read of a user-agent line: "MistralAI-User/1.0" gives
// "MistralAI-User", "Kangaroo Bot" gives "Kangaroo") and UserAgent keeps the key.
// Keys equal but for case, or whose tokens are, are one crawler (see better).
//
// Robots, from the "respect" field: "Yes" (or a link labelled so) is obeys, "No"
// is ignores, anything else unknown; RobotsURL is the field's link.
//
// Crawl-delay is not in robots.json: every entry's CrawlDelay is Unknown. The
// hand-written entries of crawlers/curated.go take precedence over these.
package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"io"
	"maps"
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
	ops := flag.String("operators", "data/operators.tsv", "operators of the entries robots.json gives none")
	out := flag.String("out", "airobots_gen.go", "Go file to write")
	ver := flag.String("verification", "data/verification.tsv", "how each crawler can be verified")
	st := flag.String("stances", "data/stances.tsv", "the curated crawlers' robots.txt stances")
	docOut := flag.String("documented-out", "documented_gen.go", "Go file to write the verification and stances to")
	flag.Parse()
	if err := run(*in, *ops, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if err := runDocumented(*ver, *st, *docOut); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(in, ops, out string) error {
	src, err := readFile(in)
	if err != nil {
		return err
	}
	opsrc, err := readFile(ops)
	if err != nil {
		return err
	}
	known, err := parseOperators(opsrc)
	if err != nil {
		return fmt.Errorf("%s: %w", ops, err)
	}
	code, err := generate(src, known)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	return os.WriteFile(out, code, 0o644)
}

func runDocumented(ver, st, out string) error {
	v, err := readFile(ver)
	if err != nil {
		return err
	}
	s, err := readFile(st)
	if err != nil {
		return err
	}
	code, err := generateDocumented(v, s)
	if err != nil {
		return err
	}
	return os.WriteFile(out, code, 0o644)
}

func readFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, maxInput+1))
	if err != nil {
		return nil, err
	}
	if len(src) > maxInput {
		return nil, fmt.Errorf("%s: larger than %d bytes", name, maxInput)
	}
	return src, nil
}

// known is a row of operators.tsv.
type known struct{ operator, evidence string }

// parseOperators reads operators.tsv: '#' lines are comments, the others name,
// operator and evidence separated by tabs.
func parseOperators(src []byte) (map[string]known, error) {
	out := map[string]known{}
	for i, line := range strings.Split(string(src), "\n") {
		if line = strings.TrimRight(line, "\r"); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 || f[0] == "" || f[1] == "" || f[2] == "" {
			return nil, fmt.Errorf("line %d: want name, operator and evidence separated by tabs", i+1)
		}
		if _, dup := out[f[0]]; dup {
			return nil, fmt.Errorf("line %d: %s listed twice", i+1, f[0])
		}
		out[f[0]] = known{f[1], f[2]}
	}
	return out, nil
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
	name, userAgent, operator, operatorSource, url, function string
	robots, robotsURL                                        string
	purposes                                                 []string // constant names in package crawlers
}

// generate returns the Go source of the table for robots.json's content, with
// the operators ops gives for the entries that name none.
func generate(src []byte, ops map[string]known) ([]byte, error) {
	var agents map[string]agent
	if err := json.Unmarshal(src, &agents); err != nil {
		return nil, err
	}
	if len(agents) == 0 {
		return nil, errors.New("no agents")
	}
	ops = maps.Clone(ops)
	byKey := map[string]entry{}
	for name, a := range agents {
		if err := checkName(name); err != nil {
			return nil, err
		}
		e := entry{name: name, operator: operator(a.Operator), function: a.Function}
		if k, ok := ops[name]; ok {
			if e.operator != "" {
				return nil, fmt.Errorf("agent %q: operators.tsv gives %q, robots.json now %q: drop the row", name, k.operator, e.operator)
			}
			e.operator, e.operatorSource = k.operator, k.evidence
			delete(ops, name)
		}
		if tok, _, cut := strings.Cut(strings.ReplaceAll(name, "/", " "), " "); cut {
			e.name, e.userAgent = tok, name
		}
		e.url = docURL(a.Respect, a.Operator)
		e.robots, e.robotsURL = stance(a.Respect)
		e.purposes = purposes(a.Function, a.Description)
		k := strings.ToLower(e.name)
		if prev, dup := byKey[k]; dup {
			if better(prev, e) {
				e, prev = prev, e
			}
			// Keep what only the other one says.
			e.userAgent = cmp.Or(e.userAgent, prev.userAgent)
			e.url = cmp.Or(e.url, prev.url)
			if e.robots == "StanceUnknown" {
				e.robots, e.robotsURL = prev.robots, prev.robotsURL
			}
		}
		byKey[k] = e
	}
	for _, e := range byKey {
		if e.operator == "" {
			return nil, fmt.Errorf("agent %q: robots.json names no operator and operators.tsv has no row for it", cmp.Or(e.userAgent, e.name))
		}
	}
	if len(ops) > 0 {
		names := slices.Sorted(maps.Keys(ops))
		return nil, fmt.Errorf("operators.tsv names agents robots.json does not hold: %s", strings.Join(names, ", "))
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)

	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("var aiRobots = []genEntry{\n")
	for _, k := range keys {
		e := byKey[k]
		fmt.Fprintf(&b, "\t// function: %s\n", strconv.Quote(e.function))
		fmt.Fprintf(&b, "\t{%s, %s, %s, %s, p(%s), %s, %s, %s},\n",
			strconv.Quote(e.name), strconv.Quote(e.userAgent), strconv.Quote(e.operator), strconv.Quote(e.operatorSource),
			strings.Join(e.purposes, ", "), strconv.Quote(e.url), e.robots, strconv.Quote(e.robotsURL))
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

// better reports whether e should replace prev, whose token is equal but for
// case: the one with an operator, one known, one robots.json gives, then the one
// named by a token rather than a User-Agent pattern, then the first in byte order.
func better(e, prev entry) bool {
	if a, b := e.operator != "", prev.operator != ""; a != b {
		return a
	}
	if a, b := e.operator != "unknown", prev.operator != "unknown"; a != b {
		return a
	}
	if (e.operatorSource == "") != (prev.operatorSource == "") {
		return e.operatorSource == ""
	}
	if (e.userAgent == "") != (prev.userAgent == "") {
		return e.userAgent == ""
	}
	return e.name < prev.name
}

// stance reads the "respect" field: the constant of package crawlers and the
// field's link.
func stance(respect string) (string, string) {
	s := strings.TrimSpace(respect)
	link := ""
	if m := mdLink.FindStringSubmatch(s); m != nil && strings.HasPrefix(s, m[0]) {
		s, link = m[1], m[2]
	}
	switch strings.ToLower(strings.TrimRight(strings.TrimSpace(s), ".")) {
	case "yes":
		return "Obeys", link
	case "no":
		return "Ignores", link
	}
	return "StanceUnknown", ""
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
