package fetch

import (
	"errors"
	"strconv"
	"time"
)

// Report is the one JSON shape of a fetch for people and programs, the same
// wherever a fetch is shown: "robots fetch -format json", the "robots" of a verdict
// of "robots check" without -robots, and the service's GET /v1/robots (the service's
// check answers carry the fields of it that decide a verdict, under the same names).
// Times are UTC to the second, and null when unknown.
type Report struct {
	Origin      string     `json:"origin"`
	RobotsURL   string     `json:"robots_url"`
	Status      int        `json:"status"` // final HTTP status (FTP reply code); 0 if none came
	Outcome     Outcome    `json:"outcome"`
	Effect      Effect     `json:"effect"`
	Stale       bool       `json:"stale"` // the effect is an earlier copy's: the latest fetch found the origin unreachable
	Hops        []Hop      `json:"hops"`
	BytesRead   int64      `json:"bytes_read"`
	WireBytes   int64      `json:"wire_bytes"`
	Truncated   bool       `json:"truncated"`
	Encoding    string     `json:"encoding,omitempty"`
	FetchedAt   *time.Time `json:"fetched_at"`
	ExpiresAt   *time.Time `json:"expires_at"`
	LastSuccess *time.Time `json:"last_success"`
	Error       string     `json:"error,omitempty"`
	ErrorKind   ErrorKind  `json:"error_kind,omitempty"` // "timeout", "dns", "connect", …
}

// Report returns r in the shape shown to people and programs.
func (r *Result) Report() Report {
	rep := Report{
		Origin: r.Origin, RobotsURL: r.RobotsURL, Status: r.Status, Outcome: r.Outcome, Effect: r.Effect,
		Stale: r.Stale, Hops: r.Hops, BytesRead: r.BytesRead, WireBytes: r.WireBytes, Truncated: r.Truncated,
		Encoding: r.Encoding, FetchedAt: second(r.FetchedAt), ExpiresAt: second(r.ExpiresAt),
		LastSuccess: second(r.LastSuccess),
	}
	if rep.Hops == nil {
		rep.Hops = []Hop{}
	}
	if r.Err != nil {
		rep.Error = r.Err.Error()
		var fe *Error
		if errors.As(r.Err, &fe) {
			rep.ErrorKind = fe.Kind
		}
	}
	return rep
}

// second returns t in UTC to the second, or nil for the zero time.
func second(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	t = t.UTC().Truncate(time.Second)
	return &t
}

// Describe says in words what a fetch found: its outcome, the HTTP status (FTP
// reply code) when one came, and the effect when it is not the file's rules —
// "success (HTTP 200)", "unavailable (HTTP 404): every URL allowed",
// "unreachable: every URL disallowed". "robots audit", "robots monitor" and the
// service's history page describe a fetch with it.
func Describe(o Outcome, status int, e Effect) string {
	t := o.String()
	if status != 0 {
		t += " (HTTP " + strconv.Itoa(status) + ")"
	}
	switch e {
	case AllowAll:
		t += ": every URL allowed"
	case DisallowAll:
		t += ": every URL disallowed"
	}
	return t
}
