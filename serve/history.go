package serve

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/filediff"
)

// GET /v1/history: the versions of an origin's robots.txt the store keeps
// (fetch.Historian: at most fetch.HistoryVersions per origin, fetch.HistoryBytes of
// bodies), the latest first, each with when it was first and last fetched and
// what it changed from the version before it, in the shape of "robots diff
// -format json": the groups, sitemaps and licences added, removed or changed, and
// for each crawler asked about ("agent", repeatable; the major crawlers when
// none) the verdicts that change on the URLs the changed rules name
// (filediff.Probes: the root and a path each rule gained or lost matches). With
// "version" N, only that version, with its "body". The origin's robots.txt is
// looked up first, as GET /v1/robots does, so the history ends with what applies
// now.

// historyJSON is the body of GET /v1/history.
type historyJSON struct {
	URL      string        `json:"url"`
	Input    string        `json:"input,omitempty"`
	Origin   string        `json:"origin"`
	Limits   historyLimits `json:"limits"`
	Agents   []string      `json:"agents"`
	Versions []versionJSON `json:"versions"`
}

type historyLimits struct {
	Versions int `json:"versions"`
	Bytes    int `json:"bytes"`
}

// versionJSON is one version: fetch.Version's fields, its size, the version
// before it ("previous", null for the oldest kept) and the changes from that one.
type versionJSON struct {
	N         int               `json:"n"`
	FetchedAt time.Time         `json:"fetched_at"`
	SeenAt    time.Time         `json:"seen_at"`
	Fetches   int               `json:"fetches"`
	Outcome   fetch.Outcome     `json:"outcome"`
	Status    int               `json:"status"`
	Effect    fetch.Effect      `json:"effect"`
	Truncated bool              `json:"truncated"`
	SHA256    string            `json:"sha256"`
	Bytes     int               `json:"bytes"`
	Previous  *int              `json:"previous"`
	Changes   []filediff.Change `json:"changes"`
	Body      *string           `json:"body,omitempty"`
}

func (s *Server) handleHistory(r *http.Request) ([]byte, error) {
	q := r.URL.Query()
	raw := q.Get("url")
	if raw == "" {
		return nil, errorf(http.StatusBadRequest, "url is required: the site whose robots.txt history to show")
	}
	want := 0
	if v := q.Get("version"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return nil, errorf(http.StatusBadRequest, "version %q: want a version's number (1 or more)", v)
		}
		want = n
	}
	dialect, err := dialectOf(q.Get("dialect"))
	if err != nil {
		return nil, err
	}
	agents := q["agent"]
	if len(agents) == 0 {
		agents = crawlers.Names()
	}
	if err := s.agentsOf(agents); err != nil {
		return nil, err
	}
	hs, ok := s.cfg.Fetch.Store.(fetch.Historian)
	if !ok {
		return nil, errorf(http.StatusNotImplemented, "this server's store keeps no history")
	}
	ctx, cancel := s.withCheckTimeout(r.Context())
	defer cancel()
	u, input, res, err := s.lookupSite(ctx, raw)
	if err != nil {
		return nil, err
	}
	hist, err := hs.History(ctx, res.Origin)
	if err != nil {
		return nil, errorf(http.StatusServiceUnavailable, "%v", err)
	}
	size := 0
	for _, v := range hist {
		size += len(v.Body)
	}
	// Parsing and comparing the versions holds some hundred bytes per byte of them
	// at worst, as describing a file does.
	release, err := s.takeFileWork(size)
	if err != nil {
		return nil, err
	}
	defer release()
	out := historyJSON{URL: u, Input: input, Origin: res.Origin, Agents: agents, Versions: []versionJSON{},
		Limits: historyLimits{Versions: fetch.HistoryVersions, Bytes: fetch.HistoryBytes}}
	file := versionFiles(hist, dialect)
	for i := range hist {
		v := &hist[i]
		if want != 0 && v.N != want {
			continue
		}
		if spent(r.Context()) {
			return nil, s.stopped(context.Cause(r.Context()), errNotDecided(context.Cause(r.Context())))
		}
		vj := versionJSON{N: v.N, FetchedAt: v.FetchedAt, SeenAt: v.SeenAt, Fetches: v.Fetches, Outcome: v.Outcome, Status: v.Status,
			Effect: v.Effect, Truncated: v.Truncated, SHA256: v.SHA256, Bytes: len(v.Body), Changes: []filediff.Change{}}
		if i+1 < len(hist) {
			prev := hist[i+1].N
			vj.Previous = &prev
			vj.Changes = versionChanges(file(i+1), file(i), res.Origin, agents)
		}
		if want != 0 {
			body := v.Body
			vj.Body = &body
		}
		out.Versions = append(out.Versions, vj)
	}
	if want != 0 && len(out.Versions) == 0 {
		return nil, errorf(http.StatusNotFound, "%s: no version %d kept (the store keeps the last %d, %d bytes of files at most)", res.Origin, want, fetch.HistoryVersions, fetch.HistoryBytes)
	}
	b, err := json.Marshal(out)
	if err == nil && len(b) > s.cfg.MaxAnswerBytes {
		return nil, tooLarge(len(b), s.cfg.MaxAnswerBytes)
	}
	return b, err
}

// versionChanges lists what changed from a to b (filediff.Diff) for agents on the
// URLs of origin the changed rules name (filediff.Probes).
func versionChanges(a, b *robots.Robots, origin string, agents []string) []filediff.Change {
	groups := filediff.Groups(a.Groups(), b.Groups())
	changes := filediff.Diff(a, b, agents, filediff.Probes(origin, groups))
	if changes == nil {
		changes = []filediff.Change{}
	}
	return changes
}

// versionFiles returns the file of each version of hist (versionRobots), each
// parsed once, when first asked for: a version is compared with the one before it
// and the one after.
func versionFiles(hist []fetch.Version, dialect robots.Dialect) func(i int) *robots.Robots {
	parsed := make([]*robots.Robots, len(hist))
	return func(i int) *robots.Robots {
		if parsed[i] == nil {
			parsed[i] = versionRobots(&hist[i], dialect)
		}
		return parsed[i]
	}
}

// versionRobots is the file a version stands for: its body when it was obeyed; no
// rules when the origin had none (a 404: everything allowed); a file disallowing
// everything when the status policy read the answer so (a 401 under legacy1996).
func versionRobots(v *fetch.Version, dialect robots.Dialect) *robots.Robots {
	switch v.Effect {
	case fetch.ObeyRules:
		return robots.ParseString(v.Body, robots.WithDialect(dialect))
	case fetch.DisallowAll:
		return robots.ParseString("User-agent: *\nDisallow: /\n", robots.WithDialect(dialect))
	}
	return robots.ParseString("", robots.WithDialect(dialect))
}
