// Package audit checks a live site's sitemaps against its robots.txt: every URL the
// sitemaps list is decided for every crawler asked about, and the report says which
// rule blocks which URLs for which crawlers, which crawlers may not fetch the
// sitemaps themselves, which sitemaps are broken, and what lint finds in the file.
//
// [Run] fetches the origin's robots.txt with package fetch (its status policy
// decides when the file cannot be read), reads its Sitemap lines (or /sitemap.xml
// when it has none), and streams the sitemaps with package sitemap: indexes
// recursively, gzip, the sitemaps.org limits per file and overall limits on files,
// URLs, depth and time ([Limits]). A sitemap that robots.txt lists on another host
// is read, as sitemaps.org's cross-submission allows (the file's owner vouches for
// it), and so are those its index lists on its own host; its URLs on the audited
// origin are decided. A sitemap an index lists on yet another origin is reported,
// not read. Memory stays flat in the number of URLs: each URL is decided as it is read
// and only counts, a few examples per rule and a bounded tree are kept.
//
// It is the engine of "robots audit" and of the service's POST /v1/audit, which
// share the JSON shape of [Report].
package audit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/defaults"
	"github.com/gorobots/robots/internal/weburl"
	"github.com/gorobots/robots/lint"
	"github.com/gorobots/robots/sitemap"
	"golang.org/x/sync/semaphore"
)

// The defaults of the overall limits (the per-file ones are sitemaps.org's).
const (
	// DefaultMaxSitemaps bounds the sitemap files fetched: an index may list 50,000
	// sitemaps, and a site with a thousand files is already large.
	DefaultMaxSitemaps = 1000
	// DefaultMaxURLs bounds the sitemap URLs read in all: five million URLs are
	// decided in seconds to minutes, most of it reading XML.
	DefaultMaxURLs = 5_000_000
	// DefaultMaxDepth bounds the nesting of sitemap indexes: sitemaps.org allows
	// none (an index lists sitemaps, not indexes), sites nest a few.
	DefaultMaxDepth = 3
	// DefaultTimeout bounds the whole audit.
	DefaultTimeout = 5 * time.Minute
	// DefaultExamples is how many example URLs each blocking rule keeps.
	DefaultExamples = 5
	// DefaultMaxExamples bounds the example URLs of one report, all rules together:
	// a file of thousands of rules, each blocking some URLs for crawlers of a hundred
	// groups, kept 50 examples of each and made a report of hundreds of MB. Past it
	// the rules found later keep their counts but no more examples.
	DefaultMaxExamples = 2000
	// MaxRuleClasses bounds the (rule, class of crawlers) pairs whose blocked URLs a
	// report counts apart (see Block): a file of 4,000 rules in a hundred groups, one
	// per crawler asked about, made 400,000 of them and an audit of 663 MiB. Past it,
	// URLs blocked by other pairs count in the totals (Totals.BlockedURLs,
	// Totals.BlockedUnlisted) but not in Report.Blocked.
	MaxRuleClasses = 10_000
	// MaxUnreadListed bounds the sitemaps listed in the report that were not read
	// (cross-host, skipped, not a URL): an index may list 50,000 of them. The report
	// counts the others (Totals.SitemapsUnlisted).
	MaxUnreadListed = 100
	// DecideRun is how many URLs an audit reads before it decides them, together,
	// holding a unit of Config.Cores.
	DecideRun = 256
	// MaxPrefetch is how many sitemaps of the queue are requested ahead of the one
	// being read, so that the servers' latency overlaps the reading: the sitemaps
	// of a site are read four or five at a time, as a polite crawler would.
	MaxPrefetch = 4
	// UserAgent is the User-Agent of sitemap requests.
	UserAgent = "robots-audit/1 (+https://github.com/gorobots/robots)"
)

// Limits bounds an audit. A zero field takes its default (see DefaultLimits).
type Limits struct {
	Sitemaps  int           // sitemap files fetched in all (DefaultMaxSitemaps)
	URLs      int           // sitemap URLs read in all (DefaultMaxURLs)
	FileURLs  int           // entries per file (sitemap.MaxURLs, 50,000)
	FileBytes int64         // bytes per file, uncompressed (sitemap.MaxBytes, 50 MiB)
	Depth     int           // sitemap index nesting (DefaultMaxDepth)
	Time      time.Duration // the whole audit (DefaultTimeout)
	Nesting   int           // XML element nesting per file (sitemap.MaxDepth)
}

// DefaultLimits returns the limits a zero Limits stands for.
func DefaultLimits() Limits {
	return Limits{
		Sitemaps: DefaultMaxSitemaps, URLs: DefaultMaxURLs, FileURLs: sitemap.MaxURLs,
		FileBytes: sitemap.MaxBytes, Depth: DefaultMaxDepth, Time: DefaultTimeout, Nesting: sitemap.MaxDepth,
	}
}

// Or returns l with each field zero or below taken from d: a server's own maxima, say.
func (l Limits) Or(d Limits) Limits {
	return Limits{
		Sitemaps: defaults.Or(l.Sitemaps, d.Sitemaps), URLs: defaults.Or(l.URLs, d.URLs),
		FileURLs: defaults.Or(l.FileURLs, d.FileURLs), FileBytes: defaults.Or(l.FileBytes, d.FileBytes),
		Depth: defaults.Or(l.Depth, d.Depth), Time: defaults.Or(l.Time, d.Time), Nesting: defaults.Or(l.Nesting, d.Nesting),
	}
}

// Config configures an audit. The zero Config audits for the major crawlers
// (crawlers.Names) in Google's reading, with the default limits.
type Config struct {
	// Fetch fetches robots.txt (status policy, redirects, size limit, cache); a
	// fetch.NewClient with Dialect when nil.
	Fetch *fetch.Client
	// HTTP fetches the sitemaps (a plain http.Client when nil). A server passes a
	// client whose dialer refuses private addresses.
	HTTP *http.Client
	// Agents are the crawlers asked about, by product token (crawlers.Names() when
	// empty).
	Agents  []string
	Dialect robots.Dialect
	Limits  Limits
	// Intended are the crawlers among Agents that the site blocks on purpose (say
	// GPTBot): their blocks are reported, but Report.Fails does not count them. See
	// Intended, which reads them from purposes and names.
	Intended []string
	// NamedOnly are the crawlers of Intended whose blocks are intended only when a
	// group of the file names them (Intent's second list: an -allow-blocked purpose
	// names them): CCBot blocked by the "*" group's rules is not counted intended.
	NamedOnly []string
	// Pages is how many pages the audit fetches for their headers and meta tags
	// (X-Robots-Tag, robots meta, TDMRep, Content-Usage fields): the root URL and the
	// first sitemap URLs, at most MaxPages. With 0 the answers per purpose (Report.Stance)
	// are given for the root URL from the site's files alone.
	Pages int
	// Examples is how many example URLs each blocking rule keeps (DefaultExamples).
	Examples int
	// MaxExamples bounds the example URLs of the whole report (DefaultMaxExamples).
	MaxExamples int
	// Cores, when set, bounds the cores that the audits sharing it spend deciding
	// URLs: an audit decides each DecideRun URLs it has read while it holds one unit
	// of Cores, and reads sitemaps (waiting on the network) without one. A server
	// shares one among its audits, with fewer units than it has cores, so that
	// audits of files of thousands of rules leave cores to its other requests.
	Cores *semaphore.Weighted
	// Hosts names other hosts of the site whose robots.txt is fetched and compared
	// with the audited origin's, as Search Console reports a site's top hosts: the
	// words "www", "bare", "http", "https", "all", a subdomain's label, or a host
	// (see Hosts). As names the crawlers fetched as, with their documented
	// User-Agent headers (see Headers): a token, a purpose or "major". With either,
	// Report.Variants says what each host and crawler receives and where that
	// tells a crawler asked about different things.
	Hosts, As []string
	// Progress, when set, is called as the audit goes, at most every 100 ms, on the
	// audit's goroutine.
	Progress func(Progress)
	// Verdicts, when set, is called for every sitemap URL of the origin as it is
	// decided, with each crawler's decision in the order of Agents (the slice is
	// reused: copy what is kept), on the audit's goroutine: "robots audit -format
	// csv" writes them as they come, in flat memory.
	Verdicts func(url string, decisions []robots.Decision)
	// Robots, when set, is the robots.txt the audit decides by in place of the
	// origin's live file: an earlier version (fetch.Version.Result), or a file not
	// yet published. Its origin and URL are taken as the audited origin's; the
	// sitemaps its Sitemap lines list are read live, as are the pages. RobotsFrom
	// names it for the report (Report.RobotsFrom): "draft.txt", "version 3".
	Robots     *fetch.Result
	RobotsFrom string
}

// Progress tells how far an audit is.
type Progress struct {
	Sitemaps int           // sitemap files read
	Queued   int           // sitemap files waiting
	URLs     int           // URLs read
	Current  string        // the sitemap being read
	Elapsed  time.Duration // since the audit began
}

// ErrTarget is matched (errors.Is) by the error for a target that is not an http(s)
// URL.
var ErrTarget = errors.New("audit needs an http or https URL (an origin or its robots.txt)")

// Run audits the origin of target, an origin ("https://example.com") or its
// robots.txt URL typed as people type them: a host without a scheme is accepted,
// "example.com" read as https://example.com/, an IP address, localhost or a port
// other than 443 as http (internal/weburl's Site; any other URL is read as its
// origin). It returns an error only when the audit cannot run at all: a
// target that is not a URL, or ctx ending. A robots.txt that cannot be fetched is
// not an error: the status policy decides (Report.Robots), and limits reached end
// the audit early with Report.Stopped saying which.
func Run(ctx context.Context, target string, cfg Config) (*Report, error) {
	u, _, err := weburl.Site(target)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrTarget, err)
	}
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		return nil, fmt.Errorf("%w: %q", ErrTarget, target)
	}
	origin, err := fetch.Origin(u)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrTarget, err)
	}
	a := newAuditor(origin, cfg)
	a.rep.Target = target
	if len(cfg.Hosts) > 0 || len(cfg.As) > 0 {
		if a.hosts, a.as, err = variantsOf(origin, cfg); err != nil {
			return nil, err
		}
	}
	return a.run(ctx)
}

// auditor is the state of one audit.
type auditor struct {
	cfg          Config
	lim          Limits
	origin       string
	rep          *Report
	start        time.Time
	hc           *http.Client
	dec          *decider
	stats        *stats
	tree         *tree
	queue        []*Sitemap
	seen         map[string]bool
	fetched      int
	found        []*Sitemap // in the order found; those read or queued, and the first unread
	leftOut      string     // "max-sitemaps" when sitemaps were left out
	unread       int
	inflight     map[*Sitemap]*pending // prefetched requests
	homeOf       map[string]string     // sitemap URL queued → the origin it may redirect within besides the audited one
	undecided    []string              // URLs read, to decide (decide)
	samples      []string              // the first sitemap URLs of the origin, for Config.Pages
	lastProgress time.Time
	stopped      string
	hosts        []Host            // Config.Hosts read, the audited origin first; nil without Hosts and As
	as           []crawlers.Header // Config.As read
}

func newAuditor(origin string, cfg Config) *auditor {
	if len(cfg.Agents) == 0 {
		cfg.Agents = crawlers.Names()
	}
	cfg.Examples = defaults.Or(cfg.Examples, DefaultExamples)
	cfg.MaxExamples = defaults.Or(cfg.MaxExamples, DefaultMaxExamples)
	hc := sameOrigin(cfg.HTTP, origin)
	now := time.Now()
	return &auditor{
		cfg: cfg, lim: cfg.Limits.Or(DefaultLimits()), origin: origin, hc: hc, start: now,
		seen: map[string]bool{}, inflight: map[*Sitemap]*pending{}, homeOf: map[string]string{},
		rep: &Report{
			Origin: origin, Agents: append([]string(nil), cfg.Agents...), Dialect: cfg.Dialect.String(),
			Intended: intendedOf(cfg.Agents, cfg.Intended),
			Lint:     []lint.Finding{}, Purposes: []Purpose{}, Blocked: []Block{}, Sitemaps: []Sitemap{}, Rules: []RuleRef{}, CrawlDelays: []CrawlDelay{}, Stance: []Stance{},
			StartedAt: now.UTC().Truncate(time.Second),
		},
	}
}

func (a *auditor) run(parent context.Context) (*Report, error) {
	ctx, cancel := context.WithTimeout(parent, a.lim.Time)
	defer func() {
		cancel() // first, so that prefetched requests still waiting end at once
		a.drop()
	}()
	rep := a.rep
	rep.Limits = a.lim

	fc := a.cfg.Fetch
	if fc == nil {
		fc = fetch.NewClient(fetch.Config{Dialect: a.cfg.Dialect})
	}
	var res *fetch.Result
	var err error
	if a.cfg.Robots != nil {
		given := *a.cfg.Robots
		given.Origin, given.RobotsURL, given.Robots = a.origin, a.origin+"/robots.txt", nil
		res, rep.RobotsFrom = &given, cmp.Or(a.cfg.RobotsFrom, "a file given")
	} else {
		res, err = fc.Get(ctx, a.origin+"/robots.txt")
	}
	switch {
	case err == nil:
	case parent.Err() != nil:
		return nil, parent.Err()
	case ctx.Err() == context.DeadlineExceeded:
		// The audit's own time limit ended the fetch: the report says so, as it does
		// for sitemaps, and that the file decides as an unreachable one would.
		res = &fetch.Result{Origin: a.origin, RobotsURL: a.origin + "/robots.txt", Outcome: fetch.Unreachable, Effect: fetch.DisallowAll,
			Err: &fetch.Error{Kind: fetch.KindTimeout, Text: fmt.Sprintf("not fetched before the audit stopped at %s (%v)", limitFlag("timeout"), a.lim.Time)}}
		a.stopped = "timeout"
	default:
		return nil, fmt.Errorf("fetching %s/robots.txt: %w", a.origin, err)
	}
	rep.Robots = res.Report()
	var rb *robots.Robots
	if res.Effect == fetch.ObeyRules {
		rb = robots.ParseString(res.Body, robots.WithDialect(a.cfg.Dialect))
		// Within the time limit: the lint of a file of thousands of wildcard rules
		// took seconds. A lint stopped there leaves out the findings of its last check.
		if rep.Lint, err = lint.CheckContext(ctx, res.RobotsURL, []byte(res.Body), lint.Options{}); err != nil {
			a.stopped = "timeout"
		}
		if rep.Lint == nil {
			rep.Lint = []lint.Finding{}
		}
	}
	if a.hosts != nil {
		rep.Variants = compare(ctx, compareConfig{fetch: fc, hosts: a.hosts, as: a.as, agents: a.cfg.Agents, dialect: a.cfg.Dialect})
	}
	rep.Intended = aimedAt(rb, rep.Intended, a.cfg.NamedOnly)
	rep.Purposes = purposes(rb, res.Effect, a.origin)
	rep.CrawlDelays = crawlDelays(rb, a.cfg.Agents)
	a.dec = newDecider(rb, res.Effect, a.cfg.Agents)
	a.stats = newStats(a.dec, a.cfg.Examples, a.cfg.MaxExamples)
	a.tree = newTree(a.dec, a.origin)

	// The sitemaps robots.txt lists, or /sitemap.xml when it has no Sitemap line.
	lines := 0
	if rb != nil {
		for _, f := range rb.Fields() {
			if f.Name == "sitemap" {
				lines++
				a.enqueue(&Sitemap{URL: f.Value, Source: SourceRobots, Line: f.Line})
			}
		}
	}
	if lines == 0 {
		rep.SitemapFallback = true
		a.enqueue(&Sitemap{URL: a.origin + "/sitemap.xml", Source: SourceFallback})
	}
	for len(a.queue) > 0 {
		sm := a.queue[0]
		a.queue = a.queue[1:]
		if a.stopped == "" {
			switch {
			case ctx.Err() != nil:
				if parent.Err() != nil {
					return nil, parent.Err()
				}
				a.stopped = "timeout"
			case rep.Totals.URLs+rep.Totals.OffOriginURLs+rep.Totals.InvalidURLs >= a.lim.URLs:
				a.stopped = "max-urls"
			}
		}
		if a.stopped != "" {
			a.skip(sm, "not read: the audit stopped at "+limitFlag(a.stopped))
			continue
		}
		a.read(ctx, sm)
		if ctx.Err() != nil && parent.Err() != nil {
			return nil, parent.Err()
		}
	}
	rep.Stopped = cmp.Or(a.stopped, a.leftOut)
	a.finish()
	rep.Stance = a.stance(ctx, fc, rb, res)
	return rep, nil
}

// limitFlag names a limit by its flag.
func limitFlag(stopped string) string {
	switch stopped {
	case "timeout":
		return "the time limit (-timeout)"
	case "max-sitemaps":
		return "-max-sitemaps"
	case "max-urls":
		return "-max-urls"
	}
	return stopped
}

// enqueue adds a sitemap to read, once per URL, or reports it: cross-host, not a
// URL, too deep, or past -max-sitemaps.
func (a *auditor) enqueue(sm *Sitemap) {
	raw := sm.URL
	u, err := weburl.Encode(raw)
	if err == nil && !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		err = fmt.Errorf("%q: not an http or https URL", raw)
	}
	if err != nil {
		sm.Status, sm.Error = StatusInvalid, err.Error()
		a.list(sm)
		return
	}
	sm.URL = u
	if a.seen[u] {
		return
	}
	o, err := fetch.Origin(u)
	if err != nil {
		sm.Status, sm.Error = StatusInvalid, err.Error()
		a.list(sm)
		return
	}
	sm.home = a.origin
	if o != a.origin {
		// sitemaps.org's cross-submission: robots.txt may list a sitemap on any host,
		// and that sitemap's index its own host's sitemaps. An index's sitemap on a
		// third origin is vouched for by nobody.
		if sm.Source == SourceIndex && o != a.homeOf[sm.Parent] {
			sm.Status = StatusCrossHost
			sm.Error = fmt.Sprintf("on another origin than %s/robots.txt and than its index: its URLs are decided by that origin's robots.txt; not read", a.origin)
			a.list(sm)
			return
		}
		sm.CrossHost, sm.home = true, o
	}
	if sm.Depth > a.lim.Depth {
		a.skip(sm, fmt.Sprintf("not read: nested deeper than -max-depth %d", a.lim.Depth))
		return
	}
	if a.fetched+len(a.queue) >= a.lim.Sitemaps {
		a.leftOut = "max-sitemaps"
		a.skip(sm, "not read: past -max-sitemaps")
		return
	}
	a.seen[u] = true
	a.homeOf[u] = sm.home
	sm.queued = true
	a.queue = append(a.queue, sm)
	a.found = append(a.found, sm)
}

// list adds a sitemap that was not queued to the report: the first MaxUnreadListed
// of those not read (cross-host, skipped, not a URL), and Totals.SitemapsUnlisted
// counts the rest. A queued sitemap is listed in the order it was found; if it is
// skipped rather than read, it counts among the unread.
func (a *auditor) list(sm *Sitemap) {
	a.unread++
	if a.unread > MaxUnreadListed {
		a.rep.Totals.SitemapsUnlisted++
		sm.hidden = true
		return
	}
	if !sm.queued {
		a.found = append(a.found, sm)
	}
}

func (a *auditor) skip(sm *Sitemap, why string) {
	a.rep.Totals.SitemapsSkipped++
	sm.Status, sm.Error = StatusSkipped, why
	a.list(sm)
}

// read fetches one sitemap and decides its URLs.
func (a *auditor) read(ctx context.Context, sm *Sitemap) {
	defer a.decided(ctx)
	a.fetched++
	sm.Blocked = []SitemapBlock{} // on another host, another robots.txt decides whether it may be fetched
	if !sm.CrossHost {
		sm.Blocked = a.dec.sitemapBlocks(sm.URL)
	}
	a.progress(sm.URL, true)

	a.prefetch(ctx)
	resp, err := a.response(ctx, sm)
	if err != nil {
		var away *offOrigin
		if errors.As(err, &away) {
			sm.Status = StatusCrossHost
			sm.Error = fmt.Sprintf("redirects to %s, on another origin than %s/robots.txt and than the sitemap: its URLs are decided by that origin's robots.txt; not read", away.to, a.origin)
			return
		}
		sm.Status, sm.Error = StatusUnreachable, err.Error()
		if ctx.Err() == context.DeadlineExceeded {
			// The audit's own time limit ended the wait, not the server: the report
			// says the audit stopped there, even when this was the last sitemap.
			a.stopped = "timeout"
			sm.Error = "no answer before the audit stopped at " + limitFlag("timeout")
		}
		return
	}
	defer resp.Body.Close()
	sm.HTTPStatus = resp.StatusCode
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		sm.Status, sm.Error = StatusUnreachable, fmt.Sprintf("HTTP %d", resp.StatusCode)
		return
	}
	sr, err := sitemap.NewReader(resp.Body, sitemap.Limits{URLs: a.lim.FileURLs, Bytes: a.lim.FileBytes, Nesting: a.lim.Nesting})
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			a.stoppedReading(sm)
			return
		}
		a.readError(sm, err)
		return
	}
	sm.Gzip = sr.Gzip()
	for {
		e, err := sr.Next()
		if err != nil {
			sm.Kind, sm.Bytes, sm.Entries = string(sr.Kind()), sr.Bytes(), sr.Count()
			switch {
			case err == io.EOF:
				sm.Status = StatusOK
			case ctx.Err() == context.DeadlineExceeded:
				a.stoppedReading(sm)
			default:
				a.readError(sm, err)
			}
			return
		}
		if sr.Kind() == sitemap.Index {
			a.enqueue(&Sitemap{URL: e.Loc, Source: SourceIndex, Parent: sm.URL, Line: e.Line, Depth: sm.Depth + 1})
			continue
		}
		t := &a.rep.Totals
		if t.URLs+t.OffOriginURLs+t.InvalidURLs >= a.lim.URLs {
			a.stopped = "max-urls"
			sm.Kind, sm.Bytes, sm.Entries = string(sr.Kind()), sr.Bytes(), sr.Count()-1
			sm.Status, sm.Error = StatusOK, "read in part: the audit stopped at -max-urls"
			return
		}
		if e.Err != nil {
			t.InvalidURLs++
			continue
		}
		u, ok := a.pageURL(e.Loc)
		switch {
		case ok:
			sm.URLs++
			t.URLs++
			a.decide(ctx, u)
		case u == "":
			t.InvalidURLs++
		default:
			t.OffOriginURLs++
		}
		if sr.Count()&1023 == 0 {
			if ctx.Err() != nil {
				sm.Kind, sm.Bytes, sm.Entries = string(sr.Kind()), sr.Bytes(), sr.Count()
				a.stoppedReading(sm)
				return
			}
			a.progress(sm.URL, false)
		}
	}
}

// stoppedReading reports a sitemap whose reading the audit's time limit ended (the
// server trickling it, or a large file): read in part, the audit stopped.
func (a *auditor) stoppedReading(sm *Sitemap) {
	a.stopped = "timeout"
	sm.Status, sm.Error = StatusOK, "read in part: the audit stopped at "+limitFlag("timeout")
}

// response is the answer to a request for sitemap sm, prefetched or not.
func (a *auditor) response(ctx context.Context, sm *Sitemap) (*http.Response, error) {
	p, ok := a.inflight[sm]
	if !ok {
		return a.get(ctx, sm)
	}
	delete(a.inflight, sm)
	<-p.done
	return p.resp, p.err
}

func (a *auditor) get(ctx context.Context, sm *Sitemap) (*http.Response, error) {
	ctx = context.WithValue(ctx, homeKey{}, sm.home)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, sm.URL, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", UserAgent)
	return a.hc.Do(req)
}

// prefetch requests the first MaxPrefetch sitemaps of the queue that are not
// requested yet, so that their servers' latency overlaps the reading of the current
// one. Each answer is read, in the queue's order, by read.
func (a *auditor) prefetch(ctx context.Context) {
	for _, sm := range a.queue[:min(len(a.queue), MaxPrefetch)] {
		if _, ok := a.inflight[sm]; ok {
			continue
		}
		p := &pending{done: make(chan struct{})}
		a.inflight[sm] = p
		go func() {
			p.resp, p.err = a.get(ctx, sm)
			close(p.done)
		}()
	}
}

// pending is a prefetched request.
type pending struct {
	done chan struct{}
	resp *http.Response
	err  error
}

// drop closes the answers prefetched for sitemaps that will not be read.
func (a *auditor) drop() {
	for sm, p := range a.inflight {
		<-p.done
		if p.resp != nil {
			p.resp.Body.Close()
		}
		delete(a.inflight, sm)
	}
}

// readError records why a file could not be read to its end.
func (a *auditor) readError(sm *Sitemap, err error) {
	var se *sitemap.SyntaxError
	switch {
	case errors.As(err, &se):
		sm.Status, sm.ErrorLine, sm.ErrorByte = StatusInvalid, se.Line, se.Offset
		sm.Error = se.Err.Error()
	case errors.Is(err, sitemap.ErrTooManyURLs), errors.Is(err, sitemap.ErrTooLarge):
		sm.Status, sm.Error = StatusOverLimit, err.Error()
		if errors.Is(err, sitemap.ErrTooManyURLs) {
			sm.Error = fmt.Sprintf("more than %d entries: the rest is ignored, as search engines ignore it", a.lim.FileURLs)
		} else {
			sm.Error = fmt.Sprintf("larger than %d bytes uncompressed: the rest is ignored, as search engines ignore it", a.lim.FileBytes)
		}
	default:
		sm.Status, sm.Error = StatusUnreachable, "reading: "+err.Error()
	}
}

// pageURL returns loc as the URL a crawler requests and true when it is on the
// audited origin; the URL and false for another origin; "" and false when loc is not
// an http(s) URL.
func (a *auditor) pageURL(loc string) (string, bool) {
	u, err := weburl.Encode(loc)
	if err != nil || !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		return "", false
	}
	o, err := fetch.Origin(u)
	if err != nil {
		return "", false
	}
	return u, o == a.origin
}

// decide decides u for every crawler and counts it, with the URLs read before it,
// once there are DecideRun of them; decided decides those left.
func (a *auditor) decide(ctx context.Context, u string) {
	if len(a.samples) < min(a.cfg.Pages, MaxPages) {
		a.samples = append(a.samples, u)
	}
	a.undecided = append(a.undecided, u)
	if len(a.undecided) == DecideRun {
		a.decided(ctx)
	}
}

// decided decides and counts the URLs read so far, holding a unit of Config.Cores.
// Once ctx is done (the audit's time limit) it decides no more, waiting for a unit
// or between URLs: the URLs left are counted in Totals.UndecidedURLs, and the audit
// stops. A decision on a file of many wildcard rules can cost milliseconds, and a
// run of them seconds: the report comes by the time limit all the same.
func (a *auditor) decided(ctx context.Context) {
	if len(a.undecided) == 0 {
		return
	}
	left := a.undecided
	if ctx.Err() == nil {
		if c := a.cfg.Cores; c != nil {
			if c.Acquire(ctx, 1) == nil {
				defer c.Release(1)
			}
		}
	}
	var per []robots.Decision
	if a.cfg.Verdicts != nil {
		per = make([]robots.Decision, len(a.cfg.Agents))
	}
	for ctx.Err() == nil && len(left) > 0 {
		u := left[0]
		left = left[1:]
		a.dec.decide(u)
		a.stats.add(u)
		a.tree.add(u)
		if per != nil {
			for i, c := range a.dec.classOf {
				per[i] = a.dec.cur[c]
			}
			a.cfg.Verdicts(u, per)
		}
	}
	if len(left) > 0 {
		a.rep.Totals.UndecidedURLs += len(left)
		a.stopped = "timeout"
	}
	clear(a.undecided)
	a.undecided = a.undecided[:0]
}

func (a *auditor) progress(current string, force bool) {
	if a.cfg.Progress == nil {
		return
	}
	now := time.Now()
	if !force && now.Sub(a.lastProgress) < 100*time.Millisecond {
		return
	}
	a.lastProgress = now
	a.cfg.Progress(Progress{Sitemaps: a.fetched, Queued: len(a.queue), URLs: a.rep.Totals.URLs, Current: current, Elapsed: now.Sub(a.start)})
}

// finish fills the report from the counts.
func (a *auditor) finish() {
	rep := a.rep
	rep.Totals.BlockedURLs = a.dec.perAgent(a.stats.blocked)
	rep.Totals.BlockedAny = a.stats.any
	rep.Totals.BlockedUnlisted = a.stats.unlisted
	rep.Blocked = a.stats.blocks()
	for _, sm := range a.found {
		if sm.Source == SourceFallback && sm.Status == StatusUnreachable {
			// A /sitemap.xml that is not there is no sitemap crawlers are kept from.
			sm.Blocked = []SitemapBlock{}
		}
		if !sm.hidden {
			rep.Sitemaps = append(rep.Sitemaps, *sm)
		}
	}
	for _, sm := range a.found {
		switch sm.Status {
		case StatusOK, StatusInvalid, StatusOverLimit:
			rep.Totals.Sitemaps++
		case StatusUnreachable:
			rep.Totals.SitemapsFailed++
		}
	}
	rep.Tree = a.tree.output()
	rep.Rules = a.dec.ruleRefs()
	rep.Seconds = time.Since(a.start).Seconds()
}

// offOrigin is the error of a sitemap request redirected to another origin.
type offOrigin struct{ to string }

func (e *offOrigin) Error() string { return "redirected to another origin: " + e.to }

// homeKey is the context key of the origin a sitemap request may redirect within
// besides the audited one: the sitemap's own, for one cross-submitted from another
// host.
type homeKey struct{}

// sameOrigin returns a copy of hc (a plain client when nil) that does not follow
// redirects off origin (the audited one, or the cross-submitted sitemap's own): a
// sitemap that redirects to another host is reported as cross-host, as one an
// index lists there is, instead of being read silently. Redirects within the
// origin follow hc's own policy (net/http's ten hops when it has none).
func sameOrigin(hc *http.Client, origin string) *http.Client {
	c := http.Client{}
	if hc != nil {
		c = *hc
	}
	next := c.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		home, _ := req.Context().Value(homeKey{}).(string)
		if o, err := fetch.Origin(req.URL.String()); err != nil || o != origin && o != home {
			return &offOrigin{to: req.URL.String()}
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &c
}
