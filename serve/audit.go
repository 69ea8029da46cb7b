package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/audit"
	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/counttext"
	"github.com/gorobots/robots/sitemap"
)

// POST /v1/audit: a site's sitemaps against its robots.txt (package audit, the
// engine of "robots audit"), answered as the audit's Report. The tester's audit
// mode (auditpage.go) runs the same audit through runAudit.
//
// An audit fetches far more than a check: up to Config.Audit.Sitemaps files of up
// to FileBytes each, for up to Time. So audits have their own bounds: the server's
// maxima (a request may ask for less, not more), MaxAudits at once (past it 503 at
// once), the same guarded dialer as robots.txt fetches for every sitemap request
// and redirect, and a write deadline that follows the audit's time limit.

// Defaults of the audit limits of a server; each is a flag of "robots serve". They
// are lower than the command's (package audit's defaults): the command audits the
// user's own site on the user's machine, the server audits for whoever may call it.
const (
	// DefaultAuditSitemaps bounds the sitemap files one audit fetches: enough for a
	// site whose index lists a hundred sitemaps.
	DefaultAuditSitemaps = 100
	// DefaultAuditURLs bounds the sitemap URLs one audit reads: at the sitemaps.org
	// limit of 50,000 URLs per file, four full files.
	DefaultAuditURLs = 200_000
	// DefaultAuditTime bounds one audit, robots.txt and sitemaps; the answer is the
	// report of what was read by then (Report.Stopped says "timeout").
	DefaultAuditTime = 60 * time.Second
	// DefaultMaxAudits bounds the audits run at once, by the API and the tester
	// together; past it they are answered 503 with Retry-After.
	DefaultMaxAudits = 4
	// MaxAuditExamples bounds the example URLs per blocking rule a request may ask for.
	MaxAuditExamples = 50
	// auditRetryAfter is the Retry-After of an audit refused for MaxAudits: audits
	// take seconds, not milliseconds.
	auditRetryAfter = 10
	// sitemapRedirects bounds the redirects of one sitemap request, as fetch does
	// for robots.txt.
	sitemapRedirects = 5
)

// defaultAuditLimits are a server's audit maxima when Config.Audit leaves them zero.
func defaultAuditLimits() audit.Limits {
	return audit.Limits{
		Sitemaps:  DefaultAuditSitemaps,
		URLs:      DefaultAuditURLs,
		FileURLs:  sitemap.MaxURLs,
		FileBytes: sitemap.MaxBytes,
		Depth:     audit.DefaultMaxDepth,
		Time:      DefaultAuditTime,
		Nesting:   sitemap.MaxDepth,
	}
}

// auditRequest is the body of POST /v1/audit. Limits use the names of the report's
// "limits" (seconds for the time); zero or absent fields take the server's maxima.
type auditRequest struct {
	URL      string       `json:"url"`
	Agents   []string     `json:"agents"`
	Dialect  string       `json:"dialect"`
	Examples int          `json:"examples"`
	Limits   audit.Limits `json:"limits"`
	// MustAllow and AllowBlocked say which blocks the site intends, as the
	// command's -must-allow and -allow-blocked do (purposes or crawlers; see
	// audit.Intended): the report lists them in "intended".
	MustAllow    []string `json:"must_allow"`
	AllowBlocked []string `json:"allow_blocked"`
	// Tree asks for the tree of the URL space ("tree", "rules"), as the command's
	// -tree does; without it both are null.
	Tree bool `json:"tree"`
	// Pages is how many pages the audit fetches for their headers and meta tags, as
	// the command's -pages does (0 to audit.MaxPages): the report's "stance" then
	// reads them.
	Pages int `json:"pages"`
	// Robots or Version, when given, is the robots.txt the audit decides by in place
	// of the live file, as the command's -robots FILE: a file's text, or the number
	// of a version the store keeps (GET /v1/history). The sitemaps it lists are read
	// live; the report's "robots_from" names it.
	Robots  *string `json:"robots"`
	Version int     `json:"version"`
	// Hosts and As are the command's -hosts and -as (see audit.Config): other hosts
	// of the site whose robots.txt is compared, and crawlers fetched as, with their
	// documented User-Agent; the report's "variants" says what each receives.
	Hosts []string `json:"hosts"`
	As    []string `json:"as"`
}

// auditAgainst is the robots.txt an audit decides by when not the live one: a
// file's text, or a version of the store's history; neither means the live file.
type auditAgainst struct {
	robots  *string
	version int
}

// auditJob is an audit to run (runAudit): what the API's request or the tester's
// form asks for, checked.
type auditJob struct {
	target                  string
	agents                  []string // the major crawlers when none
	dialect                 robots.Dialect
	lim                     audit.Limits
	examples, pages         int
	mustAllow, allowBlocked []string
	against                 auditAgainst
	hosts, as               []string // audit.Config's Hosts and As
	// verdicts, when set, is called with each sitemap URL's decisions as they are
	// made (audit.Config.Verdicts): the CSV export.
	verdicts func(url string, decisions []robots.Decision)
}

func (s *Server) handleAudit(r *http.Request) ([]byte, error) {
	req, job, err := s.auditJobOf(r)
	if err != nil {
		return nil, err
	}
	rep, err := s.runAudit(r.Context(), job)
	if err != nil {
		return nil, err
	}
	if !req.Tree {
		rep.Tree, rep.Rules = nil, nil
	}
	return json.Marshal(rep)
}

// readRequest decodes the JSON body of r into v, refusing fields v does not have (400);
// a body past the route's limit keeps its *http.MaxBytesError (413).
func readRequest(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return err
		}
		return errorf(http.StatusBadRequest, "reading the request: %v", err)
	}
	return nil
}

// auditJobOf reads and checks the body of POST /v1/audit.
func (s *Server) auditJobOf(r *http.Request) (auditRequest, auditJob, error) {
	var req auditRequest
	fail := func(err error) (auditRequest, auditJob, error) { return req, auditJob{}, err }
	if err := readRequest(r, &req); err != nil {
		return fail(err)
	}
	if req.URL == "" {
		return fail(errorf(http.StatusBadRequest, "url is required: the site to audit (an origin or its robots.txt URL)"))
	}
	dialect, err := dialectOf(req.Dialect)
	if err != nil {
		return fail(err)
	}
	lim, err := s.auditLimitsOf(req)
	if err != nil {
		return fail(err)
	}
	if req.Examples < 0 || req.Examples > MaxAuditExamples {
		return fail(errorf(http.StatusBadRequest, "examples: %d, want 0 (the default, %d) to %d", req.Examples, audit.DefaultExamples, MaxAuditExamples))
	}
	if req.Pages < 0 || req.Pages > audit.MaxPages {
		return fail(errorf(http.StatusBadRequest, "pages: %d, want 0 to %d", req.Pages, audit.MaxPages))
	}
	if req.Robots != nil && req.Version != 0 {
		return fail(errorf(http.StatusBadRequest, "robots and version: give one file to audit against"))
	}
	if req.Version < 0 {
		return fail(errorf(http.StatusBadRequest, "version: %d, want a version's number (1 or more)", req.Version))
	}
	return req, auditJob{target: req.URL, agents: req.Agents, dialect: dialect, lim: lim, examples: req.Examples, pages: req.Pages,
		mustAllow: req.MustAllow, allowBlocked: req.AllowBlocked, against: auditAgainst{req.Robots, req.Version}, hosts: req.Hosts, as: req.As}, nil
}

// auditLimitsOf reads a request's limits: each at most the server's.
func (s *Server) auditLimitsOf(req auditRequest) (audit.Limits, error) {
	max := s.cfg.Audit
	lim := max
	q := req.Limits
	for _, f := range []struct {
		name      string
		asked     int64
		most      int64
		set       func(int64)
		sizeValue bool
	}{
		{"sitemaps", int64(q.Sitemaps), int64(max.Sitemaps), func(v int64) { lim.Sitemaps = int(v) }, false},
		{"urls", int64(q.URLs), int64(max.URLs), func(v int64) { lim.URLs = int(v) }, false},
		{"file_urls", int64(q.FileURLs), int64(max.FileURLs), func(v int64) { lim.FileURLs = int(v) }, false},
		{"file_bytes", q.FileBytes, max.FileBytes, func(v int64) { lim.FileBytes = v }, true},
		{"depth", int64(q.Depth), int64(max.Depth), func(v int64) { lim.Depth = int(v) }, false},
		{"nesting", int64(q.Nesting), int64(max.Nesting), func(v int64) { lim.Nesting = int(v) }, false},
	} {
		switch {
		case f.asked < 0:
			return lim, errorf(http.StatusBadRequest, "limits.%s: %d is negative", f.name, f.asked)
		case f.asked > f.most:
			most := counttext.Thousands(int(f.most))
			if f.sizeValue {
				most = sizeText(f.most)
			}
			return lim, errorf(http.StatusRequestEntityTooLarge, "limits.%s: %s, more than this server's limit of %s", f.name, counttext.Thousands(int(f.asked)), most)
		case f.asked > 0:
			f.set(f.asked)
		}
	}
	switch t := q.Time; {
	case t < 0:
		return lim, errorf(http.StatusBadRequest, "limits.seconds: %v is negative", t.Seconds())
	case t > max.Time:
		return lim, errorf(http.StatusRequestEntityTooLarge, "limits.seconds: %v, more than this server's limit of %v", t.Seconds(), max.Time.Seconds())
	case t > 0:
		lim.Time = t
	}
	return lim, nil
}

// runAudit runs job: it audits the target for the agents (the major crawlers when
// none) within the limits. The target's robots.txt is looked up first, as a check
// would: a refused address is 403 and a target that is not a URL 400, before
// anything else is fetched. The caller holds no admission: runAudit takes it.
func (s *Server) runAudit(ctx context.Context, job auditJob) (*audit.Report, error) {
	target, agents, lim := job.target, job.agents, job.lim
	if len(agents) == 0 {
		agents = crawlers.Names()
	}
	if err := s.agentsOf(agents); err != nil {
		return nil, err
	}
	intended, namedOnly, err := audit.Intent(agents, job.mustAllow, job.allowBlocked)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "%v", err)
	}
	release, err := s.admitAudit()
	if err != nil {
		return nil, err
	}
	defer release()
	u, _, err := siteURL(target)
	if err != nil {
		return nil, err
	}
	// The whole audit, its robots.txt included, within the limit; a little more for
	// the report to be made from what was read by then.
	ctx, cancel := context.WithTimeout(ctx, lim.Time+5*time.Second)
	defer cancel()
	// The robots.txt first, so that a refused address is 403, within the audit's
	// time: a file that does not come by then is the report of an audit stopped at
	// its time limit (the audit's own wait for it ends at once), not a 504.
	start := time.Now()
	lctx, lcancel := context.WithTimeout(ctx, min(lim.Time, s.cfg.CheckTimeout))
	live, err := s.lookup(lctx, u)
	lcancel()
	if err != nil && !(errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil) {
		return nil, err
	}
	file, from, err := s.auditFile(ctx, u, live, job.against)
	if err != nil {
		return nil, err
	}
	asked := lim.Time
	lim.Time = max(lim.Time-time.Since(start), time.Millisecond)
	rep, err := audit.Run(ctx, u, audit.Config{
		Fetch:       s.client,
		HTTP:        s.sitemap,
		Agents:      agents,
		Dialect:     job.dialect,
		Limits:      lim,
		Examples:    job.examples,
		MaxExamples: s.cfg.AuditMaxExamples,
		Intended:    intended,
		NamedOnly:   namedOnly,
		Cores:       s.auditCores,
		Pages:       job.pages,
		Verdicts:    job.verdicts,
		Robots:      file,
		RobotsFrom:  from,
		Hosts:       job.hosts,
		As:          job.as,
	})
	switch {
	case err == nil:
		rep.Limits.Time = asked
		return rep, nil
	case errors.Is(err, audit.ErrTarget), errors.Is(err, audit.ErrVariants):
		return nil, errorf(http.StatusBadRequest, "%v", err)
	case ctx.Err() != nil:
		return nil, fmt.Errorf("audit of %s not done within %v: %w", u, lim.Time, context.DeadlineExceeded)
	}
	return nil, err
}

// auditFile returns the robots.txt an audit of u decides by when against names
// one, and its name for the report; nil for the live file. live is the lookup of
// u's robots.txt, nil when it did not come in time.
func (s *Server) auditFile(ctx context.Context, u string, live *fetch.Result, against auditAgainst) (*fetch.Result, string, error) {
	switch {
	case against.robots != nil:
		// Read as a fetch reads a file: its first 500 KiB (the body is bounded by
		// MaxBodyBytes).
		body := *against.robots
		cut := len(body) > robots.DefaultMaxBytes
		if cut {
			body = body[:robots.DefaultMaxBytes]
		}
		return &fetch.Result{Outcome: fetch.Success, Status: 200, Effect: fetch.ObeyRules, Body: body, BytesRead: int64(len(body)), Truncated: cut}, "the file given", nil
	case against.version == 0:
		return nil, "", nil
	}
	hs, ok := s.cfg.Fetch.Store.(fetch.Historian)
	if !ok {
		return nil, "", errorf(http.StatusNotImplemented, "this server's store keeps no history")
	}
	origin, err := fetch.Origin(u)
	if live != nil {
		origin = live.Origin
	}
	if err != nil {
		return nil, "", errorf(http.StatusBadRequest, "%v", err)
	}
	hist, err := hs.History(ctx, origin)
	if err != nil {
		return nil, "", errorf(http.StatusServiceUnavailable, "%v", err)
	}
	for i := range hist {
		if v := &hist[i]; v.N == against.version {
			return v.Result(origin), fmt.Sprintf("version %d (fetched %s)", v.N, v.FetchedAt.UTC().Format(time.RFC3339)), nil
		}
	}
	return nil, "", errorf(http.StatusNotFound, "%s: no version %d kept (GET /v1/history lists those kept)", origin, against.version)
}

// admitAudit takes one of MaxAudits places, or answers 503 at once.
func (s *Server) admitAudit() (release func(), err error) {
	return takeOne(s.audits, s.metrics.auditsRejected, auditRetryAfter, func() string {
		return fmt.Sprintf("%d audits are running, the server's limit: retry in %d seconds", cap(s.audits), auditRetryAfter)
	})
}

// auditDeadlines lets an audit's answer be written after the audit's time limit: the
// server's WriteTimeout is made for checks, which end sooner.
func (s *Server) auditDeadlines(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.liftWriteDeadline(w)
		h.ServeHTTP(w, r)
	})
}

// liftWriteDeadline gives the answer to an audit the time the audit may take, its
// robots.txt lookup and the writing.
func (s *Server) liftWriteDeadline(w http.ResponseWriter) {
	// An error means the writer cannot set deadlines (a test recorder): nothing to lift.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(s.cfg.Audit.Time + s.cfg.CheckTimeout + 10*time.Second))
}

// newSitemapClient is the HTTP client of audits' sitemap requests: the fetch
// client's dialer (netguard's unless Config.Fetch says otherwise, checking every
// address dialled, redirects included), no proxy (the dialer must see the target),
// and bounded redirects and waits.
func newSitemapClient(cfg Config) *http.Client {
	tr := &http.Transport{
		DialContext:           cfg.Fetch.DialContext,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 30 * time.Second,
		IdleConnTimeout:       30 * time.Second,
		MaxIdleConnsPerHost:   2,
	}
	return &http.Client{
		Transport: tr,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > sitemapRedirects {
				return fmt.Errorf("more than %d redirects", sitemapRedirects)
			}
			return nil
		},
	}
}

// auditLimitsText says what an audit of this server reads at most, for the tester.
func (s *Server) auditLimitsText() string {
	l := s.cfg.Audit
	return fmt.Sprintf("%s sitemap URLs in %s files (%s URLs and %s per file, XML elements nested %d deep, indexes nested %d deep) in %s",
		counttext.Thousands(l.URLs), counttext.Thousands(l.Sitemaps), counttext.Thousands(l.FileURLs), sizeText(l.FileBytes), l.Nesting, l.Depth, durationText(l.Time))
}

// durationText writes a duration for people: "60 s", "2 min".
func durationText(d time.Duration) string {
	if d >= time.Minute && d%time.Minute == 0 {
		return strconv.Itoa(int(d/time.Minute)) + " min"
	}
	return strings.TrimSuffix(strconv.FormatFloat(d.Seconds(), 'f', 1, 64), ".0") + " s"
}
