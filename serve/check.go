package serve

import (
	"net/http"
	"net/url"
	"strings"
)

// GET /v1/check: one URL, one decision.

func (s *Server) handleCheck(r *http.Request) ([]byte, error) {
	u, agents := checkQuery(r.URL.RawQuery)
	if err := s.agentsOf(agents); err != nil {
		return nil, err
	}
	if u == "" {
		return nil, errorf(http.StatusBadRequest, "url is required")
	}
	res, ok := s.peek(u)
	if !ok {
		ctx, cancel := s.withCheckTimeout(r.Context())
		defer cancel()
		var err error
		if res, err = s.lookup(ctx, u); err != nil {
			return nil, err
		}
	}
	d := res.CheckAgents(agents, u)
	s.metrics.decided(d.Allowed)
	b := make([]byte, 0, 384)
	return appendDecision(b, u, d, s.memos.get(res, agents)), nil
}

// checkQuery returns the url and agent parameters of a query string, as
// url.ParseQuery would read them (pairs with a semicolon or a bad escape are
// skipped), without building the map of every parameter.
func checkQuery(q string) (u string, agents []string) {
	seen := false
	for q != "" {
		var pair string
		pair, q, _ = strings.Cut(q, "&")
		if pair == "" || strings.IndexByte(pair, ';') >= 0 {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		k, ok := queryUnescape(k)
		if !ok || k != "url" && k != "agent" {
			continue
		}
		if v, ok = queryUnescape(v); !ok {
			continue
		}
		if k == "url" {
			if !seen {
				u, seen = v, true // the first, as url.Values.Get
			}
		} else {
			agents = append(agents, v)
		}
	}
	return u, agents
}

// queryUnescape is url.QueryUnescape without an allocation when there is nothing
// to unescape.
func queryUnescape(s string) (string, bool) {
	if strings.IndexByte(s, '%') < 0 && strings.IndexByte(s, '+') < 0 {
		return s, true
	}
	v, err := url.QueryUnescape(s)
	return v, err == nil
}
