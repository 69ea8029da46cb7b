package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/audit"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/fetch/boltstore"
	"github.com/gorobots/robots/fetch/redisstore"
	"github.com/gorobots/robots/serve"
	"github.com/gorobots/robots/sitemap"
)

const serveUsage = `Usage:
	robots serve [-addr 127.0.0.1:8080] [-data DIR | -redis URL] [flags]

Serve robots.txt decisions over HTTP (JSON) and a web tester at /. Files fetched
are cached in a bbolt file under -data (decisions survive a restart without
refetching), or in Redis with -redis (replicas sharing one Redis, or one Redis
Cluster, fetch each origin once while it is fresh). While Redis is unreachable the
server answers from memory and by fetching, and uses Redis again once it is back.

API:
	GET  /v1/check?agent=NAME&url=URL   (one crawler; repeat agent only with
	                                     merge_agents=true: one crawler, several tokens)
	POST /v1/check  {"agent": "NAME", "urls": ["https://...", ...]}
	GET  /v1/robots?url=URL
	POST /v1/lint   (body: a robots.txt file)
	POST /v1/audit  {"url": "https://example.com", "agents": [...]}: the sitemaps' URLs
	                decided for each crawler (robots audit -format json), within -audit-*
	                (?format=csv: the per-URL verdicts, robots audit -format csv's columns)
	POST /v1/logs   {"robots": "...", "log": "..."}: an access-log excerpt judged against
	                robots.txt (robots logs -format json); the tester's page is /logs
	GET  /v1/history?url=URL[&version=N][&agent=NAME...]: the versions of the origin's
	                robots.txt the store keeps (the last 20, 2 MiB of files, per origin),
	                each with when it was fetched and what it changed for which crawlers
	GET  /healthz (liveness), GET /readyz (503 while the store is unreachable)
	GET  /metrics, GET /openapi.json (the API in OpenAPI 3.1)
	GET  /debug/pprof/ (Go's profiles) on the -debug-addr listener only, when given
	ANY  /v1/gate, GET /v1/gate-report: the robots.txt gate, with -gate-site (below)

By default the server refuses to fetch from loopback, private, link-local and
other special addresses, checked on every address it dials; -allow-private lifts
that for local use. With -tls-cert and -tls-key it answers HTTPS only, and serves a
renewed certificate as soon as its files change. Stops gracefully on SIGINT or
SIGTERM.
` + gateHelp + `
` + envRule + `
Exit status: 0 after a graceful stop on SIGINT or SIGTERM, 2 when the server cannot
start (a bad flag, a store that cannot be opened, an address in use) or fails.
`

func runServe(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("serve")
	var cfg serve.Config
	addServeFlags(fs, &cfg)
	data := fs.String("data", "", "data `directory` of the embedded store (default: robots-serve in the user cache directory)")
	dataMax := fs.Int64("data-max-bytes", boltstore.DefaultMaxBytes, "`bytes` of the embedded store's file: past 3/4 of it, expired then least recently used entries are evicted; past it, the file is compacted")
	redisURL := fs.String("redis", "", "share the cache in Redis at `URL` instead of the embedded store: redis://HOST:PORT/N for one server, redis://HOST1:PORT1?addr=HOST2:PORT2&addr=HOST3:PORT3 for a Redis Cluster, with master_name=NAME for Sentinel")
	hosts := fs.String("hosts", "", "comma-separated `names` the server answers to; a request addressed to another is answered 421 (default: any on a public listener, loopback names on a loopback one)")
	tokenFile := fs.String("token-file", "", "require a bearer token from `FILE` (one per line) for the API and the web tester's Fetch")
	logFormat := fs.String("log", "text", "log `format`: text or json (then every line the server prints is a JSON object)")
	verbose := fs.Bool("v", false, "log every request failure, not only server errors")
	accessLog := fs.Bool("access-log", false, "log one line per request (method, path, status, bytes, duration, client)")
	gateF := addGateFlags(fs)
	debugAddr := fs.String("debug-addr", "", "serve Go's profiles (net/http/pprof) at /debug/pprof/ on a second listener at `address` (off by default; keep it private: profiles show the server's internals)")
	args, err := parseArgs(fs, args, e.stdout)
	if err != nil {
		return err
	}
	envErr := flagsFromEnv(fs, e.lookupEnv)

	logs, err := newServeLogs(e.stderr, *logFormat, *verbose)
	if err != nil {
		return err
	}
	log, life, fail, jsonOnly := logs.log, logs.life, logs.fail, logs.json
	if jsonOnly {
		// Whatever a library writes through the standard log package is JSON too.
		defer slog.SetDefault(slog.Default())
		slog.SetDefault(log)
	}
	if envErr != nil {
		return fail(usagef("serve: %v", envErr))
	}
	if len(args) > 0 {
		return fail(usagef("serve: unexpected argument %q", args[0]))
	}
	if *data != "" && *redisURL != "" {
		return fail(usagef("serve: -data and -redis are exclusive: give one store"))
	}
	if *dataMax < boltstore.MinMaxBytes {
		return fail(usagef("serve: -data-max-bytes %d: want at least %d (4 MiB)", *dataMax, boltstore.MinMaxBytes))
	}
	gateCfg, verifier, err := gateF.config()
	if err != nil {
		return fail(usagef("serve: %v", err))
	}
	if verifier != nil {
		// The range lists load in the background; until a list is loaded its
		// crawlers are "cannot tell", never impostors.
		go func() {
			if err := verifier.Refresh(ctx); err != nil {
				log.Warn("gate: range lists not loaded", "err", err)
			}
		}()
	}
	var access *slog.Logger
	if *accessLog {
		access = slog.New(logs.handler(slog.LevelInfo))
	}

	var tokens []string
	if *tokenFile != "" {
		var err error
		if tokens, err = readTokens(*tokenFile); err != nil {
			return fail(usagef("serve: %v", err))
		}
	}

	store, storeName, closeStore, err := openStore(*data, *dataMax, *redisURL, log)
	if err != nil {
		return fail(err)
	}
	defer closeStore()

	cfg.Hosts, cfg.Tokens, cfg.Logger, cfg.AccessLog, cfg.Gate = splitList(*hosts), tokens, log, access, gateCfg
	cfg.Fetch.Store = store
	cfg.CheckTimeout = cfg.Fetch.Timeout + 5*time.Second
	srv, err := serve.New(cfg)
	if err != nil {
		return fail(err)
	}
	if err := srv.Open(); err != nil {
		return fail(err)
	}
	if *debugAddr != "" {
		stop, err := serveProfiles(*debugAddr, logs, e.stderr)
		if err != nil {
			srv.Close()
			return fail(err)
		}
		defer stop()
	}
	// Always say where the server is, whatever the log level: the address may come from :0.
	scheme := "http"
	if cfg.TLSCertFile != "" {
		scheme = "https"
	}
	if jsonOnly {
		life.Info("serving", "url", scheme+"://"+srv.Addr(), "store", storeName)
	} else {
		fmt.Fprintf(e.stderr, "robots serve: listening on %s://%s (store: %s)\n", scheme, srv.Addr(), storeName)
	}
	<-ctx.Done()
	if jsonOnly {
		life.Info("shutting down")
	} else {
		fmt.Fprintln(e.stderr, "robots serve: shutting down")
	}
	return fail(srv.Close())
}

// profiles returns the handler of -debug-addr: Go's runtime profiles, as
// net/http/pprof serves them, and nothing else (not the API, which stays on -addr).
// serveProfiles serves Go's profiles at addr (-debug-addr), on a listener of its
// own, and says where; stop closes it.
func serveProfiles(addr string, logs serveLogs, stderr io.Writer) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("serve: -debug-addr: %w", err)
	}
	debug := &http.Server{Handler: profiles(), ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(logs.log.Handler(), slog.LevelWarn)}
	go debug.Serve(ln)
	if logs.json {
		logs.life.Info("profiles", "url", "http://"+ln.Addr().String()+"/debug/pprof/")
	} else {
		fmt.Fprintf(stderr, "robots serve: profiles on http://%s/debug/pprof/\n", ln.Addr())
	}
	return func() { debug.Close() }, nil
}

// serveLogs are the server's loggers: log for what -v asks, life for the lines the
// server always prints (where it listens, that it stops), whatever the level.
type serveLogs struct {
	log, life *slog.Logger
	handler   func(slog.Level) slog.Handler // -log's format at a level
	json      bool                          // -log json: every line is a JSON object
}

func newServeLogs(w io.Writer, format string, verbose bool) (serveLogs, error) {
	level := slog.LevelWarn
	if verbose {
		level = slog.LevelInfo
	}
	var l serveLogs
	switch format {
	case "text":
		l.handler = func(lv slog.Level) slog.Handler { return slog.NewTextHandler(w, &slog.HandlerOptions{Level: lv}) }
	case "json":
		l.handler = func(lv slog.Level) slog.Handler { return slog.NewJSONHandler(w, &slog.HandlerOptions{Level: lv}) }
		l.json = true
	default:
		return l, usagef("serve: -log %q: want text or json", format)
	}
	l.log, l.life = slog.New(l.handler(level)), slog.New(l.handler(slog.LevelInfo))
	return l, nil
}

// fail reports an error the way the log does: under -log json, main's plain
// "robots: ..." line would be the one line that is not JSON.
func (l serveLogs) fail(err error) error {
	if err == nil || !l.json {
		return err
	}
	l.life.Error(err.Error())
	return exitError{code: 2}
}

// addServeFlags defines the flags that set cfg's fields, each with cfg's default:
// the address and its safety, the limits of requests and audits, and the fetch
// client's. runServe adds the store, the logs, the tokens and the gate.
func addServeFlags(fs *flag.FlagSet, cfg *serve.Config) {
	fs.StringVar(&cfg.Addr, "addr", serve.DefaultAddr, "`address` to listen on")
	fs.BoolVar(&cfg.AllowPrivate, "allow-private", false, "allow fetching from loopback, private and link-local addresses")
	fs.StringVar(&cfg.TLSCertFile, "tls-cert", "", "answer HTTPS only, with the certificate chain in PEM `FILE` (with -tls-key; read again when it changes)")
	fs.StringVar(&cfg.TLSKeyFile, "tls-key", "", "private key in PEM `FILE` of -tls-cert")
	fc := &cfg.Fetch
	fs.DurationVar(&fc.Timeout, "timeout", fetch.DefaultTimeout, "whole-fetch `timeout` of a robots.txt")
	fs.DurationVar(&fc.ConnectTimeout, "connect-timeout", fetch.DefaultConnectTimeout, "`timeout` of each connection and TLS handshake")
	fs.IntVar(&fc.MaxBytes, "max-bytes", robots.DefaultMaxBytes, "robots.txt `bytes` read and parsed (at least 500 KiB)")
	fs.StringVar(&fc.UserAgent, "user-agent", fetch.DefaultUserAgent, "User-Agent `header` of robots.txt requests")
	fs.IntVar(&fc.MaxInFlight, "max-inflight", fetch.DefaultMaxInFlight, "robots.txt fetches at once, across all requests")
	fs.Int64Var(&fc.RulesMemory, "memory", 256<<20, "`bytes` of parsed robots.txt files kept in memory")
	fs.IntVar(&cfg.MaxURLs, "max-urls", serve.DefaultMaxURLs, "URLs of one batch request")
	fs.Int64Var(&cfg.MaxBodyBytes, "max-body", serve.DefaultMaxBodyBytes, "`bytes` of one request body")
	fs.IntVar(&cfg.BatchFetches, "batch-fetches", serve.DefaultBatchFetches, "origins one batch request fetches at once")
	fs.Int64Var(&cfg.BatchMaxBytes, "batch-max-bytes", serve.DefaultBatchMaxBytes, "`bytes` of robots.txt files one batch request holds; past it, its other origins answer 413")
	fs.IntVar(&cfg.MaxBatches, "max-batches", serve.DefaultMaxBatches, "checks (GET and POST /v1/check), lints and GET /v1/robots answered at once; past it, 503 with Retry-After")
	fs.DurationVar(&cfg.CPUBudget, "cpu-budget", serve.DefaultCPUBudget, "CPU `time` one check, batch, lint or tester's Test may spend; past it, a batch answers the URLs it decided and \"stopped\": \"cpu-budget\" (the others error_status 413), a single check or lint 413, the tester the verdicts it made")
	fs.IntVar(&cfg.MaxAnswerBytes, "max-answer-bytes", serve.DefaultMaxAnswerBytes, "`bytes` of one answer of the API; past it, 413")
	fs.IntVar(&cfg.MaxDecisions, "max-decisions", serve.DefaultMaxDecisions, "URLs times crawlers of one batch request; past it, 413")
	fs.IntVar(&cfg.MinBodyRate, "min-body-rate", serve.DefaultMinBodyRate, "`bytes` a second a request body must come at, after its first 5 s; slower, 408")
	fs.IntVar(&cfg.FileWorkBytes, "file-work-bytes", serve.DefaultFileWorkBytes, "`bytes` of robots.txt files linted, described (GET /v1/robots) or tested at once; past it, 503 with Retry-After (a larger file, 413)")
	fs.IntVar(&cfg.MaxConns, "max-conns", serve.DefaultMaxConns, "client connections open at once (at most half the process's limit of open files); past it, new ones wait")
	fs.IntVar(&cfg.MaxAudits, "max-audits", serve.DefaultMaxAudits, "audits (POST /v1/audit and the tester's) run at once; past it, 503 with Retry-After")
	fs.IntVar(&cfg.DecideCores, "decide-cores", 0, "cores the API's checks and lints decide on, all together (0: one fewer than GOMAXPROCS, at least one)")
	fs.IntVar(&cfg.AuditCores, "audit-cores", 0, "cores the running audits spend deciding URLs, all together (0: one fewer than GOMAXPROCS, at least one)")
	al := &cfg.Audit
	fs.IntVar(&al.Sitemaps, "audit-max-sitemaps", serve.DefaultAuditSitemaps, "sitemap files one audit fetches, at most")
	fs.IntVar(&al.URLs, "audit-max-urls", serve.DefaultAuditURLs, "sitemap URLs one audit reads, at most")
	fs.IntVar(&al.FileURLs, "audit-max-file-urls", sitemap.MaxURLs, "URLs read of one sitemap file (sitemaps.org's limit)")
	fs.Int64Var(&al.FileBytes, "audit-max-file-bytes", sitemap.MaxBytes, "`bytes` read of one sitemap file, uncompressed (sitemaps.org's limit)")
	fs.IntVar(&al.Depth, "audit-max-depth", audit.DefaultMaxDepth, "nesting of sitemap indexes one audit follows")
	fs.IntVar(&al.Nesting, "audit-max-nesting", sitemap.MaxDepth, "XML element nesting read in one sitemap file; deeper, the file is invalid")
	fs.DurationVar(&al.Time, "audit-timeout", serve.DefaultAuditTime, "`time` of one audit; the answer reports what was read by then")
	fs.IntVar(&cfg.AuditMaxExamples, "audit-max-examples", audit.DefaultMaxExamples, "example URLs of one audit's report, all rules together")
}

func profiles() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index) // the named profiles too: heap, goroutine, allocs, block, mutex, threadcreate
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// readTokens reads bearer tokens, one per line; blank lines and lines starting
// with # are skipped.
func readTokens(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		t := strings.TrimSpace(sc.Text())
		if t != "" && !strings.HasPrefix(t, "#") {
			out = append(out, t)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("token file %s: %w", path, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("token file %s has no token", path)
	}
	return out, nil
}

// openStore opens the cache store: Redis when redisURL is set, else a bbolt file in
// dataDir (or the default data directory).
func openStore(dataDir string, dataMax int64, redisURL string, log *slog.Logger) (fetch.Store, string, func(), error) {
	if redisURL != "" {
		rdb, err := redisstore.NewClient(redisURL)
		if err != nil {
			return nil, "", nil, usagef("serve: -redis %q: %v", redisURL, err)
		}
		// go-redis logs every failed dial itself; the store logs an outage once, and
		// these lines show with -v.
		redis.SetLogger(redisLogger{log})
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := rdb.Ping(ctx).Err(); err != nil {
			rdb.Close()
			return nil, "", nil, fmt.Errorf("serve: redis at %s: %w", redisURL, err)
		}
		kind := "redis "
		if _, ok := rdb.(*redis.ClusterClient); ok {
			kind = "redis cluster "
		}
		return redisstore.New(rdb, redisstore.WithLogger(log)), kind + redisURL, func() { rdb.Close() }, nil
	}
	if dataDir == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return nil, "", nil, fmt.Errorf("serve: no data directory: %v (give -data DIR)", err)
		}
		dataDir = filepath.Join(dir, "robots-serve")
	}
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return nil, "", nil, fmt.Errorf("serve: data directory: %w", err)
	}
	path := filepath.Join(dataDir, "cache.bolt")
	st, err := boltstore.Open(path, boltstore.WithMaxBytes(dataMax))
	if errors.Is(err, boltstore.ErrLocked) {
		return nil, "", nil, fmt.Errorf("serve: the store %s is in use by another process (another robots serve?): "+
			"give this server its own store with -data DIR, or share one cache between servers with -redis URL", path)
	}
	if err != nil {
		return nil, "", nil, fmt.Errorf("serve: %w", err)
	}
	return st, "bbolt " + path, func() { st.Close() }, nil
}

// redisLogger passes go-redis's own log lines to the server's logger, at level Info.
type redisLogger struct{ log *slog.Logger }

func (l redisLogger) Printf(ctx context.Context, format string, v ...any) {
	l.log.InfoContext(ctx, fmt.Sprintf(format, v...), "component", "go-redis")
}

// splitList splits a comma-separated flag into its non-empty items.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
