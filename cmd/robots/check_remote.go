package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
)

// remoteResult is the -json output of check without -robots: the decision and how
// the robots.txt it came from was fetched.
type remoteResult struct {
	checkResult
	RobotsURL string        `json:"robots_url,omitempty"`
	Status    *int          `json:"status,omitempty"`
	Outcome   fetch.Outcome `json:"outcome,omitempty"`
	Effect    fetch.Effect  `json:"effect,omitempty"`
	Stale     bool          `json:"stale,omitempty"`
	FetchErr  string        `json:"fetch_error,omitempty"`
	// ErrKind classifies FetchErr (fetch.ErrorKind: "timeout", "dns", "connect", …).
	ErrKind fetch.ErrorKind `json:"fetch_error_kind,omitempty"`
}

// checkRemote decides by fetching each URL's robots.txt as a crawler would (the
// fetch package: status policy, redirects, size limit), one fetch per origin. The
// dialect picks the status policy too (fetch.PolicyFor: legacy1996 reads 401/403 as
// disallow all).
func checkRemote(ctx context.Context, e *env, f *checkFlags, urls []string) error {
	c := fetch.NewClient(fetch.WithTimeout(f.timeout), fetch.WithParseOptions(robots.WithDialect(f.dialect)))
	w := bufio.NewWriter(e.stdout)
	defer w.Flush()
	disallowed, failed := false, 0
	for _, u := range urls {
		d, err := c.CheckAgents(ctx, f.agents, u)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			failed++
			if f.json {
				writeJSON(w, checkResult{URL: u, Error: err.Error()})
			} else {
				w.Flush()
				fmt.Fprintf(e.stderr, "robots: check: %v\n", err)
			}
			continue
		}
		if !d.Allowed {
			disallowed = true
		}
		res := d.Result
		if f.json {
			status := res.Status
			out := remoteResult{checkResult: jsonDecision(d.Decision, u), RobotsURL: res.RobotsURL,
				Status: &status, Outcome: res.Outcome, Effect: res.Effect, Stale: res.Stale}
			if res.Err != nil {
				out.FetchErr = res.Err.Error()
				var fe *fetch.Error
				if errors.As(res.Err, &fe) {
					out.ErrKind = fe.Kind
				}
			}
			writeJSON(w, out)
			continue
		}
		fmt.Fprintf(w, "%s\t%s\t%s\n", verdict(d.Allowed), u, describeRemote(d))
	}
	if failed > 0 {
		return fmt.Errorf("check: %d of %d URLs could not be checked", failed, len(urls))
	}
	if disallowed {
		return exitError{1}
	}
	return nil
}

// describeRemote says why: the deciding rule, or the fetch outcome that decided
// for every URL of the origin.
func describeRemote(d fetch.Decision) string {
	res := d.Result
	how := fmt.Sprintf("%s %s", res.RobotsURL, res.Outcome)
	if res.Status != 0 {
		how += fmt.Sprintf(" (%d)", res.Status)
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
