package serve

import (
	"encoding/json"
	"net/http"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
)

// GET /v1/robots: what the server knows of an origin's robots.txt.

// robotsAnswer is the body of GET /v1/robots: the URL asked about, the fetch of its
// origin's robots.txt in the fetch package's shape (fetch.Report, as the robots
// command shows it), and what the file says.
type robotsAnswer struct {
	URL string `json:"url"`
	// Input is the site as given when it was not the URL fetched ("example.com"
	// is fetched as https://example.com/: weburl.Site's rule).
	Input string `json:"input,omitempty"`
	fetch.Report
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

func (s *Server) handleRobots(r *http.Request) ([]byte, error) {
	raw := r.URL.Query().Get("url")
	if raw == "" {
		return nil, errorf(http.StatusBadRequest, "url is required")
	}
	u, _, err := siteURL(raw)
	if err != nil {
		return nil, err
	}
	input := ""
	if u != raw {
		input = raw
	}
	ctx, cancel := s.withCheckTimeout(r.Context())
	defer cancel()
	res, err := s.lookup(ctx, u)
	if err != nil {
		return nil, err
	}
	a := robotsAnswer{
		URL: u, Input: input, Report: res.Report(),
		Groups: []groupJSON{}, Sitemaps: []string{}, Fields: []robots.Field{}, Diagnostics: []robots.Diagnostic{},
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
