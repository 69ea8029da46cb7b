package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/audit"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/signals"
)

// One answer per purpose in the tester (issue 36): for the URLs tested and the
// crawlers picked, what each signal says of search, AI training, AI input, AI search
// and user-triggered fetches, combined, with the contradictions named and where the
// two readings of the file differ (audit.StanceAt, as robots audit and POST
// /v1/audit answer). From the file alone when it is pasted; a fetched site's RSL
// licences and tdmrep.json too.

// MaxPurposeURLs bounds the URLs of a tester form answered per purpose: each is up
// to five answers per crawler picked, each with its signals.
const MaxPurposeURLs = 10

// estBytesPerStance estimates the HTML of one answer per purpose (its signals, a
// contradiction), to refuse a page too large before it is built.
const estBytesPerStance = 700

// purposesView is the tester's answers per purpose, URL by URL.
type purposesView struct {
	From  string // which signals were read: "the file alone", …
	URLs  []stanceURL
	Shown int    // URLs answered: the first MaxPurposeURLs
	Of    int    // URLs tested
	Note  string // why there are no answers (a site that could not be reached)
	Title string // "By purpose" or, comparing, "By purpose, in the new version"
}

// stanceURL is the answers at one URL.
type stanceURL struct {
	URL      string
	Fetched  bool // the page itself was read (an audit's sampled page)
	Problems []string
	Rows     []stanceRow
}

// stanceRow is one answer, shared by the crawlers named.
type stanceRow struct {
	Purpose        string
	Verdict        string
	Class          string // ok, warn, bad, unknown
	Agents         []string
	Signals        []signals.Signal
	Contradictions []string
	Readings       string
}

// stanceURLs groups answers by URL, in order.
func stanceURLs(st []audit.Stance) []stanceURL {
	var out []stanceURL
	for _, s := range st {
		if n := len(out); n == 0 || out[n-1].URL != s.URL {
			out = append(out, stanceURL{URL: s.URL, Fetched: s.Fetched, Problems: s.Problems})
		}
		u := &out[len(out)-1]
		u.Rows = append(u.Rows, stanceRow{Purpose: string(s.Purpose), Verdict: string(s.Verdict), Class: verdictClass(s.Verdict),
			Agents: s.Agents, Signals: s.Signals, Contradictions: s.Contradictions, Readings: s.Readings})
	}
	return out
}

func verdictClass(v signals.Verdict) string {
	switch v {
	case signals.Allowed:
		return "ok"
	case signals.Licensed:
		return "warn"
	case signals.Disallowed, signals.Blocked:
		return "bad"
	}
	return "unknown"
}

// testPurposes answers per purpose for the first MaxPurposeURLs urls and the
// crawlers agents: rb is the file tested (its body), effect how it was had; fetched
// says a site was fetched (origin), whose licences and tdmrep.json are then read too,
// within ctx.
func (s *Server) testPurposes(ctx context.Context, rb *robots.Robots, body string, effect fetch.Effect, fetched bool, origin string, agents, urls []string) *purposesView {
	v := &purposesView{Of: len(urls), Title: "By purpose", From: "robots.txt, its Content-Usage and Content-Signal lines"}
	if effect == fetch.DisallowAll {
		v.Note = "The site could not be reached: crawlers may fetch nothing of it for now, whatever the purpose."
		return v
	}
	site := signals.Site{Robots: rb, Body: body, Other: signals.OtherReading(rb, body)}
	var problems []string
	if fetched {
		if effect == fetch.AllowAll {
			rb, body = nil, ""
		}
		ctx, cancel := s.withCheckTimeout(ctx)
		site, problems = audit.SiteSignals(ctx, s.client, origin, rb, body)
		site.Other = signals.OtherReading(rb, body)
		cancel()
		v.From += ", its RSL licences (License lines) and the site's tdmrep.json"
	} else if rb != nil && len(rb.Licenses()) > 0 {
		v.From += " (the RSL licences of its License lines are read for a fetched site only: Test never fetches)"
	}
	if problems == nil {
		problems = []string{}
	}
	now := time.Now()
	var st []audit.Stance
	for i, u := range urls {
		if i == MaxPurposeURLs {
			break
		}
		if fetched && strings.HasPrefix(u, "/") {
			u = origin + u
		}
		st = audit.StanceAt(st, site, agents, u, nil, problems, now)
	}
	v.URLs = stanceURLs(st)
	v.Shown = min(len(urls), MaxPurposeURLs)
	return v
}

// appendPurposes appends GET /v1/check's "purposes" (purposes=true): the answer per
// purpose for the crawler agent at u (signals.Answer, as POST /v1/audit's "stance"
// gives it per URL), from the origin's robots.txt as fetched (res, read in dialect d),
// its RSL licences and its tdmrep.json (fetched by the server's client, cached, within
// the check timeout), and "signal_problems": what of them could not be read.
func (s *Server) appendPurposes(ctx context.Context, b []byte, res *fetch.Result, d robots.Dialect, agent, u string) ([]byte, error) {
	var answers []signals.Answer
	problems := []string{}
	if res.Effect == fetch.DisallowAll {
		why := res.Outcome.String()
		if res.Status != 0 {
			why += fmt.Sprintf(", HTTP %d", res.Status)
		}
		answers = signals.Unreachable(agent, u, why)
	} else {
		var rb *robots.Robots
		body := ""
		if res.Effect == fetch.ObeyRules {
			rb, body = res.Robots, res.Body
			if rb == nil || d != robots.Google {
				rb = robots.ParseString(body, robots.WithDialect(d))
			}
		}
		ctx, cancel := s.withCheckTimeout(ctx)
		defer cancel()
		site, pr := audit.SiteSignals(ctx, s.client, res.Origin, rb, body)
		problems = append(problems, pr...)
		if rb != nil && rb.StatesUsage() && res.Robots != nil {
			// The other reading, kept per fetch result (otherReadings), as the
			// verdict's "readings" uses it: not parsed again per request.
			switch {
			case d == robots.Google:
				site.Other = s.others.get(res, d)
			case d == robots.RFC9309 && res.Robots.Dialect() == robots.Google:
				site.Other = res.Robots
			}
		}
		answers = signals.Answers(site, agent, u, nil, time.Now())
	}
	j, err := json.Marshal(answers)
	if err != nil {
		return nil, err
	}
	b = append(b, `,"purposes":`...)
	b = append(b, j...)
	if j, err = json.Marshal(problems); err != nil {
		return nil, err
	}
	b = append(b, `,"signal_problems":`...)
	return append(b, j...), nil
}
