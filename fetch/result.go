package fetch

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/gorobots/robots"
)

// Outcome classifies a fetch of robots.txt (SPEC §2).
type Outcome uint8

const (
	// Success: the server answered 2xx and the body was parsed.
	Success Outcome = iota + 1
	// Unavailable: the server said there is no file (4xx except 429, a redirect
	// chain too long to follow, an FTP server without the file).
	Unavailable
	// Unreachable: the server could not answer properly (429, 5xx, DNS failure,
	// refused or reset connection, timeout, invalid response). Retried with backoff.
	Unreachable
)

var outcomeNames = [...]string{Success: "success", Unavailable: "unavailable", Unreachable: "unreachable"}

func (o Outcome) String() string {
	if int(o) < len(outcomeNames) && outcomeNames[o] != "" {
		return outcomeNames[o]
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// MarshalText writes the outcome's name, as in JSON output.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads an outcome's name.
func (o *Outcome) UnmarshalText(b []byte) error {
	for i, n := range outcomeNames {
		if n != "" && n == string(b) {
			*o = Outcome(i)
			return nil
		}
	}
	return fmt.Errorf("unknown outcome %q", b)
}

// Effect is what a fetch means for every URL of the origin.
type Effect uint8

const (
	// ObeyRules: decide by the parsed rules.
	ObeyRules Effect = iota + 1
	// AllowAll: no restrictions.
	AllowAll
	// DisallowAll: nothing may be fetched.
	DisallowAll
)

var effectNames = [...]string{ObeyRules: "rules", AllowAll: "allow-all", DisallowAll: "disallow-all"}

func (e Effect) String() string {
	if int(e) < len(effectNames) && effectNames[e] != "" {
		return effectNames[e]
	}
	return fmt.Sprintf("Effect(%d)", uint8(e))
}

// MarshalText writes the effect's name.
func (e Effect) MarshalText() ([]byte, error) { return []byte(e.String()), nil }

// UnmarshalText reads an effect's name.
func (e *Effect) UnmarshalText(b []byte) error {
	for i, n := range effectNames {
		if n != "" && n == string(b) {
			*e = Effect(i)
			return nil
		}
	}
	return fmt.Errorf("unknown effect %q", b)
}

// Policy is how responses are read: which outcome and effect a final status has,
// and how long results live. Policies are values, so an older interpretation (the
// 1996 draft's 401/403 = disallow all, 7 days) is one more Policy, not a new code path.
type Policy struct {
	// Classify maps the final HTTP status of a fetch (after redirects) to its outcome
	// and effect. Network failures and invalid responses never reach it: they are
	// always Unreachable. A redirect chain that cannot be followed is classified as 404.
	Classify func(status int) (Outcome, Effect)
	// TTL is how long a result lives when Cache-Control max-age does not say.
	TTL time.Duration
	// MaxUnreachable is how long an origin may stay unreachable, with no copy of its
	// file cached, before crawling resumes without restrictions.
	MaxUnreachable time.Duration
	// Expires makes the Expires header (against the response's Date) set the
	// lifetime when there is no Cache-Control max-age, within the TTL bounds.
	Expires bool
}

// Defaults of GooglePolicy.
const (
	DefaultTTL            = 24 * time.Hour      // Google and RFC 9309: cache for up to 24 hours
	DefaultMaxUnreachable = 30 * 24 * time.Hour // Google: after 30 days, last copy or no restrictions
)

// GooglePolicy is the status policy of Google's crawlers and RFC 9309 (SPEC §2): 2xx
// obey the body; 4xx except 429 allow everything, 401 and 403 included; 429 and 5xx
// disallow everything until the file can be fetched again.
func GooglePolicy() Policy {
	return Policy{Classify: googleClassify, TTL: DefaultTTL, MaxUnreachable: DefaultMaxUnreachable}
}

// Legacy1996TTL is the lifetime of a result under Legacy1996Policy when the server
// sends no cache headers: "If no cache-control directives are present robots should
// default to an expiry of 7 days" (1996 draft §3.4).
const Legacy1996TTL = 7 * 24 * time.Hour

// Legacy1996Policy is the status policy of the 1996 draft "A Method for Robots
// Exclusion" (§3.1 and §3.4; SPEC §6): 2xx obey the body; 401 and 403 mean the site
// is completely restricted (disallow all, Outcome Unavailable: the server answered,
// so no retry backoff); 404 and the other 4xx mean no restrictions; a temporary
// failure (429, 5xx, network) defers visits, as under GooglePolicy. Redirects are
// followed under every policy. Results live Legacy1996TTL unless Cache-Control
// max-age or, as the draft asks, Expires says otherwise.
//
// The draft sets no limit on deferring visits to an unreachable origin; the policy
// keeps DefaultMaxUnreachable so that one rule covers origins that never come back.
func Legacy1996Policy() Policy {
	return Policy{Classify: legacy1996Classify, TTL: Legacy1996TTL, MaxUnreachable: DefaultMaxUnreachable, Expires: true}
}

func legacy1996Classify(status int) (Outcome, Effect) {
	if status == http.StatusUnauthorized || status == http.StatusForbidden {
		return Unavailable, DisallowAll
	}
	return googleClassify(status)
}

// PolicyFor returns the status policy that goes with a dialect: Legacy1996Policy
// for robots.Legacy1996, GooglePolicy for the others. robots.Legacy1994 gets
// GooglePolicy too because the 1994 document says nothing about status codes or
// lifetimes, so nothing in it contradicts the current reading.
func PolicyFor(d robots.Dialect) Policy {
	if d == robots.Legacy1996 {
		return Legacy1996Policy()
	}
	return GooglePolicy()
}

func googleClassify(status int) (Outcome, Effect) {
	switch {
	case status >= 200 && status <= 299:
		return Success, ObeyRules
	case status == http.StatusTooManyRequests, status >= 500 && status <= 599:
		return Unreachable, DisallowAll
	case status >= 400 && status <= 499:
		return Unavailable, AllowAll
	}
	// 1xx reaching the end of a fetch, 3xx (only for a chain that cannot be followed,
	// which the client classifies as 404 itself) and codes out of range: the response
	// is not one a server should give.
	return Unreachable, DisallowAll
}

// Hop is one request of a fetch: the URL asked for and the status answered
// (0 when no response came; for FTP the reply code).
type Hop struct {
	URL    string `json:"url"`
	Status int    `json:"status"`
}

// Result is what is known about an origin's robots.txt: the latest fetch and the
// effect that applies now. A Result is not modified after it is returned, and is
// safe for concurrent use.
type Result struct {
	Origin    string  // scheme://host[:port], the cache key
	RobotsURL string  // Origin + "/robots.txt"
	Outcome   Outcome // of the latest fetch
	Status    int     // final HTTP status (FTP reply code) of the latest fetch; 0 if none came
	Hops      []Hop   // every request of the latest fetch, redirects included
	BytesRead int64   // body bytes read (after decompression), at most the size limit
	WireBytes int64   // body bytes read from the network (before decompression)
	Truncated bool    // the body went on past the size limit; the rest was not read
	Encoding  string  // Content-Encoding of the final response, if any

	FetchedAt   time.Time // when the latest fetch was made
	ExpiresAt   time.Time // when to fetch again
	LastSuccess time.Time // when the origin last answered other than Unreachable; zero if never

	// Effect is what applies to the origin's URLs now. After a failed refresh it is
	// that of the last copy (Stale is then true).
	Effect Effect
	// Robots are the rules that apply when Effect is ObeyRules, else nil.
	Robots *robots.Robots
	// Body is the file Robots were parsed from (at most the size limit), when
	// Effect is ObeyRules; else nil. It is shared: do not modify it.
	Body []byte
	// Stale reports that Effect and Robots come from an earlier fetch, because the
	// latest found the origin unreachable.
	Stale bool
	// Failures counts consecutive Unreachable fetches up to this one, and
	// FailingSince is when the first of them was made.
	Failures     int
	FailingSince time.Time

	// Err says why the latest fetch was not a plain answer (network error, too many
	// redirects); nil otherwise. It is an *Error, whose Kind survives stores; in the
	// process that made the fetch it wraps the original error. A dial the client's
	// dialer refused on purpose (KindRefused, see WithDialContext) is never cached.
	Err error

	rulesFrom time.Time // FetchedAt of the entry Robots was parsed from
	entry     *Entry    // what it was made from, the previous entry of the next refresh
}

// Check decides url for the crawler with product token agent by the effect that
// applies now. For AllowAll and DisallowAll no rule decides (Decision.Rule is the
// zero Rule).
func (r *Result) Check(agent, url string) robots.Decision {
	return r.CheckAgents([]string{agent}, url)
}

// CheckAgents is Check for one crawler that answers to several product tokens (see
// robots.Robots.CheckAgents).
func (r *Result) CheckAgents(agents []string, url string) robots.Decision {
	switch r.Effect {
	case ObeyRules:
		return r.Robots.CheckAgents(agents, url)
	case AllowAll:
		return robots.Decision{Allowed: true, Group: -1}
	}
	return robots.Decision{Allowed: false, Group: -1}
}

// Allowed reports whether the crawler with product token agent may fetch url.
func (r *Result) Allowed(agent, url string) bool { return r.Check(agent, url).Allowed }

// ErrTooManyRedirects is the Err of a fetch whose redirect chain went on past
// MaxRedirects hops; such a fetch is classified as a 404.
var ErrTooManyRedirects = errors.New("too many redirects")
