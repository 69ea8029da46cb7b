package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gorobots/robots"
)

func init() {
	register("check", "decide whether crawlers may fetch URLs", runCheck)
}

const checkUsage = `Usage:
	robots check -robots FILE -agent NAME [-agent NAME]... URL...
	robots check -agent NAME [-json] [-timeout 10s] URL...
	robots check -jsonl < cases.jsonl

-dialect picks the interpretation: google (the default), rfc9309, legacy1996 or
legacy1994 (see "go doc github.com/gorobots/robots Dialect"). Without -robots it
picks the status policy too: legacy1996 reads 401 and 403 as "disallow all" and
keeps a file 7 days without cache headers; the others follow Google.

With -robots, decide from FILE ("-" reads standard input). Without it, fetch each
URL's /robots.txt as a crawler would (status codes, redirects, size limit) and decide.

Prints one line per URL: the verdict, the URL and the deciding rule with its line
("12: Disallow: /private/"). Several -agent flags name one crawler that obeys
several product tokens. Exit status: 0 if every URL is allowed, 1 if any is
disallowed, 2 on a usage or input error.

With -jsonl, read JSON objects from standard input, one per line:
	{"robots": "...", "agent": "FooBot", "url": "https://example.com/x"}
with "robots_base64" or "robots_file" (a path; each file is read once) instead of
"robots", and "agents" (an array) instead of "agent", and "dialect" to pick an interpretation. Unknown fields are ignored.
Writes one JSON object per input line, in order:
	{"allowed": false, "line": 2, "rule": "disallow: /x"}
("line" 0 and no "rule" when no rule matched) or {"error": "..."} for a bad line.

Flags:
`

// dialectFlag defines the -dialect flag shared by the subcommands that decide.
func dialectFlag(fs *flag.FlagSet, d *robots.Dialect) {
	fs.Func("dialect", "interpretation: google (default), rfc9309, legacy1996 or legacy1994", func(v string) (err error) {
		*d, err = robots.ParseDialect(v)
		return err
	})
}

// agentList is a repeatable -agent flag.
type agentList []string

func (a *agentList) String() string     { return strings.Join(*a, ",") }
func (a *agentList) Set(v string) error { *a = append(*a, v); return nil }

type checkFlags struct {
	robotsFile string
	agents     agentList
	jsonl      bool
	json       bool
	timeout    time.Duration
	dialect    robots.Dialect
}

func runCheck(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() { fmt.Fprint(e.stderr, checkUsage); fs.PrintDefaults() }
	var f checkFlags
	fs.StringVar(&f.robotsFile, "robots", "", "robots.txt `FILE` to decide from (- for standard input)")
	fs.Var(&f.agents, "agent", "crawler product `NAME` (repeatable)")
	fs.BoolVar(&f.jsonl, "jsonl", false, "read JSON cases from standard input, write JSON results")
	fs.BoolVar(&f.json, "json", false, "print one JSON object per URL")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Second, "whole-fetch `timeout` when fetching robots.txt")
	dialectFlag(fs, &f.dialect)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usagef("check: %v", err)
	}
	urls := fs.Args()
	if f.jsonl {
		if len(urls) > 0 || f.robotsFile != "" || len(f.agents) > 0 {
			return usagef("check: -jsonl takes its cases from standard input only")
		}
		return checkJSONL(e.stdin, e.stdout)
	}
	if len(f.agents) == 0 {
		return usagef("check: -agent is required")
	}
	if len(urls) == 0 {
		return usagef("check: no URL given")
	}
	if f.robotsFile == "" {
		return checkRemote(ctx, e, &f, urls)
	}
	body, err := readInput(e.stdin, f.robotsFile)
	if err != nil {
		return err
	}
	r := robots.Parse(body, robots.WithDialect(f.dialect))
	w := bufio.NewWriter(e.stdout)
	defer w.Flush()
	disallowed := false
	for _, u := range urls {
		d := r.CheckAgents(f.agents, u)
		if !d.Allowed {
			disallowed = true
		}
		if f.json {
			writeJSON(w, jsonDecision(d, u))
			continue
		}
		fmt.Fprintf(w, "%s\t%s\t%s\n", verdict(d.Allowed), u, describeRule(d.Rule))
	}
	if disallowed {
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

// describeRule formats the deciding rule with its line: "12: Disallow: /private/".
func describeRule(r robots.Rule) string {
	if r.Line == 0 {
		return "no rule matched"
	}
	return fmt.Sprintf("%d: %s", r.Line, r.String())
}

// maxInputFile bounds a robots.txt read from a file or standard input: four times the
// parse limit, so that "file too large" can still be reported with the file's size.
const maxInputFile = 4 * robots.DefaultMaxBytes

// readInput reads a robots.txt file; "-" is standard input.
func readInput(stdin io.Reader, name string) ([]byte, error) {
	var rd io.Reader
	if name == "-" {
		rd = stdin
	} else {
		fh, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer fh.Close()
		rd = fh
	}
	return io.ReadAll(io.LimitReader(rd, maxInputFile))
}

// checkResult is the -jsonl and -json output for one URL.
type checkResult struct {
	URL     string `json:"url,omitempty"`
	Allowed *bool  `json:"allowed,omitempty"`
	Line    *int   `json:"line,omitempty"`
	Rule    string `json:"rule,omitempty"`
	Error   string `json:"error,omitempty"`
}

func jsonDecision(d robots.Decision, url string) checkResult {
	allowed, line := d.Allowed, d.Rule.Line
	res := checkResult{URL: url, Allowed: &allowed, Line: &line}
	if d.Rule.Line > 0 {
		res.Rule = "disallow: " + d.Rule.Value
		if d.Rule.Allow {
			res.Rule = "allow: " + d.Rule.Value
		}
	}
	return res
}

func writeJSON(w io.Writer, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(checkResult{Error: err.Error()})
	}
	w.Write(append(b, '\n'))
}

// maxCaseLine bounds one -jsonl input line (a body of up to 500 KiB, JSON-escaped, fits).
const maxCaseLine = 16 << 20

type checkCase struct {
	Robots       *string  `json:"robots"`
	RobotsBase64 *string  `json:"robots_base64"`
	RobotsFile   *string  `json:"robots_file"`
	Agent        *string  `json:"agent"`
	Agents       []string `json:"agents"`
	URL          *string  `json:"url"`
	Dialect      string   `json:"dialect"`
}

// checkJSONL streams cases from in to results on out, one line each, in order.
func checkJSONL(in io.Reader, out io.Writer) error {
	br := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriterSize(out, 64<<10)
	defer w.Flush()
	p := &caseParser{files: map[fileKey]*robots.Robots{}}
	for lineNum := 1; ; lineNum++ {
		line, tooLong, err := readLine(br, maxCaseLine)
		if err == io.EOF && len(line) == 0 && !tooLong {
			return nil
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("reading standard input: %w", err)
		}
		if len(bytes.TrimSpace(line)) == 0 && !tooLong {
			if err == io.EOF {
				return nil
			}
			writeJSON(w, checkResult{Error: fmt.Sprintf("line %d: empty line", lineNum)})
			continue
		}
		var res checkResult
		if tooLong {
			res = checkResult{Error: fmt.Sprintf("line %d: longer than %d bytes", lineNum, maxCaseLine)}
		} else {
			res = p.run(line, lineNum)
		}
		writeJSON(w, res)
		if br.Buffered() == 0 {
			w.Flush() // stream: answer what we have before waiting for more input
		}
		if err == io.EOF {
			return nil
		}
	}
}

type fileKey struct {
	path    string
	dialect robots.Dialect
}

// caseParser parses the robots.txt of -jsonl cases, each distinct file once per run and
// a body shared by consecutive cases once.
type caseParser struct {
	files       map[fileKey]*robots.Robots
	lastBody    string
	lastDialect robots.Dialect
	last        *robots.Robots
}

func (p *caseParser) parseBody(body string, d robots.Dialect) *robots.Robots {
	if p.last != nil && body == p.lastBody && d == p.lastDialect {
		return p.last
	}
	p.lastBody, p.lastDialect, p.last = body, d, robots.Parse([]byte(body), robots.WithDialect(d))
	return p.last
}

func (p *caseParser) run(line []byte, lineNum int) checkResult {
	fail := func(format string, args ...any) checkResult {
		return checkResult{Error: fmt.Sprintf("line %d: ", lineNum) + fmt.Sprintf(format, args...)}
	}
	var c checkCase
	if err := json.Unmarshal(line, &c); err != nil {
		return fail("invalid JSON: %v", err)
	}
	if c.URL == nil {
		return fail(`missing field "url"`)
	}
	agents := c.Agents
	if c.Agent != nil {
		agents = append([]string{*c.Agent}, agents...)
	}
	if len(agents) == 0 {
		return fail(`missing field "agent" or "agents"`)
	}
	dialect, err := robots.ParseDialect(c.Dialect)
	if err != nil {
		return fail(`field "dialect": %v`, err)
	}
	var r *robots.Robots
	switch {
	case c.Robots != nil:
		r = p.parseBody(*c.Robots, dialect)
	case c.RobotsBase64 != nil:
		b, err := base64.StdEncoding.DecodeString(*c.RobotsBase64)
		if err != nil {
			return fail(`field "robots_base64": %v`, err)
		}
		r = p.parseBody(string(b), dialect)
	case c.RobotsFile != nil:
		key := fileKey{*c.RobotsFile, dialect}
		var ok bool
		if r, ok = p.files[key]; !ok {
			if *c.RobotsFile == "-" {
				// Standard input holds the cases themselves.
				return fail(`field "robots_file": "-" (standard input) cannot be read with -jsonl, which reads its cases from it; name a file or use "robots"`)
			}
			b, err := readInput(nil, *c.RobotsFile)
			if err != nil {
				return fail(`field "robots_file": cannot read %q: %v`, *c.RobotsFile, err)
			}
			r = robots.Parse(b, robots.WithDialect(dialect))
			p.files[key] = r
		}
	default:
		return fail(`missing field "robots", "robots_base64" or "robots_file"`)
	}
	res := jsonDecision(r.CheckAgents(agents, *c.URL), "")
	return res
}

// readLine reads one line of at most limit bytes. A longer line is consumed to its end
// and reported with tooLong, so that the next line is read correctly.
func readLine(br *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > limit {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return line, tooLong, err
	}
}
