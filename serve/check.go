package serve

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/gorobots/robots/internal/verdictjson"
)

// GET /v1/check: one URL, one decision.

func (s *Server) handleCheck(r *http.Request) ([]byte, error) {
	q := checkQuery(r.URL.RawQuery)
	if q.url == "" {
		return nil, errorf(http.StatusBadRequest, "url is required")
	}
	if q.purposes && len(q.agents) > 1 {
		return nil, errorf(http.StatusBadRequest, "purposes=true answers for one product token: ask for each token of a crawler in turn")
	}
	if len(q.agents) > 1 && !q.merge {
		return nil, errorf(http.StatusBadRequest, "one agent per GET /v1/check: POST a batch to ask about several crawlers, or set merge_agents=true for one crawler with several tokens")
	}
	c, err := s.crawlersOf(q.agents, q.merge)
	if err != nil {
		return nil, err
	}
	dialect, err := dialectOf(q.dialect)
	if err != nil {
		return nil, err
	}
	u, input, err := encodeURL(q.url)
	if err != nil {
		return nil, err
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
	// The request's work (work.go) may have ended while it waited for the file, and
	// between the decision and the usage preferences, which may cost as much again.
	ctx := r.Context()
	turn := coreTurn{cores: s.decideCores}
	defer turn.release()
	if spent(ctx) || !turn.take(ctx) {
		return nil, s.stopped(context.Cause(ctx), errNotDecided(context.Cause(ctx)))
	}
	dc := s.newDecider(res, dialect)
	d, usage, readings := dc.decide(c.tokens[0], u)
	s.metrics.decided(d.Allowed)
	b := make([]byte, 0, 448)
	v := verdictjson.Verdict{URL: u, Input: input, Agent: c.names[0], Decision: d, Usage: usage, Readings: readings}
	b = v.AppendFields(b)
	b = append(b, `,"robots":`...)
	b = appendOrigin(b, res, c, &[2]dayText{})
	if v.Usage != nil {
		var lines usageLines
		lines.note(0, v.Usage.Lines)
		b = lines.appendTo(b, false)
	}
	if q.purposes {
		turn.release() // the licences and tdmrep.json are fetched without a core
		if b, err = s.appendPurposes(r.Context(), b, res, dialect, c.names[0], u); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// checkParams are the parameters of GET /v1/check.
type checkParams struct {
	url, dialect    string
	agents          []string
	merge, purposes bool
}

// checkQuery returns the parameters of a query string, as url.ParseQuery would read
// them (pairs with a semicolon or a bad escape are skipped; the first url wins),
// without building the map of every parameter.
func checkQuery(q string) checkParams {
	var p checkParams
	seen := false
	for q != "" {
		var pair string
		pair, q, _ = strings.Cut(q, "&")
		if pair == "" || strings.IndexByte(pair, ';') >= 0 {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		k, ok := queryUnescape(k)
		if !ok {
			continue
		}
		switch k {
		case "url", "agent", "dialect", "merge_agents", "purposes":
		default:
			continue
		}
		if v, ok = queryUnescape(v); !ok {
			continue
		}
		switch k {
		case "url":
			if !seen {
				p.url, seen = v, true
			}
		case "agent":
			p.agents = append(p.agents, v)
		case "dialect":
			p.dialect = v
		case "merge_agents":
			p.merge = v == "true" || v == "1"
		case "purposes":
			p.purposes = v == "true" || v == "1"
		}
	}
	return p
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
