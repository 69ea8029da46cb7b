package accesslog

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// Report is what a run found: per crawler (and, with verification, per identity),
// what it requested and whether robots.txt allowed it. A Report is also the partial
// result that Merge adds up: a report of several files, merged from one report per
// file, is the same as one run over them all (in the same order).
type Report struct {
	// Robots are the robots.txt versions requests were judged against.
	Robots        []Version `json:"robots"`
	CacheLifetime float64   `json:"cache_lifetime_seconds"` // how long a crawler may keep a replaced file
	Host          string    `json:"host,omitempty"`         // requests for other hosts were left out
	Verification  bool      `json:"verification"`           // whether identities were verified
	Examples      int       `json:"examples_per_rule"`      // example URLs kept per rule

	Lines     int64 `json:"lines"`      // read, skipped ones included, blank ones not
	Records   int64 `json:"records"`    // requests read
	OtherHost int64 `json:"other_host"` // requests for another host than Host, left out
	// Crawler is the requests by known crawlers (a registry token in the User-Agent).
	Crawler int64 `json:"crawler_requests"`
	Skipped int64 `json:"skipped"` // lines that could not be read
	// SkippedBy counts the skipped lines by reason.
	SkippedBy map[string]int64 `json:"skipped_by,omitempty"`
	// SkippedLines are the first few skipped, in the order read.
	SkippedLines []SkippedLine `json:"skipped_lines,omitempty"`
	Files        []File        `json:"files"`

	// Violations are the requests that robots.txt disallowed or that came faster than a
	// Crawl-delay the crawler honours, by crawlers not shown to be impostors.
	Violations int64 `json:"violations"`
	// Impostors are the requests whose client verification shows is not the crawler
	// its User-Agent names.
	Impostors int64 `json:"impostors"`

	Crawlers []Row `json:"crawlers"` // by crawler name, then identity
}

// Found reports whether the report holds violations or impostors: "robots logs"
// exits 1 then.
func (r *Report) Found() bool { return r.Violations > 0 || r.Impostors > 0 }

// File is what one input gave.
type File struct {
	Name       string `json:"name"`
	Lines      int64  `json:"lines"`
	Records    int64  `json:"records"`
	Skipped    int64  `json:"skipped"`
	Compressed bool   `json:"gzip,omitempty"`
	// Error is what ended the file early (a truncated gzip stream, a binary file, a
	// failed read): what was read before it counts.
	Error string `json:"error,omitempty"`
}

// SkippedLine is a line that could not be read.
type SkippedLine struct {
	File  string `json:"file"`
	Line  int64  `json:"line"`
	Error string `json:"error"`
}

// Identities of a Row.
const (
	Verified   = "verified"    // verification shows the client is the crawler
	Impostor   = "impostor"    // verification shows it is not
	CannotTell = "cannot-tell" // verification cannot tell either way
)

// Row is one crawler's requests, of one identity when verification is on.
type Row struct {
	Crawler  string `json:"crawler"` // its token in the registry
	Operator string `json:"operator,omitempty"`
	// Stance is its documented stance on robots.txt (package crawlers): "obeys",
	// "ignores", "user-triggered" (its operator says the rules may not apply to
	// fetches a person asked for), or "" when nothing is documented. Its disallowed
	// requests count as violations whatever the stance: the file asked.
	Stance   string `json:"robots_stance,omitempty"`
	Identity string `json:"identity,omitempty"` // Verified, Impostor or CannotTell; "" without verification
	// Method and Detail say how the identity was established, for the first request.
	Method string `json:"method,omitempty"`
	Detail string `json:"detail,omitempty"`

	Requests int64     `json:"requests"`
	First    time.Time `json:"first"`
	Last     time.Time `json:"last"`

	// RobotsFetches are its requests for /robots.txt, from RobotsFirst to RobotsLast.
	RobotsFetches int64     `json:"robots_fetches"`
	RobotsFirst   time.Time `json:"robots_first,omitzero"`
	RobotsLast    time.Time `json:"robots_last,omitzero"`

	Allowed int64 `json:"allowed"`
	// AllowedByCache are requests the file in effect disallows but one it replaced
	// less than the cache lifetime before allows: the crawler may still have held it.
	AllowedByCache int64 `json:"allowed_by_cache"`
	Disallowed     int64 `json:"disallowed"`
	// NotJudged are requests before the first robots.txt snapshot, or without a URL.
	NotJudged int64 `json:"not_judged"`
	// Rules are the rules that disallowed its requests, by version and line, with a
	// few example URLs each (for the first MaxExampleRules rules by line).
	Rules []RuleCount `json:"rules"`
	// OtherRules are disallowed requests past MaxRules distinct rules.
	OtherRules int64 `json:"other_rules,omitempty"`

	// CrawlDelay is the longest Crawl-delay the robots.txt versions set for it, in
	// seconds; HonoursCrawlDelay whether its operator documents that it obeys one.
	CrawlDelay        float64 `json:"crawl_delay,omitempty"`
	HonoursCrawlDelay bool    `json:"honours_crawl_delay,omitempty"`
	// TooFast are requests that came sooner after its previous one (to the same log
	// file) than the Crawl-delay in effect, beyond doubt at the log's time resolution;
	// counted only for crawlers that honour Crawl-delay.
	TooFast int64 `json:"too_fast"`

	Status map[string]int64 `json:"status"` // requests by status code

	// Addresses are a few of its client addresses, first seen first.
	Addresses []Sample `json:"addresses"`
}

// RuleCount is a rule that disallowed requests.
type RuleCount struct {
	Robots   string   `json:"robots"` // the Name of its Version
	Line     int      `json:"line"`
	Rule     string   `json:"rule"` // "Disallow: /private/"
	Requests int64    `json:"requests"`
	Examples []Sample `json:"examples,omitempty"`
}

// violations are the requests of r that count as violations.
func (r *Row) violations() int64 {
	if r.Identity == Impostor {
		return 0
	}
	return r.Disallowed + r.TooFast
}

// Violations is the disallowed and too-fast requests of the row; 0 for an impostor,
// whose requests are not the crawler's.
func (r *Row) Violations() int64 { return r.violations() }

func statusKey(code int) string {
	if code < 100 || code > 599 {
		return "other"
	}
	return strconv.Itoa(code)
}

func sortRows(rows []Row) {
	order := map[string]int{"": 0, Verified: 1, CannotTell: 2, Impostor: 3}
	slices.SortFunc(rows, func(a, b Row) int {
		if c := strings.Compare(strings.ToLower(a.Crawler), strings.ToLower(b.Crawler)); c != 0 {
			return c
		}
		return order[a.Identity] - order[b.Identity]
	})
}

// Ordered returns the rows in the order a person reads them: impostors first, then
// the crawlers with violations, the most first, then the others by requests; ties by
// name. "robots logs" prints them so, and so does the tester.
func (r *Report) Ordered() []Row {
	rows := slices.Clone(r.Crawlers)
	rank := func(r *Row) (int, int64) {
		switch {
		case r.Identity == Impostor:
			return 0, r.Requests
		case r.Violations() > 0:
			return 1, r.Violations()
		}
		return 2, r.Requests
	}
	slices.SortStableFunc(rows, func(a, b Row) int {
		ka, na := rank(&a)
		kb, nb := rank(&b)
		if ka != kb {
			return ka - kb
		}
		switch {
		case na > nb:
			return -1
		case na < nb:
			return 1
		}
		return 0
	})
	return rows
}
