package serve

import (
	"cmp"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"weak"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/verdictjson"
	"github.com/gorobots/robots/internal/weburl"
)

// The API's shapes, the same as the robots command's (see the package doc):
//
//	verdict:  {"url", "input"?, "agent", "allowed", "rule", "line", "usage"?, "readings"?}
//	origin:   {"origin", "robots_url", "outcome", "effect", "status", "stale",
//	           "fetched_at", "expires_at", "crawl_delay"}
//
// "rule" is the deciding rule as written in the file ("Disallow: /a"), null when no
// rule matched (then "line" is 0). "input" is the URL as sent when it had to be
// encoded as a browser would request it (weburl). "crawl_delay" maps each crawler
// asked about to its crawl-delay in seconds, or null. GET /v1/check answers one
// verdict with its origin under "robots"; POST /v1/check answers
// {"origins": [origin...], "results": [verdict + "origin": index...]}, each origin
// once, in order of first use.

// crawlerSet is who a request asks about: each crawler is one or more product
// tokens (several only with merge_agents), named in the answer by its tokens joined
// with ",".
type crawlerSet struct {
	tokens [][]string
	names  []string
}

// crawlersOf checks the agents of a request and groups them into crawlers: each
// agent alone, or all of them as one crawler when merge is set.
func (s *Server) crawlersOf(agents []string, merge bool) (crawlerSet, error) {
	if err := s.agentsOf(agents); err != nil {
		return crawlerSet{}, err
	}
	if merge || len(agents) == 1 {
		return crawlerSet{tokens: [][]string{agents}, names: []string{strings.Join(agents, ",")}}, nil
	}
	c := crawlerSet{tokens: make([][]string, len(agents)), names: agents}
	for i := range agents {
		c.tokens[i] = agents[i : i+1 : i+1]
	}
	return c, nil
}

// dialectOf reads the dialect a request asks for; "" is Google's.
func dialectOf(name string) (robots.Dialect, error) {
	d, err := robots.ParseDialect(name)
	if err != nil {
		return 0, errorf(http.StatusBadRequest, "dialect: %v", err)
	}
	return d, nil
}

// decider decides for one origin in the dialect asked for. Google's reading uses the
// rules the client holds; another dialect re-reads the same body (the status policy
// stays the server's: it decides how the file was fetched, not how it is read).
type decider struct {
	res   *fetch.Result
	alt   *robots.Robots // the body in another dialect; nil for Google's
	prefs *robots.Robots // the rules read, when they state usage preferences; nil otherwise
	// other is prefs in the other reading (RFC 9309's with draft-ietf-aipref-attach
	// for Google's, and back), to say where the two give a crawler other usage
	// preferences (a verdict's "readings"); nil when prefs is, or for the legacy
	// dialects. A file that states usage is parsed once more per decider for it.
	other *robots.Robots
}

func (s *Server) newDecider(res *fetch.Result, d robots.Dialect) decider {
	dc := decider{res: res}
	if d != robots.Google && res.Effect == fetch.ObeyRules && res.Robots != nil {
		dc.alt = robots.ParseString(res.Body, robots.WithDialect(d))
	}
	if res.Effect == fetch.ObeyRules {
		dc.prefs = cmp.Or(dc.alt, res.Robots)
		if dc.prefs != nil && !dc.prefs.StatesUsage() {
			dc.prefs = nil
		}
	}
	switch {
	case dc.prefs == nil:
	case d == robots.RFC9309 && res.Robots != nil && res.Robots.Dialect() == robots.Google:
		dc.other = res.Robots // Google's reading, as fetched
	case d == robots.Google || d == robots.RFC9309:
		dc.other = s.others.get(res, d)
	}
	return dc
}

// otherReadings keeps, for each fetched result whose file states usage, the file in
// the other reading, as long as the result lives (its key is weak; a cleanup drops
// the entry once the fetch cache has let the result go). Parsing it again for each
// request cost GET /v1/check on a 134 KB file that states usage 10-14 ms where the
// check costs 30 µs (BenchmarkCheckReadings); kept, the check is back to its cost.
// Only files that state usage (2 of the corpus's 20,000) have an entry.
type otherReadings struct {
	mu sync.Mutex
	m  map[otherKey]*robots.Robots
}

type otherKey struct {
	res weak.Pointer[fetch.Result] // equal for the same result
	d   robots.Dialect             // the reading asked for; the entry is the other one
}

// get returns res's file in the reading other than d (RFC 9309's for Google's, and
// back), parsed once per result.
func (o *otherReadings) get(res *fetch.Result, d robots.Dialect) *robots.Robots {
	k := otherKey{res: weak.Make(res), d: d}
	o.mu.Lock()
	rb, ok := o.m[k]
	o.mu.Unlock()
	if ok {
		return rb
	}
	other := robots.RFC9309
	if d == robots.RFC9309 {
		other = robots.Google
	}
	rb = robots.ParseString(res.Body, robots.WithDialect(other))
	o.mu.Lock()
	defer o.mu.Unlock()
	if kept, ok := o.m[k]; ok { // another request parsed it meanwhile
		return kept
	}
	if o.m == nil {
		o.m = make(map[otherKey]*robots.Robots)
	}
	o.m[k] = rb
	runtime.AddCleanup(res, func(k otherKey) {
		o.mu.Lock()
		delete(o.m, k)
		o.mu.Unlock()
	}, k)
	return rb
}

// decide returns the decision on url and the verdict's "usage": the usage preferences
// for url, or nil when no Content-Usage or Content-Signal line applies to it (most files
// have none, and cost nothing more), and its "readings" (verdictjson.Readings). A file
// that states usage is decided once for both (Robots.CheckUsage).
func (dc decider) decide(tokens []string, url string) (robots.Decision, *robots.Usage, string) {
	if dc.prefs == nil {
		if dc.alt != nil {
			return dc.alt.CheckAgents(tokens, url), nil, ""
		}
		return dc.res.CheckAgents(tokens, url), nil, ""
	}
	d, u := dc.prefs.CheckUsage(tokens, url)
	readings := verdictjson.Readings(dc.other, tokens, url, u)
	if len(u.Lines) == 0 {
		return d, nil, readings
	}
	return d, &u, readings
}

// encodeURL returns u as a browser would request it, and u again as the input to
// report when encoding changed it ("" otherwise). A URL typed without a scheme is
// read as "robots check", fetch and audit read it ("example.com:8080/x" is
// http://example.com:8080/x: weburl.Absolute). An input that is not an absolute URL
// is an error for the caller (400).
func encodeURL(u string) (url, input string, err error) {
	enc, _, err := weburl.Absolute(u)
	if err != nil {
		return "", "", errorf(http.StatusBadRequest, "url: %v", err)
	}
	if enc[0] == '/' {
		return "", "", errorf(http.StatusBadRequest, "url %q: an absolute URL is needed (https://host/path)", u)
	}
	if enc != u && enc != u+"/" {
		input = u
	}
	return enc, input, nil
}

// siteURL reads a site as a person types it (weburl.Site: "example.com",
// "127.0.0.1:8080", a URL): the URL to fetch, and a note saying which scheme was
// chosen when none was typed. Anything else is a 400 saying what to type.
func siteURL(raw string) (u, note string, err error) {
	u, note, err = weburl.Site(raw)
	if err != nil {
		return "", "", errorf(http.StatusBadRequest, "%v", err)
	}
	return u, note, nil
}
