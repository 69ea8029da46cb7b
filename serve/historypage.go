package serve

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/filediff"
)

// The tester's timeline of a fetched file: the versions of the origin's robots.txt
// the store keeps (GET /v1/history's), the latest first, each with what it
// changed from the one before for the crawlers picked (filediff: the groups, and
// the verdicts that change on the root URL and on the paths the changed rules
// name), and a link that opens the two versions in the tester's diff mode.

// historyView is the timeline.
type historyView struct {
	Origin   string
	Versions []versionView
	Limits   string // what the store keeps, in words
}

// versionView is one version in the timeline.
type versionView struct {
	N        int
	Fetched  string // "2026-11-28 06:00 UTC"
	Seen     string // the last fetch that found it, when later than the first
	Fetches  int
	Bytes    int
	Status   string // "success (HTTP 200)", "unavailable (HTTP 404): every URL allowed"
	Previous int    // 0 for the oldest kept
	Compare  string // the link that opens Previous and this version in diff mode; "" with API tokens
	Groups   []historyGroup
	Verdicts []historyVerdict
	Lists    []string // sitemaps and License lines added or removed
}

// historyGroup is a group added, removed or changed, with its lines.
type historyGroup struct {
	Change string // added, removed, changed
	Agents string
	Lines  []string // "+ Disallow: /", "- Allow: /x"
}

// historyVerdict is one way a verdict changed, for the crawlers it changed for, on
// the URLs it changed on.
type historyVerdict struct {
	Agents        string
	Before, After string // "allowed (no rule matched)", "disallowed (line 5: Disallow: /)"
	Blocks        bool   // allowed before, disallowed after
	URLs          []string
}

// historyTime writes a version's time for people.
func historyTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 MST") }

// historyViewOf returns the timeline of origin for agents, nil when the store keeps
// no history or there is only one version to show and no change.
func (s *Server) historyViewOf(ctx context.Context, origin string, agents []string, dialect robots.Dialect) *historyView {
	hs, ok := s.cfg.Fetch.Store.(fetch.Historian)
	if !ok || origin == "" {
		return nil
	}
	hist, err := hs.History(ctx, origin)
	if err != nil || len(hist) == 0 {
		return nil
	}
	hv := &historyView{Origin: origin, Limits: fmt.Sprintf("the last %d versions, %s of files", fetch.HistoryVersions, sizeText(fetch.HistoryBytes))}
	file := versionFiles(hist, dialect)
	for i := range hist {
		v := &hist[i]
		vv := versionView{N: v.N, Fetched: historyTime(v.FetchedAt), Fetches: v.Fetches, Bytes: len(v.Body),
			Status: fetch.Describe(v.Outcome, v.Status, v.Effect)}
		if v.SeenAt.After(v.FetchedAt) {
			vv.Seen = historyTime(v.SeenAt)
		}
		if i+1 < len(hist) && !spent(ctx) {
			vv.Previous = hist[i+1].N
			if len(s.cfg.Tokens) == 0 {
				vv.Compare = "/?" + url.Values{"history": {origin}, "old": {fmt.Sprint(vv.Previous)}, "new": {fmt.Sprint(v.N)}}.Encode() + "#tester"
			}
			vv.addChanges(versionChanges(file(i+1), file(i), origin, agents))
		}
		hv.Versions = append(hv.Versions, vv)
	}
	return hv
}

// addChanges sorts changes into the view: groups with their lines, lists, and the
// verdict changes grouped by how they changed and for whom, as robots diff's text
// groups them.
func (vv *versionView) addChanges(changes []filediff.Change) {
	type key struct{ url, before, after string }
	var order []key
	who := map[key][]string{}
	for _, c := range changes {
		switch c.Kind {
		case "group":
			g := historyGroup{Change: c.Change, Agents: strings.Join(c.Agents, ", ")}
			var before, after []string
			if c.Before != nil {
				before = append(append(before, c.Before.Rules...), c.Before.Fields...)
			}
			if c.After != nil {
				after = append(append(after, c.After.Rules...), c.After.Fields...)
			}
			for _, x := range minus(before, after) {
				g.Lines = append(g.Lines, "- "+x)
			}
			for _, x := range minus(after, before) {
				g.Lines = append(g.Lines, "+ "+x)
			}
			if c.Change == "changed" {
				for _, x := range filediff.AgentsMinus(c.Before.Agents, c.After.Agents) {
					g.Lines = append(g.Lines, "- User-agent: "+x)
				}
				for _, x := range filediff.AgentsMinus(c.After.Agents, c.Before.Agents) {
					g.Lines = append(g.Lines, "+ User-agent: "+x)
				}
			}
			vv.Groups = append(vv.Groups, g)
		case "sitemap", "license":
			vv.Lists = append(vv.Lists, fmt.Sprintf("%s %s: %s", c.Kind, c.Change, c.URL))
		case "url":
			k := key{c.URL, sideText(c.Before), sideText(c.After)}
			if _, ok := who[k]; !ok {
				order = append(order, k)
			}
			who[k] = append(who[k], c.Agent)
		}
	}
	at := map[string]int{} // before, after and crawlers → index in Verdicts
	for _, k := range order {
		agents := strings.Join(who[k], ", ")
		id := k.before + "\x00" + k.after + "\x00" + agents
		i, ok := at[id]
		if !ok {
			i = len(vv.Verdicts)
			at[id] = i
			vv.Verdicts = append(vv.Verdicts, historyVerdict{Agents: agents, Before: k.before, After: k.after,
				Blocks: strings.HasPrefix(k.before, "allowed") && strings.HasPrefix(k.after, "disallowed")})
		}
		vv.Verdicts[i].URLs = append(vv.Verdicts[i].URLs, k.url)
	}
}

// sideText writes a verdict as robots diff does: "disallowed (line 5: Disallow: /)".
func sideText(s *filediff.Side) string {
	v := "disallowed"
	if *s.Allowed {
		v = "allowed"
	}
	if s.Rule == nil {
		return v + " (no rule matched)"
	}
	return fmt.Sprintf("%s (line %d: %s)", v, s.Line, *s.Rule)
}

// minus returns the entries of a that b lacks.
func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		found := false
		for _, y := range b {
			if x == y {
				found = true
				break
			}
		}
		if !found {
			out = append(out, x)
		}
	}
	return out
}

// historyCompare fills the form to compare two versions the store keeps, as the
// timeline's links ask (GET /?history=ORIGIN&old=N&new=M): the diff mode with the
// old version in the first editor and the new one in the second, and as URLs the
// root and the paths the changed rules name. It reports whether it found both.
//
// A server with API tokens has no such links: a GET carries no token, and the
// store's files are those its token holders fetched.
func (s *Server) historyCompare(ctx context.Context, q url.Values, f *pageForm) bool {
	hs, ok := s.cfg.Fetch.Store.(fetch.Historian)
	if !ok || len(s.cfg.Tokens) > 0 {
		return false
	}
	origin := q.Get("history")
	hist, err := hs.History(ctx, origin)
	if err != nil {
		return false
	}
	var old, new *fetch.Version
	for i := range hist {
		switch n := fmt.Sprint(hist[i].N); n {
		case q.Get("old"):
			old = &hist[i]
		case q.Get("new"):
			new = &hist[i]
		}
	}
	if old == nil || new == nil {
		return false
	}
	a, b := versionRobots(old, robots.Google), versionRobots(new, robots.Google)
	f.Diff, f.Robots, f.RobotsNew = true, old.Body, new.Body
	f.URLs = strings.Join(filediff.Probes(origin, filediff.Groups(a.Groups(), b.Groups())), "\n")
	return true
}
