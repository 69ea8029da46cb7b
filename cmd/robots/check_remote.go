package main

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/weburl"
	"github.com/gorobots/robots/signals"
)

// checkRemote decides by fetching each URL's robots.txt as a crawler would (the
// fetch package: status policy, redirects, size limit), one fetch per origin, at
// most f.concurrency origins at once. The dialect picks the status policy too
// (fetch.Config.Dialect: legacy1996 reads 401/403 as disallow all). Verdicts are printed
// in the order of the URLs.
func checkRemote(ctx context.Context, e *env, f *checkFlags, urls []string) error {
	c := fetch.NewClient(fetch.Config{Timeout: f.timeout, Dialect: f.dialect})
	out := newVerdictWriter(e, f.format)
	out.warnAgents(f.agents)
	encodedURLs := make([]string, len(urls))
	originOf := make([]string, len(urls))
	errs := make([]error, len(urls))
	var origins []string
	first := map[string]int{} // origin → index of its first URL
	for i, raw := range urls {
		u, note, err := weburl.Absolute(raw) // "example.com:8080/x" as fetch and audit read it
		if note != "" {
			out.warn("%s", note)
		}
		if err == nil && u[0] == '/' {
			err = fmt.Errorf("%q: a path needs -robots FILE; without it, give whole URLs", raw)
		}
		if err != nil {
			errs[i] = err
			continue
		}
		encodedURLs[i] = u
		origin, err := fetch.Origin(u)
		if err != nil {
			errs[i] = err
			continue
		}
		originOf[i] = origin
		if _, ok := first[origin]; !ok {
			first[origin] = i
			origins = append(origins, origin)
		}
	}
	// Fetch every origin once, concurrently; the client caches each result, so the
	// decisions below read it back without a second fetch.
	results := make(map[string]*fetch.Result, len(origins))
	fetchErrs := make(map[string]error)
	var mu sync.Mutex
	sem := make(chan struct{}, f.concurrency)
	var wg sync.WaitGroup
	prog := newProgress(e, len(origins))
	for _, origin := range origins {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			res, err := c.Get(ctx, encodedURLs[first[origin]])
			mu.Lock()
			results[origin], fetchErrs[origin] = res, err
			mu.Unlock()
			prog.done(origin)
		}()
	}
	wg.Wait()
	prog.finish()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	// Each origin's file in the other reading, where it states usage preferences, so
	// that its verdicts say where the two readings give a crawler other ones, as they
	// do with -robots.
	others := make(map[string]*robots.Robots, len(origins))
	for origin, res := range results {
		if res != nil && res.Effect == fetch.ObeyRules && res.Robots != nil {
			others[origin] = signals.OtherReading(res.Robots, res.Body)
		}
	}
	crawlers := f.crawlers()
	for i, raw := range urls {
		if errs[i] != nil {
			out.fail(raw, errs[i])
			continue
		}
		u := encodedURLs[i]
		res, err := results[originOf[i]], fetchErrs[originOf[i]]
		if err != nil {
			out.fail(raw, err)
			continue
		}
		out.verdicts(raw, u, crawlers, res, res, others[originOf[i]])
	}
	return out.close()
}

// describeRemote says why: the deciding rule, or the fetch outcome that decided
// for every URL of the origin.
func describeRemote(d robots.Decision, res *fetch.Result) string {
	how := fmt.Sprintf("%s %s", res.RobotsURL, res.Outcome)
	if res.Status != 0 {
		how += fmt.Sprintf(" (HTTP %d)", res.Status)
	}
	if res.Stale {
		how += ", last good copy in use"
	}
	switch res.Effect {
	case fetch.AllowAll:
		return how + ": everything allowed"
	case fetch.DisallowAll:
		if res.Outcome != fetch.Unreachable {
			return how + ": everything disallowed" // 401/403 under the 1996 policy
		}
		return how + ": everything disallowed for now"
	}
	return describeRule(d.Rule)
}

// progress shows "fetched N/M origins" on standard error while it is a terminal,
// and nothing otherwise (pipes, files, tests).
type progress struct {
	mu    sync.Mutex
	e     *env
	on    bool
	n, of int
}

func newProgress(e *env, of int) *progress {
	p := &progress{e: e, of: of}
	if f, ok := e.stderr.(*os.File); ok && of > 1 {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.on = true
		}
	}
	return p
}

func (p *progress) done(origin string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	if p.on {
		fmt.Fprintf(p.e.stderr, "\r\x1b[Kfetched %d/%d origins (%s)", p.n, p.of, origin)
	}
}

func (p *progress) finish() {
	if p.on {
		fmt.Fprint(p.e.stderr, "\r\x1b[K")
	}
}
