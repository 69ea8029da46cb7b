package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/counttext"
	"github.com/gorobots/robots/internal/filediff"
	"github.com/gorobots/robots/internal/weburl"
)

const monitorUsage = `Usage:
	robots monitor -state FILE [-agent NAME]... [-urls FILE] [-dialect NAME]
	               [-format text|json] [-timeout 10s] URL...

Watches what crawlers may fetch, for cron and CI: fetches the live robots.txt of
each URL's origin as a crawler would (as "robots check" does without -robots),
decides each URL for each crawler, and compares the verdicts with those recorded
in the state FILE by the run before. It prints what changed, as "robots diff"
does: for each origin whose file changed, the groups, sitemaps and licences
added, removed or changed, then each verdict that changed with the deciding rule
before and after, the crawlers named once and the URLs under them. Then it writes
the state FILE anew (a temporary file renamed over it), so that the next run
compares with this one: each change is reported once.

URLs come from the arguments and from -urls FILE (one per line; blank lines and
lines starting with "#" are skipped). Each -agent names one crawler by its product
token; by default the major search, AI and SEO crawlers (package crawlers). A
robots.txt that cannot be fetched decides as crawlers take it (5xx, 429 or no
answer: every URL disallowed; 4xx: every URL allowed), so an outage that blocks
crawlers is a change too. URLs or crawlers added since the last run are recorded
without being changes; those no longer asked about are dropped from the state.

The state FILE is JSON: when it was written, each origin's file (when fetched,
its outcome, status, SHA-256 and body, so that the next run can say which lines
changed) and each verdict. With no FILE yet, the first run records the state and
exits 0.

With -format json, writes {"checked_at", "previous", "first_run", "origins":
[{"origin", "changed", "before", "after"}], "changes": [...]} where changes are
"robots diff -format json"'s objects (kind "group", "sitemap", "license" for the
files of changed origins; kind "url" for verdicts).

Exit status: 0 when no verdict changed (or on the first run), 1 when one did (like
diff), 2 on a usage or input error (a URL that is not one, a state file that
cannot be read or written); the state is not written then.
`

// monitorState is the state file of "robots monitor".
type monitorState struct {
	Format    int                    `json:"format"` // 1
	CheckedAt time.Time              `json:"checked_at"`
	Dialect   string                 `json:"dialect"`
	Origins   map[string]*originSeen `json:"origins"`
	Verdicts  []monitorVerdict       `json:"verdicts"`
}

// originSeen is what a run found of an origin's robots.txt.
type originSeen struct {
	FetchedAt time.Time     `json:"fetched_at"`
	Outcome   fetch.Outcome `json:"outcome"`
	Status    int           `json:"status"`
	Effect    fetch.Effect  `json:"effect"`
	SHA256    string        `json:"sha256"`
	Body      string        `json:"body"`
}

// monitorVerdict is one decision: a URL for a crawler.
type monitorVerdict struct {
	URL     string  `json:"url"`
	Agent   string  `json:"agent"`
	Allowed bool    `json:"allowed"`
	Rule    *string `json:"rule"`
	Line    int     `json:"line"`
}

// maxStateFile bounds the state file read: the bodies of some hundred origins'
// largest files.
const maxStateFile = 256 << 20

func runMonitor(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("monitor")
	statePath := fs.String("state", "", "the state `FILE`: read, compared with, then written anew")
	urlsFile := fs.String("urls", "", "`FILE` of URLs to watch, one per line")
	timeout := fs.Duration("timeout", fetch.DefaultTimeout, "`duration` of each robots.txt fetch")
	f := newCrawlerFlags(fs, formatText, formatJSON)
	pos, err := parseArgs(fs, args, e.stdout)
	if err != nil {
		return err
	}
	if *statePath == "" || *statePath == "-" {
		return usagef("monitor: -state FILE is required: the file where the verdicts of the last run are kept")
	}
	raws := pos
	if *urlsFile != "" {
		b, err := readLimited(e.stdin, *urlsFile, maxURLFile)
		if err != nil {
			return err
		}
		for _, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				raws = append(raws, l)
			}
		}
	}
	if len(raws) == 0 {
		return usagef("monitor: want URLs to watch (arguments or -urls FILE)")
	}
	var urls []string
	for _, raw := range raws {
		u, note, err := weburl.Absolute(raw)
		if err == nil && u[0] == '/' {
			err = fmt.Errorf("%q: a whole URL is needed (https://host/path)", raw)
		}
		if err != nil {
			return usagef("monitor: %v", err)
		}
		if note != "" {
			fmt.Fprintf(e.stderr, "robots: monitor: %s\n", note)
		}
		if !slices.Contains(urls, u) {
			urls = append(urls, u)
		}
	}
	for _, a := range f.agents {
		if msg := agentProblem(a); msg != "" {
			fmt.Fprintf(e.stderr, "robots: monitor: warning: %s\n", msg)
		}
	}
	prev, err := readState(*statePath)
	if err != nil {
		return fmt.Errorf("monitor: %w", err)
	}

	now := time.Now().UTC().Truncate(time.Second)
	next := &monitorState{Format: 1, CheckedAt: now, Dialect: f.dialect.String(), Origins: map[string]*originSeen{}}
	c := fetch.NewClient(fetch.Config{Timeout: *timeout, Dialect: f.dialect})
	results := map[string]*fetch.Result{}
	agents := f.agents.orMajor()
	for _, u := range urls {
		origin, err := fetch.Origin(u)
		if err != nil {
			return usagef("monitor: %s: %v", u, err)
		}
		res, ok := results[origin]
		if !ok {
			if res, err = c.Get(ctx, u); err != nil {
				return fmt.Errorf("monitor: %w", err)
			}
			results[origin] = res
			body := ""
			if res.Effect == fetch.ObeyRules {
				body = res.Body
			}
			sum := sha256.Sum256([]byte(body))
			next.Origins[origin] = &originSeen{FetchedAt: res.FetchedAt.UTC().Truncate(time.Second), Outcome: res.Outcome, Status: res.Status,
				Effect: res.Effect, SHA256: hex.EncodeToString(sum[:]), Body: body}
		}
		for _, ag := range agents {
			d := res.CheckAgents([]string{ag}, u)
			v := filediff.Verdict(d)
			next.Verdicts = append(next.Verdicts, monitorVerdict{URL: u, Agent: ag, Allowed: d.Allowed, Rule: v.Rule, Line: v.Line})
		}
	}

	rep := compareStates(prev, next, f.dialect)
	if err := writeState(*statePath, next); err != nil {
		return fmt.Errorf("monitor: %w", err)
	}
	w := bufio.NewWriter(e.stdout)
	if *f.format == formatJSON {
		writeIndented(w, rep)
	} else {
		rep.writeText(w, *statePath)
	}
	return finish(w, false, rep.changed())
}

// monitorReport is what a run found against the last: also the JSON output.
type monitorReport struct {
	CheckedAt time.Time           `json:"checked_at"`
	Previous  *time.Time          `json:"previous"` // when the state compared with was written; null on the first run
	FirstRun  bool                `json:"first_run"`
	Origins   []originChange      `json:"origins"`
	Changes   []filediff.Change   `json:"changes"`
	verdicts  int                 // recorded, for the first run's text
	files     map[string][]change // the file changes of each changed origin, for the text
}

// originChange is an origin's robots.txt in the last run and in this one.
type originChange struct {
	Origin  string      `json:"origin"`
	Changed bool        `json:"changed"`
	Before  *originSeen `json:"before"` // null when the origin was not watched before
	After   *originSeen `json:"after"`
}

// MarshalJSON leaves the bodies out of the report: the state file has them.
func (o originChange) MarshalJSON() ([]byte, error) {
	type side struct {
		FetchedAt time.Time     `json:"fetched_at"`
		Outcome   fetch.Outcome `json:"outcome"`
		Status    int           `json:"status"`
		Effect    fetch.Effect  `json:"effect"`
		SHA256    string        `json:"sha256"`
	}
	of := func(s *originSeen) *side {
		if s == nil {
			return nil
		}
		return &side{s.FetchedAt, s.Outcome, s.Status, s.Effect, s.SHA256}
	}
	return json.Marshal(struct {
		Origin  string `json:"origin"`
		Changed bool   `json:"changed"`
		Before  *side  `json:"before"`
		After   *side  `json:"after"`
	}{o.Origin, o.Changed, of(o.Before), of(o.After)})
}

func (r *monitorReport) changed() bool {
	for _, c := range r.Changes {
		if c.Kind == "url" {
			return true
		}
	}
	return false
}

// compareStates lists what changed from prev (nil on the first run) to next: the
// files of the origins watched in both, and the verdicts recorded in both.
func compareStates(prev, next *monitorState, dialect robots.Dialect) *monitorReport {
	rep := &monitorReport{CheckedAt: next.CheckedAt, FirstRun: prev == nil, Origins: []originChange{}, Changes: []filediff.Change{},
		verdicts: len(next.Verdicts), files: map[string][]change{}}
	if prev == nil {
		prev = &monitorState{}
	} else {
		t := prev.CheckedAt
		rep.Previous = &t
	}
	origins := make([]string, 0, len(next.Origins))
	for o := range next.Origins {
		origins = append(origins, o)
	}
	slices.Sort(origins)
	parse := func(s *originSeen) *robots.Robots {
		return robots.ParseString(s.Body, robots.WithDialect(dialect))
	}
	for _, o := range origins {
		before, after := prev.Origins[o], next.Origins[o]
		oc := originChange{Origin: o, Before: before, After: after}
		if before != nil {
			oc.Changed = before.SHA256 != after.SHA256 || before.Effect != after.Effect
			// An unreachable origin's file did not change: crawlers take every URL as
			// disallowed meanwhile, which the origin's line and the verdicts say.
			if oc.Changed && before.Effect != fetch.DisallowAll && after.Effect != fetch.DisallowAll {
				fc := filediff.Diff(parse(before), parse(after), nil, nil)
				rep.files[o] = fc
				rep.Changes = append(rep.Changes, fc...)
			}
		}
		rep.Origins = append(rep.Origins, oc)
	}
	type key struct{ url, agent string }
	was := map[key]monitorVerdict{}
	for _, v := range prev.Verdicts {
		was[key{v.URL, v.Agent}] = v
	}
	for _, v := range next.Verdicts {
		old, ok := was[key{v.URL, v.Agent}]
		if !ok || old.Allowed == v.Allowed {
			continue
		}
		side := func(v monitorVerdict) *filediff.Side {
			allowed := v.Allowed
			return &filediff.Side{Allowed: &allowed, Rule: v.Rule, Line: v.Line}
		}
		rep.Changes = append(rep.Changes, filediff.Change{Kind: "url", URL: v.URL, Agent: v.Agent, Before: side(old), After: side(v)})
	}
	return rep
}

// writeText writes the report for people: nothing when nothing changed, a line on
// the first run.
func (r *monitorReport) writeText(w io.Writer, statePath string) {
	if r.FirstRun {
		fmt.Fprintf(w, "recorded %s in %s: the next run compares with them\n", counttext.Plural(r.verdicts, "verdict", "verdicts"), statePath)
		return
	}
	for _, o := range r.Origins {
		if !o.Changed {
			continue
		}
		a, b := o.After, o.Before
		fmt.Fprintf(w, "robots.txt      %s/robots.txt changed: %s, fetched %s (was %s, fetched %s)\n", o.Origin,
			fetch.Describe(a.Outcome, a.Status, a.Effect), a.FetchedAt.Format(time.RFC3339),
			fetch.Describe(b.Outcome, b.Status, b.Effect), b.FetchedAt.Format(time.RFC3339))
		writeDiffText(w, r.files[o.Origin])
	}
	var urls []change
	for _, c := range r.Changes {
		if c.Kind == "url" {
			urls = append(urls, c)
		}
	}
	writeDiffText(w, urls)
}

// readState reads the state file at path; nil, and no error, when there is none.
func readState(path string) (*monitorState, error) {
	b, err := readLimited(nil, path, maxStateFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	st := new(monitorState)
	if err := json.Unmarshal(b, st); err != nil {
		return nil, fmt.Errorf("state file %s: %w (not written by robots monitor? remove it to start again)", path, err)
	}
	if st.Format != 1 {
		return nil, fmt.Errorf("state file %s: format %d, want 1", path, st.Format)
	}
	return st, nil
}

// writeState writes st to path through a temporary file in the same directory,
// renamed over it: a run stopped halfway leaves the last state whole.
func writeState(path string, st *monitorState) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, there is nothing to remove
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
