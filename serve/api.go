package serve

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/netguard"
)

// MaxURLBytes bounds one URL in a request: far above any URL a crawler keeps
// (Google's reference parser and most browsers stop near 2 KiB), low enough that a
// batch of DefaultMaxURLs of them stays within memory a server can spare.
const MaxURLBytes = 16 << 10

// MaxAgentBytes bounds one agent name; product tokens are a few dozen bytes.
const MaxAgentBytes = 256

// httpError is an error with the status it should be answered with.
type httpError struct {
	code int
	msg  string
}

func (e *httpError) Error() string { return e.msg }

func errorf(code int, format string, args ...any) error {
	return &httpError{code: code, msg: fmt.Sprintf(format, args...)}
}

// statusOf picks the answer's status for err: the caller's fault (4xx) where it is,
// 504 when the robots.txt could not be had in time, 502 for any other failure to
// reach a decision.
func statusOf(err error) int {
	var he *httpError
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &he):
		return he.code
	case errors.As(err, &mbe):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, netguard.ErrRefused):
		return http.StatusForbidden
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusGatewayTimeout
	}
	return http.StatusBadGateway
}

var jsonType = []string{"application/json"}

func (s *Server) routes(reg *prometheus.Registry) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /v1/check", s.api("check", s.handleCheck))
	mux.Handle("POST /v1/check", s.api("batch", s.handleBatch))
	mux.Handle("GET /v1/robots", s.api("robots", s.handleRobots))
	mux.Handle("POST /v1/lint", s.api("lint", s.handleLint))
	mux.Handle("/v1/", s.api("unknown", func(r *http.Request) ([]byte, error) {
		return nil, errorf(http.StatusNotFound, "no API endpoint %s %s", r.Method, r.URL.Path)
	}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = jsonType
		io.WriteString(w, `{"status":"ok"}`)
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	s.pageRoutes(mux)
	return mux
}

// api wraps a JSON handler: authorization, the body limit, the error shape, logs and
// metrics. h returns the encoded answer or an error.
func (s *Server) api(name string, h func(r *http.Request) ([]byte, error)) http.Handler {
	hm := s.metrics.handler(name)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		var body []byte
		var err error
		if s.authorized(r) {
			r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
			body, err = h(r)
		} else {
			w.Header().Set("WWW-Authenticate", `Bearer realm="robots"`)
			err = errorf(http.StatusUnauthorized, "missing or unknown bearer token")
		}
		code := http.StatusOK
		if err != nil {
			code = statusOf(err)
			body = appendError(nil, err.Error())
			level := slogLevel(code)
			s.log.Log(r.Context(), level, "request failed", "handler", name, "status", code, "error", err.Error())
		}
		h := w.Header()
		h["Content-Type"] = jsonType
		// Stated, so that a large answer is sent as it is rather than in chunks.
		h["Content-Length"] = []string{strconv.Itoa(len(body))}
		w.WriteHeader(code)
		w.Write(body)
		putBuffer(body)
		hm.done(code, start)
	})
}

func (s *Server) authorized(r *http.Request) bool {
	if len(s.cfg.Tokens) == 0 {
		return true
	}
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return false
	}
	good := 0
	for _, t := range s.cfg.Tokens {
		good |= subtle.ConstantTimeCompare([]byte(tok), []byte(t))
	}
	return good == 1
}

// agentsOf checks the agent names of a request.
func (s *Server) agentsOf(agents []string) error {
	if len(agents) == 0 {
		return errorf(http.StatusBadRequest, "agent is required (a crawler product token such as Googlebot)")
	}
	if len(agents) > s.cfg.MaxAgents {
		return errorf(http.StatusRequestEntityTooLarge, "%d agents, more than the limit of %d", len(agents), s.cfg.MaxAgents)
	}
	for _, a := range agents {
		if strings.TrimSpace(a) == "" {
			return errorf(http.StatusBadRequest, "empty agent name")
		}
		if len(a) > MaxAgentBytes {
			return errorf(http.StatusBadRequest, "agent name of %d bytes, more than the limit of %d", len(a), MaxAgentBytes)
		}
	}
	return nil
}

// lookup returns the robots.txt state of rawURL's origin. Bad URLs are the caller's
// fault (400); a literal private address is refused here (403) before any fetch,
// while names are refused by the client's guarded dialer. ctx should carry the
// request's deadline (see withCheckTimeout).
func (s *Server) lookup(ctx context.Context, rawURL string) (*fetch.Result, error) {
	if len(rawURL) > MaxURLBytes {
		return nil, errorf(http.StatusBadRequest, "URL of %d bytes, more than the limit of %d", len(rawURL), MaxURLBytes)
	}
	if !s.cfg.AllowPrivate {
		if err := checkLiteral(rawURL); err != nil {
			return nil, err
		}
	}
	res, err := s.client.Get(ctx, rawURL)
	if err != nil {
		switch {
		case errors.Is(err, netguard.ErrRefused):
			return nil, err
		case ctx.Err() != nil:
			return nil, fmt.Errorf("robots.txt for %s not fetched within %v: %w", rawURL, s.cfg.CheckTimeout, context.DeadlineExceeded)
		}
		// Get fails only for URLs that have no robots.txt, or when ctx ends.
		return nil, errorf(http.StatusBadRequest, "%v", err)
	}
	// The fetch client keeps a refused fetch's error value and caches nothing for it,
	// so this holds for every lookup of such an origin, not only the first.
	if errors.Is(res.Err, netguard.ErrRefused) {
		return nil, fmt.Errorf("robots.txt of %s: %w", res.Origin, res.Err)
	}
	return res, nil
}

// peek is lookup for an origin whose fresh result the fetch client holds in
// process: no deadline to set up, no allocation for common URLs. ok is false when
// lookup is needed.
func (s *Server) peek(rawURL string) (res *fetch.Result, err error, ok bool) {
	if len(rawURL) > MaxURLBytes {
		return nil, nil, false
	}
	if !s.cfg.AllowPrivate {
		if err := checkLiteral(rawURL); err != nil {
			return nil, err, true
		}
	}
	res, ok = s.client.Peek(rawURL)
	return res, nil, ok
}

// checkQuery returns the url and agent parameters of a query string, as
// url.ParseQuery would read them (pairs with a semicolon or a bad escape are
// skipped), without building the map of every parameter.
func checkQuery(q string) (u string, agents []string) {
	seen := false
	for q != "" {
		var pair string
		pair, q, _ = strings.Cut(q, "&")
		if pair == "" || strings.IndexByte(pair, ';') >= 0 {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		k, ok := queryUnescape(k)
		if !ok || k != "url" && k != "agent" {
			continue
		}
		if v, ok = queryUnescape(v); !ok {
			continue
		}
		if k == "url" {
			if !seen {
				u, seen = v, true // the first, as url.Values.Get
			}
		} else {
			agents = append(agents, v)
		}
	}
	return u, agents
}

// queryUnescape is url.QueryUnescape without an allocation when there is nothing
// to unescape.
func queryUnescape(s string) (string, bool) {
	if strings.IndexByte(s, '%') < 0 && strings.IndexByte(s, '+') < 0 {
		return s, true
	}
	v, err := url.QueryUnescape(s)
	return v, err == nil
}

// withCheckTimeout bounds a request's wait for robots.txt files, all of them.
func (s *Server) withCheckTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.cfg.CheckTimeout)
}

// checkLiteral refuses a URL whose host is an IP address the guard refuses, before
// any fetch (so that nothing is cached for it). Names are left to the dialer.
func checkLiteral(rawURL string) error {
	if quickName(rawURL) {
		return nil
	}
	host := authority(rawURL)
	i := strings.Index(host, "://")
	if i < 0 {
		return nil
	}
	host = host[i+3:]
	if j := strings.LastIndexByte(host, '@'); j >= 0 {
		host = host[j+1:]
	}
	if strings.HasPrefix(host, "[") {
		if j := strings.IndexByte(host, ']'); j > 0 {
			host = host[1:j]
		}
	} else if j := strings.LastIndexByte(host, ':'); j >= 0 {
		host = host[:j]
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if err := netguard.Check(a); err != nil {
			return fmt.Errorf("target %s: %w", rawURL, err)
		}
	}
	return nil
}

func (s *Server) handleCheck(r *http.Request) ([]byte, error) {
	u, agents := checkQuery(r.URL.RawQuery)
	if err := s.agentsOf(agents); err != nil {
		return nil, err
	}
	if u == "" {
		return nil, errorf(http.StatusBadRequest, "url is required")
	}
	res, err, ok := s.peek(u)
	if !ok {
		ctx, cancel := s.withCheckTimeout(r.Context())
		defer cancel()
		res, err = s.lookup(ctx, u)
	}
	if err != nil {
		return nil, err
	}
	d := res.CheckAgents(agents, u)
	s.metrics.decided(d.Allowed)
	b := make([]byte, 0, 384)
	return appendDecision(b, u, d, s.memos.get(res, agents)), nil
}

// batchRequest is the body of POST /v1/check.
type batchRequest struct {
	Agent  string   `json:"agent"`
	Agents []string `json:"agents"`
	URLs   []string `json:"urls"`
}

// originState is one origin of a batch: looked up once, encoded once.
type originState struct {
	url  string // the first URL of the batch seen for it
	res  *fetch.Result
	err  error
	json []byte // the per-origin fields of each result
}

func (s *Server) handleBatch(r *http.Request) ([]byte, error) {
	body, err := readRequestBody(r, s.cfg.MaxBodyBytes)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, err
		}
		return nil, errorf(http.StatusBadRequest, "reading the request body: %v", err)
	}
	req, err := decodeBatch(string(body))
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "request body: %v", err)
	}
	agents := req.Agents
	if req.Agent != "" {
		agents = append([]string{req.Agent}, agents...)
	}
	if err := s.agentsOf(agents); err != nil {
		return nil, err
	}
	if len(req.URLs) == 0 {
		return nil, errorf(http.StatusBadRequest, "urls is required (an array of absolute URLs)")
	}
	if len(req.URLs) > s.cfg.MaxURLs {
		return nil, errorf(http.StatusRequestEntityTooLarge, "%d URLs, more than the limit of %d", len(req.URLs), s.cfg.MaxURLs)
	}

	// Group by the URL's scheme and authority as written: cheap, and every URL of
	// one group has the same origin. Spellings of one origin that differ end up in
	// the client's cache under one key anyway.
	var origins []*originState
	index := make(map[string]*originState)
	per := make([]*originState, len(req.URLs))
	for i, u := range req.URLs {
		k := authority(u)
		o := index[k]
		if o == nil {
			o = &originState{url: u}
			index[k] = o
			origins = append(origins, o)
		}
		per[i] = o
	}
	// Origins the client holds fresh are decided at once; the others are looked up
	// under one deadline.
	var missed []*originState
	for _, o := range origins {
		var ok bool
		if o.res, o.err, ok = s.peek(o.url); !ok {
			missed = append(missed, o)
		} else if o.err == nil {
			o.json = s.memos.get(o.res, agents)
		}
	}
	if len(missed) > 0 {
		ctx, cancel := s.withCheckTimeout(r.Context())
		defer cancel()
		s.lookupAll(ctx, missed, agents)
	}

	size := 64
	for i, u := range req.URLs {
		size += len(u) + len(per[i].json) + 96 // 96: the fixed keys, a rule's prefix
	}
	b := getBuffer(size)
	b = append(b, `{"results":[`...)
	var allowed, disallowed int
	for i, u := range req.URLs {
		if i > 0 {
			b = append(b, ',')
		}
		o := per[i]
		if o.err != nil {
			b = appendURLError(b, u, statusOf(o.err), o.err.Error())
			continue
		}
		d := o.res.CheckAgents(agents, u)
		if d.Allowed {
			allowed++
		} else {
			disallowed++
		}
		b = appendDecision(b, u, d, o.json)
	}
	b = append(b, "]}"...)
	s.metrics.allowed.Add(float64(allowed))
	s.metrics.disallowed.Add(float64(disallowed))
	return b, nil
}

// lookupAll looks up every origin of a batch with at most BatchFetches workers:
// a warm cache answers at once, and a slow origin holds up one worker only.
func (s *Server) lookupAll(ctx context.Context, origins []*originState, agents []string) {
	var next atomic.Int64
	work := func() {
		for {
			i := int(next.Add(1)) - 1
			if i >= len(origins) {
				return
			}
			o := origins[i]
			o.res, o.err = s.lookup(ctx, o.url)
			if o.err == nil {
				o.json = s.memos.get(o.res, agents)
			}
		}
	}
	workers := min(s.cfg.BatchFetches, len(origins))
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
}

// authority returns the scheme and authority of a URL as written
// ("https://example.com:8443"), or the whole string when it has no "://".
func authority(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return u
	}
	rest := u[i+3:]
	if j := strings.IndexAny(rest, "/?#"); j >= 0 {
		return u[:i+3+j]
	}
	return u
}

// robotsAnswer is the body of GET /v1/robots.
type robotsAnswer struct {
	URL         string              `json:"url"`
	Origin      string              `json:"origin"`
	RobotsURL   string              `json:"robots_url"`
	Outcome     fetch.Outcome       `json:"outcome"`
	Effect      fetch.Effect        `json:"effect"`
	Status      int                 `json:"status"`
	Stale       bool                `json:"stale"`
	Error       string              `json:"error,omitempty"`
	ErrorKind   fetch.ErrorKind     `json:"error_kind,omitempty"` // fetch.ErrorKind's names: "timeout", "dns", …
	Hops        []fetch.Hop         `json:"hops"`
	FetchedAt   *time.Time          `json:"fetched_at"`
	ExpiresAt   *time.Time          `json:"expires_at"`
	LastSuccess *time.Time          `json:"last_success"`
	Bytes       int64               `json:"bytes"`
	Truncated   bool                `json:"truncated"`
	Groups      []groupJSON         `json:"groups"`
	Sitemaps    []string            `json:"sitemaps"`
	Fields      []robots.Field      `json:"fields"`
	Diagnostics []robots.Diagnostic `json:"diagnostics"`
}

type groupJSON struct {
	Line       int            `json:"line"`
	Agents     []agentJSON    `json:"agents"`
	Rules      []ruleJSON     `json:"rules"`
	CrawlDelay *float64       `json:"crawl_delay"`
	Fields     []robots.Field `json:"fields"`
}

type agentJSON struct {
	Name  string `json:"name"`
	Token string `json:"token"`
	Line  int    `json:"line"`
}

type ruleJSON struct {
	Allow bool   `json:"allow"`
	Value string `json:"value"`
	Line  int    `json:"line"`
}

func timeRef(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	t = t.UTC()
	return &t
}

func (s *Server) handleRobots(r *http.Request) ([]byte, error) {
	u := r.URL.Query().Get("url")
	if u == "" {
		return nil, errorf(http.StatusBadRequest, "url is required")
	}
	ctx, cancel := s.withCheckTimeout(r.Context())
	defer cancel()
	res, err := s.lookup(ctx, u)
	if err != nil {
		return nil, err
	}
	a := robotsAnswer{
		URL: u, Origin: res.Origin, RobotsURL: res.RobotsURL, Outcome: res.Outcome, Effect: res.Effect,
		Status: res.Status, Stale: res.Stale, Hops: res.Hops,
		FetchedAt: timeRef(res.FetchedAt), ExpiresAt: timeRef(res.ExpiresAt), LastSuccess: timeRef(res.LastSuccess),
		Bytes: res.BytesRead, Truncated: res.Truncated,
		Groups: []groupJSON{}, Sitemaps: []string{}, Fields: []robots.Field{}, Diagnostics: []robots.Diagnostic{},
	}
	if res.Err != nil {
		a.Error = res.Err.Error()
		var fe *fetch.Error
		if errors.As(res.Err, &fe) {
			a.ErrorKind = fe.Kind
		}
	}
	if rb := res.Robots; rb != nil {
		a.Groups = groupsJSON(rb.Groups())
		a.Sitemaps = append(a.Sitemaps, rb.Sitemaps()...)
		a.Fields = append(a.Fields, rb.Fields()...)
		a.Diagnostics = append(a.Diagnostics, rb.Diagnostics()...)
	}
	return json.Marshal(a)
}

func groupsJSON(gs []robots.Group) []groupJSON {
	out := make([]groupJSON, len(gs))
	for i, g := range gs {
		gj := groupJSON{Line: g.Line, Agents: make([]agentJSON, len(g.Agents)), Rules: make([]ruleJSON, len(g.Rules)), Fields: g.Fields}
		for j, a := range g.Agents {
			gj.Agents[j] = agentJSON{Name: a.Name, Token: a.Token(), Line: a.Line}
		}
		for j, ru := range g.Rules {
			gj.Rules[j] = ruleJSON{Allow: ru.Allow, Value: ru.Value, Line: ru.Line}
		}
		if d, ok := g.CrawlDelay(); ok {
			secs := d.Seconds()
			gj.CrawlDelay = &secs
		}
		if gj.Fields == nil {
			gj.Fields = []robots.Field{}
		}
		out[i] = gj
	}
	return out
}

func slogLevel(code int) slog.Level {
	if code >= 500 {
		return slog.LevelWarn
	}
	return slog.LevelInfo
}

// quickName reports, cheaply, that rawURL's host is a name and not an IP address:
// its authority (after "://", up to the path) ends in a letter, as a host name's top
// label does and no IPv4 address, IPv6 literal or port does. False means "look closer".
func quickName(rawURL string) bool {
	i := strings.Index(rawURL, "://")
	if i < 0 {
		return false
	}
	rest := rawURL[i+3:]
	end := len(rest)
	if j := strings.IndexAny(rest, "/?#"); j >= 0 {
		end = j
	}
	if end == 0 {
		return false
	}
	c := rest[end-1] | 0x20
	return 'a' <= c && c <= 'z' && strings.IndexAny(rest[:end], "[@%") < 0
}

// Answer buffers are reused: a batch answer is hundreds of kilobytes, and a new one
// per request costs more in zeroing and collection than in encoding.
var buffers sync.Pool

// Only buffers between these sizes are pooled: small answers (single checks) are
// cheap to allocate, and one huge answer should not stay in memory.
const (
	minPooledBuffer = 16 << 10
	maxPooledBuffer = 4 << 20
)

// getBuffer returns an empty buffer of at least size bytes' capacity.
func getBuffer(size int) []byte {
	if size < minPooledBuffer {
		return make([]byte, 0, size)
	}
	if p, ok := buffers.Get().(*[]byte); ok {
		if cap(*p) >= size {
			return (*p)[:0]
		}
		buffers.Put(p)
	}
	return make([]byte, 0, size)
}

// putBuffer gives b back once it has been written.
func putBuffer(b []byte) {
	if cap(b) < minPooledBuffer || cap(b) > maxPooledBuffer {
		return
	}
	buffers.Put(&b)
}

// readRequestBody reads r's body (already bounded by http.MaxBytesReader) into one
// buffer sized by Content-Length when the client sent it.
func readRequestBody(r *http.Request, limit int64) ([]byte, error) {
	n := r.ContentLength
	if n < 0 || n > limit {
		n = 512
	}
	buf := bytes.NewBuffer(make([]byte, 0, n+bytes.MinRead)) // room for ReadFrom to see EOF without growing
	_, err := buf.ReadFrom(r.Body)
	return buf.Bytes(), err
}
