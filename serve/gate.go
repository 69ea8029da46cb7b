package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/gate"
)

// The robots.txt gate (package gate): with Config.Gate, /v1/gate is a
// forward-auth endpoint for reverse proxies (nginx auth_request, Caddy
// forward_auth, Traefik ForwardAuth, and Envoy ext_authz, which asks for
// /v1/gate followed by the original path), and GET /v1/gate-report the per-crawler
// account of its decisions. The gate endpoint takes no bearer token: it reads
// forwarded headers only from the gate's trusted proxies, and answers only for
// its configured sites.

// gateRoutes adds the gate's routes to mux.
func (s *Server) gateRoutes(mux *http.ServeMux) {
	if s.gate == nil {
		return
	}
	hm := s.metrics.handler("gate")
	fa := s.gate.ForwardAuth()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		fa.ServeHTTP(sw, r)
		hm.done(sw.code, start)
	})
	mux.Handle("/v1/gate", h)
	mux.Handle("/v1/gate/", h)
	mux.Handle("GET /v1/gate-report", s.api("gate-report", func(*http.Request) ([]byte, error) {
		return json.Marshal(s.gate.Report())
	}))
}

// isGatePath reports whether a request is for the gate's forward-auth endpoint,
// which proxies call with the original request's Host (Envoy) or headers of
// their own: the Host and cross-site checks of sameOrigin do not apply to it.
func isGatePath(p string) bool {
	return p == gate.DefaultPrefix || len(p) > len(gate.DefaultPrefix) && p[:len(gate.DefaultPrefix)+1] == gate.DefaultPrefix+"/"
}

// statusWriter notes the status of an answer.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

// Unwrap lets the gate reach the access log's writer (gate.LogAttrser).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// newGate makes the server's gate.
func (s *Server) newGate(gc gate.Config, reg prometheus.Registerer) (*gate.Gate, error) {
	gc.Registerer = reg
	if gc.Logger == nil {
		gc.Logger = s.log
	}
	if gc.Client == nil {
		f := s.cfg.Fetch
		gc.Client = fetch.NewClient(fetch.Config{
			Timeout: f.Timeout, ConnectTimeout: f.ConnectTimeout, MaxBytes: f.MaxBytes, UserAgent: f.UserAgent,
			MaxInFlight: f.MaxInFlight, Dialect: f.Dialect, Proxy: fetch.NoProxy, Observer: s.metrics.observer(),
		})
	}
	g, err := gate.New(gc)
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	return g, nil
}
