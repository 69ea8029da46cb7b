package accesslog

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/internal/defaults"
)

// Defaults and limits of an Analyzer. Every per-crawler structure is bounded, so
// that memory stays flat whatever the log's size and its mix of crawlers: the
// registry's few hundred crawlers, times three identities, times the bounds below.
const (
	// DefaultLifetime is how long a crawler may keep using a robots.txt after it
	// changed: RFC 9309 §2.4 asks crawlers not to use a cached copy for more than 24
	// hours.
	DefaultLifetime = 24 * time.Hour
	// DefaultExamples is the example URLs kept per disallowing rule.
	DefaultExamples = 3
	// MaxExamples bounds Config.Examples.
	MaxExamples = 20
	// MaxRules bounds the distinct rules counted per row; disallowed requests past it
	// are counted in Row.OtherRules.
	MaxRules = 256
	// MaxExampleRules bounds the rules per row that keep example URLs: those of the
	// lowest lines.
	MaxExampleRules = 10
	// MaxAddresses is the client addresses kept per row.
	MaxAddresses = 5
	// MaxExampleBytes bounds an example URL as kept; a longer one is cut.
	MaxExampleBytes = 1024
	// maxSkippedLines is the skipped lines a report lists (all are counted).
	maxSkippedLines = 10
	// uaCacheEntries bounds the cache of User-Agent headers already classified
	// (about 200 bytes each); it is emptied when full.
	uaCacheEntries = 1 << 16
	// idCacheEntries bounds the cache of identities (address and crawler) already
	// verified; it is emptied when full.
	idCacheEntries = 1 << 16
)

// Request is what verification is asked about.
type Request struct {
	Crawler   string // the registry token its User-Agent names
	Addr      string // the client address as logged
	UserAgent string
	Header    http.Header // the request headers, when the log has them; nil otherwise
	Time      time.Time   // when it was made
	// Method, Host and Target are the request's, as logged ("" when not): a
	// signature may cover them.
	Method, Host, Target string
}

// Identity is verification's answer.
type Identity struct {
	Status string // Verified, Impostor or CannotTell
	Method string // how: "ip-range", "reverse-dns", "signature"...
	Detail string
}

// VerifyFunc says who made a request. It is called once per client address and
// crawler (and per request that carries a signature); it must never answer
// Impostor unless the evidence shows it.
type VerifyFunc func(ctx context.Context, req Request) Identity

// Config says how an Analyzer judges requests. Only Robots is required.
type Config struct {
	Robots Timeline
	// Lifetime is how long a crawler may keep a replaced robots.txt; zero means
	// DefaultLifetime, a negative value none.
	Lifetime time.Duration
	// Verify, when set, verifies who made each crawler's requests.
	Verify VerifyFunc
	// Examples is the example URLs kept per rule; zero means DefaultExamples.
	Examples int
	// Host, when set, leaves out requests whose log line names another host.
	Host string
	// MaxBytes, when more than 0, bounds the bytes read of each log, counted after
	// decompression; a longer log ends with ErrTooLarge, what came before counting.
	MaxBytes int64
}

type rowKey struct {
	crawler  int32
	identity uint8
}

var identities = []string{"", Verified, CannotTell, Impostor}

type ruleKey struct{ version, line int32 }

type ruleState struct {
	RuleCount
	ex *firstK // nil unless among the MaxExampleRules lowest
}

type rowState struct {
	row      Row
	info     *crawlerInfo
	status   map[int]int64
	rules    map[ruleKey]*ruleState
	exKeys   []ruleKey // the rules that keep examples, at most MaxExampleRules
	addrs    firstK
	last     time.Time // of its last request in file lastFile
	lastFile int
}

// Analyzer judges the requests of access logs. It is not safe for concurrent use:
// run one per goroutine and Merge their reports.
type Analyzer struct {
	cfg     Config
	table   *crawlerTable
	rep     Report
	rows    map[rowKey]*rowState
	ua      map[string]int32
	ids     map[string]Identity
	delays  map[[2]int32]time.Duration
	hint    int
	fileIdx int
	others  int // crawlers added to table by Merge (addCrawler)
}

// NewAnalyzer returns an Analyzer for cfg.
func NewAnalyzer(cfg Config) *Analyzer {
	if cfg.Lifetime == 0 {
		cfg.Lifetime = DefaultLifetime
	} else if cfg.Lifetime < 0 {
		cfg.Lifetime = 0
	}
	cfg.Examples = min(defaults.Or(cfg.Examples, DefaultExamples), MaxExamples)
	a := &Analyzer{
		cfg:    cfg,
		table:  sharedTable(),
		rows:   map[rowKey]*rowState{},
		ua:     map[string]int32{},
		ids:    map[string]Identity{},
		delays: map[[2]int32]time.Duration{},
	}
	a.rep.Robots = cfg.Robots
	a.rep.CacheLifetime = cfg.Lifetime.Seconds()
	a.rep.Host = cfg.Host
	a.rep.Verification = cfg.Verify != nil
	a.rep.Examples = cfg.Examples
	return a
}

// Read reads one log and adds its requests to the report; name names it in the
// report. Lines that cannot be read are counted and listed, and reading goes on; an
// error that ends the log early (a truncated gzip stream, a binary file, a failed
// read) is returned and kept in the report's Files, and what was read before it
// counts. It stops with ctx's error when ctx is done.
func (a *Analyzer) Read(ctx context.Context, name string, r io.Reader) error {
	a.fileIdx++
	f := File{Name: name}
	lr := NewReaderLimit(r, a.cfg.MaxBytes)
	var err error
	for n := 0; ; n++ {
		if n&1023 == 0 {
			if err = ctx.Err(); err != nil {
				break
			}
		}
		rec, rerr := lr.Next()
		if rerr == nil {
			f.Records++
			a.record(ctx, rec)
			continue
		}
		var le *LineError
		if errors.As(rerr, &le) {
			f.Skipped++
			a.skip(name, le)
			continue
		}
		if rerr != io.EOF {
			err = rerr
		}
		break
	}
	f.Lines, f.Compressed = lr.Line(), lr.Compressed()
	if err != nil {
		f.Error = err.Error()
	}
	a.rep.Lines += f.Lines
	a.rep.Records += f.Records
	a.rep.Files = append(a.rep.Files, f)
	return err
}

// skipReason names the kind of a skipped line in Report.SkippedBy.
func skipReason(err error) string {
	switch {
	case errors.Is(err, ErrLineTooLong):
		return "too-long"
	case errors.Is(err, ErrBinaryLine):
		return "binary"
	}
	return "format"
}

func (a *Analyzer) skip(file string, le *LineError) {
	a.rep.Skipped++
	if a.rep.SkippedBy == nil {
		a.rep.SkippedBy = map[string]int64{}
	}
	a.rep.SkippedBy[skipReason(le.Err)]++
	if len(a.rep.SkippedLines) < maxSkippedLines {
		a.rep.SkippedLines = append(a.rep.SkippedLines, SkippedLine{File: file, Line: le.Line, Error: le.Err.Error()})
	}
}

func (a *Analyzer) crawlerOf(ua []byte) int32 {
	if i, ok := a.ua[string(ua)]; ok {
		return i
	}
	i := int32(a.table.classify(string(ua)))
	if len(a.ua) >= uaCacheEntries {
		clear(a.ua)
	}
	a.ua[string(ua)] = i
	return i
}

func hostMatches(logged []byte, want string) bool {
	h := string(logged)
	if hh, _, err := net.SplitHostPort(h); err == nil {
		h = hh
	}
	return strings.EqualFold(strings.TrimSuffix(h, "."), want)
}

func (a *Analyzer) identify(ctx context.Context, rec *Record, ci int32) Identity {
	signed := rec.Header != nil && rec.Header.Get("Signature") != ""
	key := ""
	if !signed {
		key = string(rec.Addr) + "\x00" + a.table.all[ci].name
		if id, ok := a.ids[key]; ok {
			return id
		}
	}
	id := a.cfg.Verify(ctx, Request{
		Crawler: a.table.all[ci].name, Addr: string(rec.Addr), UserAgent: string(rec.UserAgent),
		Header: rec.Header, Time: rec.Time,
		Method: string(rec.Method), Host: string(rec.Host), Target: string(rec.Target),
	})
	switch id.Status {
	case Verified, Impostor:
	default:
		id.Status = CannotTell
	}
	if !signed {
		if len(a.ids) >= idCacheEntries {
			clear(a.ids)
		}
		a.ids[key] = id
	}
	return id
}

func (a *Analyzer) rowOf(ci int32, id Identity) *rowState {
	k := rowKey{crawler: ci}
	for i, s := range identities {
		if s == id.Status {
			k.identity = uint8(i)
		}
	}
	rs := a.rows[k]
	if rs == nil {
		info := &a.table.all[ci]
		rs = &rowState{
			row: Row{Crawler: info.name, Operator: info.operator, Identity: id.Status,
				Stance: info.stance, HonoursCrawlDelay: info.honours},
			info:   info,
			status: map[int]int64{},
			rules:  map[ruleKey]*ruleState{},
			addrs:  firstK{k: MaxAddresses},
		}
		a.rows[k] = rs
	}
	return rs
}

func (a *Analyzer) record(ctx context.Context, rec *Record) {
	if a.cfg.Host != "" && len(rec.Host) > 0 && !hostMatches(rec.Host, a.cfg.Host) {
		a.rep.OtherHost++
		return
	}
	ci := a.crawlerOf(rec.UserAgent)
	if ci < 0 {
		return
	}
	a.rep.Crawler++
	var id Identity
	if a.cfg.Verify != nil {
		id = a.identify(ctx, rec, ci)
	}
	rs := a.rowOf(ci, id)
	row := &rs.row
	t := rec.Time
	if row.Requests == 0 || t.Before(row.First) {
		row.First, row.Method, row.Detail = t, id.Method, id.Detail
	}
	if t.After(row.Last) {
		row.Last = t
	}
	row.Requests++
	rs.status[rec.Status]++
	if rs.addrs.admits(t) {
		rs.addrs.add(Sample{Time: t, Value: string(rec.Addr)})
	}
	vi := a.cfg.Robots.at(t, a.hint)
	if vi >= 0 {
		a.hint = vi
		a.pace(rs, vi, ci, rec)
	}
	if isRobotsTxt(rec.Target) {
		if row.RobotsFetches == 0 || t.Before(row.RobotsFirst) {
			row.RobotsFirst = t
		}
		if t.After(row.RobotsLast) {
			row.RobotsLast = t
		}
		row.RobotsFetches++
		return
	}
	if vi < 0 || len(rec.Target) == 0 {
		row.NotJudged++
		return
	}
	url := string(rec.Target)
	d, ok := a.decide(vi, rs.info, url)
	if ok {
		row.Allowed++
		return
	}
	// Any version in effect during the cache lifetime before t that allows the URL
	// may be the one the crawler held.
	for j := vi - 1; j >= 0 && a.cfg.Robots[j+1].Since.After(t.Add(-a.cfg.Lifetime)); j-- {
		if _, ok := a.decide(j, rs.info, url); ok {
			row.AllowedByCache++
			return
		}
	}
	row.Disallowed++
	a.countRule(rs, ruleKey{int32(vi), int32(d.Rule.Line)}, d.Rule, t, url)
}

// decide reports whether version vi lets the crawler fetch url.
func (a *Analyzer) decide(vi int, info *crawlerInfo, url string) (robots.Decision, bool) {
	r := a.cfg.Robots[vi].Robots
	d := r.CheckAgents(info.agents, url)
	return d, d.Allowed || (info.ignoresGlobal && d.Global)
}

// pace counts a request that came sooner after the crawler's previous one than the
// Crawl-delay of version vi, beyond doubt: the gap as logged plus the log's time
// resolution is still within the delay.
func (a *Analyzer) pace(rs *rowState, vi int, ci int32, rec *Record) {
	if !rs.info.honours {
		return
	}
	k := [2]int32{int32(vi), ci}
	delay, ok := a.delays[k]
	if !ok {
		delay, _ = a.cfg.Robots[vi].Robots.CrawlDelay(rs.info.agents...)
		a.delays[k] = delay
	}
	if delay > 0 {
		rs.row.CrawlDelay = max(rs.row.CrawlDelay, delay.Seconds())
	}
	t := rec.Time
	if rs.lastFile == a.fileIdx {
		if gap := t.Sub(rs.last); delay > 0 && gap >= 0 && gap+rec.Resolution <= delay {
			rs.row.TooFast++
		}
		if t.After(rs.last) {
			rs.last = t
		}
		return
	}
	rs.lastFile, rs.last = a.fileIdx, t
}

func (a *Analyzer) countRule(rs *rowState, k ruleKey, rule robots.Rule, t time.Time, url string) {
	st := rs.rules[k]
	if st == nil {
		if len(rs.rules) >= MaxRules {
			rs.row.OtherRules++
			return
		}
		st = &ruleState{RuleCount: RuleCount{Robots: a.cfg.Robots[k.version].Name, Line: rule.Line, Rule: rule.String()}}
		rs.rules[k] = st
		a.giveExamples(rs, k, st)
	}
	st.Requests++
	if st.ex != nil && st.ex.admits(t) {
		if len(url) > MaxExampleBytes {
			url = url[:MaxExampleBytes]
		}
		st.ex.add(Sample{Time: t, Value: url})
	}
}

// giveExamples lets a new rule keep examples when it is among the MaxExampleRules
// lowest (version, line) of its row, taking them from the highest otherwise.
func (a *Analyzer) giveExamples(rs *rowState, k ruleKey, st *ruleState) {
	if len(rs.exKeys) < MaxExampleRules {
		st.ex = &firstK{k: a.cfg.Examples}
		rs.exKeys = append(rs.exKeys, k)
		return
	}
	w := 0
	for i, ek := range rs.exKeys {
		if keyLess(rs.exKeys[w], ek) {
			w = i
		}
	}
	if !keyLess(k, rs.exKeys[w]) {
		return
	}
	worst := rs.rules[rs.exKeys[w]]
	st.ex, worst.ex = worst.ex, nil
	st.ex.items = st.ex.items[:0]
	rs.exKeys[w] = k
}

func keyLess(a, b ruleKey) bool {
	if a.version != b.version {
		return a.version < b.version
	}
	return a.line < b.line
}

// isRobotsTxt reports whether a request target is /robots.txt (query aside).
func isRobotsTxt(target []byte) bool {
	if q := bytes.IndexByte(target, '?'); q >= 0 {
		target = target[:q]
	}
	if bytes.Equal(target, []byte("/robots.txt")) {
		return true
	}
	// An absolute URL: scheme://host/robots.txt.
	if i := bytes.Index(target, []byte("://")); i > 0 {
		rest := target[i+3:]
		if s := bytes.IndexByte(rest, '/'); s >= 0 {
			return bytes.Equal(rest[s:], []byte("/robots.txt"))
		}
	}
	return false
}
