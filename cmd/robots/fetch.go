package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/audit"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/weburl"
)

const fetchUsage = `Usage:
	robots fetch [-timeout 10s] [-hosts LIST] [-as LIST] [-format text|json] SITE

Fetch the robots.txt of SITE's origin as a crawler would, and print the whole story:
each request with its status (redirects are followed up to 5 hops, to any host),
the bytes read and whether the 500 KiB limit cut the body, the outcome and what it
means for the origin's URLs, when the result expires, and notes on the file's lines.

Outcomes (Google's interpretation, RFC 9309): success (2xx, the file's rules apply),
unavailable (4xx except 429, or more than 5 redirects: everything allowed),
unreachable (429, 5xx, network failure: everything disallowed for now).

SITE is a URL, or a host with an optional port and path, as people type it:
example.com is fetched as https://example.com/; an IP address, localhost or a port
other than 443 (127.0.0.1:8080) as http. The scheme chosen is said on standard error,
and when the site gives no answer the output says what to try next ("try").

` + variantsUsage + `Without -as, the crawlers asked about are the major ones.

Exit status: 0 if the origin answered (success or unavailable), 1 if it was
unreachable, a host of -hosts was, or a crawler of -as receives another robots.txt
than this tool; 2 on a usage error.
`

func runFetch(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("fetch")
	timeout := fs.Duration("timeout", 10*time.Second, "whole-fetch `timeout`")
	format := formatFlag(fs, formatText, formatJSON)
	jsonAlias(fs, format)
	hosts, as := variantFlags(fs)
	args, err := parseArgs(fs, args, e.stdout)
	if err != nil {
		return err
	}
	u, err := siteArg(e, "fetch", args, "give one site (example.com, https://example.com/)", nil)
	if err != nil {
		return err
	}
	c := fetch.NewClient(fetch.Config{Timeout: *timeout})
	res, err := c.Fetch(ctx, u)
	if err != nil {
		return usagef("fetch: %v", err)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var v *audit.Variants
	if len(*hosts) > 0 || len(*as) > 0 {
		v, err = audit.Compare(ctx, u, audit.Config{Fetch: c, Hosts: *hosts, As: *as})
		if errors.Is(err, audit.ErrVariants) || errors.Is(err, audit.ErrTarget) {
			return usagef("fetch: %v", err)
		} else if err != nil {
			return err
		}
	}
	w := bufio.NewWriter(e.stdout)
	defer w.Flush()
	if *format == formatJSON {
		rep := fetchReport(res)
		if u != args[0] {
			rep.Input = args[0]
		}
		rep.Variants = v
		writeJSONLine(w, rep)
	} else {
		writeStory(w, res)
		writeVariants(w, v)
	}
	if res.Outcome == fetch.Unreachable || v.Served() {
		return exitError{1}
	}
	return nil
}

func writeStory(w *bufio.Writer, res *fetch.Result) {
	fmt.Fprintf(w, "origin\t%s\n", res.Origin)
	for i, h := range res.Hops {
		status := "no response"
		if h.Status != 0 {
			status = fmt.Sprint(h.Status)
		}
		fmt.Fprintf(w, "hop %d\t%s\t%s\n", i+1, h.URL, status)
	}
	if res.Outcome == fetch.Success {
		read := fmt.Sprintf("%d bytes", res.BytesRead)
		if res.Encoding != "" {
			read += fmt.Sprintf(" (%s, %d on the wire)", res.Encoding, res.WireBytes)
		}
		if res.Truncated {
			read += "; cut at the size limit, the rest was not read"
		}
		fmt.Fprintf(w, "read\t%s\n", read)
	}
	if res.Err != nil {
		fmt.Fprintf(w, "error\t%v\n", res.Err)
	}
	if retry := retryHint(res.Outcome, res.Status, res.Origin); retry != "" {
		fmt.Fprintf(w, "try\t%s\n", retry)
	}
	fmt.Fprintf(w, "outcome\t%s: %s\n", res.Outcome, meaning(res.Effect))
	fmt.Fprintf(w, "expires\t%s (in %s)\n", res.ExpiresAt.UTC().Format(time.RFC3339), res.ExpiresAt.Sub(res.FetchedAt))
	if res.Robots != nil {
		groups := res.Robots.Groups()
		fmt.Fprintf(w, "file\t%d groups, %d sitemaps\n", len(groups), len(res.Robots.Sitemaps()))
		for _, l := range res.Robots.Licenses() {
			fmt.Fprintf(w, "license\t%s (RSL)\n", l)
		}
		for _, d := range res.Robots.Diagnostics() {
			fmt.Fprintf(w, "note\t%s\n", d)
		}
	}
}

// siteArg reads the one SITE argument of fetch and audit as a person types it
// (weburl.Site) and says on standard error which scheme it chose for a bare host.
// want is the usage message when there is not exactly one argument; a SITE that is
// not one is a usage error, wrapped in kind when kind is not nil.
func siteArg(e *env, cmd string, pos []string, want string, kind error) (string, error) {
	if len(pos) != 1 {
		return "", usagef("%s: %s", cmd, want)
	}
	u, note, err := weburl.Site(pos[0])
	if err != nil {
		if kind != nil {
			err = fmt.Errorf("%w: %w", kind, err)
		}
		return "", usagef("%s: %v", cmd, err)
	}
	if note != "" {
		fmt.Fprintf(e.stderr, "robots: %s: %s\n", cmd, note)
	}
	return u, nil
}

// retryHint says what to try when an origin gave no answer at all (weburl.Retry),
// and "" when it answered.
func retryHint(o fetch.Outcome, status int, origin string) string {
	if o != fetch.Unreachable || status != 0 {
		return ""
	}
	return weburl.Retry(origin)
}

func meaning(e fetch.Effect) string {
	switch e {
	case fetch.AllowAll:
		return "everything allowed"
	case fetch.DisallowAll:
		return "everything disallowed for now; retried later"
	}
	return "the file's rules apply"
}

// fetchJSON is how the command shows a fetch: the fetch package's Report (the one
// shape of a fetch, also the service's) with the notes on the file's lines.
type fetchJSON struct {
	// Input is the site as given when it is not the URL fetched (see weburl.Site).
	Input string `json:"input,omitempty"`
	fetch.Report
	Diagnostics []robots.Diagnostic `json:"diagnostics,omitempty"`
	// Variants is what -hosts and -as found (audit.Compare), absent without them.
	Variants *audit.Variants `json:"variants,omitempty"`
}

func fetchReport(res *fetch.Result) *fetchJSON {
	s := &fetchJSON{Report: res.Report()}
	if res.Robots != nil {
		s.Diagnostics = res.Robots.Diagnostics()
	}
	return s
}
