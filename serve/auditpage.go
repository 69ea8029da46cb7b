package serve

import (
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/audit"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/counttext"
)

// The tester's "Audit a site" mode: the form names a site and the crawlers; the
// answer is the audit's report (the same as POST /v1/audit's) drawn as a picture of
// the site's URL space (picture.go), with the report's lists under it. Like the
// tester's Fetch, an audit fetches, so with tokens it needs one in the form.

// auditView is the audit's report as the page shows it.
type auditView struct {
	Target          string
	Source          sourceView // how robots.txt was fetched
	SitemapsRead    int
	URLsRead        int
	Stopped         []string // limits that stopped the audit before the end
	Agents          []agentTotal
	Picture         *picture
	Data            template.JS // the branches' figures and samples, for app.js
	Blocked         []blockedView
	Purposes        []purposeView
	Stance          []stanceURL // one answer per purpose from every signal (audit.Report.Stance)
	Sitemaps        []sitemapView
	SitemapProblems int
	Findings        []findingView
	NoneBlocked     string   // what an empty Blocked means (audit.Report.NoneBlocked)
	CrawlDelays     []string // audit.CrawlDelay.Text of each
	Variants        *variantsView
}

// variantsView is what the hosts and crawlers of the form's Hosts and As receive
// (audit.Variants).
type variantsView struct {
	Fetches     []variantFetch
	Files       int
	Differences []variantDiff
}

// variantFetch is one fetch of robots.txt: by whom, of what, and its answer.
type variantFetch struct {
	Name, Origin, RedirectsTo string
	Answer                    string // "200 · file 2 (28 bytes)", "403 · unavailable: everything allowed"
	Class                     string // "ok", or "bad": unreachable, an HTML page, or a crawler served otherwise than the tester
	UserAgent, Source         string
}

// variantDiff is one crawler told different things, each reading with who got it.
type variantDiff struct {
	Title    string
	Readings []variantReading
}

type variantReading struct {
	Who, Says string
	Root      bool
}

// variantsViewOf is the page's view of v (nil for nil).
func variantsViewOf(v *audit.Variants) *variantsView {
	if v == nil {
		return nil
	}
	name := func(i int) string {
		f := v.Fetches[i]
		if f.As == "" {
			return f.Host
		}
		return f.Host + " as " + f.As
	}
	out := &variantsView{Files: v.Files}
	// served marks the fetches in which a crawler receives something else than the
	// tester's own request on the same host.
	served := map[int]bool{}
	for _, d := range v.Differences {
		if d.Host != "" {
			for _, r := range d.Readings {
				for _, i := range r.Fetches {
					served[i] = true
				}
			}
		}
	}
	for i, f := range v.Fetches {
		vf := variantFetch{Name: name(i), Origin: f.Origin, RedirectsTo: f.RedirectsTo, Class: "ok", UserAgent: f.UserAgent, Source: f.UserAgentSource}
		switch {
		case f.Status == 0:
			vf.Answer = "no answer · " + f.Outcome.String()
		case f.File > 0:
			vf.Answer = fmt.Sprintf("%d · file %d (%s)", f.Status, f.File, counttext.Plural(int(f.Bytes), "byte", "bytes"))
		default:
			vf.Answer = fmt.Sprintf("%d · %s", f.Status, f.Outcome)
		}
		if f.Page {
			vf.Answer += " · an HTML page, not a robots.txt"
		}
		switch f.Effect {
		case fetch.AllowAll:
			vf.Answer += ": everything allowed"
		case fetch.DisallowAll:
			vf.Answer += ": everything disallowed"
		}
		if f.Outcome == fetch.Unreachable || f.Page || (f.As != "" && served[i]) {
			vf.Class = "bad"
		}
		out.Fetches = append(out.Fetches, vf)
	}
	for _, d := range v.Differences {
		vd := variantDiff{Title: d.Agent + " is told different things by the hosts"}
		if d.Host != "" {
			vd.Title = d.Agent + " receives another robots.txt than this tester on " + d.Host
		}
		for _, r := range d.Readings {
			var who []string
			for _, i := range r.Fetches {
				who = append(who, name(i))
			}
			vd.Readings = append(vd.Readings, variantReading{Who: strings.Join(who, ", "), Says: r.Says, Root: r.RootAllowed})
		}
		out.Differences = append(out.Differences, vd)
	}
	return out
}

// splitList reads a list typed in a form: entries separated by commas or spaces.
func splitList(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' })
}

// agentTotal is one crawler asked about and the sitemap URLs it may not fetch.
type agentTotal struct {
	Name    string
	Blocked int
	Text    string // "1,204 URLs blocked" or "none blocked"
}

// blockedView is one rule that blocks sitemap URLs: on one line, or the same rule
// on several lines blocking the same URLs, each for other crawlers
// (audit.Report.GroupedBlocks).
type blockedView struct {
	Intended bool     // every crawler it blocks is blocked on purpose (Report.Intended)
	Rule     string   // as written: "Disallow: /search"
	Line     int      // the first line
	Lines    []int    // every line, when there are several
	Each     []string // per line, "GPTBot, CCBot (line 12)", when there are several
	Agents   []string
	URLs     int
	Examples []string
}

// purposeView is one purpose of the crawler registry: its crawlers blocked, told not
// to use what they fetch for it, and open, each list grouped by what decides.
type purposeView struct {
	Purpose     string
	Preferences string // the preferences that speak to it: "content-usage train-ai, content-signal ai-train"
	Crawlers    int
	Lists       []purposeList
}

type purposeList struct {
	Title  string // "blocked", "told no", "open"
	Class  string // "bad", "warn", "ok"
	Groups []purposeGroup
}

// purposeGroup is crawlers told the same: Why is the rule or the preferences stated.
type purposeGroup struct {
	Why   string
	Names []string
	More  int      // crawlers past those named
	Rest  []string // their names, which the page opens on request
}

// maxPurposeNames is how many crawlers a group of the purpose table names; the rest
// are counted.
const maxPurposeNames = 12

// purposeViews is the report's answer by purpose, as the page shows it.
func purposeViews(rep *audit.Report) []purposeView {
	var out []purposeView
	told := audit.PurposeCrawler.ToldText
	rule := func(c audit.PurposeCrawler) string {
		if c.Rule == nil {
			return "robots.txt could not be fetched"
		}
		return fmt.Sprintf("line %d %s", c.Line, *c.Rule)
	}
	for _, p := range rep.Purposes {
		pv := purposeView{Purpose: string(p.Purpose), Preferences: strings.Join(p.Preferences, ", "),
			Crawlers: len(p.Blocked) + len(p.ToldNo) + len(p.Open)}
		for _, l := range []struct {
			title, class string
			cs           []audit.PurposeCrawler
			why          func(audit.PurposeCrawler) string
		}{{"blocked", "bad", p.Blocked, rule}, {"told no", "warn", p.ToldNo, told}, {"open", "ok", p.Open, told}} {
			if len(l.cs) == 0 {
				continue
			}
			pl := purposeList{Title: l.title, Class: l.class}
			at := map[string]int{}
			for _, c := range l.cs {
				why := l.why(c)
				i, ok := at[why]
				if !ok {
					i = len(pl.Groups)
					at[why] = i
					pl.Groups = append(pl.Groups, purposeGroup{Why: why})
				}
				if g := &pl.Groups[i]; len(g.Names) < maxPurposeNames {
					g.Names = append(g.Names, c.Name)
				} else {
					g.More++
					g.Rest = append(g.Rest, c.Name)
				}
			}
			pv.Lists = append(pv.Lists, pl)
		}
		if pv.Crawlers > 0 {
			out = append(out, pv)
		}
	}
	return out
}

// sitemapView is one sitemap the audit saw.
type sitemapView struct {
	URL, Kind, From, Status, Error string
	URLs                           int    // the URLs it lists (audit.Report.ListedURLs: an index's, those of its sitemaps)
	Class                          string // "ok", "warn" or "bad", by status: a sitemap read in full is "ok"
	// Blocked names the crawlers that may not fetch the sitemap itself, with the
	// deciding line: a problem for them, not a status of the file.
	Blocked string
}

// auditData is the JSON app.js reads from the page (#audit_data): the crawlers, and
// what a click on each branch shows.
type auditData struct {
	Agents   []string              `json:"agents"`
	Effect   string                `json:"effect"` // of the robots.txt fetch: "rules", "allow-all" or "disallow-all"
	Branches map[string]branchData `json:"branches"`
}

// pictureData encodes what app.js needs of a picture. encoding/json escapes <, >
// and &, so the JSON is safe inside the page's script element.
func pictureData(p *picture, effect fetch.Effect) (template.JS, error) {
	b, err := json.Marshal(auditData{Agents: p.Agents, Effect: effect.String(), Branches: p.Branches})
	if err != nil {
		return "", err
	}
	return template.JS(b), nil
}

// agentTotals lists the crawlers with the URLs blocked for each, in the audit's order.
func agentTotals(rep *audit.Report, agents []string, blocked []int, urls int) []agentTotal {
	out := make([]agentTotal, len(agents))
	for i, a := range agents {
		n := 0
		if i < len(blocked) {
			n = blocked[i]
		}
		t := "none blocked"
		if n > 0 {
			t = urlsText(n) + " blocked"
			if n >= urls {
				t = "all " + t
			}
			if rep.IsIntended(a) {
				t += ", intended"
			}
		}
		out[i] = agentTotal{Name: a, Blocked: n, Text: t}
	}
	return out
}

// auditTarget reads what the user typed in the audit field as weburl.Site does
// (a URL, "example.com", "127.0.0.1:8080"), with the note on the scheme chosen.
func auditTarget(in string) (target, note string, err error) {
	if strings.TrimSpace(in) == "" {
		return "", "", errorf(http.StatusBadRequest, "enter the site to audit (such as example.com)")
	}
	return siteURL(in)
}

// auditPage runs the audit a form asks for and returns the page's view of it.
func (s *Server) auditPage(r *http.Request, f *pageForm) (*auditView, error) {
	job, note, err := s.auditJobOfForm(f)
	if err != nil {
		return nil, err
	}
	rep, err := s.runAudit(r.Context(), job)
	if err != nil {
		return nil, err
	}
	v, err := auditViewOf(rep)
	if err == nil {
		sayChosen(&v.Source, note)
	}
	return v, err
}

// auditJobOfForm reads the audit the tester's form asks for, and the note on how
// its site was read ("example.com is https://example.com/").
func (s *Server) auditJobOfForm(f *pageForm) (auditJob, string, error) {
	agents, err := s.pageAgents(f)
	if err != nil {
		return auditJob{}, "", err
	}
	target, note, err := auditTarget(f.AuditURL)
	if err != nil {
		return auditJob{}, "", err
	}
	dialect, err := robots.ParseDialect(f.Dialect)
	if err != nil {
		return auditJob{}, "", errorf(http.StatusBadRequest, "%v", err)
	}
	if len(s.cfg.Tokens) > 0 && !s.tokenOK(f.Token) {
		return auditJob{}, "", errorf(http.StatusUnauthorized, "this server audits only for holders of an API token (it was started with -token-file): enter yours")
	}
	var allowBlocked []string
	if f.AllowBlocked != "" {
		allowBlocked = []string{f.AllowBlocked}
	}
	pages := 0
	if f.Pages != "" {
		if pages, err = strconv.Atoi(f.Pages); err != nil || pages < 0 || pages > audit.MaxPages {
			return auditJob{}, "", errorf(http.StatusBadRequest, "pages to read: %q, want 0 to %d", f.Pages, audit.MaxPages)
		}
	}
	return auditJob{target: target, agents: agents, dialect: dialect, lim: s.cfg.Audit, allowBlocked: allowBlocked,
		hosts: splitList(f.Hosts), as: splitList(f.As), pages: pages}, note, nil
}

// auditViewOf is the page's view of a report.
func auditViewOf(rep *audit.Report) (*auditView, error) {
	v := &auditView{
		Target:       rep.Origin,
		Source:       auditSource(rep),
		SitemapsRead: rep.Totals.Sitemaps,
		URLsRead:     rep.Totals.URLs,
		Agents:       agentTotals(rep, rep.Agents, rep.Totals.BlockedURLs, rep.Totals.URLs),
	}
	v.Stopped = stoppedText(rep)
	if rep.Tree != nil && rep.Tree.URLs > 0 {
		rules := map[int]string{}
		for _, r := range rep.Rules {
			rules[r.Line] = r.Rule
		}
		root := branchOf(rep.Tree, rules)
		root.Name = strings.TrimPrefix(strings.TrimPrefix(rep.Origin, "https://"), "http://")
		v.Picture = layoutPicture(root, rep.Agents, 0)
		var err error
		if v.Data, err = pictureData(v.Picture, rep.Robots.Effect); err != nil {
			return nil, err
		}
	}
	for _, g := range rep.GroupedBlocks() {
		b := g.Blocks[0]
		bv := blockedView{Line: b.Line, Agents: g.Agents(), URLs: g.URLs, Examples: g.Examples, Intended: rep.AllIntended(g.Agents())}
		if b.Rule != nil {
			bv.Rule = *b.Rule
		}
		if len(g.Blocks) > 1 {
			for _, b := range g.Blocks {
				bv.Lines = append(bv.Lines, b.Line)
				bv.Each = append(bv.Each, fmt.Sprintf("%s (line %d)", strings.Join(b.Agents, ", "), b.Line))
			}
		}
		v.Blocked = append(v.Blocked, bv)
	}
	v.Purposes = purposeViews(rep)
	v.Stance = stanceURLs(rep.Stance)
	broken := map[string]bool{}
	for _, sm := range rep.Broken() {
		broken[sm.URL] = true
	}
	for _, sm := range rep.Sitemaps {
		sv := sitemapViewOf(sm, broken[sm.URL])
		sv.URLs = rep.ListedURLs(sm)
		if sv.Class == "bad" {
			v.SitemapProblems++
		}
		v.Sitemaps = append(v.Sitemaps, sv)
	}
	v.Findings = groupedFindings(rep.Lint)
	v.NoneBlocked = rep.NoneBlocked()
	for _, c := range rep.CrawlDelays {
		v.CrawlDelays = append(v.CrawlDelays, c.Text())
	}
	v.Variants = variantsViewOf(rep.Variants)
	return v, nil
}

// branchOf converts the report's tree for the picture; rules maps a line to its
// rule as written.
func branchOf(n *audit.Node, rules map[int]string) *branch {
	b := &branch{Name: n.Name, Path: n.Path, URLs: n.URLs, Blocked: n.Blocked, Other: n.Other}
	if b.Other {
		b.Name = "others"
	}
	for _, smp := range n.Samples {
		sv := sample{URL: smp.URL, Verdicts: make([]sampleVerdict, len(smp.Allowed))}
		for i, ok := range smp.Allowed {
			sv.Verdicts[i].Allowed = ok
			if i < len(smp.Lines) && smp.Lines[i] > 0 {
				sv.Verdicts[i].Line = smp.Lines[i]
				sv.Verdicts[i].Rule = rules[smp.Lines[i]]
			}
		}
		b.Samples = append(b.Samples, sv)
	}
	for _, c := range n.Children {
		cb := branchOf(c, rules)
		if cb.Other {
			cb.Path = n.Path // the report's folded node has no path of its own
		}
		b.Children = append(b.Children, cb)
	}
	return b
}

// auditSource says how robots.txt was fetched and what that means for the verdicts.
func auditSource(rep *audit.Report) sourceView {
	fr := rep.Robots
	src := sourceView{Title: "Audited " + rep.Origin, Effect: fr.Effect.String(), Class: "ok"}
	status := "no answer"
	if fr.Status != 0 {
		status = fmt.Sprintf("status %d", fr.Status)
	}
	why := ""
	if fr.Error != "" {
		why = " (" + fr.Error + ")"
	}
	reading := ""
	if rep.Dialect != "" && rep.Dialect != robots.Google.String() {
		reading = ", read as " + rep.Dialect
	}
	switch fr.Effect {
	case fetch.ObeyRules:
		src.Detail = fmt.Sprintf("%s: %s, %s%s. Every sitemap URL is decided by its rules.", fr.RobotsURL, status, sizeText(fr.BytesRead), reading)
		if fr.Stale {
			src.Class = "warn"
			src.Detail = fmt.Sprintf("%s is unreachable now (%s%s): crawlers keep using their last copy, which decides the verdicts.", fr.RobotsURL, status, why)
		}
	case fetch.AllowAll:
		src.Class = "warn"
		src.Detail = fmt.Sprintf("No robots.txt at %s: %s%s. Without one crawlers may fetch every URL, so nothing is blocked.", fr.RobotsURL, status, why)
	case fetch.DisallowAll:
		src.Class = "bad"
		src.Detail = fmt.Sprintf("%s could not be fetched: %s%s. Until it can be, crawlers treat every URL of the site as disallowed (RFC 9309 §2.3.1.4).", fr.RobotsURL, status, why)
		src.Detail += retryText(fr.RobotsURL, fr.Status)
	}
	return src
}

// stoppedText says what the audit did not read, and why.
func stoppedText(rep *audit.Report) []string {
	var out []string
	l := rep.Limits
	switch rep.Stopped {
	case "":
	case "max-urls":
		out = append(out, fmt.Sprintf("Stopped at the limit of %s URLs: the sitemaps' other URLs were not read.", counttext.Thousands(l.URLs)))
	case "max-sitemaps":
		out = append(out, fmt.Sprintf("Stopped at the limit of %s sitemap files: the others were not read.", counttext.Thousands(l.Sitemaps)))
	case "timeout":
		out = append(out, fmt.Sprintf("Stopped at the time limit (%s): what was read by then is shown.", durationText(l.Time)))
	default:
		out = append(out, "Stopped early ("+rep.Stopped+"): what was read by then is shown.")
	}
	if n := rep.Totals.UndecidedURLs; n > 0 {
		out = append(out, counttext.Plural(n, "URL was", "URLs were")+" read but not decided before the time limit; the counts leave those out.")
	}
	if n := rep.Totals.SitemapsSkipped + rep.Totals.SitemapsUnlisted; n > 0 {
		out = append(out, counttext.Plural(n, "sitemap was", "sitemaps were")+" found but not read.")
	}
	if n := rep.Totals.OffOriginURLs; n > 0 {
		out = append(out, counttext.Plural(n, "URL is", "URLs are")+" on another origin, which another robots.txt decides: counted, not decided.")
	}
	if n := rep.Totals.InvalidURLs; n > 0 {
		out = append(out, counttext.Plural(n, "<loc> is not a URL", "<loc> values are not URLs")+" (or longer than 2,048 bytes).")
	}
	return out
}

// sitemapViewOf is one sitemap as the page lists it; broken says the report counts
// it as broken (unreachable, invalid, over the limits).
func sitemapViewOf(sm audit.Sitemap, broken bool) sitemapView {
	v := sitemapView{URL: sm.URL, Kind: sm.Kind, URLs: sm.URLs, Status: sm.Status, Error: sm.Error, Class: "ok"}
	switch sm.Source {
	case audit.SourceRobots:
		v.From = fmt.Sprintf("robots.txt line %d", sm.Line)
		if sm.CrossHost {
			v.From += ", on another host (sitemaps.org cross-submission)"
		}
	case audit.SourceFallback:
		v.From = "/sitemap.xml, tried: robots.txt names no sitemap"
	case audit.SourceIndex:
		parent := sm.Parent
		if u, err := url.Parse(parent); err == nil && u.Path != "" {
			parent = u.Path // the index is on the audited origin: its path says which
		}
		v.From = fmt.Sprintf("index %s, line %d", parent, sm.Line)
	default:
		v.From = sm.Source
	}
	switch {
	case broken:
		v.Class = "bad"
	case sm.Status != audit.StatusOK:
		v.Class = "warn"
	}
	if sm.HTTPStatus != 0 && sm.Status == audit.StatusUnreachable {
		v.Status = fmt.Sprintf("%s (status %d)", sm.Status, sm.HTTPStatus)
	}
	if sm.ErrorLine > 0 {
		v.Error += fmt.Sprintf(" (line %d, byte %d)", sm.ErrorLine, sm.ErrorByte)
	}
	for _, b := range sm.Blocked {
		how := "no robots.txt rule: the fetch status"
		if b.Rule != nil {
			how = fmt.Sprintf("line %d %s", b.Line, *b.Rule)
		}
		if v.Blocked != "" {
			v.Blocked += "; "
		}
		v.Blocked += fmt.Sprintf("%s may not fetch this sitemap (%s)", strings.Join(b.Agents, ", "), how)
	}
	return v
}
