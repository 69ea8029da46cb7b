package gate

import (
	"context"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorobots/robots/accesslog"
	"github.com/gorobots/robots/crawlers"
)

// Bounds of the report: it holds one row per crawler and identity (the registry's
// crawlers and the policy's tokens, times three), each with these bounds, so that
// its memory stays flat whatever the traffic.
const (
	DefaultReportExamples = 3    // example URLs kept per disallowing rule
	maxReportRules        = 256  // distinct rules counted per row; past it, OtherRules
	maxExampleRules       = 10   // rules per row that keep examples: the first seen
	maxReportAddresses    = 5    // client addresses kept per row, first seen first
	maxExampleBytes       = 1024 // an example URL is cut past it
)

type rowKey struct {
	crawler string
	id      Status
}

type ruleKey struct {
	version string
	line    int
}

type reportRow struct {
	mu    sync.Mutex // rows are counted apart: crawlers do not wait for each other
	row   accesslog.Row
	rules map[ruleKey]*ruleState
}

type ruleState struct {
	accesslog.RuleCount
	examples bool // among the first maxExampleRules rules of the row
}

// report accumulates the gate's Report; safe for concurrent use. Requests that
// name no crawler only add to counters; a crawler's request locks its own row.
type report struct {
	examples                      int
	records, crawler, badRequests atomic.Int64
	unknownHosts                  atomic.Int64
	rows                          sync.Map // rowKey → *reportRow
	seen                          sync.Map // version names
	mu                            sync.Mutex
	versions                      []accesslog.Version // in the order first used
}

func newReport(examples int) *report { return &report{examples: examples} }

func (p *report) add(r *Request, d *Decision, status int, now time.Time) {
	p.records.Add(1)
	if v := d.version; v != nil {
		if _, ok := p.seen.Load(v.name); !ok {
			p.mu.Lock()
			if _, ok := p.seen.LoadOrStore(v.name, true); !ok {
				p.versions = append(p.versions, accesslog.Version{Name: v.name, Since: v.since, SHA256: v.sha})
			}
			p.mu.Unlock()
		}
	}
	switch d.Reason {
	case BadRequest:
		p.badRequests.Add(1)
	case UnknownHost:
		p.unknownHosts.Add(1)
	}
	if d.Crawler == "" {
		return
	}
	p.crawler.Add(1)
	k := rowKey{d.Crawler, d.Identity.Status}
	v, ok := p.rows.Load(k)
	if !ok {
		rs := &reportRow{row: accesslog.Row{Crawler: d.Crawler, Identity: d.Identity.Status.String(), Method: d.Identity.Method,
			Detail: d.Identity.Detail, First: now, Status: map[string]int64{}}, rules: map[ruleKey]*ruleState{}}
		if c, ok := crawlers.Lookup(d.Crawler); ok {
			rs.row.Operator, rs.row.HonoursCrawlDelay = c.Operator, c.CrawlDelay == crawlers.Honoured
		}
		v, _ = p.rows.LoadOrStore(k, rs)
	}
	rs := v.(*reportRow)
	rs.mu.Lock()
	defer rs.mu.Unlock()
	row := &rs.row
	row.Requests++
	if now.Before(row.First) {
		row.First = now
	}
	if now.After(row.Last) {
		row.Last = now
	}
	row.Status[strconv.Itoa(status)]++
	if r.Addr.IsValid() && len(row.Addresses) < maxReportAddresses {
		a := r.Addr.String()
		if !slices.ContainsFunc(row.Addresses, func(s accesslog.Sample) bool { return s.Value == a }) {
			row.Addresses = append(row.Addresses, accesslog.Sample{Time: now, Value: a})
		}
	}
	if s := d.CrawlDelay.Seconds(); s > row.CrawlDelay {
		row.CrawlDelay = s
	}
	switch d.Reason {
	case RobotsTxt:
		row.RobotsFetches++
		if row.RobotsFirst.IsZero() {
			row.RobotsFirst = now
		}
		row.RobotsLast = now
	case Allowed:
		row.Allowed++
	case Impostor:
		if d.version != nil {
			row.Allowed++ // judged further as the crawler it claims, and allowed
		} else {
			row.NotJudged++
		}
	case Grace:
		row.AllowedByCache++
	case Disallowed:
		row.Disallowed++
		p.countRule(rs, r, d, now)
	case TooFast:
		row.Allowed++
		row.TooFast++
	default:
		row.NotJudged++
	}
}

func (p *report) countRule(rs *reportRow, r *Request, d *Decision, now time.Time) {
	name := ""
	if d.version != nil {
		name = d.version.name
	}
	k := ruleKey{name, d.Rule.Line}
	rc := rs.rules[k]
	if rc == nil {
		if len(rs.rules) >= maxReportRules {
			rs.row.OtherRules++
			return
		}
		rc = &ruleState{RuleCount: accesslog.RuleCount{Robots: name, Line: d.Rule.Line, Rule: d.Rule.String()},
			examples: len(rs.rules) < maxExampleRules}
		rs.rules[k] = rc
	}
	rc.Requests++
	if rc.examples && len(rc.Examples) < p.examples {
		u := r.URI
		if len(u) > maxExampleBytes {
			u = u[:maxExampleBytes]
		}
		if !slices.ContainsFunc(rc.Examples, func(s accesslog.Sample) bool { return s.Value == u }) {
			rc.Examples = append(rc.Examples, accesslog.Sample{Time: now, Value: u})
		}
	}
}

// Report returns the per-crawler account of the gate's decisions so far, as
// "robots logs" gives it for an access log (package accesslog): the same rows,
// counted from the gate's own decisions. Its Robots are the robots.txt files the
// gate decided with (named by their site's file or URL, and the time the gate
// first used them), its Status the gate's answers (200, 403, 429), and the
// requests it could not judge (bad requests, unknown hosts) are its skipped
// lines. "robots logs -merge" prints it as text or CSV.
func (g *Gate) Report() *accesslog.Report {
	p := g.report
	var rep accesslog.Report
	rep.Records = p.records.Load()
	rep.Lines = rep.Records
	rep.Crawler = p.crawler.Load()
	for reason, n := range map[Reason]int64{BadRequest: p.badRequests.Load(), UnknownHost: p.unknownHosts.Load()} {
		if n > 0 {
			if rep.SkippedBy == nil {
				rep.SkippedBy = map[string]int64{}
			}
			rep.SkippedBy[reason.String()] = n
			rep.Skipped += n
		}
	}
	p.mu.Lock()
	rep.Robots = slices.Clone(p.versions)
	p.mu.Unlock()
	rep.CacheLifetime = g.cfg.Grace.Seconds()
	_, rep.Verification = g.verifier.(verifyAdapter)
	rep.Examples = p.examples
	rep.Files = []accesslog.File{{Name: "gate", Lines: rep.Lines, Records: rep.Records, Skipped: rep.Skipped}}
	p.rows.Range(func(_, v any) bool {
		rs := v.(*reportRow)
		rs.mu.Lock()
		defer rs.mu.Unlock()
		row := rs.row
		row.Status = maps.Clone(row.Status)
		row.Addresses = slices.Clone(row.Addresses)
		row.Rules = nil
		for _, rc := range rs.rules {
			c := rc.RuleCount
			c.Examples = slices.Clone(c.Examples)
			row.Rules = append(row.Rules, c)
		}
		slices.SortFunc(row.Rules, func(a, b accesslog.RuleCount) int {
			if c := strings.Compare(a.Robots, b.Robots); c != 0 {
				return c
			}
			return a.Line - b.Line
		})
		if row.Identity == accesslog.Impostor {
			rep.Impostors += row.Requests
		}
		rep.Violations += row.Violations()
		rep.Crawlers = append(rep.Crawlers, row)
		return true
	})
	order := map[string]int{accesslog.Verified: 0, accesslog.CannotTell: 1, accesslog.Impostor: 2}
	slices.SortFunc(rep.Crawlers, func(a, b accesslog.Row) int {
		if c := strings.Compare(strings.ToLower(a.Crawler), strings.ToLower(b.Crawler)); c != 0 {
			return c
		}
		return order[a.Identity] - order[b.Identity]
	})
	return &rep
}

// statusOf is the status the gate answers for d.
func statusOf(d *Decision) int {
	switch d.Verdict {
	case Deny:
		return http.StatusForbidden
	case Limit:
		return http.StatusTooManyRequests
	}
	return http.StatusOK
}

// record counts d in the metrics and the report, and logs what went wrong.
func (g *Gate) record(r *Request, d *Decision, now time.Time) {
	g.metrics.count(d)
	g.report.add(r, d, statusOf(d), now)
	if (d.Violation || d.Err != nil) && g.log.Enabled(context.Background(), slog.LevelWarn) {
		g.log.LogAttrs(context.Background(), slog.LevelWarn, "gate", d.LogAttrs(r)...)
	}
}
