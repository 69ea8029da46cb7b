// Package serve is the robots.txt service: one HTTP server that answers crawler
// fleets' questions ("may Googlebot fetch this URL?") from one shared cache of
// robots.txt files, and offers site owners a web page to test their files.
//
// # API
//
// Every answer is JSON; errors are {"error": "..."} with a status that says whose
// fault it is (400 bad input, 401 missing token, 403 refused target, 413 too large,
// 502/504 when no decision could be made at all).
//
//	GET  /v1/check?agent=NAME&url=URL   one decision; agent may repeat (one crawler, several tokens)
//	POST /v1/check                      {"agent": "...", "urls": [...]}: decisions in request order
//	GET  /v1/robots?url=URL             the origin's fetch outcome, groups, sitemaps and fields
//	POST /v1/lint                       a robots.txt body: the lint findings
//	POST /v1/audit                      {"url": ..., "agents": [...]}: a site's sitemap URLs decided (package audit)
//	GET  /v1/history?url=URL            the versions of the origin's robots.txt the store keeps and what each changed (history.go)
//	GET  /healthz, GET /readyz          liveness; readiness (503 while the cache store is unreachable)
//	ANY  /v1/gate                       with Config.Gate: forward-auth for reverse proxies (gate.go, docs/gate.md)
//	GET  /v1/gate-report                the per-crawler report of the gate's decisions
//	GET  /metrics                       Prometheus metrics
//	GET  /openapi.json                  this API in OpenAPI 3.1 (openapi.json)
//	GET  /, POST /                      the web tester (see page.go: Fetch and Test, its bounds;
//	                                    auditpage.go: "Audit a site", its picture)
//
// Decisions follow the access method of package [fetch]: the origin's robots.txt is
// fetched once, cached (in process, and in the client's store: a bbolt file or a
// Redis shared between replicas), and its status decides what applies.
//
// # Safety
//
// The server fetches URLs its callers name, so by default it refuses to connect to
// loopback, private, link-local and other special addresses (see
// [github.com/gorobots/robots/internal/netguard]): the check runs on the address
// actually dialled, for every redirect hop. Request bodies (their size and pace),
// batch sizes (URLs, and URLs × crawlers), every answer (MaxAnswerBytes: past it,
// 413), the connections open at once and every connection's time are bounded by
// the Config limits, and checks, lints and robots.txt answers are admitted
// MaxBatches at once (admit.go), each spending at most CPUBudget of CPU time and
// stopping when its client leaves (work.go: a batch answers which URLs it decided,
// which not and why); so are the robots.txt files
// one batch holds (BatchMaxBytes: past it, the batch's other URLs answer 413) and
// the web tester's answers (MaxPageAgents crawlers, PageMaxCells verdicts,
// PageMaxFileBytes of pasted file, PageMaxBytes of HTML: past them, 413). An audit reads at most the
// Config.Audit limits (a request may ask for less), MaxAudits run at once, and its
// sitemap requests dial through the same guard. With Tokens, the tester's Fetch and
// audit need a token as the API does; its Test, which fetches nothing, does not.
package serve

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"runtime"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/net/netutil"
	"golang.org/x/sync/semaphore"

	"github.com/gorobots/robots/audit"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/gate"
	"github.com/gorobots/robots/internal/defaults"
	"github.com/gorobots/robots/internal/netguard"
)

// Limits and defaults. Each can be changed in Config; the zero value of a Config
// field means the default.
const (
	// DefaultAddr is loopback: the server fetches URLs for its callers, so it is
	// not exposed to a network unless asked to be.
	DefaultAddr = "127.0.0.1:8080"

	// DefaultMaxBodyBytes bounds a request body. The largest legitimate one is the
	// tester's diff form: two robots.txt files of up to 500 KiB each, form-encoded
	// (up to three bytes per byte), plus a URL list.
	DefaultMaxBodyBytes = 4 << 20

	// DefaultMaxURLs bounds the URLs of one batch check and of one tester form, so
	// that one request cannot hold the server for long.
	DefaultMaxURLs = 10_000

	// DefaultMaxAgents bounds the agents of one request.
	DefaultMaxAgents = 100

	// DefaultBatchFetches bounds the origins one batch request fetches at once; the
	// fetch client bounds fetches across all requests as well.
	DefaultBatchFetches = 16

	// DefaultBatchMaxBytes bounds the robots.txt files one batch request holds while
	// it is answered: the results it looked up (fetched, or loaded from the store),
	// counted as the heap they hold once the batch has decided with them (batchHeld:
	// the rule sets its crawlers' decisions build, and for another dialect the file
	// parsed again; TestBatchHeld: 0.98-1.02x the heap). Files the fetch client
	// holds already when the batch starts are not counted: its -memory bounds them.
	// Past the budget the batch looks up no more origins: their URLs answer with an
	// error of status 413. 64 MiB holds some ten thousand typical files but only
	// some tens of the largest (500 KiB, kept as fetched and as parsed); a batch of
	// 10,000 new origins serving 500 KiB each held 5.19 GB without it. With DefaultMaxBatches,
	// batches hold at most 4 GiB at once.
	DefaultBatchMaxBytes = 64 << 20

	// DefaultMaxBatches bounds the checks (GET and POST /v1/check), lints (POST
	// /v1/lint) and GET /v1/robots being answered at once, each from the start of its
	// work (its body read, see admit.go) to the last byte written. Each answer is at
	// most MaxAnswerBytes, so that 64 hold at most 512 MiB of answers even when their
	// clients never read them (each is held until WriteTimeout). Past it a request is
	// answered 503 with Retry-After at once; the tester, audits (MaxAudits), /healthz
	// and /metrics are not counted.
	DefaultMaxBatches = 64

	// DefaultMaxAnswerBytes bounds one answer of the API: past it the answer is 413,
	// naming the limit. A batch of 10,000 URLs of 300 bytes for one crawler answers
	// about 4.5 MB; a robots.txt of 255,000 bad lines answered 22 MB (GET /v1/robots)
	// and 49.5 MB (POST /v1/lint), and a batch for 100 crawlers 469 MB.
	DefaultMaxAnswerBytes = 8 << 20

	// DefaultMaxDecisions bounds the decisions of one batch: its URLs times its
	// crawlers (each answered apart). 10,000 URLs for 10 crawlers; 100 crawlers for
	// 10,000 URLs was 469 MB of answer.
	DefaultMaxDecisions = 100_000

	// DefaultCheckTimeout bounds how long a request waits for robots.txt files. It is
	// longer than the fetch client's whole-fetch timeout, so that a fetch normally
	// ends with an outcome (a hanging origin is "unreachable"); past it the answer is
	// 504.
	DefaultCheckTimeout = fetch.DefaultTimeout + 5*time.Second

	// Timeouts of every client connection: a slow or idle client cannot hold one
	// open. A new connection has ReadHeaderTimeout to send its first request's
	// header, and an idle one IdleTimeout to send its next (nginx's keepalive_timeout
	// is 75 s); a request's body must come within ReadTimeout, and at MinBodyRate.
	ReadHeaderTimeout = 10 * time.Second
	ReadTimeout       = 30 * time.Second
	IdleTimeout       = 60 * time.Second

	// DefaultMaxConns bounds the client connections open at once; past it, new
	// connections wait in the listener's queue until one closes. It is kept below
	// half the process's limit of open files (see Open), so that robots.txt fetches,
	// the store and the logs always have files: 20,500 idle connections took every
	// file of a process limited to 20,480 ("accept4: too many open files").
	DefaultMaxConns = 10_000

	// DefaultShutdownTimeout bounds Close's wait for requests in progress.
	DefaultShutdownTimeout = 10 * time.Second
)

// Config configures a Server.
type Config struct {
	// Addr is the address to listen on (DefaultAddr when empty); ":0" picks a port.
	Addr string
	// Fetch configures the server's fetch client: timeouts, limits, and its Store of
	// fetched robots.txt files (a bbolt file, a Redis shared by replicas, or when nil
	// a fetch.MemoryStore). Unless set here, the server dials through netguard (see
	// AllowPrivate) and, when guarded, sets AddrCheck to netguard's rule; the
	// Observer is always the server's metrics, and Proxy, unless set, fetch.NoProxy.
	Fetch fetch.Config
	// AllowPrivate lets the server fetch from loopback, private, link-local and the
	// other addresses netguard refuses. Without it the client dials through
	// netguard.Dialer, and literal addresses in URLs are refused before any fetch.
	AllowPrivate bool
	// TLSCertFile and TLSKeyFile, both or neither, make the server answer HTTPS only
	// (TLS 1.2 and later, HTTP/2), with the certificate chain and private key in these
	// PEM files. The files are read again when they change, so a renewed certificate
	// is served without a restart; one that does not load is logged and the previous
	// one kept.
	TLSCertFile, TLSKeyFile string
	// Hosts, when not empty, are the names the server answers to: a request whose
	// Host header names another is answered 421 (a name in Addr counts as one). On a
	// loopback listener loopback names are answered as well.
	Hosts []string
	// Tokens, when not empty, are the bearer tokens the API accepts. /healthz,
	// /metrics and the web tester's Test stay open; the tester's Fetch needs a token
	// in its form (it fetches and fills the shared cache as the API does).
	Tokens []string
	// Logger receives one line per failed request and the server's life events;
	// nil discards them.
	Logger *slog.Logger
	// AccessLog, when not nil, receives one line per request at level Info: method,
	// path and query, status, bytes written, duration, client address, User-Agent.
	AccessLog *slog.Logger
	// Registry receives the server's metrics; nil makes a new one, served at /metrics.
	Registry *prometheus.Registry
	// Gate, when not nil, serves the robots.txt gate (gate.go): its Registerer
	// and Logger are the server's, and unless it has a Client, its robots.txt
	// files are fetched by a client of their own with the Fetch limits, allowed
	// to reach the sites' origins wherever they are (the operator names them; no
	// request does).
	Gate *gate.Config

	MaxBodyBytes   int64         // DefaultMaxBodyBytes
	MaxURLs        int           // DefaultMaxURLs
	MaxAgents      int           // DefaultMaxAgents
	BatchFetches   int           // DefaultBatchFetches
	BatchMaxBytes  int64         // DefaultBatchMaxBytes: robots.txt files one batch holds
	MaxBatches     int           // DefaultMaxBatches: checks, lints and robots.txt answers at once
	MaxAnswerBytes int           // DefaultMaxAnswerBytes: one answer of the API
	MaxDecisions   int           // DefaultMaxDecisions: URLs × crawlers of one batch
	CPUBudget      time.Duration // DefaultCPUBudget: CPU time of one API request's or tester Test's work (work.go)
	// DecideCores bounds the cores the API's checks and lints decide on, all
	// together (work.go): by default one fewer than GOMAXPROCS, at least one, so
	// that requests whose decisions are costly leave a core to /healthz, and hold the
	// memory of only so many decisions at once. Audits have AuditCores.
	DecideCores     int
	MinBodyRate     int           // DefaultMinBodyRate: request body bytes a second, after BodyGrace
	MaxConns        int           // DefaultMaxConns, at most half the limit of open files: client connections at once
	FileWorkBytes   int           // DefaultFileWorkBytes: robots.txt bytes linted or described at once
	CheckTimeout    time.Duration // DefaultCheckTimeout
	WriteTimeout    time.Duration // CheckTimeout plus ten seconds
	ShutdownTimeout time.Duration // DefaultShutdownTimeout
	PageMaxCells    int           // DefaultPageMaxCells: URLs × crawlers of one tester form
	PageMaxBytes    int           // DefaultPageMaxBytes: HTML of one tester page

	// Audit holds the most one audit (POST /v1/audit, the tester's audit mode) may
	// read and take; a request may ask for less. Zero fields take the defaults:
	// DefaultAuditSitemaps, DefaultAuditURLs, sitemaps.org's 50,000 URLs and 50 MiB
	// per file, audit.DefaultMaxDepth, DefaultAuditTime.
	Audit     audit.Limits
	MaxAudits int // DefaultMaxAudits: audits run at once
	// AuditCores bounds the cores the running audits spend deciding URLs, all
	// together (audit.Config.Cores): by default one fewer than GOMAXPROCS, at least
	// one, so that audits of files of thousands of rules leave a core to /healthz
	// and the API.
	AuditCores       int
	AuditMaxExamples int // audit.DefaultMaxExamples: example URLs of one audit's report
}

// Server is the HTTP service. Create it with New, start it with Open, stop it
// with Close. The package keeps no mutable state of its own: caches, buffer pools
// and metrics belong to each Server, so tests run many at once.
type Server struct {
	cfg     Config
	client  *fetch.Client
	others  otherReadings // the other reading of fetched files that state usage (verdict.go)
	log     *slog.Logger
	metrics *metrics
	batches chan struct{} // one per admitted request being answered (admit.go)
	audits  chan struct{} // one per audit running (admitAudit)
	// auditCores is shared by the running audits: they decide URLs holding a unit.
	auditCores *semaphore.Weighted
	// decideCores is shared by the API's checks and lints: they decide holding a unit.
	decideCores *semaphore.Weighted
	// fileWork counts the bytes of robots.txt files being linted or described.
	fileWork *semaphore.Weighted
	sitemap  *http.Client // audits' sitemap requests
	buffers  bufferPool
	page     *template.Template
	logsPage *template.Template // the tester's logs page (logs.go)
	handler  http.Handler
	certs    *certFiles // with TLSCertFile and TLSKeyFile
	ln       net.Listener
	srv      *http.Server
	done     chan error
	codec    batchCodec // handCodec; BenchmarkBatchCodec swaps in encoding/json's
	gate     *gate.Gate // with Config.Gate
}

// New checks cfg and returns a server that is not yet listening.
func New(cfg Config) (*Server, error) {
	// A field zero or below takes its default.
	cfg.Addr = cmp.Or(cfg.Addr, DefaultAddr)
	cfg.MaxBodyBytes = defaults.Or(cfg.MaxBodyBytes, DefaultMaxBodyBytes)
	cfg.MaxURLs = defaults.Or(cfg.MaxURLs, DefaultMaxURLs)
	cfg.MaxAgents = defaults.Or(cfg.MaxAgents, DefaultMaxAgents)
	cfg.BatchFetches = defaults.Or(cfg.BatchFetches, DefaultBatchFetches)
	cfg.BatchMaxBytes = defaults.Or(cfg.BatchMaxBytes, DefaultBatchMaxBytes)
	cfg.MaxBatches = defaults.Or(cfg.MaxBatches, DefaultMaxBatches)
	cfg.MaxAnswerBytes = defaults.Or(cfg.MaxAnswerBytes, DefaultMaxAnswerBytes)
	cfg.MaxDecisions = defaults.Or(cfg.MaxDecisions, DefaultMaxDecisions)
	cfg.CPUBudget = defaults.Or(cfg.CPUBudget, DefaultCPUBudget)
	cfg.FileWorkBytes = defaults.Or(cfg.FileWorkBytes, DefaultFileWorkBytes)
	cfg.MaxConns = defaults.Or(cfg.MaxConns, DefaultMaxConns)
	cfg.MinBodyRate = defaults.Or(cfg.MinBodyRate, DefaultMinBodyRate)
	cfg.CheckTimeout = defaults.Or(cfg.CheckTimeout, DefaultCheckTimeout)
	cfg.WriteTimeout = defaults.Or(cfg.WriteTimeout, cfg.CheckTimeout+10*time.Second)
	cfg.ShutdownTimeout = defaults.Or(cfg.ShutdownTimeout, DefaultShutdownTimeout)
	cfg.PageMaxCells = defaults.Or(cfg.PageMaxCells, DefaultPageMaxCells)
	cfg.PageMaxBytes = defaults.Or(cfg.PageMaxBytes, DefaultPageMaxBytes)
	cfg.MaxAudits = defaults.Or(cfg.MaxAudits, DefaultMaxAudits)
	cfg.AuditCores = defaults.Or(cfg.AuditCores, max(1, runtime.GOMAXPROCS(0)-1))
	cfg.DecideCores = defaults.Or(cfg.DecideCores, max(1, runtime.GOMAXPROCS(0)-1))
	cfg.Audit = cfg.Audit.Or(defaultAuditLimits())
	for _, t := range cfg.Tokens {
		if t == "" {
			return nil, errors.New("serve: empty bearer token")
		}
	}
	s := &Server{cfg: cfg, log: cfg.Logger, codec: handCodec, batches: make(chan struct{}, cfg.MaxBatches),
		audits: make(chan struct{}, cfg.MaxAudits), fileWork: semaphore.NewWeighted(int64(cfg.FileWorkBytes)),
		auditCores: semaphore.NewWeighted(int64(cfg.AuditCores)), decideCores: semaphore.NewWeighted(int64(cfg.DecideCores))}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	reg := cfg.Registry
	if reg == nil {
		reg = prometheus.NewRegistry()
	}
	var err error
	if (cfg.TLSCertFile == "") != (cfg.TLSKeyFile == "") {
		return nil, errors.New("serve: a TLS certificate and its key go together: give both files or neither")
	}
	if cfg.TLSCertFile != "" {
		if s.certs, err = loadCertFiles(cfg.TLSCertFile, cfg.TLSKeyFile, s.log); err != nil {
			return nil, err
		}
	}
	if s.metrics, err = newMetrics(reg); err != nil {
		return nil, fmt.Errorf("serve: metrics: %w", err)
	}
	if s.page, err = parsePage(); err != nil {
		return nil, fmt.Errorf("serve: templates: %w", err)
	}
	if s.logsPage, err = parseLogsPage(); err != nil {
		return nil, fmt.Errorf("serve: templates: %w", err)
	}
	fc := &s.cfg.Fetch
	if fc.Store == nil {
		fc.Store = fetch.NewMemoryStore(0)
	}
	if fc.DialContext == nil {
		fc.DialContext = netguard.Dialer(cfg.AllowPrivate).DialContext
	}
	if fc.Proxy == nil {
		// The guarded dialer must see the address of every origin, not a proxy's.
		fc.Proxy = fetch.NoProxy
	}
	if !cfg.AllowPrivate && fc.AddrCheck == nil {
		// A replica started with AllowPrivate may share the store: what it fetched
		// from a refused address must not be served here. Literal addresses in URLs
		// are refused by the same rule before any fetch.
		fc.AddrCheck = func(ap netip.AddrPort) error { return netguard.Check(ap.Addr()) }
	}
	fc.Observer = s.metrics.observer()
	s.client = fetch.NewClient(*fc)
	s.sitemap = newSitemapClient(s.cfg)
	for _, c := range clientMetrics(s.client) {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("serve: metrics: %w", err)
		}
	}
	if hc, ok := fc.Store.(fetch.HealthChecker); ok {
		if err := reg.Register(storeUp(hc)); err != nil {
			return nil, fmt.Errorf("serve: metrics: %w", err)
		}
	}
	if cfg.Gate != nil {
		if s.gate, err = s.newGate(*cfg.Gate, reg); err != nil {
			return nil, err
		}
	}
	s.handler = s.sameOrigin(s.routes(reg))
	if cfg.AccessLog != nil {
		s.handler = accessLog(cfg.AccessLog, s.handler)
	}
	return s, nil
}

// StoreHealth reports whether the cache store is usable: nil for a store in
// process memory or one that cannot tell (see fetch.HealthChecker), else the
// store's own report (a Redis store: whether every node answers, without waiting
// on nodes known to be down). While it is not usable the server still answers,
// from memory and by fetching.
func (s *Server) StoreHealth(ctx context.Context) error {
	if hc, ok := s.cfg.Fetch.Store.(fetch.HealthChecker); ok {
		return hc.Health(ctx)
	}
	return nil
}

// Client returns the server's fetch client.
func (s *Server) Client() *fetch.Client { return s.client }

// Handler returns the server's routes, for use without Open (or behind another mux).
func (s *Server) Handler() http.Handler { return s.handler }

// Open binds the listener and starts serving in the background. Once it returns,
// Addr is the bound address and requests are accepted.
func (s *Server) Open() error {
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	conns := s.cfg.MaxConns
	if fl := fileLimit(); fl > 0 && conns > fl/2 {
		s.log.Warn("fewer client connections than asked: the process may open only so many files", "max_conns", fl/2, "asked", conns, "file_limit", fl)
		conns = fl / 2
	}
	s.ln = netutil.LimitListener(ln, conns)
	s.srv = &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      s.cfg.WriteTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	serveLn := s.srv.Serve
	if s.certs != nil {
		s.srv.TLSConfig = s.certs.tlsConfig()
		serveLn = func(ln net.Listener) error { return s.srv.ServeTLS(ln, "", "") }
	}
	s.done = make(chan error, 1)
	go func() {
		err := serveLn(s.ln)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		s.done <- err
	}()
	s.log.Info("listening", "addr", ln.Addr().String())
	return nil
}

// Addr returns the address the server listens on, once Open has succeeded.
func (s *Server) Addr() string {
	if s.ln == nil {
		return ""
	}
	return s.ln.Addr().String()
}

// Close stops accepting connections and waits up to ShutdownTimeout for requests
// in progress; then it closes the remaining connections.
func (s *Server) Close() error {
	if s.srv == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if err != nil {
		s.srv.Close()
	}
	if serr := <-s.done; err == nil {
		err = serr
	}
	s.log.Info("stopped", "addr", s.ln.Addr().String())
	return err
}
