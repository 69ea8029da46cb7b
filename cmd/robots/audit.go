package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gorobots/robots/audit"
	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/counttext"
	"github.com/gorobots/robots/lint"
	"github.com/gorobots/robots/sitemap"
)

const auditUsage = `Usage:
	robots audit [-agent NAME]... [-must-allow LIST] [-allow-blocked LIST] [-dialect NAME]
	             [-hosts LIST] [-as LIST] [-format text|json|sarif|csv] [-tree] [-full]
	             [-robots FILE] [limits] SITE

Audits a live site: fetches the robots.txt of SITE's origin (SITE is the origin,
https://example.com, or its robots.txt; any other URL stands for its origin; typed
without a scheme, example.com is https and an IP address, localhost or a port other
than 443 is http, as "robots fetch" says) as a crawler would, reads the sitemaps
its Sitemap lines list (or /sitemap.xml when it has none, and says so), sitemap
indexes included, and decides every URL they list for every crawler. It reports:
  - the sitemap URLs each crawler may not fetch, grouped by the rule that blocks
    them ("line 12 Disallow: /search blocks 1,204 sitemap URLs for Googlebot,
    bingbot"), with a few examples per rule;
  - the crawlers that may not fetch a sitemap itself;
  - sitemaps that are unreachable, not valid XML (with the line and byte where the
    XML breaks), over the limits of sitemaps.org (50,000 URLs, 50 MiB
    uncompressed per file), on another origin (reported, not read: another
    robots.txt decides their URLs) or left unread at an overall limit;
  - by purpose (search, ai-train, ai-search, ai-user, seo, social, archive, ads,
    other: package crawlers), which crawlers of the registry may not fetch the
    site's root URL, which may but are told not to use what they fetch for the
    purpose (Content-Usage train-ai=n or search=n, Content-Signal ai-train=no,
    search=no or ai-input=no), and which stay open;
  - one answer per purpose (search, ai-train, ai-input, ai-search, ai-user) for
    the crawlers asked about, from every signal the site gives: robots.txt,
    Content-Usage and Content-Signal (draft-ietf-aipref-vocab-08), the RSL licences
    of its License lines, /.well-known/tdmrep.json and, for the pages -pages N
    samples (the root URL and the first sitemap URLs, at most 100), their
    X-Robots-Tag, tdm-reservation and Content-Usage headers and robots and TDMRep
    meta tags; each contradiction between them is named, and a note says when
    Google's and RFC 9309's readings of the file give other usage;
  - the lint findings of robots.txt.

Each -agent is one crawler, by its product token ("Googlebot"); by default the
major search, AI and SEO crawlers (package crawlers). -dialect picks the reading of
the file and the status policy: google (the default), rfc9309, legacy1996,
legacy1994. Sitemaps are read gzip-compressed or not, in the order found (the next
four requested while one is read), and every URL is decided as it is read: memory
stays flat however many URLs the sitemaps list.

With -robots FILE the audit decides by FILE ("-" for standard input) in place of
the site's live robots.txt, and reads the sitemaps FILE lists from the live site:
an earlier version (a saved copy, or one the service keeps: GET /v1/history
?url=SITE&version=N, its "body") or a file before it goes live. The report names
the file ("robots.txt  decided by FILE, not the live file").

What the site blocks on purpose is not a failure: -must-allow LIST names the
purposes or crawlers that must be able to fetch the sitemap URLs (every other one
asked about may be blocked), -allow-blocked LIST those the site blocks on purpose
(every other one must be able to fetch). Each is repeatable, with commas between
entries; an entry is a crawler's token or a purpose of package crawlers: search,
ai-train, ai-search, ai-user, seo, social, archive, ads, other ("robots crawlers"
lists them). For a site that keeps AI trainers out: -allow-blocked ai-train, or
-must-allow search. A crawler that -allow-blocked names only by a purpose is
blocked on purpose only by a group that names it: CCBot kept from /private/ by the
"*" group's rules is not. Intended blocks are reported, marked "intended"; in
SARIF they are notes, not errors.

Formats: text (the default), csv (every sitemap URL of the origin a row, as it
is decided: "url" then a column per crawler, "allowed", "disallowed line 12",
"allowed line 4" when an Allow rule decides; the report's findings are not in
it, the exit status is), json (the report of the service's POST /v1/audit:
"totals", "blocked", "sitemaps", "intended"; per-crawler counts are objects keyed
by crawler, .totals.blocked_urls.Googlebot; with -tree also the tree of the URL
space the tester draws, and the rules its samples refer to), sarif (SARIF 2.1.0: a
result at each robots.txt line that blocks sitemap URLs, each sitemap problem,
and the lint findings). Progress is shown on standard error when it is a terminal.

In text, the same rule blocking the same URLs on several lines (a group per AI
crawler, each with "Disallow: /") is one entry, its examples shown once; lists
name their first few items and "and N more": -full names every one.

` + variantsUsage + `
Exit status: 1 when a sitemap URL or a sitemap is blocked for a crawler asked
about whose blocks are not intended, a sitemap is unreachable, invalid or over the
limits (a missing /sitemap.xml tried in the absence of Sitemap lines is not a
problem), robots.txt cannot be fetched (a 5xx, 429 or network failure:
crawlers take every URL as disallowed), a host of -hosts cannot be reached, or a
crawler of -as receives another robots.txt than this tool; 0 when none is; 2 on a usage error (not
a site, a bad flag, an entry of -must-allow or -allow-blocked that is neither a
crawler asked about nor a purpose) or when the audit cannot run at all. Reaching
a limit ends the audit early without failing: the report says which limit, and
the sitemaps left.
`

func runAudit(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("audit")
	f := newCrawlerFlags(fs, formatText, formatJSON, formatSARIF, formatCSV)
	format := f.format
	jsonAlias(fs, format)
	lim := audit.DefaultLimits()
	fs.IntVar(&lim.Sitemaps, "max-sitemaps", lim.Sitemaps, "sitemap files read in all")
	fs.IntVar(&lim.URLs, "max-urls", lim.URLs, "sitemap URLs read in all")
	fs.IntVar(&lim.FileURLs, "max-file-urls", lim.FileURLs, "entries read per sitemap file (sitemaps.org's limit)")
	fs.Int64Var(&lim.FileBytes, "max-file-bytes", lim.FileBytes, "bytes read per sitemap file, uncompressed (sitemaps.org's limit)")
	fs.IntVar(&lim.Depth, "max-depth", lim.Depth, "nesting of sitemap indexes followed")
	fs.IntVar(&lim.Nesting, "max-nesting", lim.Nesting, "XML element nesting read in one sitemap file; deeper, the file is invalid")
	fs.DurationVar(&lim.Time, "timeout", lim.Time, "`duration` of the whole audit")
	examples := fs.Int("examples", audit.DefaultExamples, "example URLs shown per blocking rule")
	var mustAllow, allowBlocked agentList
	fs.Var(&mustAllow, "must-allow", "purposes or crawlers that must be able to fetch the sitemap URLs (`LIST`, repeatable)")
	fs.Var(&allowBlocked, "allow-blocked", "purposes or crawlers the site blocks on purpose (`LIST`, repeatable)")
	tree := fs.Bool("tree", false, "with -format json, include the tree of the URL space and its rules")
	full := fs.Bool("full", false, "text: list every crawler, sitemap and lint line, not the first few and \"and N more\"")
	hosts, as := variantFlags(fs)
	robotsFile := fs.String("robots", "", "decide by `FILE` in place of the site's live robots.txt (an earlier version, or a draft)")
	pages := fs.Int("pages", 0, "pages fetched for their headers and meta tags (the root URL and the first sitemap URLs; at most 100)")
	pos, err := parseArgs(fs, args, e.stdout)
	if err != nil {
		return err
	}
	target, err := siteArg(e, "audit", pos, `want one site, its origin or robots.txt (see "robots audit -h")`, audit.ErrTarget)
	if err != nil {
		return err
	}
	for _, v := range []struct {
		name string
		n    int64
	}{{"max-sitemaps", int64(lim.Sitemaps)}, {"max-urls", int64(lim.URLs)}, {"max-file-urls", int64(lim.FileURLs)},
		{"max-file-bytes", lim.FileBytes}, {"max-depth", int64(lim.Depth)}, {"max-nesting", int64(lim.Nesting)}, {"timeout", int64(lim.Time)}, {"examples", int64(*examples)}} {
		if v.n <= 0 {
			return usagef("audit: -%s must be more than 0", v.name)
		}
	}
	if *pages < 0 || *pages > audit.MaxPages {
		return usagef("audit: -pages must be from 0 to %d", audit.MaxPages)
	}
	for _, a := range f.agents {
		if msg := agentProblem(a); msg != "" {
			fmt.Fprintf(e.stderr, "robots: audit: warning: %s\n", msg)
		}
	}
	asked := f.agents.orMajor()
	intended, namedOnly, err := audit.Intent(asked, mustAllow, allowBlocked)
	if err != nil {
		return usagef("audit: %v", err)
	}
	cfg := audit.Config{
		Fetch:    fetch.NewClient(fetch.Config{Dialect: f.dialect, Timeout: min(fetch.DefaultTimeout, lim.Time)}),
		Agents:   asked,
		Intended: intended, NamedOnly: namedOnly,
		Dialect:  f.dialect,
		Limits:   lim,
		Examples: *examples,
		Pages:    *pages,
		Hosts:    *hosts, As: *as,
	}
	if *robotsFile != "" {
		b, capped, err := readInput(e.stdin, *robotsFile)
		if err != nil {
			return fmt.Errorf("audit: %w", err)
		}
		cfg.Robots = &fetch.Result{Outcome: fetch.Success, Status: 200, Effect: fetch.ObeyRules, Body: string(b), Truncated: capped, BytesRead: int64(len(b))}
		cfg.RobotsFrom = *robotsFile
	}
	prog := newAuditProgress(e)
	if prog.on {
		cfg.Progress = prog.show
	}
	w := bufio.NewWriter(e.stdout)
	var cw *audit.CSV
	if *format == formatCSV {
		cw = audit.NewCSV(w, asked)
		cfg.Verdicts = cw.Row
	}
	rep, err := audit.Run(ctx, target, cfg)
	prog.finish()
	if err != nil {
		if errors.Is(err, audit.ErrTarget) || errors.Is(err, audit.ErrVariants) {
			return usagef("audit: %v", err)
		}
		return fmt.Errorf("audit: %w", err)
	}
	switch *format {
	case formatCSV:
		cw.Flush() // the rows were written as decided, above; w's Flush reports errors
	case formatJSON:
		if !*tree {
			rep.Tree, rep.Rules = nil, nil
		}
		writeIndented(w, rep)
	case formatSARIF:
		writeIndented(w, auditSARIF(rep))
	default:
		auditText{full: *full}.write(w, rep)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if rep.Stopped != "" && *format != formatText {
		fmt.Fprintf(e.stderr, "robots: audit: warning: the audit stopped at %s before reading every sitemap\n", stopFlag(rep.Stopped))
	}
	if rep.Fails() {
		return exitError{1}
	}
	return nil
}

// stopFlag names the limit that stopped an audit by its flag.
func stopFlag(stopped string) string {
	if stopped == "timeout" {
		return "-timeout"
	}
	return "-" + stopped
}

// auditProgress shows how far an audit is on standard error while it is a terminal.
type auditProgress struct {
	e  *env
	on bool
}

func newAuditProgress(e *env) *auditProgress {
	p := &auditProgress{e: e}
	if f, ok := e.stderr.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.on = true
		}
	}
	return p
}

func (p *auditProgress) show(pr audit.Progress) {
	fmt.Fprintf(p.e.stderr, "\r\x1b[Kaudit: %d sitemaps read, %d waiting, %s URLs, %s (%s)",
		pr.Sitemaps, pr.Queued, counttext.Thousands(pr.URLs), pr.Elapsed.Round(time.Second), pr.Current)
}

func (p *auditProgress) finish() {
	if p.on {
		fmt.Fprint(p.e.stderr, "\r\x1b[K")
	}
}

// auditText writes an audit's report for people; full lists every item where the
// default names the first few and "and N more" (-full).
type auditText struct{ full bool }

// agents lists crawlers: all with -full, else the first eight (agentsShort).
func (o auditText) agents(agents []string) string {
	if o.full {
		return strings.Join(agents, ", ")
	}
	return agentsShort(agents)
}

// shown is agentsShown, every name with -full.
func (o auditText) shown(agents []string) []string {
	if o.full {
		return agents
	}
	return agentsShown(agents)
}

// linesText lists line numbers: "lines 3, 7, 11, 15, 19 and 11 more", all with full.
func linesText(lines []int, full bool) string {
	return lint.Group{Lines: lines}.LinesTextShown(shownItems(full))
}

// agentsShort lists crawlers, the first eight by name.
func agentsShort(agents []string) string {
	return strings.Join(agentsShown(agents), ", ")
}

// agentsShown is the names agentsShort lists, the last with "and N more" when
// there are more.
func agentsShown(agents []string) []string {
	const shown = 8
	if len(agents) <= shown {
		return agents
	}
	out := slices.Clone(agents[:shown])
	out[shown-1] += fmt.Sprintf(" and %d more", len(agents)-shown)
	return out
}

// write prints the report for people: what was read, then the findings.
func (o auditText) write(w io.Writer, rep *audit.Report) {
	writeRead(w, rep)
	fmt.Fprintln(w)
	o.writeBlocked(w, rep)
	writePerCrawler(w, rep)
	writeCrawlDelays(w, rep)
	writeVariants(w, rep.Variants)
	o.writePurposes(w, rep)
	writeStance(w, rep)
	o.writeSitemapBlocks(w, rep)
	writeSitemaps(w, rep)
	o.writeLint(w, rep)
}

// writeRead says what the audit read: robots.txt and how its fetch went, the
// sitemaps and URLs, and what was not read or decided.
func writeRead(w io.Writer, rep *audit.Report) {
	r := rep.Robots
	if rep.RobotsFrom != "" {
		fmt.Fprintf(w, "robots.txt  decided by %s, not the live file\n", rep.RobotsFrom)
	} else {
		writeFetched(w, r)
	}
	if rep.SitemapFallback {
		if r.Effect == fetch.ObeyRules {
			fmt.Fprintln(w, "sitemaps    robots.txt has no Sitemap line: tried /sitemap.xml")
		} else {
			fmt.Fprintln(w, "sitemaps    no robots.txt read: tried /sitemap.xml")
		}
	}
	writeReadURLs(w, rep)
}

// writeFetched says how the fetch of robots.txt went.
func writeFetched(w io.Writer, r fetch.Report) {
	fmt.Fprintf(w, "robots.txt  %s: %s", r.RobotsURL, fetch.Describe(r.Outcome, r.Status, r.Effect))
	if r.Error != "" {
		fmt.Fprintf(w, ": %s", r.Error)
	}
	fmt.Fprintln(w)
	if retry := retryHint(r.Outcome, r.Status, r.Origin); retry != "" {
		fmt.Fprintf(w, "try         %s\n", retry)
	}
}

// writeReadURLs says which sitemaps and URLs the audit read, and what it did not
// read or decide.
func writeReadURLs(w io.Writer, rep *audit.Report) {
	t := rep.Totals
	fmt.Fprintf(w, "read        %s, %s of the origin decided for %s (%s reading)\n",
		counttext.Plural(t.Sitemaps, "sitemap", "sitemaps"), counttext.Plural(t.URLs, "URL", "URLs"), counttext.Plural(len(rep.Agents), "crawler", "crawlers"), rep.Dialect)
	if t.SitemapsFailed > 0 {
		fmt.Fprintf(w, "            %s not read: no answer or an HTTP error (see Sitemaps)\n", counttext.Plural(t.SitemapsFailed, "sitemap", "sitemaps"))
	}
	if t.OffOriginURLs > 0 {
		fmt.Fprintf(w, "            %s on other origins not decided (their own robots.txt decides them)\n", counttext.Plural(t.OffOriginURLs, "URL", "URLs"))
	}
	if t.InvalidURLs > 0 {
		fmt.Fprintf(w, "            %s not http(s) URLs or longer than %d bytes\n", counttext.Plural(t.InvalidURLs, "<loc> is", "<loc> are"), sitemap.MaxLocBytes)
	}
	if rep.Stopped != "" {
		fmt.Fprintf(w, "stopped     at %s: %s not read\n", stopFlag(rep.Stopped), counttext.Plural(t.SitemapsSkipped, "sitemap", "sitemaps"))
	}
	if t.UndecidedURLs > 0 {
		fmt.Fprintf(w, "            %s read but not decided before the time limit (left out of the counts below)\n", counttext.Plural(t.UndecidedURLs, "URL", "URLs"))
	}
}

// writeBlocked lists the sitemap URLs blocked, by rule.
func (o auditText) writeBlocked(w io.Writer, rep *audit.Report) {
	r, t := rep.Robots, rep.Totals
	if len(rep.Blocked) == 0 {
		fmt.Fprintln(w, rep.NoneBlocked())
	} else {
		fmt.Fprintf(w, "Sitemap URLs blocked (%s blocked for at least one crawler):\n", counttext.Plural(t.BlockedAny, "URL", "URLs"))
		// The same rule blocking the same URLs on several lines (a group per AI
		// crawler, each "Disallow: /") is one entry, its examples shown once.
		for _, g := range rep.GroupedBlocks() {
			intended := ""
			if rep.AllIntended(g.Agents()) {
				intended = " (intended)"
			}
			b := g.Blocks[0]
			switch {
			case b.Rule == nil:
				fmt.Fprintf(w, "  robots.txt's fetch (%s) blocks %s for %s%s\n", r.Outcome, counttext.Plural(b.URLs, "URL", "URLs"), o.agents(b.Agents), intended)
			case len(g.Blocks) == 1:
				fmt.Fprintf(w, "  line %d  %s  blocks %s for %s%s\n", b.Line, *b.Rule, counttext.Plural(b.URLs, "URL", "URLs"), o.agents(b.Agents), intended)
			default:
				var each []string
				lines := make([]int, len(g.Blocks))
				for i, b := range g.Blocks {
					lines[i] = b.Line
					each = append(each, fmt.Sprintf("%s (line %d)", strings.Join(b.Agents, ", "), b.Line))
				}
				if intended != "" {
					each[len(each)-1] += intended
				}
				head := fmt.Sprintf("  %s  %s  blocks %s for ", linesText(lines, o.full), *b.Rule, counttext.Plural(b.URLs, "URL", "URLs"))
				writeWrapped(w, head, o.shown(each), maxHelpLine)
			}
			for _, x := range g.Examples {
				fmt.Fprintf(w, "      %s\n", x)
			}
		}
	}
}

// writeCrawlDelays lists the crawl delays the file asks of the crawlers.
func writeCrawlDelays(w io.Writer, rep *audit.Report) {
	if len(rep.CrawlDelays) > 0 {
		fmt.Fprintln(w, "\nCrawl-delay:")
		for _, c := range rep.CrawlDelays {
			fmt.Fprintf(w, "  %s\n", c.Text())
		}
	}
}

// sitemapBlock is a rule that blocks crawlers from fetching sitemaps: the same
// rule on several lines blocking the same sitemaps (a group per AI crawler) is one
// entry, each line with its crawlers.
type sitemapBlock struct {
	rule   string // as written, or robots.txt's fetch
	lines  []int
	agents [][]string // per line
	maps   []string
}

// sitemapBlocks lists the crawlers that may not fetch the sitemaps: one entry per
// rule and crawlers, with the sitemaps it blocks, the same rule on several lines
// folded into one.
func sitemapBlocks(rep *audit.Report) []*sitemapBlock {
	r := rep.Robots
	var perLine []*sitemapBlock
	byKey := map[string]*sitemapBlock{}
	for _, s := range rep.Sitemaps {
		for _, b := range s.Blocked {
			why := fmt.Sprintf("robots.txt's fetch (%s)", r.Outcome)
			if b.Rule != nil {
				why = *b.Rule
			}
			key := fmt.Sprint(b.Line, "\x00", b.Agents)
			mb := byKey[key]
			if mb == nil {
				mb = &sitemapBlock{rule: why, lines: []int{b.Line}, agents: [][]string{b.Agents}}
				byKey[key] = mb
				perLine = append(perLine, mb)
			}
			mb.maps = append(mb.maps, s.URL)
		}
	}
	var folded []*sitemapBlock
	at := map[string]*sitemapBlock{}
	for _, mb := range perLine {
		key := fmt.Sprint(mb.rule, "\x00", mb.maps)
		if f := at[key]; f != nil {
			f.lines = append(f.lines, mb.lines...)
			f.agents = append(f.agents, mb.agents...)
			continue
		}
		at[key] = mb
		folded = append(folded, mb)
	}
	return folded
}

// writeSitemapBlocks lists the crawlers that may not fetch the sitemaps.
func (o auditText) writeSitemapBlocks(w io.Writer, rep *audit.Report) {
	folded := sitemapBlocks(rep)
	if len(folded) > 0 {
		fmt.Fprintln(w, "\nCrawlers that may not fetch the sitemaps themselves:")
		for _, mb := range folded {
			var all, each []string
			for i, ags := range mb.agents {
				all = append(all, ags...)
				each = append(each, fmt.Sprintf("%s (line %d)", strings.Join(ags, ", "), mb.lines[i]))
			}
			intended := ""
			if rep.AllIntended(all) {
				intended = " (intended)"
			}
			switch {
			case mb.lines[0] == 0:
				fmt.Fprintf(w, "  %s  blocks %s for %s%s\n", mb.rule, counttext.Plural(len(mb.maps), "sitemap", "sitemaps"), o.agents(all), intended)
			case len(mb.lines) == 1:
				fmt.Fprintf(w, "  line %d  %s  blocks %s for %s%s\n", mb.lines[0], mb.rule, counttext.Plural(len(mb.maps), "sitemap", "sitemaps"), o.agents(all), intended)
			default:
				each = o.shown(each)
				each[len(each)-1] += intended
				writeWrapped(w, fmt.Sprintf("  %s  %s  blocks %s for ", linesText(mb.lines, o.full), mb.rule, counttext.Plural(len(mb.maps), "sitemap", "sitemaps")), each, maxHelpLine)
			}
			for i, m := range mb.maps {
				if i == 3 && !o.full {
					fmt.Fprintf(w, "      and %d more\n", len(mb.maps)-3)
					break
				}
				fmt.Fprintf(w, "      %s\n", m)
			}
		}
	}
}

// writeSitemaps lists the sitemaps read, with where each was found and how its
// reading went.
func writeSitemaps(w io.Writer, rep *audit.Report) {
	t := rep.Totals
	fmt.Fprintln(w, "\nSitemaps:")
	for _, s := range rep.Sitemaps {
		from := "robots.txt line " + fmt.Sprint(s.Line)
		switch s.Source {
		case audit.SourceFallback:
			from = "fallback"
		case audit.SourceIndex:
			from = fmt.Sprintf("%s line %d", s.Parent, s.Line)
		}
		fmt.Fprintf(w, "  %-11s %s", s.Status, s.URL)
		if s.Status == audit.StatusOK || s.Status == audit.StatusOverLimit || s.Kind != "" {
			what := counttext.Plural(rep.ListedURLs(s), "URL", "URLs")
			if s.Kind == string(sitemap.Index) {
				what = "index of " + counttext.Plural(s.Entries, "sitemap", "sitemaps") + ", " + what
			}
			if s.Gzip {
				what += ", gzip"
			}
			fmt.Fprintf(w, " (%s)", what)
		}
		fmt.Fprintf(w, "  from %s", from)
		if s.CrossHost {
			fmt.Fprint(w, ", on another host (sitemaps.org cross-submission)")
		}
		fmt.Fprintln(w)
		if s.Error != "" {
			msg := s.Error
			if s.ErrorLine > 0 {
				msg = fmt.Sprintf("line %d, byte %d: %s", s.ErrorLine, s.ErrorByte, s.Error)
			}
			fmt.Fprintf(w, "              %s\n", msg)
		}
	}
	if n := t.SitemapsUnlisted; n > 0 {
		fmt.Fprintf(w, "  and %s not read and not listed\n", counttext.Plural(n, "sitemap", "sitemaps"))
	}
}

// writeLint lists the file's lint findings, repeated ones as one.
func (o auditText) writeLint(w io.Writer, rep *audit.Report) {
	if len(rep.Lint) > 0 {
		fmt.Fprintf(w, "\nLint (robots lint):\n")
		for _, g := range lint.GroupedShown(rep.Lint, shownItems(o.full)) {
			pos := fmt.Sprintf("line %d", g.Line)
			if g.Col > 0 {
				pos += fmt.Sprintf(":%d", g.Col)
			}
			fmt.Fprintf(w, "  %s: %s: %s [%s]", pos, g.Severity, g.Message, g.Code)
			if g.Count > 1 {
				fmt.Fprintf(w, " (%d times: %s)", g.Count, g.LinesText())
			}
			fmt.Fprintln(w)
		}
	}

}

// writeStance writes the one answer per purpose, URL by URL.
func writeStance(w io.Writer, rep *audit.Report) {
	if len(rep.Stance) == 0 {
		return
	}
	fmt.Fprintf(w, "\nOne answer per purpose, from every signal (robots.txt, Content-Usage, Content-Signal, RSL, TDMRep, page rules):\n")
	url := ""
	for _, s := range rep.Stance {
		if s.URL != url {
			url = s.URL
			how := "the site's files alone"
			if s.Fetched {
				how = "the page fetched"
			}
			fmt.Fprintf(w, "  %s (%s)\n", url, how)
		}
		fmt.Fprintf(w, "    %-9s %-10s for %s\n", s.Purpose, s.Verdict, agentsShort(s.Agents))
		for _, sig := range s.Signals {
			fmt.Fprintf(w, "      %-14s %s\n", sig.Source, sig.Says)
		}
		for _, c := range s.Contradictions {
			fmt.Fprintf(w, "      contradiction: %s\n", c)
		}
		if s.Readings != "" {
			fmt.Fprintf(w, "      note: %s\n", s.Readings)
		}
		for _, p := range s.Problems {
			fmt.Fprintf(w, "      unread: %s\n", p)
		}
	}
}

// writePurposes answers the site owner's question purpose by purpose: which
// crawlers of the registry may not fetch the site, which are told not to use what
// they fetch for the purpose, which stay open, each list grouped by what decides.
func (o auditText) writePurposes(w io.Writer, rep *audit.Report) {
	if len(rep.Purposes) == 0 {
		return
	}
	fmt.Fprintf(w, "\nBy purpose, at %s/ (every crawler of the registry with the purpose):\n", rep.Origin)
	for _, p := range rep.Purposes {
		n := len(p.Blocked) + len(p.ToldNo) + len(p.Open)
		if n == 0 {
			continue
		}
		fmt.Fprintf(w, "  %s", p.Purpose)
		if len(p.Preferences) > 0 {
			fmt.Fprintf(w, " (%s)", strings.Join(p.Preferences, ", "))
		}
		fmt.Fprintf(w, ": %s\n", counttext.Plural(n, "crawler", "crawlers"))
		o.writePurposeList(w, "blocked", p.Blocked, func(c audit.PurposeCrawler) string {
			if c.Rule == nil {
				return fmt.Sprintf("robots.txt's fetch (%s)", rep.Robots.Outcome)
			}
			return fmt.Sprintf("line %d  %s", c.Line, *c.Rule)
		})
		o.writePurposeList(w, "told no", p.ToldNo, audit.PurposeCrawler.ToldText)
		o.writePurposeList(w, "open", p.Open, audit.PurposeCrawler.ToldText)
	}
}

// writePurposeList prints the crawlers of one list of a purpose, grouped by why.
func (o auditText) writePurposeList(w io.Writer, list string, cs []audit.PurposeCrawler, why func(audit.PurposeCrawler) string) {
	var order []string
	names := map[string][]string{}
	for _, c := range cs {
		k := why(c)
		if _, ok := names[k]; !ok {
			order = append(order, k)
		}
		names[k] = append(names[k], c.Name)
	}
	for _, k := range order {
		head := fmt.Sprintf("    %-8s ", list)
		if line := head + k + "  for " + o.agents(names[k]); len(line) <= maxHelpLine {
			fmt.Fprintln(w, line)
			continue
		}
		// Too wide for one line: what decides, wrapped between its parts, then the
		// crawlers on lines of their own under it.
		writeWrapped(w, head, strings.Split(k, ", "), maxHelpLine)
		writeWrapped(w, strings.Repeat(" ", len(head))+"for ", o.shown(names[k]), maxHelpLine)
	}
}

// perCrawlerGrouped is the number of crawlers past which "Per crawler" groups them
// by purpose and by count: the default 75 crawlers were 75 lines.
const perCrawlerGrouped = 12

// writePerCrawler prints the sitemap URLs blocked for every crawler asked about,
// blocked or not: one line each for a few crawlers, with the column as wide as the
// longest name; for many, grouped by main purpose (package crawlers; "unlisted"
// for a name the registry does not know), then by count, each count with its
// crawlers' names. Crawlers the site blocks on purpose are marked "intended".
func writePerCrawler(w io.Writer, rep *audit.Report) {
	t := rep.Totals
	count := func(i int) int {
		if i < len(t.BlockedURLs) {
			return t.BlockedURLs[i]
		}
		return 0
	}
	mark := func(a string, n int) string {
		if n > 0 && rep.IsIntended(a) {
			return "  (intended)"
		}
		return ""
	}
	if len(rep.Agents) <= perCrawlerGrouped {
		fmt.Fprintf(w, "\nPer crawler (sitemap URLs blocked, of %s):\n", counttext.Thousands(t.URLs))
		width, nw := 0, 0
		for i, a := range rep.Agents {
			width = max(width, len(a))
			nw = max(nw, len(counttext.Thousands(count(i))))
		}
		for i, a := range rep.Agents {
			fmt.Fprintf(w, "  %-*s  %*s%s\n", width, a, nw, counttext.Thousands(count(i)), mark(a, count(i)))
		}
		return
	}
	type row struct {
		n        int
		intended bool
		names    []string
	}
	purposes := []string{}
	for _, p := range crawlers.Purposes() {
		purposes = append(purposes, string(p))
	}
	purposes = append(purposes, "unlisted")
	rows := map[string][]*row{}
	for i, a := range rep.Agents {
		p := "unlisted"
		if c, ok := crawlers.Lookup(a); ok && len(c.Purposes) > 0 {
			p = string(c.Purposes[0])
		}
		var r *row
		for _, x := range rows[p] {
			if x.n == count(i) && x.intended == (mark(a, count(i)) != "") {
				r = x
			}
		}
		if r == nil {
			r = &row{n: count(i), intended: mark(a, count(i)) != ""}
			rows[p] = append(rows[p], r)
		}
		r.names = append(r.names, a)
	}
	fmt.Fprintf(w, "\nPer crawler, by purpose (sitemap URLs blocked, of %s):\n", counttext.Thousands(t.URLs))
	nw := 0
	for _, p := range purposes {
		for _, r := range rows[p] {
			nw = max(nw, len(counttext.Thousands(r.n)))
		}
	}
	for _, p := range purposes {
		n := 0
		for _, r := range rows[p] {
			n += len(r.names)
		}
		if n == 0 {
			continue
		}
		fmt.Fprintf(w, "  %s (%d)\n", p, n)
		for _, r := range rows[p] {
			head := fmt.Sprintf("    %*s  ", nw, counttext.Thousands(r.n))
			names := slices.Clone(r.names)
			if r.intended {
				names[len(names)-1] += "  (intended)"
			}
			writeWrapped(w, head, names, maxHelpLine)
		}
	}
}

// writeWrapped writes head and the items separated by commas, wrapping between
// items so that no line is wider than width (an item is never split: "Sogou web
// spider" is one name), continuing under the first item, or four spaces in under
// a head wider than half the width.
func writeWrapped(w io.Writer, head string, items []string, width int) {
	line := head
	indent := strings.Repeat(" ", len(head))
	if len(head) > maxHelpLine/2 {
		indent = "    " // under a long head, continue less deep than the examples
	}
	for i, item := range items {
		if i < len(items)-1 {
			item += ","
		}
		switch {
		case i == 0:
			line += item
		case len(line)+1+len(item) > width:
			fmt.Fprintln(w, line)
			line = indent + item
		default:
			line += " " + item
		}
	}
	fmt.Fprintln(w, line)
}

// The SARIF rules of an audit's own results, beside lint's codes.
var auditSARIFRules = []struct {
	id, summary, level string
}{
	{"blocks-sitemap-urls", "A rule disallows URLs that the site's sitemaps list", "error"},
	{"blocks-sitemap", "A rule disallows fetching a sitemap", "error"},
	{"sitemap-problem", "A sitemap is unreachable, invalid or over the limits of sitemaps.org", "error"},
	{"served-differently", "A crawler fetching robots.txt as itself receives another answer than this tool (-as)", "error"},
	{"host-unreachable", "A host's robots.txt cannot be fetched (-hosts)", "error"},
	{"hosts-differ", "The site's hosts tell a crawler different things (-hosts)", "note"},
}

// auditSARIF is the report in SARIF 2.1.0: lint's log of the file's findings, with
// the audit's rules and results added. Results about rules point at robots.txt's
// lines; a sitemap's problem at the line that lists it (robots.txt's Sitemap line,
// or the index's <loc>), with the line where its XML breaks as a related location; a
// sitemap tried without being listed (/sitemap.xml) at itself.
func auditSARIF(rep *audit.Report) sarifReport {
	log := sarifLog(rep.Lint, nil)
	run := &log.Runs[0]
	run.Tool.Driver.Name = "robots audit"
	robotsURL := rep.Robots.RobotsURL
	for i := range run.Results {
		run.Results[i].Locations[0].PhysicalLocation.ArtifactLocation.URI = robotsURL
	}
	index := map[string]int{}
	for _, r := range auditSARIFRules {
		index[r.id] = len(run.Tool.Driver.Rules)
		sr := sarifRule{ID: r.id, ShortDescription: sarifText{r.summary}, FullDescription: sarifText{r.summary}}
		sr.DefaultConfiguration.Level = r.level
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sr)
	}
	location := func(uri string, line int) sarifLocation {
		var loc sarifLocation
		loc.PhysicalLocation.ArtifactLocation.URI = uri
		loc.PhysicalLocation.Region.StartLine = max(line, 1)
		return loc
	}
	add := func(id, uri string, line int, msg string, intended bool) *sarifResult {
		level := "error"
		if intended {
			level, msg = "note", msg+" (intended)"
		}
		run.Results = append(run.Results, sarifResult{RuleID: id, RuleIndex: index[id], Level: level, Message: sarifText{msg},
			Locations: []sarifLocation{location(uri, line)}})
		return &run.Results[len(run.Results)-1]
	}
	for _, b := range rep.Blocked {
		what := "robots.txt's fetch (" + rep.Robots.Outcome.String() + ")"
		if b.Rule != nil {
			what = *b.Rule
		}
		msg := fmt.Sprintf("%s blocks %s that the sitemaps list for %s", what, counttext.Plural(b.URLs, "URL", "URLs"), agentsShort(b.Agents))
		if len(b.Examples) > 0 {
			msg += ", such as " + b.Examples[0]
		}
		add("blocks-sitemap-urls", robotsURL, b.Line, msg, rep.AllIntended(b.Agents))
	}
	for _, s := range rep.Sitemaps {
		for _, b := range s.Blocked {
			what := "robots.txt's fetch"
			if b.Rule != nil {
				what = *b.Rule
			}
			add("blocks-sitemap", robotsURL, b.Line, fmt.Sprintf("%s blocks the sitemap %s for %s", what, s.URL, agentsShort(b.Agents)), rep.AllIntended(b.Agents))
		}
	}
	for _, s := range rep.Broken() {
		uri, line := s.URL, s.ErrorLine
		switch s.Source {
		case audit.SourceRobots:
			uri, line = robotsURL, s.Line
		case audit.SourceIndex:
			uri, line = s.Parent, s.Line
		}
		res := add("sitemap-problem", uri, line, fmt.Sprintf("sitemap %s is %s: %s", s.URL, s.Status, s.Error), false)
		if s.ErrorLine > 0 && uri != s.URL {
			res.RelatedLocations = []sarifLocation{location(s.URL, s.ErrorLine)}
		}
	}
	if v := rep.Variants; v != nil {
		for i, f := range v.Fetches {
			if f.Outcome == fetch.Unreachable {
				add("host-unreachable", f.Origin+"/robots.txt", 1, fmt.Sprintf("%s: no robots.txt fetched (%s): crawlers take every URL as disallowed", variantName(v, i), cmp.Or(f.Error, f.Outcome.String())), false)
			}
		}
		for _, d := range v.Differences {
			var says []string
			for _, r := range d.Readings {
				names := make([]string, len(r.Fetches))
				for i, f := range r.Fetches {
					names[i] = variantName(v, f)
				}
				says = append(says, strings.Join(names, ", ")+": "+r.Says)
			}
			first := v.Fetches[d.Readings[0].Fetches[0]]
			if d.Host != "" {
				res := add("served-differently", first.Origin+"/robots.txt", 1, fmt.Sprintf("%s receives another robots.txt than this tool on %s: %s", d.Agent, d.Host, strings.Join(says, "; ")), false)
				res.Level = "error"
				continue
			}
			res := add("hosts-differ", first.Origin+"/robots.txt", 1, fmt.Sprintf("the hosts tell %s different things: %s", d.Agent, strings.Join(says, "; ")), false)
			res.Level = "note"
		}
	}
	return log
}
