package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/gorobots/robots/census"
	"github.com/gorobots/robots/crawlers"
)

const corpusUsage = `Usage:
	robots corpus [-out DIR] [-format parquet|csv|jsonl] [-agent NAME]... [-purpose P]...
	              [-list FILE] [-index N] [-j N] [-lint=false] [-cacert FILE] [FILE|URL]...

Reads WARC files (.warc or .warc.gz, each record its own gzip member or the whole
file one stream), local or from https:// URLs, and writes one row for each
robots.txt fetch they hold and each crawler: the status recorded and what the
access method of package fetch makes of it (RFC 9309 and Google: 2xx obey the
rules, 4xx allow everything, 429 and 5xx disallow everything, redirects followed
to the records of their targets in the same file, five at most), the file's size,
whether it was cut at 500 KiB or is an HTML page, whether the crawler is blocked
entirely, partly or not at all (open), its purpose in the registry, the usage
preferences stated for it (Content-Usage, Content-Signal), whether the file has an
RSL License line, and the file's lint codes (-lint=false leaves them out, for
speed). docs/corpus.md lists the columns.

The crawlers are the registry's major ones unless -agent or -purpose choose:
-agent names product tokens (repeatable, comma-separated; "all" is the whole
registry), -purpose takes every registry crawler with one of the purposes.

With -out, each input is written to DIR/NAME.FORMAT (NAME is the input's base name
without .warc.gz; inputs of one base name, as crawl-1/x.warc.gz and
crawl-2/x.warc.gz, get a hash of the input as given after it: x-1c3f0a2b), first
under a temporary name then renamed when complete: an input whose output exists is
skipped, so that an interrupted run resumes where it stopped. Without -out, every
row goes to standard output (one Parquet file).
-list reads more inputs from a file, one a line ("-" for standard input); -index N
keeps only the Nth input (from 0) of all given, for one task of a batch job (a
Kubernetes Indexed Job passes $JOB_COMPLETION_INDEX). -j inputs are read at once
(default: as many as cores), each decided on every core. A corrupt or truncated
record is reported on standard error and skipped; the rest of the file is read.
Rows come in the order of each file; the same inputs give the same output.

Exit status: 0 when every input was read (records skipped are reported, not
failures), 2 when an input could not be read or on a usage error.
`

func runCorpus(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("corpus")
	out := fs.String("out", "", "write each input's rows to `DIR`/NAME.FORMAT and skip inputs already written")
	format := fs.String("format", "parquet", "output `format`: parquet, csv or jsonl")
	var agents agentList
	fs.Var(&agents, "agent", "crawler product `NAME` (repeatable, comma-separated; all: the whole registry; default: the major crawlers)")
	var purposes purposeList
	fs.Var(&purposes, "purpose", "every registry crawler with one of these `purposes` (repeatable; comma-separated)")
	list := fs.String("list", "", "read inputs from `FILE`, one a line (- for standard input)")
	index := fs.Int("index", -1, "read only input number `N` (from 0) of all given")
	jobs := fs.Int("j", 0, "inputs read at once (default: the number of cores)")
	lintCodes := fs.Bool("lint", true, "fill the lint column (most of the time a scan takes; -lint=false leaves it empty)")
	cacert := fs.String("cacert", "", "trust the PEM certificates in `FILE` for https:// inputs, besides the system's")
	pos, err := parseArgs(fs, args, e.stdout)
	if err != nil {
		return err
	}
	if !slices.Contains(census.Formats, *format) {
		return usagef("corpus: unknown -format %q (want parquet, csv or jsonl)", *format)
	}
	inputs := pos
	if *list != "" {
		more, err := readList(*list, e.stdin)
		if err != nil {
			return fmt.Errorf("corpus: -list: %w", err)
		}
		inputs = append(inputs, more...)
	}
	if len(inputs) == 0 {
		return usagef("corpus: no WARC file given (see \"robots corpus -h\")")
	}
	// Output names are given over all inputs, before -index keeps one, so that
	// every task of a batch job names its output as a single run would.
	names := outNames(inputs, *format)
	if *index >= 0 {
		if *index >= len(inputs) {
			return usagef("corpus: -index %d, but %d inputs", *index, len(inputs))
		}
		inputs = inputs[*index : *index+1]
		names = names[*index : *index+1]
	}
	chosen, err := chooseCrawlers(agents, purposes)
	if err != nil {
		return err
	}
	client := &http.Client{}
	if *cacert != "" {
		pem, err := os.ReadFile(*cacert)
		if err != nil {
			return fmt.Errorf("corpus: -cacert: %w", err)
		}
		pool, err := x509.SystemCertPool()
		if err != nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return fmt.Errorf("corpus: -cacert %s: no PEM certificate", *cacert)
		}
		client.Transport = &http.Transport{Proxy: http.ProxyFromEnvironment, TLSClientConfig: &tls.Config{RootCAs: pool}}
	}
	if _, set := e.lookupEnv("GOGC"); !set {
		debug.SetGCPercent(census.GCPercent)
	}
	c := &corpusRun{e: e, client: client, cfg: census.Config{Crawlers: chosen, NoLint: !*lintCodes}, format: *format, out: *out}
	return c.run(ctx, inputs, names, *jobs)
}

// chooseCrawlers returns the crawlers the rows are for.
func chooseCrawlers(agents agentList, purposes purposeList) ([]crawlers.Crawler, error) {
	var out []crawlers.Crawler
	seen := map[string]bool{}
	add := func(c crawlers.Crawler) {
		if k := strings.ToLower(c.Name); !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	for _, a := range agents {
		for name := range strings.SplitSeq(a, ",") {
			name = strings.TrimSpace(name)
			switch {
			case name == "":
			case name == "all":
				for _, c := range crawlers.All() {
					add(c)
				}
			default:
				c, ok := crawlers.Lookup(name)
				if !ok {
					c = crawlers.Crawler{Name: name} // not in the registry: no purpose
				}
				add(c)
			}
		}
	}
	for _, c := range crawlers.All() {
		if slices.ContainsFunc(purposes, c.Has) {
			add(c)
		}
	}
	if len(agents) == 0 && len(purposes) == 0 {
		return crawlers.Major(), nil
	}
	if len(out) == 0 {
		return nil, usagef("corpus: -agent and -purpose chose no crawler")
	}
	return out, nil
}

func readList(name string, stdin io.Reader) ([]string, error) {
	var r io.Reader = stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	var out []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out, sc.Err()
}

type corpusRun struct {
	e      *env
	client *http.Client
	cfg    census.Config
	format string
	out    string

	mu       sync.Mutex // guards stderr and the totals
	total    census.Stats
	files    int
	skipped  int // inputs already written
	failed   int
	bar      *progressbar.ProgressBar
	stdoutMu sync.Mutex
}

// run reads inputs, each to its output names[i] under c.out with -out.
func (c *corpusRun) run(ctx context.Context, inputs, names []string, jobs int) error {
	if c.out != "" {
		if err := os.MkdirAll(c.out, 0o755); err != nil {
			return fmt.Errorf("corpus: %w", err)
		}
	}
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	if c.out == "" {
		jobs = 1 // one output stream: the inputs in order
	}
	c.bar = c.progress(inputs)
	var shared census.Writer
	if c.out == "" {
		w, err := census.NewWriter(c.format, c.e.stdout)
		if err != nil {
			return err
		}
		shared = w
	}
	start := time.Now()
	sem := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	written := map[string]bool{}
	for i, in := range inputs {
		if ctx.Err() != nil {
			break
		}
		var dst string
		if c.out != "" {
			dst = filepath.Join(c.out, names[i])
			if written[dst] { // the same input given twice: read once
				c.skipped++
				continue
			}
			written[dst] = true
		}
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			if err := c.input(ctx, in, dst, shared); err != nil {
				c.mu.Lock()
				c.failed++
				fmt.Fprintf(c.e.stderr, "robots corpus: %s: %v\n", in, err)
				c.mu.Unlock()
			}
		})
	}
	wg.Wait()
	if c.bar != nil {
		c.bar.Finish()
		fmt.Fprintln(c.e.stderr)
	}
	if shared != nil {
		if err := shared.Close(); err != nil {
			return fmt.Errorf("corpus: %w", err)
		}
	}
	t := c.total
	fmt.Fprintf(c.e.stderr, "robots corpus: %d inputs read, %d already written, %d failed; %d records, %d robots.txt fetches (%d redirecting out of their file), %d rows, %d records skipped; %.1f MB in %s\n",
		c.files, c.skipped, c.failed, t.Records, t.Robots, t.Unresolved, t.Rows, t.Skipped, float64(t.Bytes)/1e6, time.Since(start).Round(time.Millisecond))
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if c.failed > 0 {
		return exitError{2}
	}
	return nil
}

// progress returns a progress bar over the inputs' bytes when standard error is
// a terminal, else nil.
func (c *corpusRun) progress(inputs []string) *progressbar.ProgressBar {
	f, ok := c.e.stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	var total int64
	for _, in := range inputs {
		if st, err := os.Stat(in); err == nil {
			total += st.Size()
		} else {
			total = -1 // URLs: sizes unknown until fetched
			break
		}
	}
	return progressbar.NewOptions64(total, progressbar.OptionSetWriter(f), progressbar.OptionShowBytes(true),
		progressbar.OptionSetDescription("robots corpus"), progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true))
}

// outNames are the names of the inputs' outputs with -out: the base name of each
// input without .warc.gz, then "." and the format. Inputs of the same base name
// (crawl-1/x.warc.gz and crawl-2/x.warc.gz) are told apart by a hash of the whole
// input as given: x-1c3f0a2b.parquet. The names do not depend on the order of the
// inputs or on -j, so that a resumed run finds what an earlier one wrote; the same
// input given twice gets one name, and is read once.
func outNames(inputs []string, format string) []string {
	bases := make([]string, len(inputs))
	count := map[string]map[string]bool{} // base name → the inputs that have it
	for i, in := range inputs {
		base := in
		if j := strings.IndexAny(base, "?#"); j >= 0 && strings.Contains(base, "://") {
			base = base[:j]
		}
		if j := strings.LastIndexAny(base, "/\\"); j >= 0 {
			base = base[j+1:]
		}
		for _, ext := range []string{".gz", ".warc"} {
			base = strings.TrimSuffix(base, ext)
		}
		if base == "" || base == "." || base == ".." {
			base = "input"
		}
		bases[i] = base
		if count[base] == nil {
			count[base] = map[string]bool{}
		}
		count[base][in] = true
	}
	names := make([]string, len(inputs))
	for i, in := range inputs {
		name := bases[i]
		if len(count[name]) > 1 {
			sum := sha256.Sum256([]byte(in))
			name += "-" + hex.EncodeToString(sum[:4])
		}
		names[i] = name + "." + format
	}
	return names
}

// input reads one WARC file into its output.
// dst is its output file with -out, else "" (rows go to shared).
func (c *corpusRun) input(ctx context.Context, in, dst string, shared census.Writer) error {
	if dst != "" {
		if _, err := os.Stat(dst); err == nil {
			c.mu.Lock()
			c.skipped++
			c.mu.Unlock()
			return nil
		}
	}
	src, err := c.open(ctx, in)
	if err != nil {
		return err
	}
	defer src.Close()
	w, tmp := shared, (*os.File)(nil)
	if dst != "" {
		tmp, err = os.CreateTemp(c.out, ".partial-*")
		if err != nil {
			return err
		}
		defer os.Remove(tmp.Name()) // after the rename, nothing is left to remove
		defer tmp.Close()
		bw := bufio.NewWriterSize(tmp, 1<<20)
		if w, err = census.NewWriter(c.format, bw); err != nil {
			return err
		}
		defer bw.Flush()
		cfg := c.cfg
		if err := c.scan(ctx, src, in, cfg, w); err != nil {
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		if err := tmp.Chmod(0o644); err != nil {
			return err
		}
		if err := tmp.Close(); err != nil {
			return err
		}
		return os.Rename(tmp.Name(), dst)
	}
	// One output for every input: rows are written under a lock.
	return c.scan(ctx, src, in, c.cfg, lockedWriter{w, &c.stdoutMu})
}

type lockedWriter struct {
	w  census.Writer
	mu *sync.Mutex
}

func (l lockedWriter) Write(r *census.Row) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(r)
}

func (l lockedWriter) Close() error { return nil }

func (c *corpusRun) scan(ctx context.Context, src io.Reader, name string, cfg census.Config, w census.Writer) error {
	var last int64
	cfg.Progress = func(n int64) {
		if d := n - last; d > 0 {
			last = n
			if c.bar != nil {
				c.bar.Add64(d)
			}
		}
	}
	cfg.Errors = func(err error) {
		c.mu.Lock()
		defer c.mu.Unlock()
		fmt.Fprintf(c.e.stderr, "robots corpus: skipped: %v\n", err)
	}
	st, err := census.Scan(ctx, src, name, cfg, w.Write)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.files++
	c.total.Records += st.Records
	c.total.Responses += st.Responses
	c.total.Robots += st.Robots
	c.total.Unresolved += st.Unresolved
	c.total.Skipped += st.Skipped
	c.total.Rows += st.Rows
	c.total.Bytes += st.Bytes
	return err
}

// open opens a local file or fetches an http(s) URL.
func (c *corpusRun) open(ctx context.Context, in string) (io.ReadCloser, error) {
	if !strings.HasPrefix(in, "https://") && !strings.HasPrefix(in, "http://") {
		return os.Open(in)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, in, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, errors.New(resp.Status)
	}
	return resp.Body, nil
}
