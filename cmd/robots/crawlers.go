package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/gorobots/robots/crawlers"
)

func init() {
	register("crawlers", "list the crawler registry: product tokens, operators, purposes", crawlersUsage, runCrawlers)
}

const crawlersUsage = `Usage:
	robots crawlers [-purpose P]... [-format text|json]

Lists the crawlers of the registry (package crawlers): for each, the product token
its operator documents for user-agent lines, the operator, its purposes, whether it
honours Crawl-delay as its operator documents it (honoured, ignored or unknown) and
the operator's documentation. The major crawlers, which explain, diff, audit and
lint check by default, come first.

Purposes:
	search     builds a web search index
	ai-train   collects data to train AI models
	ai-search  indexes pages for AI answers and AI search
	ai-user    fetches a page on a person's request (assistants, agents)
	seo        backlink, ranking and site-audit tools
	social     link previews for social networks and messengers
	archive    web archives
	ads        checks ad landing pages or ad-supported pages
	other      anything else

-purpose keeps the crawlers having any of the purposes given (repeat the flag or
separate them with commas).

With -format json, writes a JSON array with one object per crawler:
	{"token": ..., "operator": ..., "purposes": [...], "url": ...,
	 "crawl_delay_support": "honoured"|"ignored"|"unknown"}
where operator and url are "" when unknown.

Exit status: 0, or 2 on a usage error (such as a purpose not in the list).
`

// purposeList is a repeatable -purpose flag taking comma-separated purposes.
type purposeList []crawlers.Purpose

func (l *purposeList) String() string {
	s := make([]string, len(*l))
	for i, p := range *l {
		s[i] = string(p)
	}
	return strings.Join(s, ",")
}

func (l *purposeList) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		p, err := crawlers.ParsePurpose(s)
		if err != nil {
			return err
		}
		*l = append(*l, p)
	}
	return nil
}

// crawlerJSON is one crawler of the JSON output.
type crawlerJSON struct {
	Token      string   `json:"token"`
	Operator   string   `json:"operator"`
	Purposes   []string `json:"purposes"`
	URL        string   `json:"url"`
	CrawlDelay string   `json:"crawl_delay_support"`
}

func runCrawlers(_ context.Context, e *env, args []string) error {
	fs := newFlagSet("crawlers")
	var want purposeList
	fs.Var(&want, "purpose", "keep crawlers with any of these `purposes` (repeatable; comma-separated)")
	format := formatFlag(fs, formatText, formatJSON)
	pos, err := parseArgs(fs, args, e.stdout)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("crawlers: unexpected argument %q", pos[0])
	}
	out := []crawlerJSON{}
	for _, c := range crawlers.All() {
		if len(want) > 0 && !slices.ContainsFunc(want, c.Has) {
			continue
		}
		j := crawlerJSON{Token: c.Name, Operator: c.Operator, URL: c.URL, CrawlDelay: supportText(c.CrawlDelay)}
		for _, p := range c.Purposes {
			j.Purposes = append(j.Purposes, string(p))
		}
		out = append(out, j)
	}
	w := bufio.NewWriter(e.stdout)
	if *format == formatJSON {
		writeIndented(w, out)
	} else {
		writeCrawlers(w, out)
	}
	return finish(w, false, false)
}

// supportText names a crawlers.Support, "unknown" for the zero value.
func supportText(s crawlers.Support) string {
	if s == crawlers.Unknown {
		return "unknown"
	}
	return string(s)
}

// writeCrawlers prints one crawler a line, in aligned columns; "-" marks what is unknown.
func writeCrawlers(w io.Writer, list []crawlerJSON) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOKEN\tOPERATOR\tPURPOSES\tCRAWL-DELAY\tDOCUMENTATION")
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	for _, c := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.Token, dash(c.Operator), strings.Join(c.Purposes, ","), c.CrawlDelay, dash(c.URL))
	}
	tw.Flush()
}
