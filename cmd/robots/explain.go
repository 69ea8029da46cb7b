package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/internal/counttext"
	"github.com/gorobots/robots/internal/verdictjson"
	"github.com/gorobots/robots/internal/weburl"
	"github.com/gorobots/robots/signals"
)

const explainUsage = `Usage:
	robots explain -robots FILE [-agent NAME]... [-dialect NAME] [-format text|json]
	               [-verdicts] [-lines N] [URL...]

Reads the robots.txt FILE ("-" for standard input) as Google and RFC 9309 crawlers
do (or as -dialect says: rfc9309, legacy1996, legacy1994) and shows, for each
crawler: the group that applies (its lines) or that none does, its crawl-delay and
whether the crawler honours one (as its operator says: Google's and Yandex's do not),
a note when the crawler is documented as ignoring robots.txt (Perplexity-User,
Bytespider) or fetches on a person's request where its operator says the rules may
not apply (ChatGPT-User) — in JSON "robots_txt": obeys, ignores, user-triggered or
unknown, with "robots_txt_source", the page that says so —
and for each URL the verdict with the deciding rule, and what the file prefers
about the use of the URL's content where a Content-Usage or Content-Signal line
applies (AI usage preferences: "usage" in the JSON). For a file that states them,
the text also says when Google's and RFC 9309's readings give the crawler other
preferences ("readings" in the JSON), and gives one answer per purpose from the
file alone (search, ai-train, ai-input, ai-search, ai-user), with what each line
says of each purpose and every contradiction between them ("purposes" in the JSON,
as GET /v1/check?purposes=true answers it; robots audit -pages and that API add the
RSL licences, TDMRep and, for audit, the pages' own headers and meta tags).

In the text format a group is shown to its first -lines lines (20 by default; 0
shows every line), and past them only the lines that decide a URL given, with a
count of the lines left out; -verdicts shows no group lines at all: which group
applies, the crawl-delay and the verdicts. JSON always holds every line.

Each -agent names one crawler by its product token (say "Googlebot"); by default
the major search, AI and SEO crawlers (package crawlers) are shown. Unlike check,
several -agent flags mean several crawlers, each explained on its own. In the text
format, crawlers that the same groups apply to are shown together.

A file over 500 KiB is read as crawlers read it, to its first 512,000 bytes; the
command reads at most 2,048,000 bytes of a file. Explain says where reading stopped and
why (in JSON, "cut": {"line", "bytes_read", "file_bytes", "message"}; "file_bytes" is
null when the command stopped first).

Exit status: 0 when every URL given is allowed for every crawler (or no URL is
given), 1 when some URL is disallowed for some crawler, 2 when a URL is not one
(the others are still explained), the file cannot be read or on a usage error.
`

func runExplain(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("explain")
	robotsFile := fs.String("robots", "", "robots.txt `FILE` to explain (- for standard input)")
	f := newCrawlerFlags(fs, formatText, formatJSON)
	verdictsOnly := fs.Bool("verdicts", false, "text: show which group applies and the verdicts, not the group's lines")
	maxLines := fs.Int("lines", defaultGroupLines, "text: lines of each group shown, besides those that decide a URL given (`N`; 0 shows all)")
	urls, err := parseArgs(fs, args, e.stdout)
	if err != nil {
		return err
	}
	if *robotsFile == "" {
		return usagef("explain: -robots is required")
	}
	if *maxLines < 0 {
		return usagef("explain: -lines must be 0 (every line) or more")
	}
	agents := f.agents.orMajor()
	body, capped, err := readInput(e.stdin, *robotsFile)
	if err != nil {
		return err
	}
	r := robots.Parse(body, robots.WithDialect(f.dialect))
	x := &explainer{r: r, groups: r.Groups(), cut: cutOf(*robotsFile, r, len(body), capped), maxLines: *maxLines, verdictsOnly: *verdictsOnly,
		other: signals.OtherReading(r, string(body))}
	for l := range robots.Lines(readPart(body)) { // a group is shown as far as crawlers read it
		x.lines = append(x.lines, l.Text)
		x.kinds = append(x.kinds, l.Kind)
	}
	warn := func(format string, args ...any) {
		fmt.Fprintf(e.stderr, "robots: explain: warning: "+format+"\n", args...)
	}
	if msg := bodyProblem(*robotsFile, body); msg != "" {
		warn("%s", msg)
	}
	typed, failed := encodeURLs(e, "explain", urls)
	for _, u := range typed {
		if encoded(u.raw, u.url) {
			warn("%s", requestedAs(u.raw, u.url))
		}
	}
	var out []agentExplained
	disallowed := false
	for _, a := range agents {
		ex := x.explain(a, typed)
		for _, v := range ex.URLs {
			disallowed = disallowed || !v.Allowed
		}
		out = append(out, ex)
	}
	w := bufio.NewWriter(e.stdout)
	if *f.format == formatJSON {
		writeIndented(w, out)
	} else {
		x.writeText(w, *robotsFile, out)
	}
	return finish(w, failed, disallowed)
}

// typedURL is a URL as given and as decided (weburl.Encode).
type typedURL struct{ raw, url string }

// encodeURLs encodes URLs as a browser would request them; those that are not URLs
// are reported on standard error and left out (failed is then true).
func encodeURLs(e *env, cmd string, raws []string) (out []typedURL, failed bool) {
	for _, raw := range raws {
		u, err := weburl.Encode(raw)
		if err != nil {
			fmt.Fprintf(e.stderr, "robots: %s: %v\n", cmd, err)
			failed = true
			continue
		}
		out = append(out, typedURL{raw, u})
	}
	return out, failed
}

type explainer struct {
	r      *robots.Robots
	groups []robots.Group
	lines  []string // the file's lines that crawlers read, for showing groups as written
	kinds  []robots.Kind
	cut    *cutJSON // where crawlers stop reading, when they do
	// maxLines bounds the lines of a group the text shows (0: all), besides those
	// deciding a URL; verdictsOnly shows none.
	maxLines     int
	verdictsOnly bool
	other        *robots.Robots // the other reading, when the file states usage (otherReading)
}

// defaultGroupLines is how many lines of a group explain's text shows by default:
// one URL explained on a file of 2,282 lines printed 2,276 of them.
const defaultGroupLines = 20

// agentExplained is what applies to one crawler; it is also the JSON output.
type agentExplained struct {
	Agent      string      `json:"agent"`
	ValidToken bool        `json:"valid_token"` // only letters, "_" and "-": a token a group can name
	Global     bool        `json:"global"`      // no group names it; the "*" groups apply
	Groups     []groupText `json:"groups"`      // empty when no group applies
	CrawlDelay *float64    `json:"crawl_delay"` // seconds; null when none applies
	DelayLine  int         `json:"crawl_delay_line,omitempty"`
	// DelaySupport says whether the crawler honours Crawl-delay, as its operator
	// documents it (package crawlers): "honoured", "ignored" or "unknown".
	DelaySupport string `json:"crawl_delay_support"`
	// RobotsTxt is the crawler's documented stance on robots.txt (package
	// crawlers): "obeys", "ignores" (documented as not obeying it), "user-triggered"
	// (fetches on a person's request, to which its operator says the rules may not
	// apply) or "unknown"; RobotsTxtSource is the page that says so.
	RobotsTxt       string        `json:"robots_txt"`
	RobotsTxtSource string        `json:"robots_txt_source"`
	URLs            []verdictJSON `json:"urls"`
	// Cut says where crawlers stop reading the file (null when they read it all): the
	// groups and rules past it do not apply.
	Cut *cutJSON `json:"cut"`
	key string   // the groups that apply, to show crawlers together
}

type groupText struct {
	Line    int      `json:"line"`
	EndLine int      `json:"end_line"`
	Agents  []string `json:"agents"`
	Text    []string `json:"text"` // the lines from Line to EndLine as written
}

func (x *explainer) explain(agent string, urls []typedURL) agentExplained {
	gs, global := x.r.GroupsFor(agent)
	ex := agentExplained{Agent: agent, ValidToken: robots.Agent{Name: agent}.Token() == agent, Global: global,
		Groups: []groupText{}, URLs: []verdictJSON{}, key: fmt.Sprint(gs)}
	c, _ := crawlers.Lookup(agent)
	ex.DelaySupport, ex.Cut = supportText(c.CrawlDelay), x.cut
	ex.RobotsTxt, ex.RobotsTxtSource = stanceText(c.Robots), c.RobotsURL
	for _, gi := range gs {
		g := x.groups[gi]
		gt := groupText{Line: g.Line, EndLine: x.groupEnd(gi), Agents: []string{}}
		for _, a := range g.Agents {
			gt.Agents = append(gt.Agents, a.Name)
		}
		for n := gt.Line; n <= gt.EndLine && n <= len(x.lines); n++ {
			gt.Text = append(gt.Text, x.lines[n-1])
		}
		ex.Groups = append(ex.Groups, gt)
		if ex.CrawlDelay == nil {
			for _, f := range g.Fields {
				if f.Name != "crawl-delay" {
					continue
				}
				if d, err := robots.ParseCrawlDelay(f.Value); err == nil {
					secs := d.Seconds()
					ex.CrawlDelay, ex.DelayLine = &secs, f.Line
					break
				}
			}
		}
	}
	for _, u := range urls {
		d := x.r.Check(agent, u.url)
		pref := x.r.Usage(agent, u.url)
		v := verdictJSON{Verdict: verdictjson.Verdict{URL: u.url, Agent: agent, Decision: d,
			Usage: usageJSON(pref), Readings: verdictjson.Readings(x.other, []string{agent}, u.url, pref)}}
		if encoded(u.raw, u.url) {
			v.Input = u.raw
		}
		if x.other != nil { // the file states usage preferences
			v.Purposes = signals.Answers(signals.Site{Robots: x.r, Other: x.other}, agent, u.url, nil, time.Now())
		}
		ex.URLs = append(ex.URLs, v)
	}
	return ex
}

// groupEnd is the last line that belongs to group gi: the line before the next
// group, less trailing blank lines, comments (which usually introduce the next
// group) and sitemaps (which belong to no group).
func (x *explainer) groupEnd(gi int) int {
	end := len(x.lines)
	if gi+1 < len(x.groups) {
		end = x.groups[gi+1].Line - 1
	}
	for end > x.groups[gi].Line && (x.kinds[end-1] == robots.KindBlank || x.kinds[end-1] == robots.KindSitemap) {
		end--
	}
	return end
}

// writeText shows crawlers to which the same groups apply together, in the order
// they were asked for.
func (x *explainer) writeText(w io.Writer, name string, out []agentExplained) {
	if name == "-" {
		name = "<stdin>"
	}
	fmt.Fprintf(w, "%s: %d group(s), %d sitemap(s)", name, len(x.groups), len(x.r.Sitemaps()))
	if ls := x.r.Licenses(); len(ls) > 0 {
		fmt.Fprintf(w, ", RSL licence(s) for every crawler: %s", strings.Join(ls, " "))
	}
	fmt.Fprintln(w)
	if x.cut != nil {
		fmt.Fprintf(w, "read up to line %d: %s\n", x.cut.Line, x.cut.Message)
	}
	done := map[string]bool{}
	for i, ex := range out {
		if done[ex.key] {
			continue
		}
		done[ex.key] = true
		var names, invalid []string
		for _, o := range out[i:] {
			if o.key == ex.key {
				names = append(names, o.Agent)
				if !o.ValidToken {
					invalid = append(invalid, o.Agent)
				}
			}
		}
		fmt.Fprintf(w, "\n%s\n", wrap(names, textWidth))
		if len(invalid) > 0 {
			fmt.Fprintf(w, "  note: %s: not a product token (letters, \"_\" and \"-\" only), so no group can name it as Google matches\n", strings.Join(invalid, ", "))
		}
		for _, o := range out[i:] {
			if o.key == ex.key {
				if caveat := stanceCaveat(o); caveat != "" {
					fmt.Fprintf(w, "  note: %s\n", caveat)
				}
			}
		}
		switch {
		case len(ex.Groups) == 0:
			fmt.Fprintf(w, "  no group applies: no group names it and there is no \"*\" group, so every URL is allowed\n")
		case ex.Global:
			fmt.Fprintf(w, "  no group names it; the \"*\" group applies%s\n", x.groupsEnd(ex))
		case len(ex.Groups) == 1:
			fmt.Fprintf(w, "  the group at line %d applies%s\n", ex.Groups[0].Line, x.groupsEnd(ex))
		default:
			fmt.Fprintf(w, "  %d groups name it and apply together%s\n", len(ex.Groups), x.groupsEnd(ex))
		}
		if !x.verdictsOnly {
			x.writeGroups(w, ex)
		}
		if ex.CrawlDelay != nil {
			fmt.Fprintf(w, "  crawl-delay: %v (line %d): %s\n", time.Duration(*ex.CrawlDelay*float64(time.Second)), ex.DelayLine, delaySupport(out[i:], ex.key))
		} else if len(ex.Groups) > 0 {
			fmt.Fprintf(w, "  crawl-delay: none\n")
		}
		for _, u := range ex.URLs {
			fmt.Fprintf(w, "  %-10s  %s  (%s)\n", verdict(u.Allowed), u.URL, describeRule(u.Rule))
			if said := usageText(u.Usage); said != "" {
				fmt.Fprintf(w, "  %-10s  %s\n", "", said)
			}
			if u.Readings != "" {
				fmt.Fprintf(w, "  %-10s  %s\n", "", u.Readings)
			}
			writePurposes(w, u.Purposes)
		}
	}
}

// stanceText names a crawlers.Stance, "unknown" for the zero value.
func stanceText(s crawlers.Stance) string {
	if s == crawlers.StanceUnknown {
		return "unknown"
	}
	return string(s)
}

// stanceCaveat warns, for a crawler documented not to obey robots.txt, that the
// verdicts say what the file asks rather than what the crawler does; "" otherwise.
func stanceCaveat(o agentExplained) string {
	src := ""
	if o.RobotsTxtSource != "" {
		src = " (" + o.RobotsTxtSource + ")"
	}
	switch o.RobotsTxt {
	case string(crawlers.Ignores):
		return fmt.Sprintf("%s is documented as ignoring robots.txt%s: the verdicts below are what the file asks, not what it does", o.Agent, src)
	case string(crawlers.UserTriggered):
		return fmt.Sprintf("%s fetches what a person asks for, and its operator says robots.txt rules may not apply%s", o.Agent, src)
	}
	return ""
}

// groupsEnd ends the line that says which groups apply: a colon before their
// lines, or with -verdicts where they are and how long.
func (x *explainer) groupsEnd(ex agentExplained) string {
	if !x.verdictsOnly {
		return ":"
	}
	var at []string
	for _, g := range ex.Groups {
		at = append(at, fmt.Sprintf("lines %d-%d", g.Line, g.EndLine))
	}
	return " (" + strings.Join(at, ", ") + ")"
}

// writeGroups writes the lines of the groups that apply to ex: each to its first
// x.maxLines lines (all when 0), then the lines that decide a URL of ex past those,
// with "..." for the lines between and a count of those left out.
func (x *explainer) writeGroups(w io.Writer, ex agentExplained) {
	deciding := map[int]bool{}
	for _, u := range ex.URLs {
		if u.Rule.Line > 0 {
			deciding[u.Rule.Line] = true
		}
	}
	for gi, g := range ex.Groups {
		if gi > 0 {
			fmt.Fprintf(w, "    %*s\n", 5, "...")
		}
		left, gap := 0, false
		for j, text := range g.Text {
			n := g.Line + j
			if x.maxLines > 0 && j >= x.maxLines && !deciding[n] {
				left++
				gap = true
				continue
			}
			if gap {
				fmt.Fprintf(w, "    %*s\n", 5, "...")
				gap = false
			}
			fmt.Fprintf(w, "    %5d  %s\n", n, text)
		}
		if left > 0 {
			fmt.Fprintf(w, "    %*s  (%s of this group not shown; -lines 0 shows them)\n", 5, "...", counttext.Plural(left, "line", "lines"))
		}
	}
}

// delaySupport says which of the crawlers shown together (those of out with the
// given key) honour crawl-delay and which ignore it, as their operators say.
func delaySupport(out []agentExplained, key string) string {
	by := map[string][]string{}
	for _, o := range out {
		if o.key == key {
			by[o.DelaySupport] = append(by[o.DelaySupport], o.Agent)
		}
	}
	var parts []string
	if names := by["honoured"]; len(names) > 0 {
		parts = append(parts, "honoured by "+strings.Join(names, ", "))
	}
	if names := by["ignored"]; len(names) == 1 {
		parts = append(parts, "ignored by "+names[0]+", as its operator says")
	} else if len(names) > 1 {
		parts = append(parts, "ignored by "+strings.Join(names, ", ")+", as their operators say")
	}
	if names := by["unknown"]; len(names) == 1 {
		parts = append(parts, "whether "+names[0]+" honours it is not known")
	} else if len(names) > 1 {
		parts = append(parts, "whether "+strings.Join(names, ", ")+" honour it is not known")
	}
	return strings.Join(parts, "; ")
}

// textWidth is where the text output wraps lists of crawler names.
const textWidth = 88

// wrap joins names with ", ", breaking lines before width.
func wrap(names []string, width int) string {
	var b strings.Builder
	col := 0
	for i, n := range names {
		if i > 0 {
			b.WriteString(",")
			col++
			if col+1+len(n) > width {
				b.WriteString("\n")
				col = 0
			} else {
				b.WriteString(" ")
				col++
			}
		}
		b.WriteString(n)
		col += len(n)
	}
	return b.String()
}

// writePurposes writes the one answer per purpose the file alone gives a crawler at
// a URL (package signals: robots.txt's verdict and its Content-Usage and Content-Signal
// lines; the RSL licences its License lines name, TDMRep and the pages are read by
// robots audit -pages and GET /v1/check?purposes=true): a line of the answers, then,
// for each purpose where a line of the file speaks, what it says and each
// contradiction. Nothing for a file that states no usage preferences.
func writePurposes(w io.Writer, answers []signals.Answer) {
	if len(answers) == 0 {
		return
	}
	var sum []string
	for _, a := range answers {
		sum = append(sum, string(a.Purpose)+" "+string(a.Verdict))
	}
	fmt.Fprintf(w, "  %-10s  purposes: %s\n", "", strings.Join(sum, ", "))
	for _, a := range answers {
		var said []string
		for _, sg := range a.Signals[1:] { // robots.txt's verdict is the line above
			said = append(said, sg.Source+" "+sg.Says)
		}
		if len(said) > 0 {
			fmt.Fprintf(w, "  %-10s    %-9s  %s: %s\n", "", a.Purpose, a.Verdict, strings.Join(said, "; "))
		}
		for _, c := range a.Contradictions {
			fmt.Fprintf(w, "  %-10s    %-9s  contradiction: %s\n", "", a.Purpose, c)
		}
	}
}
