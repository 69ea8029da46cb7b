package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
)

func init() {
	register("fetch", "fetch a robots.txt and tell how it went", runFetch)
}

const fetchUsage = `Usage:
	robots fetch [-timeout 10s] [-json] URL

Fetch the robots.txt of URL's origin as a crawler would, and print the whole story:
each request with its status (redirects are followed up to 5 hops, to any host),
the bytes read and whether the 500 KiB limit cut the body, the outcome and what it
means for the origin's URLs, when the result expires, and notes on the file's lines.

Outcomes (Google's interpretation, RFC 9309): success (2xx, the file's rules apply),
unavailable (4xx except 429, or more than 5 redirects: everything allowed),
unreachable (429, 5xx, network failure: everything disallowed for now).

Exit status: 0 if the origin answered (success or unavailable), 1 if it was
unreachable, 2 on a usage error.

Flags:
`

func runFetch(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("fetch", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() { fmt.Fprint(e.stderr, fetchUsage); fs.PrintDefaults() }
	timeout := fs.Duration("timeout", 10*time.Second, "whole-fetch `timeout`")
	asJSON := fs.Bool("json", false, "print the story as one JSON object")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usagef("fetch: %v", err)
	}
	if fs.NArg() != 1 {
		return usagef("fetch: give one URL")
	}
	c := fetch.NewClient(fetch.WithTimeout(*timeout))
	res, err := c.Fetch(ctx, fs.Arg(0))
	if err != nil {
		return usagef("fetch: %v", err)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	w := bufio.NewWriter(e.stdout)
	defer w.Flush()
	if *asJSON {
		writeFetchJSON(w, res)
	} else {
		writeStory(w, res)
	}
	if res.Outcome == fetch.Unreachable {
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
	fmt.Fprintf(w, "outcome\t%s: %s\n", res.Outcome, meaning(res.Effect))
	fmt.Fprintf(w, "expires\t%s (in %s)\n", res.ExpiresAt.UTC().Format(time.RFC3339), res.ExpiresAt.Sub(res.FetchedAt))
	if res.Robots != nil {
		groups := res.Robots.Groups()
		fmt.Fprintf(w, "file\t%d groups, %d sitemaps\n", len(groups), len(res.Robots.Sitemaps()))
		for _, d := range res.Robots.Diagnostics() {
			fmt.Fprintf(w, "note\t%s\n", d)
		}
	}
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

// fetchStory is the -json output of fetch.
type fetchStory struct {
	Origin      string              `json:"origin"`
	RobotsURL   string              `json:"robots_url"`
	Hops        []fetch.Hop         `json:"hops"`
	Status      int                 `json:"status"`
	Outcome     fetch.Outcome       `json:"outcome"`
	Effect      fetch.Effect        `json:"effect"`
	BytesRead   int64               `json:"bytes_read"`
	WireBytes   int64               `json:"wire_bytes"`
	Truncated   bool                `json:"truncated"`
	Encoding    string              `json:"encoding,omitempty"`
	FetchedAt   time.Time           `json:"fetched_at"`
	ExpiresAt   time.Time           `json:"expires_at"`
	Error       string              `json:"error,omitempty"`
	Diagnostics []robots.Diagnostic `json:"diagnostics,omitempty"`
}

func writeFetchJSON(w *bufio.Writer, res *fetch.Result) {
	s := fetchStory{Origin: res.Origin, RobotsURL: res.RobotsURL, Hops: res.Hops,
		Status: res.Status, Outcome: res.Outcome, Effect: res.Effect, BytesRead: res.BytesRead,
		WireBytes: res.WireBytes, Truncated: res.Truncated, Encoding: res.Encoding,
		FetchedAt: res.FetchedAt.UTC(), ExpiresAt: res.ExpiresAt.UTC()}
	if res.Err != nil {
		s.Error = res.Err.Error()
	}
	if res.Robots != nil {
		s.Diagnostics = res.Robots.Diagnostics()
	}
	b, _ := json.Marshal(s)
	w.Write(append(b, '\n'))
}
