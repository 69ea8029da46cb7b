package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/filediff"
	"github.com/gorobots/robots/internal/groupdiff"
)

const diffUsage = `Usage:
	robots diff OLD NEW [-urls FILE] [-agent NAME]... [-dialect NAME] [-format text|json] [URL...]

Compares two versions of a robots.txt file ("-" reads one of them from standard
input; an http or https URL is its origin's live robots.txt, fetched as "robots
fetch" does, so that "robots diff saved.txt https://example.com" compares a copy
kept earlier with what the site serves now; a site without one, 4xx, is an empty
file): the groups added, removed or changed, the sitemaps added or removed, the
URLs whose verdict changes for each crawler, with the deciding rule before and
after, and those whose usage preferences change (ai-train=yes to ai-train=no).
URLs come from -urls FILE (one per line; blank lines and lines starting with "#"
are skipped) and from the arguments.

Each -agent names one crawler by its product token; by default the major search,
AI and SEO crawlers (package crawlers) are compared.

With -format json, writes a JSON array with one object per change: for a URL,
	{"kind": "url", "url": ..., "agent": ..., "before": {...}, "after": {...}}
where before and after are {"allowed", "rule", "line"}; for a group,
	{"kind": "group", "change": "added"|"removed"|"changed", "agents": [...],
	 "before": {"line", "rules", "fields"}, "after": {...}}
for a URL both versions let the crawler fetch whose usage preferences (Content-Usage,
Content-Signal) change,
	{"kind": "usage", "url": ..., "agent": ...,
	 "before": {"usage": "train-ai=y (line 3)"}, "after": {...}}
and for a sitemap {"kind": "sitemap", "change": "added"|"removed", "url": ...} (an RSL License
line likewise, with "kind": "license").

Exit status: 0 when nothing changes, 1 when something does (like diff), 2 on a
usage or input error (a live robots.txt that cannot be fetched: 5xx, 429, no
answer). Changes to comments, blank lines or the order of lines
within a group are not changes.
`

// maxURLFile bounds the -urls file.
const maxURLFile = 64 << 20

func runDiff(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("diff")
	urlsFile := fs.String("urls", "", "`FILE` of URLs to compare, one per line")
	f := newCrawlerFlags(fs, formatText, formatJSON)
	pos, err := parseArgs(fs, args, e.stdout)
	if err != nil {
		return err
	}
	if len(pos) < 2 {
		return usagef("diff: want OLD and NEW files")
	}
	if pos[0] == "-" && pos[1] == "-" {
		return usagef("diff: only one of OLD and NEW can be standard input")
	}
	urls := pos[2:]
	if *urlsFile != "" {
		if *urlsFile == "-" && (pos[0] == "-" || pos[1] == "-") {
			return usagef("diff: standard input cannot hold both a file and the URLs")
		}
		b, err := readLimited(e.stdin, *urlsFile, maxURLFile)
		if err != nil {
			return err
		}
		for _, l := range strings.Split(string(b), "\n") {
			l = strings.TrimSpace(l)
			if l != "" && !strings.HasPrefix(l, "#") {
				urls = append(urls, l)
			}
		}
	}
	typed, failed := encodeURLs(e, "diff", urls)
	urls = urls[:0]
	for _, u := range typed {
		if encoded(u.raw, u.url) {
			fmt.Fprintf(e.stderr, "robots: diff: warning: %s\n", requestedAs(u.raw, u.url))
		}
		urls = append(urls, u.url)
	}
	agents := f.agents.orMajor()
	var files [2]*robots.Robots
	for i, name := range pos[:2] {
		b, capped, err := readFileOrSite(ctx, e, name, f.dialect)
		if err != nil {
			return fmt.Errorf("diff: %w", err)
		}
		files[i] = robots.Parse(b, robots.WithDialect(f.dialect))
		if cut := cutOf(name, files[i], len(b), capped); cut != nil {
			fmt.Fprintf(e.stderr, "robots: diff: warning: %s\n", cut.Message)
		}
	}
	changes := filediff.Diff(files[0], files[1], agents, urls)
	if changes == nil {
		changes = []change{} // "[]", not "null", when nothing changes
	}
	w := bufio.NewWriter(e.stdout)
	if *f.format == formatJSON {
		writeIndented(w, changes)
	} else {
		writeDiffText(w, changes)
	}
	return finish(w, failed, len(changes) > 0)
}

// change is one difference; also the JSON output (package filediff).
type change = filediff.Change

// sideInfo is one side of a change.
type sideInfo = filediff.Side

func describeSide(s *sideInfo) string {
	if s.Rule == nil {
		return "no rule matched"
	}
	return fmt.Sprintf("line %d: %s", s.Line, *s.Rule)
}

// writeDiffText writes groups and sitemaps, then the verdicts that change: one
// entry per way a verdict changes (before, after) and set of crawlers it changes
// for, the crawlers named once and the URLs listed under them, so that a change for
// the 70 crawlers of the "*" group names them once, not once per URL. An added or
// removed group shows its lines; the first column is as wide for every kind.
func writeDiffText(w io.Writer, changes []change) {
	type urlKey struct{ url, before, after string }
	var order []urlKey
	agents := map[urlKey][]string{}
	lines := func(sign string, g *sideInfo) { // the group's rules and fields; its header names the agents
		for _, x := range g.Rules {
			fmt.Fprintf(w, "    %s %s\n", sign, x)
		}
		for _, x := range g.Fields {
			fmt.Fprintf(w, "    %s %s\n", sign, x)
		}
	}
	for _, c := range changes {
		switch c.Kind {
		case "group":
			who := "User-agent: " + strings.Join(c.Agents, ", ")
			switch c.Change {
			case "added":
				fmt.Fprintf(w, "%-15s %s (new line %d)\n", "group added", who, c.After.Line)
				lines("+", c.After)
			case "removed":
				fmt.Fprintf(w, "%-15s %s (old line %d)\n", "group removed", who, c.Before.Line)
				lines("-", c.Before)
			default:
				fmt.Fprintf(w, "%-15s %s (old line %d, new line %d)\n", "group changed", who, c.Before.Line, c.After.Line)
				for _, x := range filediff.AgentsMinus(c.Before.Agents, c.After.Agents) {
					fmt.Fprintf(w, "    - User-agent: %s\n", x)
				}
				for _, x := range filediff.AgentsMinus(c.After.Agents, c.Before.Agents) {
					fmt.Fprintf(w, "    + User-agent: %s\n", x)
				}
				for _, x := range groupdiff.Minus(c.Before.Rules, c.After.Rules) {
					fmt.Fprintf(w, "    - %s\n", x)
				}
				for _, x := range groupdiff.Minus(c.After.Rules, c.Before.Rules) {
					fmt.Fprintf(w, "    + %s\n", x)
				}
				for _, x := range groupdiff.Minus(c.Before.Fields, c.After.Fields) {
					fmt.Fprintf(w, "    - %s\n", x)
				}
				for _, x := range groupdiff.Minus(c.After.Fields, c.Before.Fields) {
					fmt.Fprintf(w, "    + %s\n", x)
				}
			}
		case "sitemap", "license":
			fmt.Fprintf(w, "%-15s %s\n", c.Kind+" "+c.Change, c.URL)
		case "usage":
			say := func(s *sideInfo) string {
				if *s.Usage == "" {
					return "usage: no preference stated"
				}
				return "usage: " + *s.Usage
			}
			k := urlKey{c.URL, say(c.Before), say(c.After)}
			if _, ok := agents[k]; !ok {
				order = append(order, k)
			}
			agents[k] = append(agents[k], c.Agent)
		case "url":
			k := urlKey{c.URL, describeVerdict(c.Before), describeVerdict(c.After)}
			if _, ok := agents[k]; !ok {
				order = append(order, k)
			}
			agents[k] = append(agents[k], c.Agent)
		}
	}
	type changeKey struct{ before, after, agents string }
	var kinds []changeKey
	urls := map[changeKey][]string{}
	who := map[changeKey][]string{}
	for _, k := range order {
		ck := changeKey{k.before, k.after, strings.Join(agents[k], "\x00")}
		if _, ok := urls[ck]; !ok {
			kinds = append(kinds, ck)
			who[ck] = agents[k]
		}
		urls[ck] = append(urls[ck], k.url)
	}
	for _, ck := range kinds {
		n := ""
		if len(who[ck]) > 1 {
			n = fmt.Sprintf("%d crawlers: ", len(who[ck]))
		}
		fmt.Fprintf(w, "%s\n    -> %s\n    for %s%s\n", ck.before, ck.after, n, wrapIndent(who[ck], textWidth, "        "))
		for _, u := range urls[ck] {
			fmt.Fprintf(w, "    - %s\n", u)
		}
	}
}

func describeVerdict(s *sideInfo) string {
	return fmt.Sprintf("%s (%s)", verdict(*s.Allowed), describeSide(s))
}

// wrapIndent is wrap with continuation lines indented.
func wrapIndent(names []string, width int, indent string) string {
	return strings.ReplaceAll(wrap(names, width-len(indent)), "\n", "\n"+indent)
}

// readFileOrSite reads the robots.txt name stands for: a file ("-" standard input),
// or for an http or https URL its origin's live file, fetched as a crawler would.
// A 4xx (no file: everything allowed) is an empty file; an origin found
// unreachable is an error, since no file can be compared.
func readFileOrSite(ctx context.Context, e *env, name string, dialect robots.Dialect) ([]byte, bool, error) {
	if !strings.HasPrefix(name, "http://") && !strings.HasPrefix(name, "https://") {
		return readInput(e.stdin, name)
	}
	res, err := fetch.NewClient(fetch.Config{Dialect: dialect}).Get(ctx, name)
	if err != nil {
		return nil, false, err
	}
	switch res.Effect {
	case fetch.ObeyRules:
		return []byte(res.Body), res.Truncated, nil
	case fetch.AllowAll:
		fmt.Fprintf(e.stderr, "robots: %s: %s (HTTP %d): no file, every URL allowed\n", res.RobotsURL, res.Outcome, res.Status)
		return nil, false, nil
	}
	why := res.Outcome.String()
	if res.Err != nil {
		why = res.Err.Error()
	} else if res.Status != 0 {
		why += fmt.Sprintf(" (HTTP %d)", res.Status)
	}
	return nil, false, fmt.Errorf("%s: %s: no file to compare", res.RobotsURL, why)
}
