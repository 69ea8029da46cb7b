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
	"reflect"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/internal/verdictjson"
	"github.com/gorobots/robots/internal/weburl"
	"github.com/gorobots/robots/signals"
)

const checkUsage = `Usage:
	robots check -robots FILE -agent NAME [-agent NAME]... URL...
	robots check -agent NAME [-format text|json|jsonl] [-timeout 10s] URL...
	robots check -cases FILE        (- for standard input)

Decides whether each crawler may fetch each URL, and prints one verdict per crawler
per URL: the verdict, the crawler, the URL and the deciding rule with its line
("line 12: Disallow: /private/"), or "no rule matched".

With -robots, decide from FILE ("-" reads standard input). Without it, fetch each
URL's /robots.txt as a crawler would (status codes, redirects, size limit; origins
fetched -concurrency at a time) and decide.

Each -agent is one crawler, named by its product token ("Googlebot"). With
-merge-agents, the -agent names are one crawler that obeys every group naming any
of them (Google's reading for a crawler with several tokens, such as
Googlebot-Image and Googlebot). A whole User-Agent header or a token with a version
("Googlebot/2.1") matches no group: check says so and names the token to use.

URLs are read as a browser reads what a person types (WHATWG URL): the host in
punycode, the path and query percent-encoded ("/café" is requested as
"/caf%C3%A9"), and the verdict is for that URL; check says when it encoded one.
An absolute path ("/a?b") is accepted with -robots. Anything else ("search",
"mailto:x@y") is an error naming it; the other URLs are still decided.

-dialect picks the interpretation: google (the default), rfc9309, legacy1996 or
legacy1994 (see "go doc github.com/gorobots/robots Dialect"). Without -robots it
picks the status policy too: legacy1996 reads 401 and 403 as "disallow all",
follows up to 20 redirects and keeps a file 7 days without cache headers; rfc9309
keeps a file at most 24 hours whatever Cache-Control says; the others follow Google.

Formats: text (tab-separated columns), json (one object: "results", a verdict per
crawler per URL, and "warnings"), jsonl (one verdict per line; warnings on standard
error). A verdict is
	{"url": "https://example.com/x", "agent": "FooBot", "allowed": false,
	 "rule": "Disallow: /x", "line": 2}
with "rule" null and "line" 0 when no rule matched, "input" (the URL as given) when
it differs from "url" (encoded, or surrounding spaces trimmed), and "error" instead of a
verdict for a URL that could not be decided. Without -robots, a verdict also has
"robots" (the fetch of its origin's robots.txt, see "robots fetch -format json").
Where the file states usage preferences (Content-Usage, Content-Signal), a verdict
gives those that apply to the URL ("usage"), and says when Google's reading and RFC
9309's with draft-ietf-aipref-attach give the crawler other ones ("readings"), with
-robots and against a fetched site alike.
With -robots, a file over 500 KiB is read as crawlers read it, to its first 512,000
bytes (check reads at most 2,048,000 bytes of a file): check warns where reading
stopped and why, and the json document has "cut": {"line", "bytes_read",
"file_bytes", "message"} ("file_bytes" null when check stopped first).

With -cases FILE ("-" for standard input), read the cases from FILE, JSON objects
one per line:
	{"robots": "...", "agent": "FooBot", "url": "https://example.com/x"}
with "robots_base64" or "robots_file" (a path; each file is read once) instead of
"robots", "agents" (an array: one crawler with several tokens) instead of "agent",
and "dialect" to pick an interpretation. Unknown fields are ignored. Writes one
verdict per input line (jsonl), in order, or {"input_line": N, "error": "..."} for a bad
line; the verdict of a case whose file crawlers read only in part has its "cut".
-jsonl, its old name, still means -cases - (deprecated: -format jsonl is the output
format, -cases the input).

Exit status: 0 when every URL is allowed for every crawler, 1 when some URL is
disallowed for some crawler, 2 when some URL or case could not be decided (it is
reported, and the others are still decided) or on a usage error.
`

// dialectFlag defines the -dialect flag shared by the subcommands that decide.
func dialectFlag(fs *flag.FlagSet, d *robots.Dialect) {
	fs.Func("dialect", "interpretation: google (default), rfc9309, legacy1996 or legacy1994", func(v string) (err error) {
		*d, err = robots.ParseDialect(v)
		return err
	})
}

type checkFlags struct {
	robotsFile  string
	agents      agentList
	merge       bool
	cases       string
	format      string
	timeout     time.Duration
	concurrency int
	dialect     robots.Dialect
}

// crawlers returns the crawlers asked about: each -agent alone, or all of them as one
// with -merge-agents.
func (f *checkFlags) crawlers() [][]string {
	if f.merge {
		return [][]string{f.agents}
	}
	out := make([][]string, len(f.agents))
	for i, a := range f.agents {
		out[i] = []string{a}
	}
	return out
}

func runCheck(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("check")
	var f checkFlags
	fs.StringVar(&f.robotsFile, "robots", "", "robots.txt `FILE` to decide from (- for standard input)")
	fs.Var(&f.agents, "agent", "crawler product `NAME` (repeatable: one verdict per crawler)")
	fs.BoolVar(&f.merge, "merge-agents", false, "treat the -agent names as one crawler that obeys each of them")
	fs.StringVar(&f.cases, "cases", "", "read JSON cases, one per line, from `FILE` (- for standard input); write a verdict per line")
	fs.BoolFunc("jsonl", "deprecated: same as -cases -", func(v string) error {
		if v == "true" {
			f.cases = "-"
		}
		return nil
	})
	format := formatFlag(fs, formatText, formatJSON, formatJSONL)
	jsonAlias(fs, format)
	fs.DurationVar(&f.timeout, "timeout", 10*time.Second, "whole-fetch `timeout` when fetching robots.txt")
	fs.IntVar(&f.concurrency, "concurrency", 8, "origins fetched at once without -robots")
	dialectFlag(fs, &f.dialect)
	urls, err := parseArgs(fs, args, e.stdout)
	if err != nil {
		return err
	}
	f.format = *format
	if f.cases != "" {
		if len(urls) > 0 || f.robotsFile != "" || len(f.agents) > 0 {
			return usagef("check: -cases takes its cases from FILE only: no -robots, -agent or URL")
		}
		in := e.stdin
		if f.cases != "-" {
			fh, err := os.Open(f.cases)
			if err != nil {
				return fmt.Errorf("check: %w", err)
			}
			defer fh.Close()
			in = fh
		}
		return checkJSONL(in, e.stdout)
	}
	if len(f.agents) == 0 {
		return usagef("check: -agent is required (see \"robots check -h\")")
	}
	if len(urls) == 0 {
		return usagef("check: no URL given (see \"robots check -h\")")
	}
	if f.concurrency < 1 {
		return usagef("check: -concurrency must be at least 1")
	}
	if f.robotsFile == "" {
		return checkRemote(ctx, e, &f, urls)
	}
	body, capped, err := readInput(e.stdin, f.robotsFile)
	if err != nil {
		return err
	}
	r := robots.Parse(body, robots.WithDialect(f.dialect))
	out := newVerdictWriter(e, f.format)
	out.warnAgents(f.agents)
	out.warnBody(f.robotsFile, body)
	if out.cut = cutOf(f.robotsFile, r, len(body), capped); out.cut != nil {
		out.warn("%s", out.cut.Message)
	}
	other := signals.OtherReading(r, string(body))
	crawlers := f.crawlers()
	for _, raw := range urls {
		u, err := weburl.Encode(raw)
		if err != nil {
			out.fail(raw, err)
			continue
		}
		out.verdicts(raw, u, crawlers, r, nil, other)
	}
	return out.close()
}

// maxInputFile bounds a robots.txt read from a file or standard input: four times the
// parse limit, so that "file too large" can still be reported with the file's size.
const maxInputFile = 4 * robots.DefaultMaxBytes

// readInput reads a robots.txt file; "-" is standard input. capped says that the
// file goes on past maxInputFile bytes, which are all it returns.
func readInput(stdin io.Reader, name string) (body []byte, capped bool, err error) {
	var rd io.Reader
	if name == "-" {
		rd = stdin
	} else {
		fh, err := os.Open(name)
		if err != nil {
			return nil, false, err
		}
		defer fh.Close()
		rd = fh
	}
	body, err = io.ReadAll(io.LimitReader(rd, maxInputFile+1))
	if len(body) > maxInputFile {
		body, capped = body[:maxInputFile], true
	}
	return body, capped, err
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

// checkJSONL streams cases from in to verdicts on out, one line each, in order. The
// exit status follows the contract: 2 if any line was not a valid case, else 1 if any
// URL was disallowed.
func checkJSONL(in io.Reader, out io.Writer) error {
	br := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriterSize(out, 64<<10)
	p := &caseParser{files: map[fileKey]parsedCase{}}
	failed, disallowed := false, false
	for lineNum := 1; ; lineNum++ {
		line, tooLong, err := readLine(br, maxCaseLine)
		if err == io.EOF && len(line) == 0 && !tooLong {
			break
		}
		if err != nil && err != io.EOF {
			w.Flush()
			return fmt.Errorf("check: reading the cases: %w", err)
		}
		if len(bytes.TrimSpace(line)) == 0 && !tooLong {
			if err == io.EOF {
				break
			}
			failed = true
			writeJSONLine(w, errorJSON{InputLine: lineNum, Error: "empty line"})
			continue
		}
		var res any
		if tooLong {
			res = errorJSON{InputLine: lineNum, Error: fmt.Sprintf("longer than %d bytes", maxCaseLine)}
		} else {
			res = p.run(line, lineNum)
		}
		switch v := res.(type) {
		case errorJSON:
			failed = true
		case verdictJSON:
			disallowed = disallowed || !v.Allowed
		}
		writeJSONLine(w, res)
		if br.Buffered() == 0 {
			w.Flush() // stream: answer what we have before waiting for more input
		}
		if err == io.EOF {
			break
		}
	}
	return finish(w, failed, disallowed)
}

type fileKey struct {
	path    string
	dialect robots.Dialect
}

// caseParser parses the robots.txt of -jsonl cases, each distinct file once per run and
// a body shared by consecutive cases once.
type caseParser struct {
	files       map[fileKey]parsedCase
	lastBody    string
	lastDialect robots.Dialect
	last        parsedCase
}

// parsedCase is a case's file parsed, and where crawlers stop reading it (nil when
// they read all of it).
type parsedCase struct {
	r   *robots.Robots
	cut *cutJSON
}

// parseBody parses the body of a case's field (named for the cut's message).
func (p *caseParser) parseBody(field, body string, d robots.Dialect) parsedCase {
	if p.last.r != nil && body == p.lastBody && d == p.lastDialect {
		return p.last
	}
	r := robots.ParseString(body, robots.WithDialect(d))
	p.lastBody, p.lastDialect, p.last = body, d, parsedCase{r, cutOf(`field "`+field+`"`, r, len(body), false)}
	return p.last
}

func (p *caseParser) run(line []byte, lineNum int) any {
	fail := func(format string, args ...any) errorJSON {
		return errorJSON{InputLine: lineNum, Error: fmt.Sprintf(format, args...)}
	}
	var c checkCase
	if err := json.Unmarshal(line, &c); err != nil {
		return fail("%s", jsonProblem(err))
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
	u, err := weburl.Encode(*c.URL)
	if err != nil {
		return fail(`field "url": %v`, err)
	}
	dialect, err := robots.ParseDialect(c.Dialect)
	if err != nil {
		return fail(`field "dialect": %v`, err)
	}
	var pc parsedCase
	switch {
	case c.Robots != nil:
		pc = p.parseBody("robots", *c.Robots, dialect)
	case c.RobotsBase64 != nil:
		b, err := base64.StdEncoding.DecodeString(*c.RobotsBase64)
		if err != nil {
			return fail(`field "robots_base64": %v`, err)
		}
		pc = p.parseBody("robots_base64", string(b), dialect)
	case c.RobotsFile != nil:
		if *c.RobotsFile == "-" {
			// Standard input holds the cases themselves.
			return fail(`field "robots_file": "-" (standard input) cannot be used with -cases: name the file`)
		}
		key := fileKey{*c.RobotsFile, dialect}
		var ok bool
		if pc, ok = p.files[key]; !ok {
			b, capped, err := readInput(nil, *c.RobotsFile)
			if err != nil {
				return fail(`field "robots_file": %v`, err)
			}
			r := robots.Parse(b, robots.WithDialect(dialect))
			pc = parsedCase{r, cutOf(*c.RobotsFile, r, len(b), capped)}
			p.files[key] = pc
		}
	default:
		return fail(`missing field "robots", "robots_base64" or "robots_file"`)
	}
	r := pc.r
	d, usage := r.CheckUsage(agents, u)
	v := verdictJSON{Verdict: verdictjson.Verdict{URL: u, Agent: agentName(agents), Decision: d,
		Usage: usageJSON(usage)}, Cut: pc.cut}
	if encoded(*c.URL, u) {
		v.Input = *c.URL
	}
	return v
}

// jsonProblem words a JSON decoding error for people: the field and what was
// wanted, never a Go type name.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		want := "a string"
		switch te.Type.Kind() {
		case reflect.Slice:
			want = "an array of strings"
		case reflect.Struct, reflect.Map:
			want = "an object"
		}
		if te.Field == "" {
			return fmt.Sprintf("want a JSON object, got %s", te.Value)
		}
		return fmt.Sprintf("field %q: want %s, got %s", te.Field, want, te.Value)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("invalid JSON at byte %d: %v", se.Offset, err)
	}
	return "invalid JSON: " + err.Error()
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
