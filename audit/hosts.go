package audit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/weburl"
)

// The bounds of a comparison of hosts and crawlers (Config.Hosts, Config.As).
const (
	// MaxHosts bounds the hosts compared, the audited one included: Search
	// Console's robots.txt report shows a site's top 20 hosts.
	MaxHosts = 20
	// MaxVariantFetches bounds the robots.txt fetches of one comparison: a host
	// is fetched once with the audit's own User-Agent and once as each crawler of
	// Config.As (4 hosts as 40 crawlers is 164 fetches).
	MaxVariantFetches = 250
	// VariantParallel is how many of those fetches run at once.
	VariantParallel = 4
)

// ErrVariants is matched (errors.Is) by the errors of Config.Hosts and
// Config.As entries that name no host or no crawler, and of comparisons past
// MaxHosts or MaxVariantFetches.
var ErrVariants = errors.New("bad -hosts or -as")

// Host is one host of a site compared with the audited one: Name is the entry
// that named it ("site" for the audited origin, "www", "bare", "http", "https",
// a subdomain's label, or a host as given) and Origin its origin.
type Host struct {
	Name   string `json:"name"`
	Origin string `json:"origin"`
}

// The words of Config.Hosts, as Search Console names a site's top hosts.
const (
	HostsWWW   = "www"   // www. before the bare host, the audited scheme and port
	HostsBare  = "bare"  // the host without its www., the audited scheme and port
	HostsHTTP  = "http"  // the audited host over http (port 80)
	HostsHTTPS = "https" // the audited host over https (port 443)
	HostsAll   = "all"   // www and bare, each over http and https
)

var label = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`)

// Hosts returns the audited origin ("site") and the hosts entries name, each
// once, in the order named. An entry is one of the words HostsWWW, HostsBare,
// HostsHTTP, HostsHTTPS, HostsAll; a subdomain's label ("shop" for
// shop.example.com, beside the bare host, with the audited scheme and port); or a
// host, host:port or URL ("blog.example.org", "127.0.0.2:8080"), read as
// "robots fetch" reads a site. The error, matching ErrVariants, names the first
// entry that is none of these, or says there are more than MaxHosts hosts.
func Hosts(origin string, entries []string) ([]Host, error) {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("%w: %q is not an origin", ErrVariants, origin)
	}
	host, port := u.Hostname(), u.Port()
	isIP := net.ParseIP(host) != nil
	bare := strings.TrimPrefix(host, "www.")
	out := []Host{{Name: "site", Origin: origin}}
	add := func(name, scheme, h, port string) {
		o := scheme + "://" + h
		if strings.Contains(h, ":") {
			o = scheme + "://[" + h + "]"
		}
		if port != "" && port != weburl.DefaultPort(scheme) {
			o += ":" + port
		}
		for _, x := range out {
			if x.Origin == o {
				return
			}
		}
		out = append(out, Host{Name: name, Origin: o})
	}
	for _, e := range entries {
		e = strings.TrimSpace(e)
		name := strings.ToLower(e)
		needsName := name == HostsWWW || name == HostsBare || name == HostsAll || (label.MatchString(name) && name != HostsHTTP && name != HostsHTTPS)
		if needsName && isIP {
			return nil, fmt.Errorf("%w: -hosts %s: the site's host %s is an IP address, which has no www or subdomains; name the host", ErrVariants, e, host)
		}
		switch {
		case e == "":
			return nil, fmt.Errorf("%w: an empty -hosts entry", ErrVariants)
		case name == HostsWWW:
			add(name, u.Scheme, "www."+bare, port)
		case name == HostsBare:
			add(name, u.Scheme, bare, port)
		case name == HostsHTTP, name == HostsHTTPS:
			add(name, name, host, "")
		case name == HostsAll:
			for _, s := range []string{"https", "http"} {
				add(s+" www", s, "www."+bare, "")
				add(s+" bare", s, bare, "")
			}
		case label.MatchString(name):
			add(name, u.Scheme, name+"."+bare, port)
		default:
			s, _, err := weburl.Site(e)
			if err != nil {
				return nil, fmt.Errorf("%w: -hosts %s: %w", ErrVariants, e, err)
			}
			o, err := fetch.Origin(s)
			if err != nil || !(strings.HasPrefix(o, "http://") || strings.HasPrefix(o, "https://")) {
				return nil, fmt.Errorf("%w: -hosts %s: not an http or https host", ErrVariants, e)
			}
			if !slices.ContainsFunc(out, func(h Host) bool { return h.Origin == o }) {
				out = append(out, Host{Name: e, Origin: o})
			}
		}
		if len(out) > MaxHosts {
			return nil, fmt.Errorf("%w: -hosts names more than %d hosts", ErrVariants, MaxHosts)
		}
	}
	return out, nil
}

// Headers returns the User-Agent headers of the crawlers entries name: a
// crawler's token, a purpose (its crawlers in the registry among the major
// ones), or "major": the major crawlers whose operators document a header
// (crawlers.Headers), then the major AI crawlers that fetch and whose operators
// document only the token (ClaudeBot, Bytespider), whom CDNs' AI-bot rules
// single out. Each crawler comes once, in the order named.
func Headers(entries []string) ([]crawlers.Header, error) {
	var out []crawlers.Header
	add := func(h crawlers.Header) {
		if !slices.ContainsFunc(out, func(x crawlers.Header) bool { return x.Crawler == h.Crawler }) {
			out = append(out, h)
		}
	}
	for _, e := range entries {
		e = strings.TrimSpace(e)
		if strings.EqualFold(e, "major") {
			for _, h := range crawlers.Headers() {
				add(h)
			}
			for _, c := range crawlers.Major() {
				if crawlers.Fetches(c.Name) && slices.ContainsFunc(c.Purposes, crawlers.Purpose.IsAI) {
					h, _ := crawlers.HeaderOf(c.Name)
					add(h)
				}
			}
			continue
		}
		if h, ok := crawlers.HeaderOf(e); ok {
			add(h)
			continue
		}
		if p, err := crawlers.ParsePurpose(e); err == nil {
			for _, c := range crawlers.WithPurpose(p) {
				if c.Major {
					h, _ := crawlers.HeaderOf(c.Name)
					add(h)
				}
			}
			continue
		}
		return nil, fmt.Errorf("%w: -as %q is neither a crawler of the registry, a purpose nor \"major\"", ErrVariants, e)
	}
	return out, nil
}

// Variants is what the hosts of a site and the crawlers fetching its robots.txt
// receive, and where what they receive says different things to a crawler.
type Variants struct {
	// Fetches has one entry per host and header: each host first with the audit's
	// own User-Agent, then as each crawler of Config.As.
	Fetches []Variant `json:"fetches"`
	// Files counts the different bodies read (by their SHA-256).
	Files int `json:"files"`
	// Differences lists, per crawler asked about, where the fetches tell it
	// different things: across the hosts (Host "") or, on one host, between what
	// the crawler receives and what the audit's own request receives (other rules
	// for it, or another status; other bytes with the same rules show only in the
	// fetches' File numbers).
	Differences []Difference `json:"differences"`
}

// Variant is one fetch of a host's robots.txt.
type Variant struct {
	Host   string `json:"host"` // Host.Name
	Origin string `json:"origin"`
	// As is the crawler fetched as, "" for the audit's own User-Agent; UserAgent
	// the header sent, and UserAgentSource the operator's page documenting it (""
	// for the audit's own, or a header made from the token: crawlers.HeaderOf).
	As              string        `json:"as"`
	UserAgent       string        `json:"user_agent"`
	UserAgentSource string        `json:"user_agent_source"`
	Status          int           `json:"status"` // final status; 0 when no answer came
	Outcome         fetch.Outcome `json:"outcome"`
	Effect          fetch.Effect  `json:"effect"`
	Hops            []fetch.Hop   `json:"hops"`
	// RedirectsTo is the origin the redirects ended on when it is another: the
	// host serves that host's file.
	RedirectsTo string `json:"redirects_to"`
	Bytes       int64  `json:"bytes"`
	// SHA256 is the hash of the body read ("" when none was: a status other than
	// 2xx), and File numbers the different bodies from 1 in the order met, 0 when
	// none was read: fetches with one File got the same bytes.
	SHA256 string `json:"sha256"`
	File   int    `json:"file"`
	// Page reports that the body is an HTML page (a challenge, login or error page
	// served with 200), not a robots.txt: read as one, it has no rules.
	Page  bool   `json:"page"`
	Error string `json:"error,omitempty"`

	res *fetch.Result
}

// Difference is one crawler told different things: Readings has one entry per
// different reading, with the fetches that gave it.
type Difference struct {
	Agent string `json:"agent"`
	// Host is "" for a difference across the hosts; else the host (Host.Name) on
	// which the crawler, fetching as itself, receives something else than the
	// audit's own request.
	Host     string    `json:"host"`
	Readings []Reading `json:"readings"`
}

// Reading is what some fetches tell a crawler.
type Reading struct {
	Fetches []int `json:"fetches"` // indexes in Variants.Fetches
	// Says is the reading in words: the rules of the groups the crawler obeys
	// ("Disallow: / (line 2)"), or what the status means ("everything allowed:
	// 403 is unavailable").
	Says string `json:"says"`
	// RootAllowed reports whether the crawler may fetch the host's root URL.
	RootAllowed bool `json:"root_allowed"`
}

// Served reports whether some crawler fetching as itself receives something else
// than the audit's own request on the same host, or a host could not be reached:
// what Report.Fails counts.
func (v *Variants) Served() bool {
	if v == nil {
		return false
	}
	for _, d := range v.Differences {
		if d.Host != "" {
			return true
		}
	}
	for _, f := range v.Fetches {
		if f.Outcome == fetch.Unreachable {
			return true
		}
	}
	return false
}

// variantsOf reads cfg.Hosts and cfg.As for origin, within MaxVariantFetches.
func variantsOf(origin string, cfg Config) ([]Host, []crawlers.Header, error) {
	hosts, err := Hosts(origin, cfg.Hosts)
	if err != nil {
		return nil, nil, err
	}
	as, err := Headers(cfg.As)
	if err != nil {
		return nil, nil, err
	}
	if n := len(hosts) * (1 + len(as)); n > MaxVariantFetches {
		return nil, nil, fmt.Errorf("%w: %d hosts, each fetched as %d crawlers and as itself, are %d fetches of robots.txt, more than %d",
			ErrVariants, len(hosts), len(as), n, MaxVariantFetches)
	}
	return hosts, as, nil
}

// Compare fetches the robots.txt of target's origin and of the hosts cfg.Hosts
// names, each with the client's own User-Agent and as each crawler of cfg.As,
// and says where what they receive tells the crawlers of cfg.Agents different
// things (with none, those of cfg.As, or with neither the major crawlers): the part of an audit that "robots
// fetch -hosts -as" runs alone. Only cfg's Fetch, Agents, Dialect, Hosts and As
// are read. The error is ErrTarget's or ErrVariants', or ctx's.
func Compare(ctx context.Context, target string, cfg Config) (*Variants, error) {
	u, _, err := weburl.Site(target)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrTarget, err)
	}
	origin, err := fetch.Origin(u)
	if err != nil || !(strings.HasPrefix(origin, "http://") || strings.HasPrefix(origin, "https://")) {
		return nil, fmt.Errorf("%w: %q", ErrTarget, target)
	}
	hosts, as, err := variantsOf(origin, cfg)
	if err != nil {
		return nil, err
	}
	fc := cfg.Fetch
	if fc == nil {
		fc = fetch.NewClient(fetch.Config{Dialect: cfg.Dialect})
	}
	agents := cfg.Agents
	if len(agents) == 0 && len(as) == 0 {
		agents = crawlers.Names()
	}
	v := compare(ctx, compareConfig{fetch: fc, hosts: hosts, as: as, agents: agents, dialect: cfg.Dialect})
	return v, ctx.Err()
}

// compareConfig is what a comparison needs.
type compareConfig struct {
	fetch   *fetch.Client
	hosts   []Host
	as      []crawlers.Header
	agents  []string
	dialect robots.Dialect
}

// compare fetches every host with the client's header and as each crawler of
// cfg.as, VariantParallel at a time, and reads what each tells each crawler.
func compare(ctx context.Context, cfg compareConfig) *Variants {
	v := &Variants{Differences: []Difference{}}
	for _, h := range cfg.hosts {
		v.Fetches = append(v.Fetches, Variant{Host: h.Name, Origin: h.Origin, UserAgent: cfg.fetch.UserAgent()})
		for _, a := range cfg.as {
			v.Fetches = append(v.Fetches, Variant{Host: h.Name, Origin: h.Origin, As: a.Crawler, UserAgent: a.Value, UserAgentSource: a.Source})
		}
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, VariantParallel)
	for i := range v.Fetches {
		// Every fetch is made now, the audited host's own too: a cached copy of its
		// file compared with what the crawlers receive now would read as a change.
		f := &v.Fetches[i]
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			ua := f.UserAgent
			if f.As == "" {
				ua = ""
			}
			res, err := cfg.fetch.FetchAs(ctx, ua, f.Origin+"/robots.txt")
			if err != nil {
				res = &fetch.Result{Origin: f.Origin, Outcome: fetch.Unreachable, Effect: fetch.DisallowAll, Err: err}
			}
			f.res = res
		}()
	}
	wg.Wait()
	hashes := map[string]int{}
	for i := range v.Fetches {
		f := &v.Fetches[i]
		r := f.res
		f.Status, f.Outcome, f.Effect, f.Hops, f.Bytes = r.Status, r.Outcome, r.Effect, r.Hops, r.BytesRead
		if f.Hops == nil {
			f.Hops = []fetch.Hop{}
		}
		if r.Err != nil {
			f.Error = r.Err.Error()
		}
		if n := len(r.Hops); n > 1 {
			if o, err := fetch.Origin(r.Hops[n-1].URL); err == nil && o != f.Origin {
				f.RedirectsTo = o
			}
		}
		if r.Effect == fetch.ObeyRules {
			sum := sha256.Sum256([]byte(r.Body))
			f.SHA256 = hex.EncodeToString(sum[:])
			if hashes[f.SHA256] == 0 {
				hashes[f.SHA256] = len(hashes) + 1
			}
			f.File = hashes[f.SHA256]
			f.Page = isPage(r.Body)
		}
	}
	v.Files = len(hashes)
	readings := make([]map[string]reading, len(v.Fetches))
	read := func(i int, agent string) reading {
		if readings[i] == nil {
			readings[i] = map[string]reading{}
		}
		rd, ok := readings[i][agent]
		if !ok {
			rd = readingOf(&v.Fetches[i], agent, cfg.dialect)
			readings[i][agent] = rd
		}
		return rd
	}
	agents := slices.Clone(cfg.agents)
	for _, a := range cfg.as {
		if !slices.Contains(agents, a.Crawler) {
			agents = append(agents, a.Crawler)
		}
	}
	per := 1 + len(cfg.as)
	for _, agent := range agents {
		asIdx := slices.IndexFunc(cfg.as, func(h crawlers.Header) bool { return h.Crawler == agent })
		// Across hosts: each host as the crawler when it was fetched so, else with
		// the audit's header.
		if len(cfg.hosts) > 1 {
			var idx []int
			for h := range cfg.hosts {
				i := h * per
				if asIdx >= 0 {
					i += 1 + asIdx
				}
				idx = append(idx, i)
			}
			if d := differ(agent, "", idx, read); d != nil {
				v.Differences = append(v.Differences, *d)
			}
		}
		if asIdx < 0 {
			continue
		}
		for h, host := range cfg.hosts {
			own, as := h*per, h*per+1+asIdx
			fo, fa := &v.Fetches[own], &v.Fetches[as]
			// Other bytes that tell the crawler the same (a file that stamps the time
			// of each request in a comment) are not a difference: the fetches'
			// File numbers show them.
			if fo.Status == fa.Status && fo.Effect == fa.Effect && read(own, agent).key == read(as, agent).key {
				continue
			}
			d := differ(agent, host.Name, []int{own, as}, read)
			if d == nil { // the same reading from another status (404 and 410)
				d = &Difference{Agent: agent, Host: host.Name, Readings: []Reading{
					{Fetches: []int{own}, Says: read(own, agent).says, RootAllowed: read(own, agent).root},
					{Fetches: []int{as}, Says: read(as, agent).says, RootAllowed: read(as, agent).root},
				}}
			}
			v.Differences = append(v.Differences, *d)
		}
	}
	return v
}

// differ groups the fetches idx by what they tell agent, and returns nil when they
// all tell it the same.
func differ(agent, host string, idx []int, read func(int, string) reading) *Difference {
	var rs []Reading
	var keys []string
	for _, i := range idx {
		rd := read(i, agent)
		k := slices.Index(keys, rd.key)
		if k < 0 {
			keys = append(keys, rd.key)
			rs = append(rs, Reading{Says: rd.says, RootAllowed: rd.root})
			k = len(rs) - 1
		}
		rs[k].Fetches = append(rs[k].Fetches, i)
	}
	if len(rs) < 2 {
		return nil
	}
	return &Difference{Agent: agent, Host: host, Readings: rs}
}

// reading is what one fetch tells one crawler: key compares readings (the rules
// without their lines, so that a file moved down by a comment reads the same).
type reading struct {
	key, says string
	root      bool
}

// maxSaysRules bounds the rules a Reading names.
const maxSaysRules = 6

func readingOf(f *Variant, agent string, d robots.Dialect) reading {
	r := f.res
	root := r.CheckAgents([]string{agent}, f.Origin+"/").Allowed
	status := "no answer"
	if r.Status != 0 {
		status = fmt.Sprintf("%d", r.Status)
	}
	switch r.Effect {
	case fetch.AllowAll:
		return reading{key: "allow-all", says: fmt.Sprintf("everything allowed (%s: %s)", status, r.Outcome), root: root}
	case fetch.DisallowAll:
		return reading{key: "disallow-all", says: fmt.Sprintf("everything disallowed (%s: %s)", status, r.Outcome), root: root}
	}
	rb := r.Robots
	if rb == nil || rb.Dialect() != d {
		rb = robots.ParseString(r.Body, robots.WithDialect(d))
	}
	groups, global := rb.GroupsFor(agent)
	var rules []robots.Rule
	all := rb.Groups()
	for _, g := range groups {
		rules = append(rules, all[g].Rules...)
	}
	slices.SortStableFunc(rules, func(a, b robots.Rule) int {
		return strings.Compare(a.String(), b.String())
	})
	var key, says strings.Builder
	if global {
		key.WriteString("*|")
	}
	for i, ru := range rules {
		key.WriteString(ru.String() + "\n")
		if i < maxSaysRules {
			if i > 0 {
				says.WriteString("; ")
			}
			fmt.Fprintf(&says, "%s (line %d)", ru, ru.Line)
		}
	}
	if len(rules) > maxSaysRules {
		fmt.Fprintf(&says, " and %d more rules", len(rules)-maxSaysRules)
	}
	text := says.String()
	switch {
	case len(rules) == 0 && len(groups) == 0:
		text = "no group applies: everything allowed"
	case len(rules) == 0:
		text = "its group has no rules: everything allowed"
	case global:
		text = `the "*" group: ` + text
	}
	if f.Page {
		text = "an HTML page, not a robots.txt: " + text
		key.WriteString("|page")
	}
	return reading{key: key.String(), says: text, root: root}
}

// isPage reports whether body is an HTML page rather than a robots.txt: what a
// challenge, login or error page served with 200 looks like.
func isPage(body string) bool {
	head := body[:min(len(body), 512)]
	return strings.HasPrefix(http.DetectContentType([]byte(head)), "text/html")
}
