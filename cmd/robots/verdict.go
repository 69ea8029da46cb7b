package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/verdictjson"
	"github.com/gorobots/robots/lint"
	"github.com/gorobots/robots/signals"
)

// verdictJSON is a verdict in the one JSON shape of a decision, in every subcommand
// and in the service's API (internal/verdictjson), and for check without -robots how
// the file was fetched ("robots").
type verdictJSON struct {
	verdictjson.Verdict
	Robots *fetchJSON
	Cut    *cutJSON // check -cases: where crawlers stop reading the case's file, when they do
	// Purposes is explain's one answer per purpose from the file, for a file that
	// states usage preferences (as GET /v1/check?purposes=true answers "purposes").
	Purposes []signals.Answer
}

func (v verdictJSON) MarshalJSON() ([]byte, error) {
	b := v.Verdict.AppendFields(nil)
	if v.Robots != nil {
		r, err := json.Marshal(v.Robots)
		if err != nil {
			return nil, err
		}
		b = append(append(b, `,"robots":`...), r...)
	}
	if v.Cut != nil {
		c, err := json.Marshal(v.Cut)
		if err != nil {
			return nil, err
		}
		b = append(append(b, `,"cut":`...), c...)
	}
	if v.Purposes != nil {
		p, err := json.Marshal(v.Purposes)
		if err != nil {
			return nil, err
		}
		b = append(append(b, `,"purposes":`...), p...)
	}
	return append(b, '}'), nil
}

// errorJSON stands in the results for a URL or an input line that could not be
// decided.
type errorJSON struct {
	URL       string `json:"url,omitempty"`
	InputLine int    `json:"input_line,omitempty"` // check -jsonl: the line of standard input
	Error     string `json:"error"`
}

// ruleJSON is the deciding rule as written, or nil when no rule matched.
func ruleJSON(r robots.Rule) *string {
	if r.Line == 0 {
		return nil
	}
	s := r.String()
	return &s
}

// agentName names a crawler in the output: its token, or its tokens joined by ","
// for a crawler with several (check -merge-agents, -jsonl "agents").
func agentName(agents []string) string { return strings.Join(agents, ",") }

// verdictWriter prints verdicts in the format asked for, collects warnings and
// errors, and turns them into the exit status: 2 if a URL could not be decided, 1 if
// any was disallowed, 0 otherwise.
type verdictWriter struct {
	e          *env
	cmd        string
	format     string
	w          *bufio.Writer
	results    []any
	warnings   []string
	disallowed bool
	failed     int
	cut        *cutJSON // where crawlers stop reading the file, when they do
}

func newVerdictWriter(e *env, format string) *verdictWriter {
	return &verdictWriter{e: e, cmd: "check", format: format, w: bufio.NewWriter(e.stdout), results: []any{}, warnings: []string{}}
}

// warn records a warning: in the JSON document under "warnings", otherwise on
// standard error at once.
func (o *verdictWriter) warn(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if o.format == formatJSON {
		o.warnings = append(o.warnings, msg)
		return
	}
	o.w.Flush()
	fmt.Fprintf(o.e.stderr, "robots: %s: warning: %s\n", o.cmd, msg)
}

// warnAgents warns about agents that no group can name: whole User-Agent headers
// and tokens with a version fall to the "*" group in Google's reading.
func (o *verdictWriter) warnAgents(agents []string) {
	for _, a := range agents {
		if msg := agentProblem(a); msg != "" {
			o.warn("%s", msg)
		}
	}
}

// agentProblem says why agent is not a product token a group can name, or "".
func agentProblem(agent string) string {
	if agent == "*" || agent != "" && strings.Trim(agent, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-") == "" {
		return ""
	}
	tok := robots.ProductToken(agent)
	if tok == "" {
		return fmt.Sprintf("agent %q has no product token: no group names it, so it gets the \"*\" rules", agent)
	}
	return fmt.Sprintf("agent %q is not a product token: no group names it, so it gets the \"*\" rules; the crawler's token is %q (-agent %s)", agent, tok, tok)
}

// warnBody warns when a file is not a robots.txt at all: an HTML page (lint's
// html-page finding) or binary data.
func (o *verdictWriter) warnBody(name string, body []byte) {
	if msg := bodyProblem(name, body); msg != "" {
		o.warn("%s", msg)
	}
}

func bodyProblem(name string, body []byte) string {
	if bytes.IndexByte(body, 0) >= 0 || !utf8.Valid(body) && bytes.Count(body, []byte{0xFF})+bytes.Count(body, []byte{0xFE}) > len(body)/16 {
		return fmt.Sprintf("%s looks like binary data, not a robots.txt file", name)
	}
	for _, f := range lint.Check(name, body) {
		if f.Code == lint.HTMLPage {
			return fmt.Sprintf("%s is an HTML or XML page, not a robots.txt file (line %d): crawlers read it as rules and find none", name, f.Line)
		}
	}
	return ""
}

// fail records a URL that could not be decided.
func (o *verdictWriter) fail(raw string, err error) {
	o.failed++
	switch o.format {
	case formatJSON:
		o.results = append(o.results, errorJSON{URL: raw, Error: err.Error()})
	case formatJSONL:
		writeJSONLine(o.w, errorJSON{URL: raw, Error: err.Error()})
	default:
		o.w.Flush()
		fmt.Fprintf(o.e.stderr, "robots: %s: %v\n", o.cmd, err)
	}
}

// decider is what decides for a list of crawlers: a parsed file (*robots.Robots) or
// a fetch of one (*fetch.Result).
type decider interface {
	CheckAgents(agents []string, url string) robots.Decision
	UsageAgents(agents []string, url string) robots.Usage
}

// verdicts prints, for one URL, the decision of d for each crawler, after the note
// that the URL was encoded. res is the fetch d is, or nil. other is the file in the
// other reading (otherReading), or nil.
func (o *verdictWriter) verdicts(raw, u string, crawlers [][]string, d decider, res *fetch.Result, other *robots.Robots) {
	o.encodedNote(raw, u)
	for _, agents := range crawlers {
		o.verdict(raw, u, agents, d.CheckAgents(agents, u), d.UsageAgents(agents, u), res, other)
	}
}

// verdict prints one decision for one crawler. raw is the URL as given, u as decided.
// res is the fetch the decision came from, or nil; other is the file in the other
// reading (RFC 9309's for Google's, and back) when it states usage preferences, to
// say where the two give the crawler other ones, or nil.
func (o *verdictWriter) verdict(raw, u string, agents []string, d robots.Decision, pref robots.Usage, res *fetch.Result, other *robots.Robots) {
	if !d.Allowed {
		o.disallowed = true
	}
	v := verdictJSON{Verdict: verdictjson.Verdict{URL: u, Agent: agentName(agents), Decision: d, Usage: usageJSON(pref)}}
	if encoded(raw, u) {
		v.Input = raw
	}
	if res != nil {
		v.Robots = fetchReport(res)
	}
	v.Readings = verdictjson.Readings(other, agents, u, pref)
	switch o.format {
	case formatJSON:
		o.results = append(o.results, v)
	case formatJSONL:
		writeJSONLine(o.w, v)
	default:
		why := describeRule(d.Rule)
		if res != nil {
			why = describeRemote(d, res)
		}
		if said := usageText(v.Usage); said != "" {
			why += "\t" + said
		}
		if v.Readings != "" {
			why += "\t" + v.Readings
		}
		fmt.Fprintf(o.w, "%s\t%s\t%s\t%s\n", verdict(d.Allowed), v.Agent, u, why)
	}
}

// encodedNote says, in the text formats, that a URL was decided as encoded; the JSON
// formats carry it as "input" in each verdict.
func (o *verdictWriter) encodedNote(raw, u string) {
	if o.format == formatText && encoded(raw, u) {
		o.warn("%s", requestedAs(raw, u))
	}
}

// encoded reports whether the URL decided differs from the one given, beyond the
// "/" a bare origin gets: percent-encoded, or with surrounding spaces trimmed.
func encoded(raw, u string) bool {
	return u != raw && u != raw+"/"
}

// requestedAs is the warning that raw was decided as u: with its surrounding spaces
// and control characters trimmed, as the URL parser does, or encoded as a browser
// requests it, or both.
func requestedAs(raw, u string) string {
	trimmed := strings.TrimFunc(raw, func(r rune) bool { return r <= ' ' })
	if trimmed == raw {
		return fmt.Sprintf("%s is requested as %s (encoded as a browser does)", raw, u)
	}
	how := "surrounding spaces trimmed"
	if encoded(trimmed, u) {
		how += ", then encoded as a browser does"
	}
	return fmt.Sprintf("%q is requested as %s (%s)", raw, u, how)
}

// close writes the JSON document (for -format json) and returns the exit status.
func (o *verdictWriter) close() error {
	if o.format == formatJSON {
		writeJSONLine(o.w, struct {
			Results  []any    `json:"results"`
			Warnings []string `json:"warnings"`
			Cut      *cutJSON `json:"cut,omitempty"`
		}{o.results, o.warnings, o.cut})
	}
	if err := o.w.Flush(); err != nil {
		return err
	}
	switch {
	case o.failed > 0:
		return exitError{2}
	case o.disallowed:
		return exitError{1}
	}
	return nil
}

func verdict(allowed bool) string {
	if allowed {
		return "allowed"
	}
	return "disallowed"
}

// describeRule formats the deciding rule with its line: "line 12: Disallow: /private/".
func describeRule(r robots.Rule) string {
	if r.Line == 0 {
		return "no rule matched"
	}
	return fmt.Sprintf("line %d: %s", r.Line, r.String())
}

// writeJSONLine writes v as one line of JSON.
func writeJSONLine(w *bufio.Writer, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(errorJSON{Error: err.Error()})
	}
	w.Write(append(b, '\n'))
}
