package fetch

import (
	"encoding/json"
	"errors"
	"time"
	"unsafe"

	"github.com/gorobots/robots"
)

// robotsPath is where an origin's robots.txt is (RFC 9309 §2.3).
const robotsPath = "/robots.txt"

// Hop is one request of a fetch: the URL asked for and the status answered
// (0 when no response came; for FTP the reply code).
type Hop struct {
	URL    string `json:"url"`
	Status int    `json:"status"`
}

// Result is what is known about an origin's robots.txt: the latest fetch, and the
// effect that applies to the origin's URLs until ExpiresAt. A Client returns results
// and keeps them in its Store; encoding/json round-trips them (parsed rules apart),
// so that a store can keep them anywhere. A Result is not modified after a Client
// returns or saves it, and is safe for concurrent use.
type Result struct {
	Origin    string   `json:"origin"`     // scheme://host[:port], the cache key
	RobotsURL string   `json:"robots_url"` // Origin + "/robots.txt"
	Outcome   Outcome  `json:"outcome"`    // of the latest fetch
	Status    int      `json:"status"`     // final HTTP status (FTP reply code) of the latest fetch; 0 if none came
	Hops      []Hop    `json:"hops,omitempty"`
	Addrs     []string `json:"addrs,omitempty"` // the remote "ip:port" of each request, in order (see Config.AddrCheck)
	BytesRead int64    `json:"bytes_read"`      // body bytes read (after decompression), at most the size limit
	WireBytes int64    `json:"wire_bytes"`      // body bytes read from the network (before decompression)
	Truncated bool     `json:"truncated,omitempty"`
	Encoding  string   `json:"encoding,omitempty"` // Content-Encoding of the final response, if any

	FetchedAt   time.Time `json:"fetched_at"`            // when the latest fetch was made
	ExpiresAt   time.Time `json:"expires_at"`            // when to fetch again
	LastSuccess time.Time `json:"last_success,omitzero"` // when the origin last answered other than Unreachable
	// Failures counts consecutive Unreachable fetches up to this one, and
	// FailingSince is when the first of them was made.
	Failures     int       `json:"failures,omitempty"`
	FailingSince time.Time `json:"failing_since,omitzero"`

	// Effect is what applies to the origin's URLs now: the latest fetch's own, or
	// after a failed refresh that of Copy (Stale is then true), or with no copy
	// DisallowAll until the policy's MaxUnreachable has passed, then AllowAll.
	Effect Effect `json:"effect"`
	// Stale reports that Effect and Body come from Copy, because the latest fetch
	// found the origin unreachable. It sits beside Effect, in its word.
	Stale bool `json:"-"`
	// Body is the file Robots are parsed from (at most the size limit) when Effect is
	// ObeyRules, else empty. It is a string, which no one can write into, so the
	// Robots a Client parses keep Body itself (robots.ParseString): a cached result
	// holds its file once. Stores keep it as base64 of its bytes, which need not be
	// UTF-8 (robots.txt files in Latin-1 exist).
	Body string `json:"body,omitempty"`
	// Copy is the last fetch that was not Unreachable, kept while the latest is; nil
	// otherwise. Its own Copy is nil.
	Copy *Result `json:"copy,omitempty"`
	// Robots are the rules parsed from Body when Effect is ObeyRules, else nil.
	// Results from a Client have them; one read straight from a Store has not, and
	// its Check parses Body (under Google's reading) on every call.
	Robots *robots.Robots `json:"-"`
	// Err says why the latest fetch was not a plain answer (network error, too many
	// redirects); nil otherwise. It is an *Error, whose Kind survives stores; in the
	// process that made the fetch it wraps the original error. A dial the client's
	// dialer refused on purpose (KindRefused, see Config.DialContext) is never cached.
	Err error `json:"-"`
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
		rb := r.Robots
		if rb == nil {
			rb = robots.ParseString(r.Body)
		}
		return rb.CheckAgents(agents, url)
	case AllowAll:
		return robots.Decision{Allowed: true, Group: -1}
	}
	return robots.Decision{Allowed: false, Group: -1}
}

// Allowed reports whether the crawler with product token agent may fetch url.
func (r *Result) Allowed(agent, url string) bool { return r.Check(agent, url).Allowed }

// resultFields is Result without its methods, for encoding/json.
type resultFields Result

// resultJSON is the stored form of a Result: a stale result's effect and body are
// its copy's, so they are written as the latest fetch's own (DisallowAll, no body)
// and read back from the copy; the error is kept as its text and kind. The body is
// written as base64 of its bytes (encoding/json's form of a []byte), as it was when
// Body was a []byte: entries stored then still read back, and a body that is not
// UTF-8 comes back byte for byte (a JSON string would replace its invalid bytes).
type resultJSON struct {
	*resultFields
	Effect  Effect    `json:"effect"`
	Body    []byte    `json:"body,omitempty"`
	Err     string    `json:"err,omitempty"`
	ErrKind ErrorKind `json:"err_kind,omitempty"`
}

// MarshalJSON writes r without its parsed rules.
func (r *Result) MarshalJSON() ([]byte, error) {
	j := resultJSON{resultFields: (*resultFields)(r), Effect: r.Effect}
	if r.Outcome == Unreachable && r.Copy != nil {
		j.Effect = DisallowAll
	} else {
		j.Body = []byte(r.Body)
	}
	if r.Err != nil {
		j.Err, j.ErrKind = r.Err.Error(), KindOther
		var fe *Error
		if errors.As(r.Err, &fe) {
			j.ErrKind = fe.Kind
		}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON wrote. Err is then an *Error with the kind
// and text only.
func (r *Result) UnmarshalJSON(b []byte) error {
	*r = Result{}
	j := resultJSON{resultFields: (*resultFields)(r)}
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	r.Effect, r.Body = j.Effect, string(j.Body)
	for i := range r.Hops {
		if r.Hops[i].URL == r.RobotsURL {
			r.Hops[i].URL = r.RobotsURL // one string, as in the process that fetched (size)
		}
	}
	if j.Err != "" || j.ErrKind != KindNone {
		kind := j.ErrKind
		if kind == KindNone {
			kind = KindOther // written by a version that kept no kind
		}
		r.Err = &Error{Kind: kind, Text: j.Err}
	}
	if r.Outcome == Unreachable && r.Copy != nil {
		r.Stale, r.Effect, r.Body = true, r.Copy.Effect, r.Copy.Body
	}
	return nil
}

// MemSize estimates the heap bytes r holds, its parsed rules included: what the
// client's rules cache counts against Config.RulesMemory. The body is counted once:
// the Robots a Client parses keep Body itself, and Robots.MemSize counts it.
func (r *Result) MemSize() int64 {
	n := r.size() + int64(r.Robots.MemSize())
	if r.Robots != nil {
		n -= int64(len(r.Body)) // counted by size (or its copy's) and by Robots.MemSize
	}
	return n
}

// size estimates the heap a result holds, parsed rules apart, for caches and
// stores bounded in bytes: the struct, its strings and slices (by capacity), its
// error and its copy.
func (r *Result) size() int64 {
	n := int64(unsafe.Sizeof(*r)) + int64(len(r.RobotsURL)+len(r.Encoding))
	if unsafe.StringData(r.Origin) != unsafe.StringData(r.RobotsURL) { // else its start (withRules)
		n += int64(len(r.Origin))
	}
	if !r.Stale {
		n += int64(len(r.Body)) // else the copy's, counted there
	}
	if r.Err != nil {
		// The error's text, its struct and, in the process that fetched, the
		// error it wraps (about as large again).
		n += 2*int64(len(r.Err.Error())) + 64
	}
	n += int64(cap(r.Hops)) * int64(unsafe.Sizeof(Hop{}))
	for _, h := range r.Hops {
		if unsafe.StringData(h.URL) != unsafe.StringData(r.RobotsURL) { // else RobotsURL itself (the first hop)
			n += int64(len(h.URL))
		}
	}
	n += int64(cap(r.Addrs)) * int64(unsafe.Sizeof(""))
	for _, a := range r.Addrs {
		n += int64(len(a))
	}
	if r.Copy != nil {
		n += r.Copy.size()
	}
	return n
}

// rulesFetchedAt is when the fetch that Body comes from was made.
func (r *Result) rulesFetchedAt() time.Time {
	if r.Stale {
		return r.Copy.FetchedAt
	}
	return r.FetchedAt
}

// keepBody makes body, the same file as r's body in effect and the one its Robots
// keep, the body r holds: r was read back from a store with a copy of its own, which
// can then be freed. r is not yet shared; its copy may be, and is replaced.
func (r *Result) keepBody(body string) {
	if r.Stale && len(body) > 0 && unsafe.StringData(r.Copy.Body) != unsafe.StringData(body) {
		cp := *r.Copy
		cp.Body = body
		r.Copy = &cp
	}
	r.Body = body
}

// alone returns r as the copy of a later result: without parsed rules (the later
// result holds its own) and without a copy of its own.
func (r *Result) alone() *Result {
	cp := *r
	cp.Robots, cp.Copy = nil, nil
	if cp.Stale {
		cp.Stale, cp.Effect, cp.Body = false, DisallowAll, ""
	}
	return &cp
}
