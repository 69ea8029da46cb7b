package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/lint"
)

// Report is the result of an audit, in the one JSON shape of "robots audit -format
// json" and the service's POST /v1/audit. Every per-crawler count is an array in the
// order of Agents. Verdicts name the deciding rule as written ("Disallow: /search")
// with its line; null and 0 when no rule matched.
type Report struct {
	// Target is the URL as given; Origin the origin audited (its robots.txt decides
	// every URL of it).
	Target string `json:"target"`
	Origin string `json:"origin"`
	// Robots is the fetch of the origin's robots.txt, as "robots fetch" shows it. Its
	// effect decides every URL when the file could not be read ("disallow-all" while
	// the site is unreachable, "allow-all" for a 4xx).
	Robots fetch.Report `json:"robots"`
	// RobotsFrom names the file the audit decided by when it was not the origin's
	// live robots.txt (Config.Robots): "draft.txt", "version 3"; "" otherwise.
	RobotsFrom string `json:"robots_from,omitempty"`
	// Lint holds the lint findings of the file (none when no file was read).
	Lint []lint.Finding `json:"lint"`
	// Agents are the crawlers asked about, by product token; Dialect the reading of
	// the file ("google", "rfc9309", "legacy1996", "legacy1994").
	Agents []string `json:"agents"`
	// Intended are the crawlers asked about that the site blocks on purpose
	// (Config.Intended): their blocks are reported and not failures (see Fails).
	Intended []string `json:"intended"`
	Dialect  string   `json:"dialect"`
	Limits   Limits   `json:"limits"`
	// SitemapFallback is true when robots.txt has no Sitemap line, so that
	// /sitemap.xml was tried in its place.
	SitemapFallback bool   `json:"sitemap_fallback"`
	Totals          Totals `json:"totals"`
	// Stopped names the overall limit that ended the audit before every sitemap was
	// read ("max-urls", "max-sitemaps", "timeout"), and is "" when the audit is
	// complete. Sitemaps left unread are listed with status "skipped".
	Stopped string `json:"stopped"`
	// Purposes answers, purpose by purpose, which crawlers of the registry (package
	// crawlers, not only those asked about) may fetch the site's root URL and what the
	// site prefers about the use of what they fetch: the training crawlers blocked or
	// told train-ai=n, the search and user-triggered fetchers that stay open.
	Purposes []Purpose `json:"purposes"`
	// Stance is one answer per purpose (search, AI training, AI input, AI search,
	// user-triggered) from every signal the site gives — robots.txt, Content-Usage and
	// Content-Signal, RSL licences, TDMRep, and the headers and meta tags of the pages
	// sampled (Config.Pages) — for the crawlers asked about that have the purpose, at
	// the root URL and each page sampled, with every contradiction named.
	Stance []Stance `json:"stance"`
	// CrawlDelays are the Crawl-delay lines that apply to the crawlers asked about,
	// each with its crawlers and which of them honour or ignore it, in line order.
	CrawlDelays []CrawlDelay `json:"crawl_delays"`
	// Variants is what the other hosts of Config.Hosts and the crawlers of
	// Config.As receive for robots.txt, and where it differs; null without them.
	Variants *Variants `json:"variants"`
	// Blocked has one entry per rule that blocks sitemap URLs for some crawlers
	// asked about, the most URLs first.
	Blocked []Block `json:"blocked"`
	// Sitemaps lists the sitemaps seen, in the order they were read or set aside:
	// every one read, and the first MaxUnreadListed of those not read
	// (Totals.SitemapsUnlisted counts the rest).
	Sitemaps []Sitemap `json:"sitemaps"`
	// Rules are the allow and disallow lines that the samples of Tree refer to, by
	// line.
	Rules []RuleRef `json:"rules"`
	// Tree is the URL space of the sitemaps as a tree of path segments, bounded (see
	// MaxTreeNodes).
	Tree *Node `json:"tree"`
	// StartedAt is when the audit began (UTC, to the second); Seconds how long it
	// took.
	StartedAt time.Time `json:"started_at"`
	Seconds   float64   `json:"seconds"`
}

// Totals counts what the audit read and found.
type Totals struct {
	Sitemaps         int `json:"sitemaps"`          // sitemap files read: answered 2xx (ok, invalid or over the limits)
	SitemapsFailed   int `json:"sitemaps_failed"`   // requested but not read: no answer or a status other than 2xx
	SitemapsSkipped  int `json:"sitemaps_skipped"`  // not read: past -max-sitemaps, -max-urls, -max-depth or the time limit
	SitemapsUnlisted int `json:"sitemaps_unlisted"` // not read and not listed in Sitemaps (past MaxUnreadListed)
	URLs             int `json:"urls"`              // sitemap URLs of the origin read, each decided for every crawler but those counted in UndecidedURLs
	// UndecidedURLs counts the URLs read but not decided: the audit's time limit
	// (Stopped "timeout") came first. Their crawlers' counts leave them out.
	UndecidedURLs int `json:"undecided_urls"`
	OffOriginURLs int `json:"off_origin_urls"` // URLs on another origin (another robots.txt decides them): counted, not decided
	InvalidURLs   int `json:"invalid_urls"`    // <loc> values that are not http(s) URLs, or longer than 2,048 bytes
	// BlockedURLs counts, per crawler (in the order of Agents), the sitemap URLs it
	// may not fetch; BlockedAny the URLs blocked for at least one of them.
	BlockedURLs []int `json:"blocked_urls"`
	BlockedAny  int   `json:"blocked_any"`
	// BlockedUnlisted counts the blocked verdicts (URL and class of crawlers) of rules
	// not listed in Blocked: past MaxRuleClasses pairs of rule and class.
	BlockedUnlisted int `json:"blocked_unlisted"`
}

// Block is one rule and the sitemap URLs it blocks: "line 12 Disallow: /search
// blocks 1,204 sitemap URLs for Googlebot, bingbot". Rule is nil and Line 0 when no
// rule decides: the robots.txt fetch disallows everything (see Report.Robots).
type Block struct {
	Rule     *string  `json:"rule"`
	Line     int      `json:"line"`
	Agents   []string `json:"agents"`   // the crawlers for which this rule blocks exactly these URLs
	URLs     int      `json:"urls"`     // how many sitemap URLs
	Examples []string `json:"examples"` // the first few, in sitemap order (Config.Examples; Config.MaxExamples in all)
}

// Sitemap statuses.
const (
	StatusOK          = "ok"          // read to its end
	StatusUnreachable = "unreachable" // no answer, or an HTTP status other than 2xx (see HTTPStatus)
	StatusInvalid     = "invalid"     // not XML, not a sitemap, or the XML breaks (see ErrorLine, ErrorByte)
	StatusOverLimit   = "over-limit"  // more URLs or bytes than a file may have: the entries before the limit were read
	StatusCrossHost   = "cross-host"  // listed by an index on a third origin, or redirected to one: reported, not read
	StatusSkipped     = "skipped"     // not read: past an overall limit (Error says which)
)

// Where a sitemap came from.
const (
	SourceRobots   = "robots.txt" // a Sitemap line (Line)
	SourceFallback = "fallback"   // /sitemap.xml, tried because robots.txt has no Sitemap line
	SourceIndex    = "index"      // listed by the sitemap index Parent (at Line of it)
)

// Sitemap is one sitemap file seen by the audit.
type Sitemap struct {
	URL        string `json:"url"`
	Kind       string `json:"kind"`        // "urlset", "sitemapindex", or "" when not read
	Source     string `json:"source"`      // SourceRobots, SourceFallback or SourceIndex
	Parent     string `json:"parent"`      // the index that listed it ("" unless Source is "index")
	Line       int    `json:"line"`        // of the Sitemap line in robots.txt, or of the <loc> in Parent
	Depth      int    `json:"depth"`       // 0 for those robots.txt lists, +1 per index
	Status     string `json:"status"`      // StatusOK, StatusUnreachable, …
	HTTPStatus int    `json:"http_status"` // 0 when no answer came (or not fetched)
	Gzip       bool   `json:"gzip"`
	Bytes      int64  `json:"bytes"`   // XML bytes read, uncompressed
	Entries    int    `json:"entries"` // <loc> entries read: URLs of a urlset, sitemaps of an index
	URLs       int    `json:"urls"`    // URLs of the origin decided
	Error      string `json:"error"`   // why the status is not "ok"
	ErrorLine  int    `json:"error_line"`
	ErrorByte  int64  `json:"error_byte"` // offset in the uncompressed XML
	// CrossHost is true for a sitemap read on another host than the audited origin:
	// robots.txt lists it there (sitemaps.org's cross-submission), or an index so
	// listed does, on its own host. Its URLs on the audited origin are decided; those
	// on its own host count as OffOriginURLs.
	CrossHost bool `json:"cross_host"`
	// Blocked lists the crawlers asked about that may not fetch the sitemap itself,
	// grouped by the deciding rule, tokens that fetch nothing (Google-Extended,
	// crawlers.Fetches) left out; none for a cross-host sitemap, whose own host's
	// robots.txt decides that.
	Blocked []SitemapBlock `json:"blocked"`

	queued bool   // in the auditor's queue (listed in the order found)
	home   string // the origin its requests may redirect within besides the audited one
	hidden bool   // not listed: past MaxUnreadListed
}

// SitemapBlock says which crawlers may not fetch a sitemap, and by which rule.
type SitemapBlock struct {
	Agents []string `json:"agents"`
	Rule   *string  `json:"rule"`
	Line   int      `json:"line"`
}

// RuleRef is a rule of robots.txt as written, with its line.
type RuleRef struct {
	Line int    `json:"line"`
	Rule string `json:"rule"`
}

// Node is a branch of the URL space: the URLs whose path starts with Path.
type Node struct {
	Name string `json:"name"` // the path segment ("search"), "/" for the root, "…" for folded siblings
	Path string `json:"path"` // the path prefix, "/search/"; a leaf's is the whole path ("/about"); "" for folded siblings
	// Other is true for the node that folds the siblings too small or too many to show.
	Other    bool     `json:"other"`
	URLs     int      `json:"urls"`    // sitemap URLs under it
	Blocked  []int    `json:"blocked"` // per crawler, in the order of Report.Agents
	Samples  []Sample `json:"samples"`
	Children []*Node  `json:"children"`
}

// Sample is one URL under a node with its verdict for every crawler: Allowed and Lines
// are in the order of Report.Agents; a line is that of the deciding rule (see
// Report.Rules), 0 when no rule matched.
type Sample struct {
	URL     string `json:"url"`
	Allowed []bool `json:"allowed"`
	Lines   []int  `json:"lines"`
}

// limitsJSON is Limits as JSON: snake_case names and the time in seconds.
type limitsJSON struct {
	Sitemaps  int     `json:"sitemaps"`
	URLs      int     `json:"urls"`
	FileURLs  int     `json:"file_urls"`
	FileBytes int64   `json:"file_bytes"`
	Depth     int     `json:"depth"`
	Seconds   float64 `json:"seconds"`
	Nesting   int     `json:"nesting"`
}

// MarshalJSON writes the limits with snake_case names and the time in seconds.
func (l Limits) MarshalJSON() ([]byte, error) {
	return json.Marshal(limitsJSON{l.Sitemaps, l.URLs, l.FileURLs, l.FileBytes, l.Depth, l.Time.Seconds(), l.Nesting})
}

// UnmarshalJSON reads what MarshalJSON writes (as POST /v1/audit's "limits"); a
// name it does not know is an error.
func (l *Limits) UnmarshalJSON(b []byte) error {
	var j limitsJSON
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return err
	}
	t := time.Duration(math.MaxInt64) // seconds past a Duration's range read as the longest one
	switch ns := j.Seconds * float64(time.Second); {
	case ns < math.MinInt64:
		t = math.MinInt64
	case ns < math.MaxInt64:
		t = time.Duration(ns)
	}
	*l = Limits{j.Sitemaps, j.URLs, j.FileURLs, j.FileBytes, j.Depth, t, j.Nesting}
	return nil
}

// Fails reports whether the audit found a problem a deployment guard should fail
// on: a sitemap URL or a sitemap blocked for a crawler asked about whose blocks are
// not intended (Intended), a broken sitemap, or a robots.txt that could not be
// fetched (every URL disallowed); with Config.Hosts or Config.As, a host that
// cannot be reached or a crawler that receives another robots.txt than the
// audit's own request (Variants.Served).
func (r *Report) Fails() bool {
	if r.Robots.Effect == fetch.DisallowAll || len(r.Broken()) > 0 || r.Variants.Served() {
		return true
	}
	for i, a := range r.Agents {
		if i < len(r.Totals.BlockedURLs) && r.Totals.BlockedURLs[i] > 0 && !r.IsIntended(a) {
			return true
		}
	}
	for _, s := range r.Sitemaps {
		for _, b := range s.Blocked {
			if !r.AllIntended(b.Agents) {
				return true
			}
		}
	}
	return false
}

// IsIntended reports whether the site blocks agent on purpose (Intended).
func (r *Report) IsIntended(agent string) bool { return slices.Contains(r.Intended, agent) }

// AllIntended reports whether every one of agents is blocked on purpose.
func (r *Report) AllIntended(agents []string) bool {
	for _, a := range agents {
		if !r.IsIntended(a) {
			return false
		}
	}
	return true
}

// ListedURLs is the count of URLs a sitemap lists, the one the command and the
// tester show: the <loc> entries of a urlset (those on other origins included:
// Totals.OffOriginURLs counts them apart), and for an index the URLs of the
// sitemaps it lists, read in the audit, at any depth.
func (r *Report) ListedURLs(s Sitemap) int {
	if s.Kind != "sitemapindex" {
		return s.Entries
	}
	n := 0
	for _, c := range r.Sitemaps {
		if c.Source == SourceIndex && c.Parent == s.URL && c.URL != s.URL && c.Depth > s.Depth {
			n += r.ListedURLs(c)
		}
	}
	return n
}

// NoneBlocked is the sentence that stands for an empty Blocked, as the command and
// the tester write it: a robots.txt that could not be fetched blocks everything
// though no sitemap URL was read, and no URL read is not "none blocked".
func (r *Report) NoneBlocked() string {
	switch {
	case r.Robots.Effect == fetch.DisallowAll:
		return "robots.txt could not be fetched, so crawlers take every URL of the origin as disallowed; no sitemap URL was read to list."
	case r.Totals.URLs == 0:
		return "No sitemap URL of the origin was read, so none was decided."
	}
	n := len(r.Agents)
	crawlers := "crawlers"
	if n == 1 {
		crawlers = "crawler"
	}
	return fmt.Sprintf("No sitemap URL is blocked for the %d %s asked about.", n, crawlers)
}

// BlocksAny reports whether some sitemap URL, or some sitemap, is blocked for a
// crawler asked about.
func (r *Report) BlocksAny() bool {
	if r.Totals.BlockedAny > 0 {
		return true
	}
	for _, s := range r.Sitemaps {
		if len(s.Blocked) > 0 {
			return true
		}
	}
	return false
}

// Broken returns the sitemaps that could not be read in full: unreachable, invalid
// or over the limits. A missing /sitemap.xml tried as the fallback is not counted:
// a site need not have one.
func (r *Report) Broken() []Sitemap {
	var out []Sitemap
	for _, s := range r.Sitemaps {
		switch s.Status {
		case StatusUnreachable:
			if s.Source == SourceFallback && (s.HTTPStatus == 404 || s.HTTPStatus == 410) {
				continue
			}
		case StatusInvalid, StatusOverLimit:
		default:
			continue
		}
		out = append(out, s)
	}
	return out
}

// BlockGroup is the blocks of Report.Blocked that say the same thing: one rule as
// written ("Disallow: /") blocking the same URLs, on several lines, each for other
// crawlers (sixteen groups of "Disallow: /", one per AI crawler). People read it
// once, with its examples once; JSON keeps every Block.
type BlockGroup struct {
	Rule     *string  // as written; nil when robots.txt's fetch decides
	URLs     int      // sitemap URLs each line blocks
	Examples []string // the same for every line
	Blocks   []Block  // each line with its crawlers, in the order of Blocked
}

// Agents are the crawlers of every block of the group, in their order.
func (g BlockGroup) Agents() []string {
	var out []string
	for _, b := range g.Blocks {
		out = append(out, b.Agents...)
	}
	return out
}

// GroupedBlocks folds the blocks of Blocked whose rule text, URL count and
// examples are the same into one group each, placed where the first was.
func (r *Report) GroupedBlocks() []BlockGroup {
	var out []BlockGroup
	at := map[string]int{}
	for _, b := range r.Blocked {
		rule := "\x00fetch"
		if b.Rule != nil {
			rule = *b.Rule
		}
		k := fmt.Sprintf("%s\x00%d\x00%q", rule, b.URLs, b.Examples)
		if i, ok := at[k]; ok {
			out[i].Blocks = append(out[i].Blocks, b)
			continue
		}
		at[k] = len(out)
		out = append(out, BlockGroup{Rule: b.Rule, URLs: b.URLs, Examples: b.Examples, Blocks: []Block{b}})
	}
	return out
}
