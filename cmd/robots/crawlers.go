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

const crawlersUsage = `Usage:
	robots crawlers [-purpose P]... [-format text|json] [NAME...]

Lists the crawlers of the registry (package crawlers): for each, the product token
its operator documents for user-agent lines, the operator, its purposes, whether it
honours Crawl-delay as its operator documents it (honoured, ignored or unknown), its
documented stance on robots.txt (obeys; ignores: documented as not obeying it;
user-triggered: fetches on a person's request, where its operator says the rules
may not apply; or unknown), how a request claiming to be it can be verified
(ip-range, reverse-dns, signature: see package verify) and the operator's
documentation. The major crawlers, which explain, diff, audit and lint check by
default, come first.

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
separate them with commas). Each NAME picks one crawler by its product token or
its User-Agent pattern, in any case ("robots crawlers GPTBot"); the text then
shows each in full, a field a line, with its User-Agent pattern and whether it
fetches at all (Google-Extended only controls the use of what Google's crawlers
fetch). A NAME the registry does not know is reported and exits 1.

With -format json, writes a JSON array with one object per crawler:
	{"token": ..., "user_agent": ..., "operator": ..., "operator_source": ...,
	 "purposes": [...], "url": ...,
	 "crawl_delay_support": "honoured"|"ignored"|"unknown",
	 "robots_txt": "obeys"|"ignores"|"user-triggered"|"unknown", "robots_txt_source": ...,
	 "verify": {"ranges": [URL...], "dns": [suffix...], "key_directory": ...,
	            "source": ..., "read": ...},
	 "source": "curated"|"ai.robots.txt"}
where url is "" when unknown, user_agent "" when the token is the whole name,
operator "unknown" (with operator_source saying why) when nothing says who runs it,
and operator_source "" when the operator's own page says it.

Exit status: 0, 1 when a NAME is not in the registry (the others are shown), or
2 on a usage error (such as a purpose not in the list).
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
	Token          string `json:"token"`
	UserAgent      string `json:"user_agent"`
	Operator       string `json:"operator"`
	OperatorSource string `json:"operator_source"`
	// Header is the User-Agent header "robots fetch -as" sends as the crawler, and
	// HeaderSource the operator's page documenting it ("" when made from the token:
	// crawlers.HeaderOf).
	Header          string     `json:"header"`
	HeaderSource    string     `json:"header_source"`
	Purposes        []string   `json:"purposes"`
	URL             string     `json:"url"`
	CrawlDelay      string     `json:"crawl_delay_support"`
	RobotsTxt       string     `json:"robots_txt"`
	RobotsTxtSource string     `json:"robots_txt_source"`
	Verify          verifyJSON `json:"verify"`
	Source          string     `json:"source"`
}

// verifyJSON is how a crawler can be verified (crawlers.Verification).
type verifyJSON struct {
	Ranges       []string `json:"ranges"`
	DNS          []string `json:"dns"`
	KeyDirectory string   `json:"key_directory"`
	Source       string   `json:"source"`
	Read         string   `json:"read"`
}

// methods names the ways v offers, as package verify names them.
func (v verifyJSON) methods() string {
	var m []string
	if len(v.Ranges) > 0 {
		m = append(m, "ip-range")
	}
	if len(v.DNS) > 0 {
		m = append(m, "reverse-dns")
	}
	if v.KeyDirectory != "" {
		m = append(m, "signature")
	}
	return strings.Join(m, ",")
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
	list := crawlers.All()
	missing := false
	if len(pos) > 0 {
		list = nil
		for _, name := range pos {
			c, ok := crawlers.Lookup(name)
			if !ok {
				fmt.Fprintf(e.stderr, "robots: crawlers: %q is not in the registry (robots crawlers lists it)\n", name)
				missing = true
				continue
			}
			list = append(list, c)
		}
	}
	out := []crawlerJSON{}
	for _, c := range list {
		if len(want) > 0 && !slices.ContainsFunc(want, c.Has) {
			continue
		}
		j := crawlerJSON{Token: c.Name, UserAgent: c.UserAgent, Operator: c.Operator, OperatorSource: c.OperatorSource,
			URL: c.URL, CrawlDelay: supportText(c.CrawlDelay), RobotsTxt: stanceText(c.Robots), RobotsTxtSource: c.RobotsURL,
			Verify: verifyJSON{Ranges: c.Verify.Ranges, DNS: c.Verify.DNS, KeyDirectory: c.Verify.KeyDirectory,
				Source: c.Verify.Source, Read: c.Verify.Read},
			Source: c.Source}
		h, _ := crawlers.HeaderOf(c.Name)
		j.Header, j.HeaderSource = h.Value, h.Source
		if j.Verify.Ranges == nil {
			j.Verify.Ranges = []string{}
		}
		if j.Verify.DNS == nil {
			j.Verify.DNS = []string{}
		}
		for _, p := range c.Purposes {
			j.Purposes = append(j.Purposes, string(p))
		}
		out = append(out, j)
	}
	w := bufio.NewWriter(e.stdout)
	switch {
	case *format == formatJSON:
		writeIndented(w, out)
	case len(pos) > 0:
		writeCrawlersFull(w, out)
	default:
		writeCrawlers(w, out)
	}
	return finish(w, false, missing)
}

// writeCrawlersFull prints each crawler a field a line, a blank line between.
func writeCrawlersFull(w io.Writer, list []crawlerJSON) {
	for i, c := range list {
		if i > 0 {
			fmt.Fprintln(w)
		}
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		field := func(name, value string) {
			if value != "" {
				fmt.Fprintf(tw, "%s\t%s\n", name, value)
			}
		}
		field("token", c.Token)
		field("user-agent", c.UserAgent)
		if c.HeaderSource != "" {
			field("header", c.Header+" (documented: "+c.HeaderSource+")")
		} else {
			field("header", c.Header+" (made from the token: its operator documents no whole header)")
		}
		op := c.Operator
		if c.OperatorSource != "" {
			op += " (" + c.OperatorSource + ")"
		}
		field("operator", op)
		field("purposes", strings.Join(c.Purposes, ", "))
		if !crawlers.Fetches(c.Token) {
			field("fetches", "nothing: a token that controls the use of what the operator's other crawlers fetch")
		}
		field("crawl-delay", c.CrawlDelay)
		rt := c.RobotsTxt
		if c.RobotsTxtSource != "" {
			rt += " (" + c.RobotsTxtSource + ")"
		}
		field("robots.txt", rt)
		field("verify", c.Verify.methods())
		field("ip ranges", strings.Join(c.Verify.Ranges, " "))
		field("reverse dns", strings.Join(c.Verify.DNS, " "))
		field("key directory", c.Verify.KeyDirectory)
		field("documentation", c.URL)
		field("source", c.Source)
		tw.Flush()
	}
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
	fmt.Fprintln(tw, "TOKEN\tOPERATOR\tPURPOSES\tCRAWL-DELAY\tROBOTS.TXT\tVERIFY\tDOCUMENTATION")
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	for _, c := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", c.Token, dash(c.Operator), strings.Join(c.Purposes, ","), c.CrawlDelay,
			c.RobotsTxt, dash(c.Verify.methods()), dash(c.URL))
	}
	tw.Flush()
}
