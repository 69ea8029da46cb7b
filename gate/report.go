package gate

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

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

// Report is the per-crawler account of the gate's own decisions since it
// started: what each crawler (per identity) asked for, what robots.txt said and
// what the gate did.
type Report struct {
	Since    time.Time   `json:"since"`
	Requests int64       `json:"requests"`         // judged, crawlers or not
	Crawler  int64       `json:"crawler_requests"` // of requests naming a crawler
	Errors   int64       `json:"errors"`           // bad requests, unknown hosts, unreachable robots.txt
	Crawlers []ReportRow `json:"crawlers"`         // by crawler name, then identity
	// Violations are the requests that robots.txt disallowed or that came sooner
	// than a Crawl-delay the crawler honours, by crawlers not shown to be
	// impostors; Impostors the requests of clients shown not to be who they claim.
	Violations int64 `json:"violations"`
	Impostors  int64 `json:"impostors"`
}

// ReportRow is one crawler's requests, of one identity.
type ReportRow struct {
	Crawler  string `json:"crawler"`
	Operator string `json:"operator,omitempty"`
	Identity string `json:"identity"` // verified, impostor or cannot-tell
	Method   string `json:"method,omitempty"`

	Requests int64     `json:"requests"`
	First    time.Time `json:"first"`
	Last     time.Time `json:"last"`

	RobotsFetches int64     `json:"robots_fetches"`
	RobotsFirst   time.Time `json:"robots_first,omitzero"`
	RobotsLast    time.Time `json:"robots_last,omitzero"`

	Allowed        int64       `json:"allowed"`
	AllowedByCache int64       `json:"allowed_by_cache"` // disallowed now, allowed by the file replaced within the grace
	Disallowed     int64       `json:"disallowed"`
	NotJudged      int64       `json:"not_judged"` // not enforced, or robots.txt unreachable
	Rules          []RuleCount `json:"rules"`
	OtherRules     int64       `json:"other_rules,omitempty"`

	CrawlDelay        float64 `json:"crawl_delay,omitempty"` // the longest seen, seconds
	HonoursCrawlDelay bool    `json:"honours_crawl_delay,omitempty"`
	TooFast           int64   `json:"too_fast"`

	// Actions are the gate's answers by action: pass, log, deny, limit.
	Actions map[string]int64 `json:"actions"`
	// Status are the requests by the status the gate answered.
	Status    map[string]int64 `json:"status"`
	Addresses []string         `json:"addresses"`
}

// RuleCount is a rule that disallowed requests, with a few example URLs.
type RuleCount struct {
	Host     string   `json:"host"`
	Line     int      `json:"line"`
	Rule     string   `json:"rule"`
	Requests int64    `json:"requests"`
	Examples []string `json:"examples,omitempty"`
}

type rowKey struct {
	crawler string
	id      Status
}

type ruleKey struct {
	host string
	line int
}

type reportRow struct {
	row   ReportRow
	rules map[ruleKey]*ruleState
}

type ruleState struct {
	RuleCount
	examples bool // among the first maxExampleRules rules of the row
}

// report accumulates Report; safe for concurrent use.
type report struct {
	mu       sync.Mutex
	examples int
	rep      Report
	rows     map[rowKey]*reportRow
}

func newReport(examples int) *report {
	return &report{examples: examples, rows: map[rowKey]*reportRow{}}
}

func (p *report) add(r *Request, d *Decision, status int, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rep.Since.IsZero() {
		p.rep.Since = now
	}
	p.rep.Requests++
	if d.Reason == BadRequest || d.Reason == UnknownHost || d.Reason == Unreachable {
		p.rep.Errors++
	}
	if d.Crawler == "" {
		return
	}
	p.rep.Crawler++
	k := rowKey{d.Crawler, d.Identity.Status}
	rs := p.rows[k]
	if rs == nil {
		rs = &reportRow{row: ReportRow{Crawler: d.Crawler, Identity: d.Identity.Status.String(), Method: d.Identity.Method,
			First: now, Actions: map[string]int64{}, Status: map[string]int64{}}, rules: map[ruleKey]*ruleState{}}
		if c, ok := crawlers.Lookup(d.Crawler); ok {
			rs.row.Operator, rs.row.HonoursCrawlDelay = c.Operator, c.CrawlDelay == crawlers.Honoured
		}
		p.rows[k] = rs
	}
	row := &rs.row
	row.Requests++
	row.Last = now
	row.Actions[d.Action()]++
	row.Status[strconv.Itoa(status)]++
	if r.Addr.IsValid() && len(row.Addresses) < maxReportAddresses {
		if a := r.Addr.String(); !slices.Contains(row.Addresses, a) {
			row.Addresses = append(row.Addresses, a)
		}
	}
	if d.Identity.Status == Spoofed {
		p.rep.Impostors++
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
		if d.Rule.Line > 0 || d.Verdict == Pass {
			row.Allowed++
		} else {
			row.NotJudged++
		}
	case Grace:
		row.AllowedByCache++
	case Disallowed:
		row.Disallowed++
		p.countRule(rs, r, d)
	case TooFast:
		row.Allowed++
		row.TooFast++
	default:
		row.NotJudged++
	}
	if d.Violation && d.Identity.Status != Spoofed {
		p.rep.Violations++
	}
}

func (p *report) countRule(rs *reportRow, r *Request, d *Decision) {
	k := ruleKey{hostKey(r.Host), d.Rule.Line}
	rc := rs.rules[k]
	if rc == nil {
		if len(rs.rules) >= maxReportRules {
			rs.row.OtherRules++
			return
		}
		rc = &ruleState{RuleCount: RuleCount{Host: k.host, Line: d.Rule.Line, Rule: d.Rule.String()},
			examples: len(rs.rules) < maxExampleRules}
		rs.rules[k] = rc
	}
	rc.Requests++
	if rc.examples && len(rc.Examples) < p.examples {
		u := r.URI
		if len(u) > maxExampleBytes {
			u = u[:maxExampleBytes]
		}
		if !slices.Contains(rc.Examples, u) {
			rc.Examples = append(rc.Examples, u)
		}
	}
}

// Report returns the per-crawler account of the gate's decisions so far.
func (g *Gate) Report() Report {
	p := g.report
	p.mu.Lock()
	defer p.mu.Unlock()
	rep := p.rep
	rep.Crawlers = make([]ReportRow, 0, len(p.rows))
	for _, rs := range p.rows {
		row := rs.row
		row.Actions, row.Status = cloneMap(row.Actions), cloneMap(row.Status)
		row.Addresses = slices.Clone(row.Addresses)
		for _, rc := range rs.rules {
			c := rc.RuleCount
			c.Examples = slices.Clone(c.Examples)
			row.Rules = append(row.Rules, c)
		}
		slices.SortFunc(row.Rules, func(a, b RuleCount) int {
			if c := strings.Compare(a.Host, b.Host); c != 0 {
				return c
			}
			return a.Line - b.Line
		})
		rep.Crawlers = append(rep.Crawlers, row)
	}
	order := map[string]int{"verified": 0, "cannot-tell": 1, "impostor": 2}
	slices.SortFunc(rep.Crawlers, func(a, b ReportRow) int {
		if c := strings.Compare(strings.ToLower(a.Crawler), strings.ToLower(b.Crawler)); c != 0 {
			return c
		}
		return order[a.Identity] - order[b.Identity]
	})
	return rep
}

func cloneMap(m map[string]int64) map[string]int64 {
	out := make(map[string]int64, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
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
func (g *Gate) record(r *Request, d *Decision) {
	g.metrics.count(d)
	g.report.add(r, d, statusOf(d), g.now())
	if d.Violation || d.Err != nil {
		g.log.LogAttrs(context.Background(), slog.LevelWarn, "gate", d.LogAttrs(r)...)
	}
}
