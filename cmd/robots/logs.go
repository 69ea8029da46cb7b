package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/accesslog"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/counttext"
	"github.com/gorobots/robots/verify"
)

const logsUsage = `Usage:
	robots logs -robots FILE|DIR|SITE [-cache 24h] [-host NAME] [-format text|json|csv]
	            [-verify [-ranges NAME=FILE]... [-offline] [-dns HOST:PORT | -no-dns]] [LOG...]
	robots logs -merge [-format text|json|csv] REPORT.json...

Reads access logs and reports, per known crawler (a token of "robots crawlers" in
the User-Agent), what it did: its requests and their status codes, whether and
when it fetched robots.txt, how many of its requests robots.txt allowed, which it
disallowed (by rule and line, with a few example URLs), and, for a crawler whose
operator says it honours Crawl-delay, the requests that came sooner than the delay
after its previous one.

Logs: Common and Combined Log Format (Apache's and nginx's defaults), and JSON
lines with the field names of Caddy's access log or Cloudflare Logpush, each
plain or gzip-compressed (told by its first bytes); several files are read in
order, standard input when none is given or for "-". Lines are streamed, so memory
stays flat however long the logs. A line that cannot be read (another format,
binary data, over 64 KiB) is skipped, counted and reported with its line number;
a file that ends early (a truncated gzip stream, a binary file) is reported, what
came before counts, and the other files are still read.

-robots says which robots.txt decides:
  FILE  one file, in effect for every request;
  DIR   dated snapshots, each in effect from the time in its name
        (robots-2026-11-20.txt, 2026-11-20T10:30:00Z.txt) until the next; requests
        before the first are not judged;
  SITE  the live file, fetched now (a URL or host, as "robots fetch" takes it).
After a change, a crawler may keep the file it had for -cache (24h, RFC 9309
§2.4): a request the new file disallows but the old one allowed within that time
is counted as "allowed by cache", never as a violation. -host keeps only the
requests of one site when the log names hosts (JSON logs).

-verify checks who made each crawler's requests (package verify): the operator's
IP-range lists (fetched and cached, or local files with -ranges, only those with
-offline) and forward-confirmed reverse DNS (-dns picks the server, -no-dns turns
it off). Each crawler is then reported per identity: verified, impostor (every
method the operator documents was available and said no) or cannot-tell (no
method, or one could not answer: never counted as an impostor). An impostor's
requests are reported, and are not the crawler's violations. Addresses are
verified once each; logs hold no signature headers, except JSON logs that record
request headers.

Crawl-delay is checked between consecutive requests of a crawler within one log
file, and counted only when the gap, even at the log's time resolution (a second
in Common Log Format), is shorter than the delay.

Merging: "robots logs -format json" writes a report that is also a partial result.
-merge adds up such reports (made with the same -robots files and settings) into
the report of all their logs, the same as one run over the logs in that order, so
a week of logs from many servers can be read one task per file and combined.

Formats: text (the default), json (the report: "crawlers", one object per crawler,
with "rules", "status", "addresses"; "files", "skipped_lines", the totals
"violations" and "impostors"), csv (one line per crawler). Progress is shown on
standard error when it is a terminal.

Exit status: 1 when a crawler made requests robots.txt disallowed or came faster
than the Crawl-delay it honours, or a request was shown to come from an impostor;
0 when none did; 2 when a log or report could not be read to its end (reported,
and the others are still read), or on a usage error.
`

func runLogs(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("logs")
	robotsArg := fs.String("robots", "", "the robots.txt: a `FILE`, a directory of dated snapshots, or a site to fetch")
	lifetime := fs.Duration("cache", accesslog.DefaultLifetime, "how long a crawler may keep a replaced robots.txt (`duration`; 0 for none)")
	host := fs.String("host", "", "only requests for this host `NAME`, when the log names hosts")
	merge := fs.Bool("merge", false, "the arguments are JSON reports of robots logs to add up")
	examples := fs.Int("examples", accesslog.DefaultExamples, fmt.Sprintf("example URLs per disallowing rule (at most %d)", accesslog.MaxExamples))
	timeout := fs.Duration("timeout", 10*time.Second, "whole-fetch `timeout` of a live robots.txt")
	var vf verifyFlags
	vf.define(fs)
	var dialect robots.Dialect
	dialectFlag(fs, &dialect)
	format := formatFlag(fs, formatText, formatJSON, "csv")
	jsonAlias(fs, format)
	pos, err := parseArgs(fs, args, e.stdout)
	if err != nil {
		return err
	}
	if *examples < 1 || *examples > accesslog.MaxExamples {
		return usagef("logs: -examples must be 1 to %d", accesslog.MaxExamples)
	}
	if *lifetime < 0 {
		return usagef("logs: -cache must not be negative")
	}
	var rep *accesslog.Report
	failed := false
	if *merge {
		if vf.on || len(vf.lists) > 0 {
			return usagef("logs: -merge adds up reports, which were verified or not when made: no -verify")
		}
		if *robotsArg != "" {
			return usagef("logs: -merge reads reports, which name their robots.txt: no -robots")
		}
		if len(pos) == 0 {
			return usagef("logs: -merge needs the reports to merge (see \"robots logs -h\")")
		}
		rep, err = mergeReports(pos)
		if err != nil {
			return err
		}
	} else {
		if *robotsArg == "" {
			return usagef("logs: -robots is required: a file, a directory of dated snapshots, or a site (see \"robots logs -h\")")
		}
		tl, err := logsTimeline(ctx, e, *robotsArg, dialect, *timeout)
		if err != nil {
			return err
		}
		cfg := accesslog.Config{Robots: tl, Lifetime: *lifetime, Examples: *examples, Host: strings.ToLower(*host)}
		if cfg.Verify, err = vf.verifier(ctx, e); err != nil {
			return err
		}
		if *lifetime == 0 {
			cfg.Lifetime = -1
		}
		if rep, failed, err = readLogs(ctx, e, cfg, pos); err != nil {
			return err
		}
	}
	w := bufio.NewWriter(e.stdout)
	switch *format {
	case formatJSON:
		writeIndented(w, rep)
	case "csv":
		writeLogsCSV(w, rep)
	default:
		writeLogsText(w, rep)
	}
	return finish(w, failed, rep.Found())
}

// logsTimeline reads -robots: a file, a directory of snapshots, or a site.
func logsTimeline(ctx context.Context, e *env, arg string, dialect robots.Dialect, timeout time.Duration) (accesslog.Timeline, error) {
	opt := robots.WithDialect(dialect)
	if st, err := os.Stat(arg); err == nil {
		if st.IsDir() {
			tl, err := accesslog.Snapshots(arg, opt)
			if err != nil {
				return nil, usagef("logs: -robots %v", err)
			}
			return tl, nil
		}
		body, capped, err := readInput(e.stdin, arg)
		if err != nil {
			return nil, err
		}
		if capped {
			fmt.Fprintf(e.stderr, "robots: logs: warning: %s is longer than a robots.txt can be; its first %d bytes are read\n", arg, len(body))
		}
		return accesslog.Timeline{accesslog.NewVersion(arg, time.Time{}, body, opt)}, nil
	}
	if !strings.Contains(arg, ".") && !strings.Contains(arg, ":") {
		return nil, usagef("logs: -robots %s: no such file or directory, nor a site", arg)
	}
	u, err := siteArg(e, "logs", []string{arg}, "", nil)
	if err != nil {
		return nil, err
	}
	res, err := fetch.NewClient(fetch.Config{Dialect: dialect, Timeout: timeout}).Fetch(ctx, u)
	if err != nil {
		return nil, usagef("logs: -robots %v", err)
	}
	switch res.Effect {
	case fetch.DisallowAll:
		return nil, fmt.Errorf("logs: %s is unreachable now (%s): it cannot tell what it allowed", res.RobotsURL, res.Outcome)
	case fetch.AllowAll:
		fmt.Fprintf(e.stderr, "robots: logs: %s answered %d: everything is allowed\n", res.RobotsURL, res.Status)
	}
	fmt.Fprintf(e.stderr, "robots: logs: the live %s decides every request, whatever its time\n", res.RobotsURL)
	return accesslog.Timeline{accesslog.NewVersion(res.RobotsURL, time.Time{}, []byte(res.Body), opt)}, nil
}

// logsMemoryLimit is the soft memory limit of robots logs (runtime/debug).
const logsMemoryLimit = 160 << 20

// readLogs reads the logs named (standard input for none or "-") into one report;
// failed says that some log could not be read to its end.
func readLogs(ctx context.Context, e *env, cfg accesslog.Config, names []string) (*accesslog.Report, bool, error) {
	if len(names) == 0 {
		names = []string{"-"}
	}
	// Every structure of the analysis is bounded (package accesslog's limits): its
	// live heap stays under about 130 MiB with the worst mix of crawlers, and a
	// soft limit keeps the garbage collector from letting the process grow to twice
	// that (peak RSS 193 MiB without it, 139 MiB with 128 MiB: bench/cmd/logsbench
	// -mix adversarial). GOMEMLIMIT, when set, wins.
	if _, set := e.lookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(logsMemoryLimit)
	}
	a := accesslog.NewAnalyzer(cfg)
	bar := newLogsProgress(e, names)
	failed := false
	for _, name := range names {
		var in io.Reader = e.stdin
		if name != "-" {
			f, err := os.Open(name)
			if err != nil {
				fmt.Fprintf(e.stderr, "robots: logs: %v\n", err)
				failed = true
				continue
			}
			defer f.Close()
			in = f
		}
		if bar != nil {
			in = io.TeeReader(in, bar)
			bar.Describe(name)
		}
		if err := a.Read(ctx, name, in); err != nil {
			if ctx.Err() != nil {
				return nil, false, ctx.Err()
			}
			fmt.Fprintf(e.stderr, "robots: logs: %s: %v\n", name, err)
			failed = true
		}
	}
	if bar != nil {
		bar.Finish()
		bar.Clear()
	}
	return a.Report(), failed, nil
}

// newLogsProgress returns a bar of the bytes read on standard error when it is a
// terminal, or nil. The total is the size of the files (a spinner for standard
// input). A library rather than a hand-written line: a byte bar with its rate and
// time left, redrawn at most a few times a second, is what progressbar is for.
func newLogsProgress(e *env, names []string) *progressbar.ProgressBar {
	f, ok := e.stderr.(*os.File)
	if !ok {
		return nil
	}
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	total := int64(0)
	for _, n := range names {
		st, err := os.Stat(n)
		if n == "-" || err != nil || !st.Mode().IsRegular() {
			total = -1
			break
		}
		total += st.Size()
	}
	return progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(f),
		progressbar.OptionShowBytes(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetPredictTime(true),
	)
}

func mergeReports(names []string) (*accesslog.Report, error) {
	reps := make([]*accesslog.Report, 0, len(names))
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, fmt.Errorf("logs: %w", err)
		}
		var r accesslog.Report
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			return nil, fmt.Errorf("logs: -merge %s: not a report of robots logs -format json: %v", n, err)
		}
		reps = append(reps, &r)
	}
	rep, err := accesslog.Merge(reps...)
	if err != nil {
		return nil, fmt.Errorf("logs: -merge: %w", err)
	}
	return rep, nil
}

func utc(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05Z") }

// verifyFlags are the flags of verification: package verify's Options.
type verifyFlags struct {
	on             bool
	lists          map[string]string
	offline, noDNS bool
	dns            string
}

func (f *verifyFlags) define(fs *flag.FlagSet) {
	fs.BoolVar(&f.on, "verify", false, "verify who made each crawler's requests: IP-range lists, reverse DNS")
	f.lists = map[string]string{}
	fs.Func("ranges", "use a local range list: `NAME=FILE`, NAME a crawler's token or a list's URL (repeatable)", func(v string) error {
		name, file, ok := strings.Cut(v, "=")
		if !ok || name == "" || file == "" {
			return errors.New("want NAME=FILE")
		}
		f.lists[name] = file
		return nil
	})
	fs.BoolVar(&f.offline, "offline", false, "with -verify, fetch no range list: only those of -ranges are used")
	fs.BoolVar(&f.noDNS, "no-dns", false, "with -verify, no reverse DNS")
	fs.StringVar(&f.dns, "dns", "", "with -verify, the DNS server to ask (`HOST:PORT`; default the system's)")
}

// verifier returns the VerifyFunc the flags ask for, or nil without -verify.
func (f *verifyFlags) verifier(ctx context.Context, e *env) (accesslog.VerifyFunc, error) {
	if !f.on {
		if len(f.lists) > 0 || f.offline || f.noDNS || f.dns != "" {
			return nil, usagef("logs: -ranges, -offline, -no-dns and -dns go with -verify")
		}
		return nil, nil
	}
	opts := verify.Options{Lists: f.lists, Offline: f.offline, NoDNS: f.noDNS}
	if f.dns != "" {
		if _, _, err := net.SplitHostPort(f.dns); err != nil {
			return nil, usagef("logs: -dns %s: want HOST:PORT", f.dns)
		}
		addr := f.dns
		opts.Resolver = &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		}}
	}
	v, err := verify.New(opts)
	if err != nil {
		return nil, usagef("logs: %v", err)
	}
	if err := v.Refresh(ctx); err != nil && !f.offline {
		// A list not loaded makes its crawlers "cannot tell", never impostors.
		fmt.Fprintf(e.stderr, "robots: logs: warning: some range lists could not be loaded; their crawlers count as cannot-tell where DNS does not decide: %v\n",
			strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	return accesslog.Verifier(v), nil
}

func writeLogsText(w io.Writer, rep *accesslog.Report) {
	switch len(rep.Robots) {
	case 0:
	case 1:
		fmt.Fprintf(w, "robots.txt  %s\n", rep.Robots[0].Name)
	default:
		fmt.Fprintf(w, "robots.txt  %d snapshots, %s (%s) to %s (%s); a crawler may keep a replaced file %s\n",
			len(rep.Robots), rep.Robots[0].Name, utc(rep.Robots[0].Since), rep.Robots[len(rep.Robots)-1].Name,
			utc(rep.Robots[len(rep.Robots)-1].Since), time.Duration(rep.CacheLifetime*float64(time.Second)))
	}
	fmt.Fprintf(w, "read        %s, %s: %s requests, %s by known crawlers",
		counttext.Plural(len(rep.Files), "file", "files"), counttext.Plural(int(rep.Lines), "line", "lines"), counttext.Thousands(int(rep.Records)), counttext.Thousands(int(rep.Crawler)))
	if rep.OtherHost > 0 {
		fmt.Fprintf(w, ", %s for other hosts than %s left out", counttext.Thousands(int(rep.OtherHost)), rep.Host)
	}
	fmt.Fprintln(w)
	if rep.Skipped > 0 {
		var by []string
		for _, k := range slices.Sorted(mapsKeys(rep.SkippedBy)) {
			by = append(by, fmt.Sprintf("%s %s", k, counttext.Thousands(int(rep.SkippedBy[k]))))
		}
		fmt.Fprintf(w, "skipped     %s (%s)\n", counttext.Plural(int(rep.Skipped), "line", "lines"), strings.Join(by, ", "))
		for _, s := range rep.SkippedLines {
			fmt.Fprintf(w, "            %s line %d: %s\n", s.File, s.Line, s.Error)
		}
	}
	for _, f := range rep.Files {
		if f.Error != "" {
			fmt.Fprintf(w, "unfinished  %s: %s (the %s before count)\n", f.Name, f.Error, counttext.Plural(int(f.Lines), "line", "lines"))
		}
	}
	verdict := "no violations"
	if rep.Violations > 0 {
		verdict = counttext.Plural(int(rep.Violations), "violation", "violations")
	}
	if rep.Verification {
		verdict += ", " + counttext.Plural(int(rep.Impostors), "request by an impostor", "requests by impostors")
	}
	fmt.Fprintf(w, "found       %s\n", verdict)
	for _, r := range rep.Ordered() {
		fmt.Fprintln(w)
		name := r.Crawler
		if r.Operator != "" {
			name += " (" + r.Operator + ")"
		}
		switch r.Identity {
		case accesslog.Impostor:
			name += " IMPOSTOR: not who it claims"
		case accesslog.Verified:
			name += ", verified"
		case accesslog.CannotTell:
			name += ", identity cannot be told"
		}
		if r.Identity != "" && r.Method+r.Detail != "" {
			name += " (" + strings.Trim(r.Method+": "+r.Detail, ": ") + ")"
		}
		fmt.Fprintln(w, name)
		switch r.Stance {
		case "ignores":
			fmt.Fprintln(w, "  documented as not obeying robots.txt")
		case "user-triggered":
			fmt.Fprintln(w, "  fetches what a person asks for; its operator says robots.txt may not apply")
		}
		fmt.Fprintf(w, "  %s from %s to %s", counttext.Plural(int(r.Requests), "request", "requests"), utc(r.First), utc(r.Last))
		var addrs []string
		for _, a := range r.Addresses {
			addrs = append(addrs, a.Value)
		}
		fmt.Fprintf(w, ", from %s\n", strings.Join(addrs, ", "))
		if r.RobotsFetches == 0 {
			fmt.Fprintln(w, "  robots.txt never fetched")
		} else {
			fmt.Fprintf(w, "  robots.txt fetched %s, first %s, last %s\n", counttext.Plural(int(r.RobotsFetches), "time", "times"), utc(r.RobotsFirst), utc(r.RobotsLast))
		}
		fmt.Fprintf(w, "  allowed %s", counttext.Thousands(int(r.Allowed)))
		if r.AllowedByCache > 0 {
			fmt.Fprintf(w, ", allowed by a file it may have cached %s", counttext.Thousands(int(r.AllowedByCache)))
		}
		fmt.Fprintf(w, ", disallowed %s", counttext.Thousands(int(r.Disallowed)))
		if r.NotJudged > 0 {
			fmt.Fprintf(w, ", not judged %s (no robots.txt known then, or no URL)", counttext.Thousands(int(r.NotJudged)))
		}
		fmt.Fprintln(w)
		for _, rc := range r.Rules {
			where := fmt.Sprintf("line %d", rc.Line)
			if len(rep.Robots) > 1 {
				where = rc.Robots + " " + where
			}
			fmt.Fprintf(w, "    %s %s: %s", where, rc.Rule, counttext.Plural(int(rc.Requests), "request", "requests"))
			if len(rc.Examples) > 0 {
				var ex []string
				for _, s := range rc.Examples {
					ex = append(ex, s.Value)
				}
				fmt.Fprintf(w, ", e.g. %s", strings.Join(ex, " "))
			}
			fmt.Fprintln(w)
		}
		if r.OtherRules > 0 {
			fmt.Fprintf(w, "    other rules: %s\n", counttext.Plural(int(r.OtherRules), "request", "requests"))
		}
		if r.CrawlDelay > 0 && r.HonoursCrawlDelay {
			fmt.Fprintf(w, "  Crawl-delay %gs, which it honours: %s sooner\n", r.CrawlDelay, counttext.Plural(int(r.TooFast), "request", "requests"))
		}
		fmt.Fprintf(w, "  status %s\n", statusText(r.Status))
	}
}

func mapsKeys(m map[string]int64) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func statusText(m map[string]int64) string {
	var parts []string
	for _, k := range slices.Sorted(mapsKeys(m)) {
		parts = append(parts, fmt.Sprintf("%s %s", k, counttext.Thousands(int(m[k]))))
	}
	return strings.Join(parts, ", ")
}

// logsCSVHeader are the columns of -format csv: one line per crawler (and identity).
var logsCSVHeader = []string{"crawler", "operator", "robots_stance", "identity", "requests", "first", "last", "robots_fetches",
	"robots_first", "robots_last", "allowed", "allowed_by_cache", "disallowed", "not_judged", "crawl_delay",
	"too_fast", "violations", "rules", "status"}

func writeLogsCSV(w io.Writer, rep *accesslog.Report) {
	cw := csv.NewWriter(w)
	cw.Write(logsCSVHeader)
	ts := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format(time.RFC3339)
	}
	n := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, r := range rep.Crawlers {
		var rules []string
		for _, rc := range r.Rules {
			rules = append(rules, fmt.Sprintf("%s:%d %s (%d)", rc.Robots, rc.Line, rc.Rule, rc.Requests))
		}
		var st []string
		for _, k := range slices.Sorted(mapsKeys(r.Status)) {
			st = append(st, fmt.Sprintf("%s=%d", k, r.Status[k]))
		}
		cw.Write([]string{r.Crawler, r.Operator, r.Stance, r.Identity, n(r.Requests), ts(r.First), ts(r.Last), n(r.RobotsFetches),
			ts(r.RobotsFirst), ts(r.RobotsLast), n(r.Allowed), n(r.AllowedByCache), n(r.Disallowed), n(r.NotJudged),
			strconv.FormatFloat(r.CrawlDelay, 'g', -1, 64), n(r.TooFast), n(r.Violations()), strings.Join(rules, "; "),
			strings.Join(st, " ")})
	}
	cw.Flush()
}
