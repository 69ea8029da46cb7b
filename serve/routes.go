package serve

import (
	"fmt"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// routes is the route table: every path the server answers. The JSON endpoints
// go through api (api.go) and are answered by check.go (GET /v1/check), batch.go
// (POST /v1/check), robots.go (GET /v1/robots), lint.go (POST /v1/lint) and audit.go
// (POST /v1/audit), logs.go (POST /v1/logs), history.go (GET /v1/history);
// health.go answers /healthz and /readyz, openapi.go /openapi.json (which describes them all); the web tester's routes are in page.go.
// apiMethods are the methods each API path takes, for the Allow header of a 405.
var apiMethods = map[string]string{
	"/v1/check":   "GET, HEAD, POST",
	"/v1/robots":  "GET, HEAD",
	"/v1/lint":    "POST",
	"/v1/audit":   "POST",
	"/v1/logs":    "POST",
	"/v1/history": "GET, HEAD",
}

func (s *Server) routes(reg *prometheus.Registry) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /v1/check", s.admitted("check", s.handleCheck))
	mux.Handle("POST /v1/check", s.admitted("batch", s.handleBatch))
	mux.Handle("GET /v1/robots", s.admitted("robots", s.handleRobots))
	mux.Handle("POST /v1/lint", s.admitted("lint", s.handleLint))
	mux.Handle("POST /v1/audit", s.auditDeadlines(s.auditCSVOr(s.api("audit", s.handleAudit))))
	mux.Handle("POST /v1/logs", s.admitted("logs", s.handleLogs))
	mux.Handle("POST /v1/generate", s.admitted("generate", s.handleGenerate))
	mux.Handle("GET /v1/history", s.admitted("history", s.handleHistory))
	mux.Handle("/v1/", s.api("unknown", func(r *http.Request) ([]byte, error) {
		// A known path asked with another method is 405 with the methods it takes
		// (RFC 9110 §15.5.6), not 404: this catch-all would otherwise hide them.
		if allow, ok := apiMethods[r.URL.Path]; ok {
			return nil, &httpError{code: http.StatusMethodNotAllowed, allow: allow,
				msg: fmt.Sprintf("%s %s: method not allowed (allowed: %s)", r.Method, r.URL.Path, allow)}
		}
		return nil, errorf(http.StatusNotFound, "no API endpoint %s %s", r.Method, r.URL.Path)
	}))
	mux.HandleFunc("GET /healthz", handleHealth)
	mux.HandleFunc("GET /readyz", s.handleReady)
	mux.HandleFunc("GET /openapi.json", handleOpenAPI)
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	s.pageRoutes(mux)
	s.gateRoutes(mux)
	return mux
}
