package serve

import (
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
)

// GET /v1/robots: what the server knows of an origin's robots.txt.

// robotsAnswer is the body of GET /v1/robots.
type robotsAnswer struct {
	URL         string              `json:"url"`
	Origin      string              `json:"origin"`
	RobotsURL   string              `json:"robots_url"`
	Outcome     fetch.Outcome       `json:"outcome"`
	Effect      fetch.Effect        `json:"effect"`
	Status      int                 `json:"status"`
	Stale       bool                `json:"stale"`
	Error       string              `json:"error,omitempty"`
	ErrorKind   fetch.ErrorKind     `json:"error_kind,omitempty"` // fetch.ErrorKind's names: "timeout", "dns", …
	Hops        []fetch.Hop         `json:"hops"`
	FetchedAt   *time.Time          `json:"fetched_at"`
	ExpiresAt   *time.Time          `json:"expires_at"`
	LastSuccess *time.Time          `json:"last_success"`
	Bytes       int64               `json:"bytes"`
	Truncated   bool                `json:"truncated"`
	Groups      []groupJSON         `json:"groups"`
	Sitemaps    []string            `json:"sitemaps"`
	Fields      []robots.Field      `json:"fields"`
	Diagnostics []robots.Diagnostic `json:"diagnostics"`
}

type groupJSON struct {
	Line       int            `json:"line"`
	Agents     []agentJSON    `json:"agents"`
	Rules      []ruleJSON     `json:"rules"`
	CrawlDelay *float64       `json:"crawl_delay"`
	Fields     []robots.Field `json:"fields"`
}

type agentJSON struct {
	Name  string `json:"name"`
	Token string `json:"token"`
	Line  int    `json:"line"`
}

type ruleJSON struct {
	Allow bool   `json:"allow"`
	Value string `json:"value"`
	Line  int    `json:"line"`
}

func timeRef(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	t = t.UTC()
	return &t
}

func (s *Server) handleRobots(r *http.Request) ([]byte, error) {
	u := r.URL.Query().Get("url")
	if u == "" {
		return nil, errorf(http.StatusBadRequest, "url is required")
	}
	ctx, cancel := s.withCheckTimeout(r.Context())
	defer cancel()
	res, err := s.lookup(ctx, u)
	if err != nil {
		return nil, err
	}
	a := robotsAnswer{
		URL: u, Origin: res.Origin, RobotsURL: res.RobotsURL, Outcome: res.Outcome, Effect: res.Effect,
		Status: res.Status, Stale: res.Stale, Hops: res.Hops,
		FetchedAt: timeRef(res.FetchedAt), ExpiresAt: timeRef(res.ExpiresAt), LastSuccess: timeRef(res.LastSuccess),
		Bytes: res.BytesRead, Truncated: res.Truncated,
		Groups: []groupJSON{}, Sitemaps: []string{}, Fields: []robots.Field{}, Diagnostics: []robots.Diagnostic{},
	}
	if res.Err != nil {
		a.Error = res.Err.Error()
		var fe *fetch.Error
		if errors.As(res.Err, &fe) {
			a.ErrorKind = fe.Kind
		}
	}
	if rb := res.Robots; rb != nil {
		a.Groups = groupsJSON(rb.Groups())
		a.Sitemaps = append(a.Sitemaps, rb.Sitemaps()...)
		a.Fields = append(a.Fields, rb.Fields()...)
		a.Diagnostics = append(a.Diagnostics, rb.Diagnostics()...)
	}
	return json.Marshal(a)
}

func groupsJSON(gs []robots.Group) []groupJSON {
	out := make([]groupJSON, len(gs))
	for i, g := range gs {
		gj := groupJSON{Line: g.Line, Agents: make([]agentJSON, len(g.Agents)), Rules: make([]ruleJSON, len(g.Rules)), Fields: g.Fields}
		for j, a := range g.Agents {
			gj.Agents[j] = agentJSON{Name: a.Name, Token: a.Token(), Line: a.Line}
		}
		for j, ru := range g.Rules {
			gj.Rules[j] = ruleJSON{Allow: ru.Allow, Value: ru.Value, Line: ru.Line}
		}
		if d, ok := g.CrawlDelay(); ok {
			secs := d.Seconds()
			gj.CrawlDelay = &secs
		}
		if gj.Fields == nil {
			gj.Fields = []robots.Field{}
		}
		out[i] = gj
	}
	return out
}
