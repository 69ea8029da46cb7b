package fetch

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/gorobots/robots"
)

// Usage returns what the result's robots.txt prefers about the use of url's content
// by the crawler with product token agent (see robots.Robots.Usage). Under AllowAll
// every preference is unknown; under DisallowAll the crawler may not fetch url, and
// no preference applies.
func (r *Result) Usage(agent, url string) robots.Usage {
	return r.UsageAgents([]string{agent}, url)
}

// UsageAgents is Usage for one crawler that answers to several product tokens (see
// robots.Robots.UsageAgents).
func (r *Result) UsageAgents(agents []string, url string) robots.Usage {
	var rb *robots.Robots // nil: no lines, everything allowed
	if r.Effect == ObeyRules {
		if rb = r.Robots; rb == nil {
			rb = robots.ParseString(r.Body)
		}
	}
	u := rb.UsageAgents(agents, url)
	if r.Effect == DisallowAll {
		u.Fetchable = false
	}
	return u
}

// Usage returns what the site prefers about the use of a response's content: the
// Content-Usage and Content-Signal lines of robots.txt that apply to the crawler and
// to the URL the response came from (resp.Request's: after redirects, the last),
// combined most restrictively with the response's own Content-Usage and
// Content-Signal header fields (robots.Usage.WithHeader). The crawler is the one the
// request was decided for (Agent, or the request's User-Agent). robots.txt is the
// copy the client holds, which decided the request unless it has expired since; it
// is fetched again under the request's context if need be.
//
// This is the one call a crawler that must honour usage preferences makes for each
// response:
//
//	resp, err := client.Get(u) // client.Transport is t
//	...
//	pref, err := t.Usage(resp)
//	if pref.Category(robots.TrainAI).Preference == robots.UsageDisallowed { ... }
func (t *Transport) Usage(resp *http.Response) (robots.Usage, error) {
	t.once.Do(t.init)
	if t.err != nil {
		return robots.Usage{}, t.err
	}
	req := resp.Request
	if req == nil || req.URL == nil {
		return robots.Usage{}, errors.New("fetch.Transport.Usage: the response has no request")
	}
	agent, ua, err := t.agentOf(req)
	if err != nil {
		return robots.Usage{}, err
	}
	u := req.URL.String()
	res, err := t.client.Get(withUserAgent(req.Context(), ua), u)
	if err != nil {
		return robots.Usage{}, fmt.Errorf("robots.txt for %s: %w", u, err)
	}
	return res.Usage(agent, u).WithHeader(resp.Header), nil
}
