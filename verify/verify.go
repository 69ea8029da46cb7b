// Package verify tells whether a request that names a crawler in its User-Agent
// comes from that crawler, the ways its operator documents: the operator's
// IP-range lists, forward-confirmed reverse DNS, and Web Bot Auth signatures
// (RFC 9421 HTTP Message Signatures).
//
// A [Verifier] answers one of three things ([Status]): [Verified] (one of the
// operator's methods confirmed the request), [Impostor] (every method the
// operator documents was available and each said no) or [CannotTell] (the
// User-Agent names no crawler of the registry, its operator documents no method,
// or a method could not answer: a list not loaded, a DNS failure). A crawler that
// cannot be verified is never reported as an impostor.
//
// Range lists are fetched over HTTP like robots.txt (bounded in size, cached for a
// lifetime, refreshed with conditional requests in the background, kept stale when
// a refresh fails) or read from local files; once a list is loaded, Verify makes no
// network round trip for it. Reverse DNS goes through a [Resolver] with a cache.
// A signature verifies against the key directory of the crawler's registry entry
// (fetched over HTTPS and cached the same way): a request signed with a key the
// directory lacks, or not signed, cannot be told; one that names a key of the
// directory and does not verify speaks against the claim. [Options].NoWait keeps
// every network wait out of Verify, for servers that verify in the request path.
//
// Every bound is a field of [Limits], with its default beside it.
package verify

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/internal/defaults"
	"github.com/gorobots/robots/webbotauth"
)

// Request is what Verify reads of a request: the client's address, its
// User-Agent and (for signatures) its header fields.
type Request struct {
	Addr      netip.Addr
	UserAgent string
	Header    http.Header // may be nil; read for Signature, Signature-Input, Signature-Agent
	// Method, Authority and Path are read only to verify a signature that covers
	// the derived components @method, @authority, @path, @target-uri, @scheme or
	// @query (RFC 9421 §2.2). Authority is the Host; Path includes the query.
	Method, Scheme, Authority, Path string
}

// Status is the answer of Verify.
type Status int

const (
	CannotTell Status = iota // nothing shows whether the request is the crawler's
	Verified                 // a documented method confirmed it
	Impostor                 // every documented method was available and said no
)

var statusNames = [...]string{"cannot-tell", "verified", "impostor"}

func (s Status) String() string {
	if s >= 0 && int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// MarshalText writes the name String gives.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a name String gives.
func (s *Status) UnmarshalText(b []byte) error {
	for i, n := range statusNames {
		if string(b) == n {
			*s = Status(i)
			return nil
		}
	}
	return fmt.Errorf("unknown verification status %q (want cannot-tell, verified or impostor)", b)
}

// Methods named in Result.Method.
const (
	MethodRanges    = "ip-range"
	MethodDNS       = "reverse-dns"
	MethodSignature = "signature"
)

// Result is the answer for one request.
type Result struct {
	Crawler string // the registry's product token the User-Agent names; "" when it names none
	Status  Status
	Method  string // the method that decided: MethodRanges, MethodDNS, MethodSignature; "" when none did
	Detail  string // one line for a person: what was checked and what it said
}

// Resolver is the DNS a Verifier uses; *net.Resolver is one.
type Resolver interface {
	LookupAddr(ctx context.Context, addr string) ([]string, error)
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Limits bound what a Verifier spends. A zero field stands for its default.
type Limits struct {
	MaxListBytes  int64         // a range list's body; DefaultMaxListBytes
	FetchTimeout  time.Duration // one fetch of a range list or key directory; DefaultFetchTimeout
	MinTTL        time.Duration // lower bound of a fetched list's lifetime; DefaultMinTTL
	MaxTTL        time.Duration // upper bound; DefaultMaxTTL
	DefaultTTL    time.Duration // when the response gives none; DefaultListTTL
	MaxStale      time.Duration // how long a list is used past its lifetime while refreshes fail; DefaultMaxStale
	FileRecheck   time.Duration // how often a local file's modification time is looked at; DefaultFileRecheck
	DNSTimeout    time.Duration // one reverse-and-forward lookup; DefaultDNSTimeout
	DNSTTL        time.Duration // lifetime of a DNS answer in the cache; DefaultDNSTTL
	DNSFailureTTL time.Duration // lifetime of a failed lookup (temporary error); DefaultDNSFailureTTL
	DNSEntries    int           // addresses the DNS cache holds; DefaultDNSEntries
	MaxNames      int           // PTR names looked at per address; DefaultMaxNames
	MaxSkew       time.Duration // a signature's created/expires tolerance; DefaultMaxSkew
	MaxUserAgent  int           // bytes of a User-Agent read to name the crawler; DefaultMaxUserAgent
	DNSInFlight   int           // background DNS lookups at once with Options.NoWait; DefaultDNSInFlight
}

// Defaults of Limits.
const (
	DefaultMaxListBytes  = 4 << 20 // googlebot.json is about 20 KB; bingbot.json a few KB
	DefaultFetchTimeout  = 30 * time.Second
	DefaultMinTTL        = time.Minute
	DefaultMaxTTL        = 7 * 24 * time.Hour
	DefaultListTTL       = 24 * time.Hour
	DefaultMaxStale      = 7 * 24 * time.Hour
	DefaultFileRecheck   = time.Minute
	DefaultDNSTimeout    = 5 * time.Second
	DefaultDNSTTL        = time.Hour
	DefaultDNSFailureTTL = time.Minute
	DefaultDNSEntries    = 100_000
	DefaultMaxNames      = 8
	DefaultMaxSkew       = time.Minute
	DefaultMaxUserAgent  = 4096 // real crawlers' are under 300 bytes
	DefaultDNSInFlight   = 64
)

func (l *Limits) fill() {
	l.MaxListBytes = defaults.Or(l.MaxListBytes, DefaultMaxListBytes)
	l.FetchTimeout = defaults.Or(l.FetchTimeout, DefaultFetchTimeout)
	l.MinTTL = defaults.Or(l.MinTTL, DefaultMinTTL)
	l.MaxTTL = defaults.Or(l.MaxTTL, DefaultMaxTTL)
	l.DefaultTTL = defaults.Or(l.DefaultTTL, DefaultListTTL)
	l.MaxStale = defaults.Or(l.MaxStale, DefaultMaxStale)
	l.FileRecheck = defaults.Or(l.FileRecheck, DefaultFileRecheck)
	l.DNSTimeout = defaults.Or(l.DNSTimeout, DefaultDNSTimeout)
	l.DNSTTL = defaults.Or(l.DNSTTL, DefaultDNSTTL)
	l.DNSFailureTTL = defaults.Or(l.DNSFailureTTL, DefaultDNSFailureTTL)
	l.MaxSkew = defaults.Or(l.MaxSkew, DefaultMaxSkew)
	l.DNSEntries = defaults.Or(l.DNSEntries, DefaultDNSEntries)
	l.MaxNames = defaults.Or(l.MaxNames, DefaultMaxNames)
	l.MaxUserAgent = defaults.Or(l.MaxUserAgent, DefaultMaxUserAgent)
	l.DNSInFlight = defaults.Or(l.DNSInFlight, DefaultDNSInFlight)
}

// Options configure a Verifier. Every field may be left zero.
type Options struct {
	// Crawlers is the registry verified against; nil means crawlers.All().
	Crawlers []crawlers.Crawler
	// Lists replaces the registry's range-list URLs: a key is a URL as the
	// registry writes it (or a crawler's product token, which replaces all of that
	// crawler's lists), its value a local file path, a file:// URL or another
	// http(s) URL. Tests and offline use point the operators' lists at files.
	Lists map[string]string
	// Offline forbids fetching: only lists in local files are used, the others
	// count as unavailable (CannotTell, never Impostor).
	Offline bool
	// Resolver answers reverse and forward DNS; nil means net.DefaultResolver.
	Resolver Resolver
	// NoDNS turns reverse DNS off: crawlers verified only that way are CannotTell.
	NoDNS bool
	// HTTPClient fetches range lists and key directories; nil means a client with
	// Limits.FetchTimeout.
	HTTPClient *http.Client
	// NoWait makes Verify never wait on the network, for a server that verifies
	// in the request path: a list or key directory not loaded yet, and an address
	// whose DNS answer is not cached, are looked up in the background and answer
	// CannotTell meanwhile. Without it the first use of a list, and each new
	// address's DNS, wait (bounded by FetchTimeout and DNSTimeout).
	NoWait bool
	// Now is the clock; nil means time.Now.
	Now    func() time.Time
	Limits Limits
}

// Verifier verifies requests. It is safe for concurrent use.
type Verifier struct {
	opts    Options
	lim     Limits
	index   *index
	lists   *listCache
	keydirs *listCache
	dns     *dnsCache
	now     func() time.Time
}

// New returns a Verifier. It fetches nothing: lists are loaded on first use, or
// at once by Refresh.
func New(opts Options) (*Verifier, error) {
	lim := opts.Limits
	lim.fill()
	if lim.MinTTL > lim.MaxTTL {
		return nil, fmt.Errorf("verify: Limits.MinTTL %v is more than MaxTTL %v", lim.MinTTL, lim.MaxTTL)
	}
	cs := opts.Crawlers
	if cs == nil {
		cs = crawlers.All()
	}
	ix, err := newIndex(cs, opts.Lists)
	if err != nil {
		return nil, err
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	client := opts.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: lim.FetchTimeout}
	}
	var res Resolver = opts.Resolver
	if res == nil {
		res = defaultResolver
	}
	v := &Verifier{opts: opts, lim: lim, index: ix, now: now}
	v.lists = newListCache(client, lim, now, opts.Offline)
	v.keydirs = newKeyDirCache(client, lim, now, opts.Offline)
	v.dns = newDNSCache(res, lim, now)
	v.lists.noWait, v.keydirs.noWait, v.dns.noWait = opts.NoWait, opts.NoWait, opts.NoWait
	return v, nil
}

// Wait returns when the loads and lookups running in the background (refreshes,
// and with Options.NoWait first uses) are done: for tests, and before exiting.
func (v *Verifier) Wait() {
	v.lists.bg.Wait()
	v.keydirs.bg.Wait()
	v.dns.bg.Wait()
}

// Refresh loads every range list the registry names now, rather than on first
// use, and returns the errors of those that could not be loaded (each names its
// source). Lists that failed stay unavailable, or stale if loaded before.
func (v *Verifier) Refresh(ctx context.Context) error {
	var errs []error
	for _, src := range v.index.sources() {
		if err := v.lists.load(ctx, src); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Verify says whether r comes from the crawler its User-Agent names.
func (v *Verifier) Verify(ctx context.Context, r Request) Result {
	ua := r.UserAgent
	if len(ua) > v.lim.MaxUserAgent {
		ua = ua[:v.lim.MaxUserAgent]
	}
	c, ok := v.index.match(ua)
	if !ok {
		// Agents that send a browser's User-Agent (ChatGPT agent) name themselves by
		// the Signature-Agent of their signature: verified that way, or not at all.
		if c := v.signedBy(r); c != nil {
			if ok, why, _ := v.verifySignature(ctx, c, r); ok {
				return Result{Crawler: c.name, Status: Verified, Method: MethodSignature, Detail: why}
			}
		}
		return Result{Detail: "the User-Agent names no crawler of the registry"}
	}
	res := Result{Crawler: c.name}
	addr := r.Addr.Unmap()
	var unknown []string // why a method could not answer
	var denied []string  // what a method said against the claim

	// A signature proves who sent the request wherever it comes from.
	if c.keyDir != "" && r.Header != nil && r.Header.Get("Signature-Input") != "" {
		ok, why, definite := v.verifySignature(ctx, c, r)
		switch {
		case ok:
			res.Status, res.Method, res.Detail = Verified, MethodSignature, why
			return res
		case definite:
			denied = append(denied, why)
		default:
			unknown = append(unknown, why)
		}
	} else if c.keyDir != "" && len(c.ranges) == 0 && len(c.dns) == 0 {
		unknown = append(unknown, "the request is not signed (Web Bot Auth)")
	}

	hasAddr := addr.IsValid()
	if !hasAddr && (len(c.ranges) > 0 || len(c.dns) > 0) {
		unknown = append(unknown, "no client address to check")
	}
	if hasAddr && len(c.ranges) > 0 {
		in, why, ok := v.inRanges(ctx, c, addr)
		switch {
		case in:
			res.Status, res.Method, res.Detail = Verified, MethodRanges, why
			return res
		case ok:
			denied = append(denied, why)
		default:
			unknown = append(unknown, why)
		}
	}
	if hasAddr && len(c.dns) > 0 {
		if v.opts.NoDNS {
			unknown = append(unknown, "reverse DNS is off")
		} else {
			a := v.dns.check(ctx, addr, c.dns)
			switch a.outcome {
			case dnsConfirmed:
				res.Status, res.Method, res.Detail = Verified, MethodDNS, a.detail
				return res
			case dnsDenied:
				denied = append(denied, a.detail)
			default:
				unknown = append(unknown, a.detail)
			}
		}
	}
	switch {
	case len(denied) == 0 && len(unknown) == 0:
		res.Detail = c.name + "'s operator documents no way to verify it"
	case len(unknown) > 0:
		// A method that could not answer might have said yes.
		res.Detail = strings.Join(append(unknown, denied...), "; ")
	default:
		res.Status = Impostor
		res.Detail = strings.Join(denied, "; ")
		res.Method = lastMethod(c)
	}
	return res
}

// signedBy returns the crawler whose key directory a Signature-Agent of r
// names, nil when none does (or r is not signed).
func (v *Verifier) signedBy(r Request) *crawler {
	if r.Header == nil || len(v.index.byAgent) == 0 || r.Header.Get("Signature-Input") == "" {
		return nil
	}
	for _, raw := range r.Header.Values("Signature-Agent") {
		for f := range strings.SplitSeq(raw, ",") {
			_, val, ok := strings.Cut(f, "=")
			if !ok {
				val = f // the legacy bare string
			}
			val, _, _ = strings.Cut(strings.TrimSpace(val), ";")
			if origin, err := webbotauth.AgentOrigin(strings.Trim(val, `"`)); err == nil {
				if c := v.index.byAgent[origin]; c != nil {
					return c
				}
			}
		}
	}
	return nil
}

// lastMethod names the method an Impostor answer rests on: the last the crawler
// has, as every one of its methods said no.
func lastMethod(c *crawler) string {
	switch {
	case len(c.dns) == 0 && len(c.ranges) == 0:
		return MethodSignature
	case len(c.dns) > 0:
		return MethodDNS
	case len(c.ranges) > 0:
		return MethodRanges
	}
	return MethodSignature
}

func (v *Verifier) inRanges(ctx context.Context, c *crawler, addr netip.Addr) (in bool, detail string, ok bool) {
	var missing []string
	loaded := 0
	for _, src := range c.ranges {
		set, err := v.lists.get(ctx, src)
		if err != nil {
			missing = append(missing, err.Error())
			continue
		}
		loaded++
		if p, hit := set.(*rangeSet).lookup(addr); hit {
			// The detail without fmt: this runs for every request of a verified crawler.
			var buf [128]byte
			b := addr.AppendTo(buf[:0])
			b = append(b, " is in "...)
			b = p.AppendTo(b)
			b = append(b, " of "...)
			return true, string(append(b, src.name...)), true
		}
	}
	if len(missing) > 0 {
		return false, strings.Join(missing, "; "), false
	}
	names := make([]string, len(c.ranges))
	for i, s := range c.ranges {
		names[i] = s.name
	}
	return false, fmt.Sprintf("%s is in no range of %s", addr, strings.Join(names, ", ")), true
}

// FromHTTP returns the Request of r as a server received it: the client's
// address from r.RemoteAddr (a proxy in front must be accounted for by the
// caller, who knows which forwarded field to trust), its User-Agent, header,
// method, scheme (https when r.TLS is set), Host and request target.
func FromHTTP(r *http.Request) Request {
	out := Request{UserAgent: r.UserAgent(), Header: r.Header, Method: r.Method, Scheme: "http", Authority: r.Host}
	if ap, err := netip.ParseAddrPort(r.RemoteAddr); err == nil {
		out.Addr = ap.Addr()
	} else if a, err := netip.ParseAddr(r.RemoteAddr); err == nil {
		out.Addr = a
	}
	if r.TLS != nil {
		out.Scheme = "https"
	}
	if r.URL != nil {
		out.Path = r.URL.RequestURI()
	}
	return out
}
