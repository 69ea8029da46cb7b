package fetch

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorobots/robots"
)

// Outcome classifies a fetch of robots.txt (RFC 9309 §2.3.1).
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

func (o Outcome) String() string { return nameOf(outcomeNames[:], int(o), "Outcome") }

// MarshalText writes the outcome's name, as in JSON output.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads an outcome's name.
func (o *Outcome) UnmarshalText(b []byte) error {
	i, err := valueOf(outcomeNames[:], b, "outcome")
	if err == nil {
		*o = Outcome(i)
	}
	return err
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

func (e Effect) String() string { return nameOf(effectNames[:], int(e), "Effect") }

// MarshalText writes the effect's name.
func (e Effect) MarshalText() ([]byte, error) { return []byte(e.String()), nil }

// UnmarshalText reads an effect's name.
func (e *Effect) UnmarshalText(b []byte) error {
	i, err := valueOf(effectNames[:], b, "effect")
	if err == nil {
		*e = Effect(i)
	}
	return err
}

// nameOf returns the name names gives value v, or typ(v) where it gives none.
func nameOf(names []string, v int, typ string) string {
	if v < len(names) && names[v] != "" {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, v)
}

// valueOf returns the value whose name in names is b.
func valueOf(names []string, b []byte, what string) (int, error) {
	for i, n := range names {
		if n != "" && n == string(b) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q", what, b)
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
	// MaxFresh, when positive, caps the lifetime of a result from a server that
	// answered (Success or Unavailable) whatever Cache-Control or Expires say, below
	// Config.MaxTTL. An Unreachable result keeps the last copy's rules however old it
	// is, as every policy does.
	MaxFresh time.Duration
	// MaxRedirects is how many consecutive redirects a fetch follows; one more is
	// read as a 404, and so is a redirect back to a URL of the same chain (a loop),
	// however short. Zero means the package's MaxRedirects (RFC 9309's five).
	MaxRedirects int
}

// Defaults of GooglePolicy.
const (
	DefaultTTL            = 24 * time.Hour      // Google and RFC 9309: cache for up to 24 hours
	DefaultMaxUnreachable = 30 * 24 * time.Hour // Google: after 30 days, last copy or no restrictions
)

// GooglePolicy is the status policy of Google's crawlers and RFC 9309 (§2.3.1): 2xx
// obey the body; 4xx except 429 allow everything, 401 and 403 included; 429 and 5xx
// disallow everything until the file can be fetched again.
func GooglePolicy() Policy {
	return Policy{Classify: googleClassify, TTL: DefaultTTL, MaxUnreachable: DefaultMaxUnreachable}
}

// RFC9309MaxFresh is RFC9309Policy's MaxFresh: "Crawlers SHOULD NOT use the cached
// version for more than 24 hours, unless the robots.txt is unreachable" (RFC 9309
// §2.4).
const RFC9309MaxFresh = 24 * time.Hour

// RFC9309Policy is GooglePolicy with RFC 9309's cache rule (§2.4): a file that was
// fetched, or found unavailable, lives at most RFC9309MaxFresh, even when Cache-Control
// max-age asks for longer (Google's page lets max-age lengthen it); while the file is
// unreachable the last copy is kept, as under GooglePolicy.
func RFC9309Policy() Policy {
	p := GooglePolicy()
	p.MaxFresh = RFC9309MaxFresh
	return p
}

// Legacy1996TTL is the lifetime of a result under Legacy1996Policy when the server
// sends no cache headers: "If no cache-control directives are present robots should
// default to an expiry of 7 days" (1996 draft §3.4).
const Legacy1996TTL = 7 * 24 * time.Hour

// Legacy1996MaxRedirects is Legacy1996Policy's MaxRedirects. The 1996 draft (§3.1)
// says "a robot should follow the redirects until a resource can be found" and sets no
// number; a chain is followed while it does not loop back on itself, and this bound,
// the one Chromium and Firefox put on a page's redirects, only stops a chain of ever
// new URLs, which would otherwise never end.
const Legacy1996MaxRedirects = 20

// Legacy1996Policy is the status policy of the 1996 draft "A Method for Robots
// Exclusion" (§3.1 and §3.4): 2xx obey the body; 401 and 403 mean the site
// is completely restricted (disallow all, Outcome Unavailable: the server answered,
// so no retry backoff); 404 and the other 4xx mean no restrictions; a temporary
// failure (429, 5xx, network) defers visits, as under GooglePolicy. Redirects are
// followed "until a resource can be found": up to Legacy1996MaxRedirects, not RFC
// 9309's five, and never round a loop. Results live Legacy1996TTL unless
// Cache-Control max-age or, as the draft asks, Expires says otherwise.
//
// The draft sets no limit on deferring visits to an unreachable origin; the policy
// keeps DefaultMaxUnreachable so that one rule covers origins that never come back.
func Legacy1996Policy() Policy {
	return Policy{Classify: legacy1996Classify, TTL: Legacy1996TTL, MaxUnreachable: DefaultMaxUnreachable, Expires: true,
		MaxRedirects: Legacy1996MaxRedirects}
}

func legacy1996Classify(status int) (Outcome, Effect) {
	if status == http.StatusUnauthorized || status == http.StatusForbidden {
		return Unavailable, DisallowAll
	}
	return googleClassify(status)
}

// policyFor returns the status policy that goes with a dialect (see Config.Dialect).
func policyFor(d robots.Dialect) Policy {
	switch d {
	case robots.Legacy1996:
		return Legacy1996Policy()
	case robots.RFC9309:
		return RFC9309Policy()
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

// read applies the policy and the cache rules (RFC 9309 §2.3.1 and §2.4) to a
// fetch, given the previous result of the origin.
func (c *Client) read(f *fetched, origin, robotsURL string, prev *Result, now time.Time) *Result {
	p := &c.cfg
	r := &Result{
		Origin: origin, RobotsURL: robotsURL, Status: f.status, Hops: f.hops, Addrs: f.addrs,
		BytesRead: f.bytesRead, WireBytes: f.wireBytes, Truncated: f.truncated, Encoding: f.encoding,
		FetchedAt: now,
	}
	if f.err != nil {
		kind := f.kind
		if kind == KindNone {
			kind = kindOf(f.err)
		}
		r.Err = &Error{Kind: kind, Text: f.err.Error(), err: f.err}
	}
	if errKind(r.Err) == KindRefused {
		prev = nil // a refusal is not the origin's failure: no copy, no backoff history
	}
	if f.failed {
		r.Outcome, r.Effect = Unreachable, DisallowAll
	} else {
		r.Outcome, r.Effect = p.Policy.Classify(f.classifyAs)
	}
	if r.Effect == ObeyRules {
		r.Body = f.body
	}
	if r.Outcome != Unreachable {
		ttl := p.Policy.TTL
		if age, ok := maxAge(f.header); ok {
			ttl = min(max(age, p.MinTTL), p.MaxTTL)
		} else if age, ok := expires(f.header); ok && p.Policy.Expires {
			ttl = min(max(age, p.MinTTL), p.MaxTTL)
		}
		if p.Policy.MaxFresh > 0 {
			ttl = min(ttl, p.Policy.MaxFresh)
		}
		r.ExpiresAt, r.LastSuccess = now.Add(ttl), now
		return r
	}

	// Unreachable: keep the last copy, count the failures and back off.
	r.Failures, r.FailingSince = 1, now
	if prev != nil {
		if prev.Outcome == Unreachable {
			r.Failures, r.FailingSince = prev.Failures+1, prev.FailingSince
			r.Copy = prev.Copy
		} else {
			r.Copy = prev.alone()
		}
		r.LastSuccess = prev.LastSuccess
	}
	wait := p.RetryMin << min(r.Failures-1, 30)
	if wait <= 0 || wait > p.RetryMax {
		wait = p.RetryMax
	}
	if f.status == http.StatusServiceUnavailable || f.status == http.StatusTooManyRequests {
		wait = p.RetryMin
		if f.header != nil {
			if ra, ok := retryAfter(f.header, now); ok {
				wait = min(max(ra, p.RetryMin), p.RetryMax)
			}
		}
	}
	r.ExpiresAt = now.Add(wait)
	p.Policy.settle(r)
	return r
}

// settle works out what applies to an unreachable origin's URLs (RFC 9309 §2.3.1.4):
// the last copy while there is one, else nothing until the origin has been
// unreachable for MaxUnreachable, then everything. r is not yet shared.
func (p *Policy) settle(r *Result) {
	if r.Outcome != Unreachable {
		return
	}
	switch {
	case r.Copy != nil:
		r.Stale, r.Effect, r.Body = true, r.Copy.Effect, r.Copy.Body
	case r.FetchedAt.Sub(r.FailingSince) > p.MaxUnreachable:
		r.Effect, r.Body = AllowAll, ""
	default:
		r.Effect, r.Body = DisallowAll, ""
	}
}

// maxAge returns the Cache-Control max-age of h, and whether there is one.
// no-cache and no-store count as max-age=0: the TTL bounds then apply.
func maxAge(h http.Header) (time.Duration, bool) {
	var age time.Duration
	found := false
	for _, v := range h["Cache-Control"] {
		for d := range strings.SplitSeq(v, ",") {
			d = strings.TrimSpace(d)
			name, val, _ := strings.Cut(d, "=")
			switch strings.ToLower(strings.TrimSpace(name)) {
			case "max-age":
				n, err := strconv.ParseInt(strings.Trim(strings.TrimSpace(val), `"`), 10, 64)
				if err != nil || n < 0 {
					continue
				}
				if n > int64(365*24*time.Hour/time.Second) {
					n = int64(365 * 24 * time.Hour / time.Second)
				}
				return time.Duration(n) * time.Second, true
			case "no-cache", "no-store":
				age, found = 0, true
			}
		}
	}
	return age, found
}

// expires returns the lifetime the Expires header gives, counted from the
// response's Date (the server's clock, so that a skewed client clock does not
// matter), and whether there is one. An invalid Expires means already expired
// (RFC 9111 §5.3).
func expires(h http.Header) (time.Duration, bool) {
	v := headerValue(h, "Expires")
	if v == "" {
		return 0, false
	}
	date, err := http.ParseTime(headerValue(h, "Date"))
	if err != nil {
		return 0, false // no reference instant: leave it to the policy's TTL
	}
	exp, err := http.ParseTime(v)
	if err != nil {
		return 0, true
	}
	return max(exp.Sub(date), 0), true
}

// retryAfter returns the Retry-After of h (seconds or an HTTP date), and whether there is one.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := strings.TrimSpace(headerValue(h, "Retry-After"))
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
		return time.Duration(min(n, int64(365*24*3600))) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
