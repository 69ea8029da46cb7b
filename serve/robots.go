package serve

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/audit"
	"github.com/gorobots/robots/fetch"
)

// GET /v1/robots: what the server knows of an origin's robots.txt.

// The body of GET /v1/robots: the URL asked about ("url"), the fetch of its
// origin's robots.txt in the fetch package's shape (fetch.Report, as the robots
// command shows it), and what the file says: "groups", "sitemaps", "fields" and
// "diagnostics". "input" is the site as given when it was not the URL fetched
// ("example.com" is fetched as https://example.com/: weburl.Site's rule), and left
// out otherwise.

type groupJSON struct {
	Line       int            `json:"line"`
	Agents     []agentJSON    `json:"agents"`
	Rules      []ruleJSON     `json:"rules"`
	CrawlDelay *float64       `json:"crawl_delay"`
	Fields     []robots.Field `json:"fields"`
	// Usage are the group's Content-Usage and Content-Signal lines, read (see
	// robots.Group.Usage).
	Usage []robots.UsageLine `json:"usage"`
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

// lookupSite reads raw as a site (as robots fetch does) and returns its robots.txt URL,
// raw again when it was written otherwise ("input" in the answers), and the result.
func (s *Server) lookupSite(ctx context.Context, raw string) (u, input string, res *fetch.Result, err error) {
	if u, _, err = siteURL(raw); err != nil {
		return "", "", nil, err
	}
	if u != raw {
		input = raw
	}
	res, err = s.lookup(ctx, u)
	return u, input, res, err
}

func (s *Server) handleRobots(r *http.Request) ([]byte, error) {
	raw := r.URL.Query().Get("url")
	if raw == "" {
		return nil, errorf(http.StatusBadRequest, "url is required")
	}
	ctx, cancel := s.withCheckTimeout(r.Context())
	defer cancel()
	u, input, res, err := s.lookupSite(ctx, raw)
	if err != nil {
		return nil, err
	}
	// Describing a file holds some hundred bytes per byte of it at worst (a
	// diagnostic per line): its bytes are counted against FileWorkBytes meanwhile.
	release, err := s.takeFileWork(len(res.Body))
	if err != nil {
		return nil, err
	}
	defer release()
	// Encoded element by element, so that an answer past MaxAnswerBytes stops there.
	head, err := json.Marshal(struct {
		URL   string `json:"url"`
		Input string `json:"input,omitempty"`
		fetch.Report
	}{u, input, res.Report()})
	if err != nil {
		return nil, err
	}
	b := head[:len(head)-1]
	rb := res.Robots
	max := s.cfg.MaxAnswerBytes
	b = append(b, `,"groups":`...)
	if b, err = appendArray(b, groupsJSON(rb.Groups()), max); err != nil {
		return nil, err
	}
	b = append(b, `,"sitemaps":`...)
	if b, err = appendArray(b, rb.Sitemaps(), max); err != nil {
		return nil, err
	}
	b = append(b, `,"licenses":`...)
	if b, err = appendArray(b, rb.Licenses(), max); err != nil {
		return nil, err
	}
	b = append(b, `,"fields":`...)
	if b, err = appendArray(b, rb.Fields(), max); err != nil {
		return nil, err
	}
	b = append(b, `,"diagnostics":`...)
	if b, err = appendArray(b, rb.Diagnostics(), max); err != nil {
		return nil, err
	}
	if b, err = s.appendVariants(ctx, b, r, u); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// appendVariants adds "variants" to the answer of GET /v1/robots when the request
// names hosts or as (each repeatable, with commas between entries), as "robots
// fetch -hosts -as" does: the other hosts and the crawlers fetched as, through the
// server's client and its guard, within the check's time.
func (s *Server) appendVariants(ctx context.Context, b []byte, r *http.Request, u string) ([]byte, error) {
	q := r.URL.Query()
	var hosts, as []string
	for _, h := range q["hosts"] {
		hosts = append(hosts, splitList(h)...)
	}
	for _, a := range q["as"] {
		as = append(as, splitList(a)...)
	}
	if len(hosts) == 0 && len(as) == 0 {
		return b, nil
	}
	v, err := audit.Compare(ctx, u, audit.Config{Fetch: s.client, Hosts: hosts, As: as})
	switch {
	case errors.Is(err, audit.ErrVariants), errors.Is(err, audit.ErrTarget):
		return nil, errorf(http.StatusBadRequest, "%v", err)
	case err != nil:
		return nil, err
	}
	j, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if n := len(b) + len(j); n > s.cfg.MaxAnswerBytes {
		return nil, tooLarge(n, s.cfg.MaxAnswerBytes)
	}
	return append(append(b, `,"variants":`...), j...), nil
}

// appendArray appends xs as a JSON array, each element as encoding/json writes it,
// and stops with a 413 once b is longer than max.
func appendArray[T any](b []byte, xs []T, max int) ([]byte, error) {
	b = append(b, '[')
	for i := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		e, err := json.Marshal(xs[i])
		if err != nil {
			return nil, err
		}
		if b = append(b, e...); len(b) > max {
			return nil, tooLarge(len(b), max)
		}
	}
	return append(b, ']'), nil
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
		if gj.Usage = g.Usage; gj.Usage == nil {
			gj.Usage = []robots.UsageLine{}
		}
		out[i] = gj
	}
	return out
}
