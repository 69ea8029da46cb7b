package gate

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/defaults"
)

// Limits and defaults; each can be changed in Config.
const (
	// DefaultFetchWait bounds how long a decision waits, all told, for what is not
	// cached: the site's robots.txt, and verification's range lists and DNS
	// answers. The request being judged waits with it, behind the proxy. Past it
	// the file is "unreachable" for this request (Policy.FailClosed says what then)
	// and verification cannot tell; fetches go on in the background and later
	// requests use their results.
	DefaultFetchWait = 2 * time.Second

	// DefaultGrace is how long after a change of robots.txt the file it replaced
	// still counts: RFC 9309 §2.4 lets a crawler cache robots.txt for up to 24
	// hours, so a crawler fetching a URL that was allowed until a change less than
	// a day ago has not disobeyed.
	DefaultGrace = 24 * time.Hour

	// FileCheckInterval is how often a local robots.txt file (Site.File) is
	// looked at (one stat) for changes.
	FileCheckInterval = time.Second

	// MaxURIBytes bounds the request target judged; longer is a bad request.
	// nginx's default large_client_header_buffers hold 8 KiB lines.
	MaxURIBytes = 16 << 10
)

// Request is the request a site received, as the gate judges it.
type Request struct {
	Method    string     // GET, HEAD, ...
	Scheme    string     // http or https; "" when the proxy did not say
	Host      string     // the Host the client asked for: name[:port]
	URI       string     // the request target: path and query, starting with "/"
	Addr      netip.Addr // the client's address
	UserAgent string
	// Header holds the request's other header fields that verification reads (the
	// Web Bot Auth Signature, Signature-Input and Signature-Agent); it may be nil.
	Header http.Header
}

// Verdict is what the gate answers.
type Verdict uint8

const (
	Pass  Verdict = iota // let the request through (2xx)
	Deny                 // refuse it (403)
	Limit                // refuse it for now (429 with Retry-After)
)

var verdictNames = [...]string{Pass: "pass", Deny: "deny", Limit: "limit"}

func (v Verdict) String() string { return verdictNames[v] }

// Reason says why the gate answered as it did.
type Reason uint8

const (
	NotACrawler Reason = iota // the User-Agent names no crawler the policy knows
	NotEnforced               // a crawler the policy does not enforce
	RobotsTxt                 // the request is for /robots.txt, which always passes
	Allowed                   // robots.txt allows the URL
	Disallowed                // robots.txt disallows the URL
	Grace                     // disallowed now, allowed by the file robots.txt replaced less than Config.Grace ago
	TooFast                   // sooner after the crawler's previous request than its Crawl-delay
	Impostor                  // verification says the client is not the crawler it claims to be
	Unreachable               // the site's robots.txt could not be read
	UnknownHost               // the Host is not a configured site
	BadRequest                // the request to judge is missing or malformed (forward-auth headers)
)

var reasonNames = [...]string{
	NotACrawler: "not-a-crawler", NotEnforced: "not-enforced", RobotsTxt: "robots-txt", Allowed: "allowed",
	Disallowed: "disallowed", Grace: "grace", TooFast: "crawl-delay", Impostor: "impostor",
	Unreachable: "robots-unreachable", UnknownHost: "unknown-host", BadRequest: "bad-request",
}

func (r Reason) String() string { return reasonNames[r] }

// Decision is the gate's answer to one request, with its reason.
type Decision struct {
	Verdict Verdict
	Reason  Reason
	// Violation reports that the request broke the rules (a disallowed URL, a
	// Crawl-delay not kept) or came from an impostor, whatever the verdict: with a
	// Log action it passes, and is recorded.
	Violation bool
	// Crawler is the crawler the request names: a name of the crawlers registry, or
	// a product token the policy lists; "" when it names none.
	Crawler  string
	Purpose  crawlers.Purpose // the crawler's main purpose, "" when unknown
	Identity Identity         // what verification said
	// Rule is the robots.txt rule that decided the URL (its Line is 0 when no rule
	// did); CrawlDelay the crawler's Crawl-delay when one applied.
	Rule       robots.Rule
	CrawlDelay time.Duration
	RetryAfter time.Duration // with Limit: when the crawler may come back
	// Stale reports that robots.txt was decided from the last copy read, because
	// the site's robots.txt could not be read now; Spared that the verdict would
	// have refused a verified search crawler and passed it instead (see Safety).
	Stale, Spared bool
	// Err says what went wrong, with BadRequest, UnknownHost and Unreachable.
	Err error

	version *version // the robots.txt decided with, for the report
}

// Action is what the policy does with a violation.
type Action uint8

const (
	Log    Action = iota // pass, and record the violation
	Refuse               // deny (403)
	Slow                 // limit (429 with Retry-After); for Crawl-delay only
)

var actionNames = [...]string{Log: "log", Refuse: "deny", Slow: "429"}

func (a Action) String() string { return actionNames[a] }

// ParseAction reads an action as String writes it: log, deny or 429 ("limit" is
// taken for 429).
func ParseAction(s string) (Action, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "log":
		return Log, nil
	case "deny", "403":
		return Refuse, nil
	case "429", "limit":
		return Slow, nil
	}
	return 0, fmt.Errorf("unknown gate action %q (want log, deny or 429)", s)
}

// Policy says which crawlers the gate enforces robots.txt on and what it does with
// each kind of violation. The zero Policy enforces every crawler of the registry
// and logs every violation, refusing nothing: the way to start.
type Policy struct {
	// Crawlers and Purposes select the crawlers enforced: those named in Crawlers
	// (names of the crawlers registry, or product tokens of crawlers it does not
	// know) and those having one of Purposes. Both empty: every crawler of the
	// registry.
	Crawlers []string
	Purposes []crawlers.Purpose
	// Disallowed is done with a request robots.txt disallows: Log or Refuse.
	Disallowed Action
	// CrawlDelay is done with a request of a crawler documented as honouring
	// Crawl-delay that comes sooner than its Crawl-delay after its previous one to
	// the same site: Log, Refuse or Slow.
	CrawlDelay Action
	// Impostor is done with a request whose client verification says is not the
	// crawler it claims: Log or Refuse. It applies to every crawler named, enforced
	// or not (a client claiming to be Googlebot from elsewhere is the classic
	// scraper). A client verification cannot tell about is never an impostor.
	Impostor Action
	// LogUnverified logs, and never refuses, the violations of crawlers that
	// verification cannot tell about. By default they are judged as the crawler
	// they claim to be: robots.txt says what that crawler may fetch, whoever sends it.
	LogUnverified bool
	// FailClosed refuses (403) requests of enforced crawlers while the site's
	// robots.txt cannot be read; by default they pass. A verified search crawler
	// passes either way.
	FailClosed bool
}

// Site is a host the gate serves and where its robots.txt comes from.
type Site struct {
	// Host is the name the site is asked for (the Host header), with a port when
	// the site is told apart by its port; without one it matches every port.
	// AnyHost ("*") is every host no other site names, for a gate that something
	// in front has already routed by host (a Caddy site block); it needs a File
	// or an Origin.
	Host string
	// File is a local robots.txt file, read again when it changes.
	File string
	// Origin is where robots.txt is fetched from when File is empty: a URL such as
	// https://example.com or http://127.0.0.1:8081 (the upstream behind the proxy),
	// whose /robots.txt is fetched and cached by Config.Client. Empty: https:// and Host.
	Origin string
}

// AnyHost as a Site's Host serves every host no other site names.
const AnyHost = "*"

// Config configures a Gate.
type Config struct {
	Sites  []Site
	Policy Policy
	// Verifier names and verifies the crawler of each request; nil names it by its
	// User-Agent (RegistryNamer) and can tell nothing about who it is.
	Verifier Verifier
	// Client fetches the robots.txt of sites without a File; nil makes one with
	// fetch's defaults. The sites' origins are configured by the operator, not
	// taken from requests, so the client may reach loopback and private addresses.
	Client *fetch.Client
	// FetchWait bounds a decision's wait for what is not cached (DefaultFetchWait).
	FetchWait time.Duration
	// Grace is how long the file a robots.txt replaced still counts (DefaultGrace).
	Grace time.Duration
	// Forward configures how ForwardAuth reads the proxy's headers.
	Forward Forward
	// Registerer receives the gate's metrics (robots_gate_decisions_total); nil
	// keeps none.
	Registerer prometheus.Registerer
	// Logger receives one line per violation and per failed request, at level
	// Warn; nil discards them.
	Logger *slog.Logger
	// ReportExamples bounds the example URLs the report keeps per rule
	// (DefaultReportExamples).
	ReportExamples int
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// Gate judges requests. Create it with New; it is safe for concurrent use.
type Gate struct {
	cfg      Config
	exact    map[string]*site // by lower-case host:port
	byName   map[string]*site // by lower-case host, for sites configured without a port
	any      *site            // Site.Host AnyHost, or nil
	verifier Verifier
	enforce  *enforced
	forward  forward
	client   *fetch.Client
	metrics  *gateMetrics
	report   *report
	log      *slog.Logger
	now      func() time.Time
}

// New checks cfg and returns a Gate; local robots.txt files are read now, and an
// unreadable one is an error.
func New(cfg Config) (*Gate, error) {
	if len(cfg.Sites) == 0 {
		return nil, errors.New("gate: no site configured: the gate serves only the hosts it is given")
	}
	cfg.FetchWait = defaults.Or(cfg.FetchWait, DefaultFetchWait)
	cfg.Grace = defaults.Or(cfg.Grace, DefaultGrace)
	cfg.ReportExamples = defaults.Or(cfg.ReportExamples, DefaultReportExamples)
	if err := cfg.Policy.check(); err != nil {
		return nil, err
	}
	g := &Gate{cfg: cfg, exact: map[string]*site{}, byName: map[string]*site{}, verifier: cfg.Verifier,
		client: cfg.Client, log: cfg.Logger, now: cfg.Now}
	if g.verifier == nil {
		g.verifier = RegistryNamer{}
	}
	if g.log == nil {
		g.log = slog.New(slog.DiscardHandler)
	}
	if g.now == nil {
		g.now = time.Now
	}
	var err error
	if g.enforce, err = newEnforced(cfg.Policy); err != nil {
		return nil, err
	}
	if g.forward, err = cfg.Forward.compile(); err != nil {
		return nil, err
	}
	for _, sc := range cfg.Sites {
		s, err := newSite(sc, g.now())
		if err != nil {
			return nil, err
		}
		if s.key == AnyHost {
			if g.any != nil {
				return nil, fmt.Errorf("gate: site %q configured twice", AnyHost)
			}
			g.any = s
			continue
		}
		m := g.byName
		if strings.Contains(strings.TrimPrefix(s.key, "["), ":") && !strings.HasSuffix(s.key, "]") {
			m = g.exact
		}
		if m[s.key] != nil {
			return nil, fmt.Errorf("gate: site %q configured twice", sc.Host)
		}
		m[s.key] = s
		if s.file == nil && g.client == nil {
			g.client = fetch.NewClient(fetch.Config{})
		}
	}
	g.report = newReport(cfg.ReportExamples)
	if g.metrics, err = newGateMetrics(cfg.Registerer); err != nil {
		return nil, fmt.Errorf("gate: metrics: %w", err)
	}
	return g, nil
}

func (p Policy) check() error {
	if err := p.checkActions(Words{}); err != nil {
		return fmt.Errorf("gate: policy: %w", err)
	}
	return nil
}

// Warm fetches the robots.txt of every site that has no File, so that the first
// requests do not wait for them. It returns when all are fetched or ctx ends.
func (g *Gate) Warm(ctx context.Context) {
	var wg sync.WaitGroup
	for _, m := range []map[string]*site{g.exact, g.byName, {AnyHost: g.any}} {
		for _, s := range m {
			if s != nil && s.file == nil {
				wg.Add(1)
				go func() { defer wg.Done(); g.client.Get(ctx, s.robotsURL) }()
			}
		}
	}
	wg.Wait()
}

// siteOf returns the configured site of a Host header.
func (g *Gate) siteOf(host string) *site {
	k := hostKey(host)
	if s := g.exact[k]; s != nil {
		return s
	}
	name := k
	if i := strings.LastIndexByte(k, ':'); i >= 0 && !strings.HasSuffix(k, "]") {
		name = k[:i]
	}
	if s := g.byName[name]; s != nil {
		return s
	}
	return g.any
}

// Decide judges r, at the gate's clock's now, and records the decision (metrics,
// report, log).
func (g *Gate) Decide(ctx context.Context, r *Request) Decision {
	now := g.now()
	d := g.decide(ctx, r, now)
	g.record(r, &d, now)
	return d
}

// decide judges r at now.
func (g *Gate) decide(ctx context.Context, r *Request, now time.Time) Decision {
	if err := checkRequest(r); err != nil {
		return g.failed(BadRequest, err)
	}
	s := g.siteOf(r.Host)
	if s == nil {
		return Decision{Verdict: Deny, Reason: UnknownHost,
			Err: fmt.Errorf("host %q is not a site of the gate (configure it to serve it)", r.Host)}
	}
	// One wait bounds what the request may wait for: verification (a range list
	// not loaded yet, a DNS answer not cached) and the site's robots.txt.
	ctx, cancel := context.WithTimeout(ctx, g.cfg.FetchWait)
	defer cancel()
	id := g.verifier.Verify(ctx, r)
	if id.Crawler == "" && g.enforce.extra {
		id.Crawler = robots.ProductToken(r.UserAgent)
	}
	var d Decision
	c := g.enforce.lookup(id.Crawler)
	if c != nil {
		d.Crawler, d.Purpose, d.Identity = c.name, c.purpose, id
	}
	if pathOf(r.URI) == "/robots.txt" {
		// Always: a crawler must read the rules it is judged by. It is verified
		// all the same, for the report: which crawlers read the file.
		d.Reason = RobotsTxt
		return d
	}
	if c == nil {
		d.Reason = NotACrawler
		return d
	}
	if id.Status == Spoofed {
		d.Violation = true
		d.Reason = Impostor
		if g.cfg.Policy.Impostor == Refuse {
			d.Verdict = Deny
			return d
		}
		// Logged: judged further as the crawler it claims to be.
	}
	if !c.enforced {
		if !d.Violation {
			d.Reason = NotEnforced
		}
		return d
	}
	searchVerified := id.Status == Verified && c.search
	rules, err := s.rules(ctx, g, now)
	if err != nil {
		d.Reason, d.Err = Unreachable, err
		if g.cfg.Policy.FailClosed {
			d.Verdict = Deny
			if searchVerified {
				d.Verdict, d.Spared = Pass, true
			}
		}
		return d
	}
	d.Stale, d.version = rules.stale, rules.version
	tokens := [1]string{d.Crawler}
	dec := rules.check(tokens[:], r.URI)
	d.Rule = dec.Rule
	if !dec.Allowed {
		if rules.prev != nil && now.Sub(rules.changed) < g.cfg.Grace && rules.prev.check(tokens[:], r.URI).Allowed {
			d.Reason = Grace
			return d
		}
		d.Violation, d.Reason = true, Disallowed
		if g.cfg.Policy.Disallowed == Refuse && g.refuses(id) {
			d.Verdict = Deny
			g.spare(&d, searchVerified)
		}
		return d
	}
	if d.Reason != Impostor {
		d.Reason = Allowed
	}
	if !c.honoursDelay {
		return d
	}
	delay, ok := rules.crawlDelay(d.Crawler)
	if !ok || delay <= 0 {
		return d
	}
	d.CrawlDelay = delay
	act := g.cfg.Policy.CrawlDelay
	if !g.refuses(id) {
		act = Log
	}
	wait := s.pace(delayKey{d.Crawler, id.Status}, delay, now, act == Log)
	if wait <= 0 {
		return d
	}
	d.Violation, d.Reason = true, TooFast
	switch act {
	case Refuse:
		d.Verdict = Deny
	case Slow:
		d.Verdict, d.RetryAfter = Limit, wait
	}
	g.spare(&d, searchVerified)
	return d
}

// refuses reports whether the policy may refuse a request of a crawler thus
// identified: violations of crawlers verification cannot tell about are only
// logged with Policy.LogUnverified.
func (g *Gate) refuses(id Identity) bool {
	return !(g.cfg.Policy.LogUnverified && id.Status == CannotTell)
}

// spare passes a verified search crawler that d would refuse on a copy of
// robots.txt that may be out of date.
func (g *Gate) spare(d *Decision, searchVerified bool) {
	if d.Verdict != Pass && d.Stale && searchVerified {
		d.Verdict, d.RetryAfter, d.Spared = Pass, 0, true
	}
}

// failed is the decision for a request the gate cannot judge: refused with
// Policy.FailClosed, passed otherwise (and recorded, never silently).
func (g *Gate) failed(reason Reason, err error) Decision {
	d := Decision{Reason: reason, Err: err}
	if g.cfg.Policy.FailClosed {
		d.Verdict = Deny
	}
	return d
}

// checkRequest says what is wrong with a request to judge, if anything.
func checkRequest(r *Request) error {
	switch {
	case r.Method == "":
		return errors.New("no method given")
	case !validMethod(r.Method):
		return fmt.Errorf("method %q is not an HTTP method token", clip(r.Method))
	case r.Host == "":
		return errors.New("no host given")
	case !validHost(r.Host):
		return fmt.Errorf("host %q is not a host name", clip(r.Host))
	case r.URI == "":
		return errors.New("no request URI given")
	case len(r.URI) > MaxURIBytes:
		return fmt.Errorf("request URI of %d bytes, more than the limit of %d", len(r.URI), MaxURIBytes)
	case r.URI[0] != '/':
		return fmt.Errorf("request URI %q does not start with /", clip(r.URI))
	case !validURI(r.URI):
		return fmt.Errorf("request URI %q holds a control character or space", clip(r.URI))
	case r.Scheme != "" && !strings.EqualFold(r.Scheme, "http") && !strings.EqualFold(r.Scheme, "https"):
		return fmt.Errorf("scheme %q is neither http nor https", clip(r.Scheme))
	}
	return nil
}

// clip shortens what an error quotes.
func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

func validMethod(m string) bool {
	for i := 0; i < len(m); i++ {
		c := m[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return len(m) <= 32
}

// hostBytes marks the bytes a Host header may hold: printable ASCII but
// /?#@\"<>{}|^` and space.
var hostBytes = func() (t [256]bool) {
	for c := '!'; c < 0x7f; c++ {
		t[c] = !strings.ContainsRune("/?#@\\\"<>{}|^`", c)
	}
	return t
}()

func validHost(h string) bool {
	if len(h) > 300 {
		return false
	}
	for i := 0; i < len(h); i++ {
		if !hostBytes[h[i]] {
			return false
		}
	}
	return true
}

func validURI(u string) bool {
	for i := 0; i < len(u); i++ {
		if c := u[i]; c <= ' ' || c == 0x7f {
			return false
		}
	}
	return true
}

// pathOf is the path of a request target, without its query or fragment.
func pathOf(uri string) string {
	if i := strings.IndexAny(uri, "?#"); i >= 0 {
		return uri[:i]
	}
	return uri
}

// hostKey is a Host header in lower case, without a final dot.
func hostKey(host string) string {
	host = strings.ToLower(host)
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.HasSuffix(host, "]") {
		return strings.TrimSuffix(host[:i], ".") + host[i:]
	}
	return strings.TrimSuffix(host, ".")
}
