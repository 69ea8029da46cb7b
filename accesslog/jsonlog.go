package accesslog

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// JSON lines. Two shapes are read, by their field names:
//
//   - Caddy's access log (the http.log.access logger): "ts" (seconds since the
//     epoch, a number, or a time in RFC 3339 when Caddy's time_format says so),
//     "status", and "request" with "client_ip" (or "remote_ip"), "method", "host",
//     "uri" and "headers" (name → values, User-Agent among them);
//   - Cloudflare Logpush's HTTP requests dataset: "ClientIP", "ClientRequestMethod",
//     "ClientRequestHost", "ClientRequestURI", "ClientRequestUserAgent",
//     "EdgeResponseStatus", "EdgeStartTimestamp" (in any of Logpush's timestamp
//     formats: RFC 3339, Unix seconds or nanoseconds) and, when the job adds it,
//     "RequestHeaders".

type caddyRequest struct {
	RemoteIP string              `json:"remote_ip"`
	ClientIP string              `json:"client_ip"`
	Method   string              `json:"method"`
	Host     string              `json:"host"`
	URI      string              `json:"uri"`
	Headers  map[string][]string `json:"headers"`
}

type jsonLine struct {
	TS      json.RawMessage `json:"ts"`
	Status  int             `json:"status"`
	Request *caddyRequest   `json:"request"`

	ClientIP               string            `json:"ClientIP"`
	ClientRequestMethod    string            `json:"ClientRequestMethod"`
	ClientRequestHost      string            `json:"ClientRequestHost"`
	ClientRequestURI       *string           `json:"ClientRequestURI"`
	ClientRequestUserAgent string            `json:"ClientRequestUserAgent"`
	EdgeResponseStatus     int               `json:"EdgeResponseStatus"`
	EdgeStartTimestamp     json.RawMessage   `json:"EdgeStartTimestamp"`
	RequestHeaders         map[string]string `json:"RequestHeaders"`
}

var errJSONShape = fmt.Errorf(`%w: JSON with neither Caddy's "request" nor Cloudflare's "ClientRequestURI"`, ErrFormat)

func (r *Reader) parseJSON(line []byte) error {
	var j jsonLine
	if err := json.Unmarshal(line, &j); err != nil {
		return fmt.Errorf("%w: JSON: %v", ErrFormat, err)
	}
	rec := &r.rec
	switch {
	case j.Request != nil:
		q := j.Request
		addr := q.ClientIP
		if addr == "" {
			addr = q.RemoteIP
		}
		rec.Addr, rec.Method, rec.Host, rec.Target = []byte(addr), []byte(q.Method), []byte(q.Host), []byte(q.URI)
		rec.Status = j.Status
		if len(q.Headers) > 0 {
			rec.Header = http.Header{}
			for k, v := range q.Headers {
				rec.Header[http.CanonicalHeaderKey(k)] = v
			}
			rec.UserAgent = []byte(rec.Header.Get("User-Agent"))
		}
		t, res, err := jsonTime(j.TS, time.Second)
		if err != nil {
			return fmt.Errorf(`%w: "ts": %v`, ErrFormat, err)
		}
		rec.Time, rec.Resolution = t, res
	case j.ClientRequestURI != nil:
		rec.Addr, rec.Method, rec.Host, rec.Target = []byte(j.ClientIP), []byte(j.ClientRequestMethod), []byte(j.ClientRequestHost), []byte(*j.ClientRequestURI)
		rec.UserAgent = []byte(j.ClientRequestUserAgent)
		rec.Status = j.EdgeResponseStatus
		if len(j.RequestHeaders) > 0 {
			rec.Header = http.Header{}
			for k, v := range j.RequestHeaders {
				rec.Header.Set(k, v)
			}
		}
		t, res, err := jsonTime(j.EdgeStartTimestamp, 0)
		if err != nil {
			return fmt.Errorf(`%w: "EdgeStartTimestamp": %v`, ErrFormat, err)
		}
		rec.Time, rec.Resolution = t, res
	default:
		return errJSONShape
	}
	return nil
}

// jsonTime reads a time logged as a number or a string. A number is in seconds
// (Caddy's "ts", Logpush's "unix"), or nanoseconds when it is too large for seconds
// of this era (Logpush's "unixnano"); unit forces seconds when not 0. It returns the
// resolution of what was logged.
func jsonTime(raw json.RawMessage, unit time.Duration) (time.Time, time.Duration, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return time.Time{}, 0, errors.New("missing")
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return time.Time{}, 0, err
		}
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return jsonTime(json.RawMessage(s), unit)
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return time.Time{}, 0, fmt.Errorf("%q is neither a number nor an RFC 3339 time", s)
		}
		res := time.Second
		if dot := strings.IndexByte(s, '.'); dot >= 0 {
			digits := 0
			for _, c := range s[dot+1:] {
				if c < '0' || c > '9' {
					break
				}
				digits++
			}
			res = time.Duration(math.Pow10(9 - min(digits, 9)))
		}
		return t, res, nil
	}
	s := string(raw)
	if !strings.ContainsAny(s, ".eE") {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return time.Time{}, 0, fmt.Errorf("%s is not a time", s)
		}
		if unit == 0 && n > 1e12 {
			return time.Unix(0, n).UTC(), time.Nanosecond, nil
		}
		return time.Unix(n, 0).UTC(), time.Second, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || f < 0 || f > 1e11 {
		return time.Time{}, 0, fmt.Errorf("%s is not a time in seconds", s)
	}
	sec, frac := math.Modf(f)
	// A float64 of seconds in this era holds about a microsecond; say a millisecond
	// so that nothing is judged finer than what was logged.
	return time.Unix(int64(sec), int64(math.Round(frac*1e6))*1e3).UTC(), time.Millisecond, nil
}
