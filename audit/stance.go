package audit

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/htmlmeta"
	"github.com/gorobots/robots/signals"
)

// MaxPages bounds Config.Pages: each page is a request and up to a megabyte read.
const MaxPages = 100

// Stance is the answer for one purpose at one URL, shared by the crawlers asked about
// that have the purpose and get the same answer.
type Stance struct {
	Purpose signals.Purpose `json:"purpose"`
	URL     string          `json:"url"`
	Agents  []string        `json:"agents"`
	// Fetched is true when the page itself was fetched, so that its headers and meta
	// tags are among the signals; false for the site's files alone.
	Fetched        bool             `json:"fetched"`
	Verdict        signals.Verdict  `json:"verdict"`
	Signals        []signals.Signal `json:"signals"`
	Contradictions []string         `json:"contradictions"`
	Readings       string           `json:"readings,omitempty"`
	// Problems are what could not be read (a licence, tdmrep.json, a page).
	Problems []string `json:"problems"`
}

// purposeCrawlers are the crawler purposes of the registry that each answer's purpose
// is asked for.
var purposeCrawlers = map[signals.Purpose][]crawlers.Purpose{
	signals.Search:   {crawlers.Search},
	signals.AITrain:  {crawlers.AITrain},
	signals.AIInput:  {crawlers.AISearch, crawlers.AIUser},
	signals.AISearch: {crawlers.AISearch},
	signals.AIUser:   {crawlers.AIUser},
}

// agentsFor returns the crawlers asked about that have purpose p, and those the
// registry does not know (whose purposes no one has said: every purpose is answered
// for them), or, when there are none, the registry's first with p (so that every
// purpose is answered).
func agentsFor(asked []string, p signals.Purpose) []string {
	var out []string
	for _, name := range asked {
		if c, ok := crawlers.Lookup(name); !ok || slices.ContainsFunc(purposeCrawlers[p], c.Has) {
			out = append(out, name)
		}
	}
	if len(out) == 0 {
		for _, cp := range purposeCrawlers[p] {
			if cs := crawlers.WithPurpose(cp); len(cs) > 0 {
				return []string{cs[0].Name}
			}
		}
	}
	return out
}

// SiteSignals gathers what a site says beside its robots.txt, for signals.Answers:
// the file (rb, nil for none, and its body), the RSL licences of its first
// fetch.MaxLicenseLines License lines and its tdmrep.json, each fetched by fc (cached,
// bounded as fc's fetches are). It returns what could not be read beside it. The
// caller sets Site.Other, the other reading of the file, when it has it (else
// signals.Answers parses it on each call).
func SiteSignals(ctx context.Context, fc *fetch.Client, origin string, rb *robots.Robots, body string) (signals.Site, []string) {
	site := signals.Site{Robots: rb}
	var problems []string
	if rb != nil {
		site.Body = body
		for i, lu := range rb.Licenses() {
			l := signals.License{URL: lu}
			if i >= fetch.MaxLicenseLines {
				l.Err = fmt.Sprintf("not fetched: past the first %d License lines", fetch.MaxLicenseLines)
				problems = append(problems, "RSL licence "+lu+": "+l.Err)
				site.Licenses = append(site.Licenses, l)
				continue
			}
			lic, err := fc.License(ctx, lu)
			if err != nil {
				l.Err = err.Error()
				problems = append(problems, "RSL licence: "+err.Error())
			} else {
				l.Doc = lic.Doc
			}
			site.Licenses = append(site.Licenses, l)
		}
	}
	if tf, err := fc.TDMFile(ctx, origin+"/"); err != nil {
		problems = append(problems, "tdmrep.json: "+err.Error())
	} else {
		site.TDM = tf.File
	}
	return site, problems
}

// StanceAt appends to out the answer per purpose at rawURL for the crawlers asked
// that have the purpose (and those the registry does not know), joining crawlers
// whose answers are the same but for their names. page is the page fetched, or nil;
// problems are what could not be read, said with each answer.
func StanceAt(out []Stance, site signals.Site, asked []string, rawURL string, page *signals.Page, problems []string, now time.Time) []Stance {
	answers := map[string][]signals.Answer{} // each crawler's, asked once
	for _, p := range signals.Purposes() {
		for _, agent := range agentsFor(asked, p) {
			ans, ok := answers[agent]
			if !ok {
				ans = signals.Answers(site, agent, rawURL, page, now)
				answers[agent] = ans
			}
			for _, an := range ans {
				if an.Purpose == p {
					out = addStance(out, an, page != nil, problems)
				}
			}
		}
	}
	return out
}

// stance answers every purpose at the root URL and the pages sampled.
func (a *auditor) stance(ctx context.Context, fc *fetch.Client, rb *robots.Robots, res *fetch.Result) []Stance {
	body := ""
	if rb != nil {
		body = res.Body
	}
	site, problems := SiteSignals(ctx, fc, a.origin, rb, body)
	site.Other = signals.OtherReading(rb, body)
	urls := []string{a.origin + "/"}
	for _, u := range a.samples {
		if len(urls) >= min(a.cfg.Pages, MaxPages) {
			break
		}
		if !slices.Contains(urls, u) {
			urls = append(urls, u)
		}
	}
	now := time.Now()
	out := []Stance{}
	for i, u := range urls {
		var page *signals.Page
		pageProblems := slices.Clone(problems)
		if a.cfg.Pages > 0 && i < a.cfg.Pages {
			p, err := a.fetchPage(ctx, u)
			if err != nil {
				pageProblems = append(pageProblems, "page: "+err.Error())
			} else {
				page = p
			}
		}
		out = StanceAt(out, site, a.cfg.Agents, u, page, pageProblems, now)
	}
	return out
}

// addStance adds an answer, joining the entry of the same purpose and URL whose
// answer is the same but for the crawler's name.
func addStance(out []Stance, an signals.Answer, fetched bool, problems []string) []Stance {
	for i := range out {
		if o := &out[i]; o.Purpose == an.Purpose && o.URL == an.URL && o.Verdict == an.Verdict && o.Readings == an.Readings && sameShape(o, an) {
			o.Agents = append(o.Agents, an.Agent)
			return out
		}
	}
	if problems == nil {
		problems = []string{}
	}
	return append(out, Stance{Purpose: an.Purpose, URL: an.URL, Agents: []string{an.Agent}, Fetched: fetched, Verdict: an.Verdict,
		Signals: an.Signals, Contradictions: an.Contradictions, Readings: an.Readings, Problems: problems})
}

// sameShape reports whether o's answer is an's but for the crawler's name.
func sameShape(o *Stance, an signals.Answer) bool {
	first := o.Agents[0]
	if len(o.Signals) != len(an.Signals) || len(o.Contradictions) != len(an.Contradictions) {
		return false
	}
	for i := range o.Signals {
		if o.Signals[i].Verdict != an.Signals[i].Verdict || o.Signals[i].Source != an.Signals[i].Source ||
			strings.ReplaceAll(o.Signals[i].Says, first, "\x00") != strings.ReplaceAll(an.Signals[i].Says, an.Agent, "\x00") {
			return false
		}
	}
	for i := range o.Contradictions {
		if strings.ReplaceAll(o.Contradictions[i], first, "\x00") != strings.ReplaceAll(an.Contradictions[i], an.Agent, "\x00") {
			return false
		}
	}
	return true
}

// fetchPage fetches a page for its header and, for HTML, its head: at most
// htmlmeta.MaxBytes of it.
func (a *auditor) fetchPage(ctx context.Context, u string) (*signals.Page, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", UserAgent)
	resp, err := a.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fmt.Errorf("%s: HTTP %d", u, resp.StatusCode)
	}
	p := &signals.Page{Header: resp.Header}
	if ct := strings.ToLower(resp.Header.Get("Content-Type")); ct == "" || strings.Contains(ct, "html") {
		if p.Body, err = io.ReadAll(io.LimitReader(resp.Body, htmlmeta.MaxBytes)); err != nil {
			return nil, err
		}
	}
	return p, nil
}
