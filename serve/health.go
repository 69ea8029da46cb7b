package serve

import (
	"context"
	"io"
	"net/http"
	"time"

	"github.com/gorobots/robots/internal/verdictjson"
)

// ReadyTimeout bounds the store check of one /readyz request: an orchestrator
// probes every few seconds, and a store slower than this is not fit to serve.
const ReadyTimeout = 2 * time.Second

// handleHealth answers GET /healthz, the liveness check: the process answers HTTP.
// It asks nothing of the store, so that an orchestrator does not restart servers
// for a Redis outage they ride out (they answer from memory and by fetching).
func handleHealth(w http.ResponseWriter, _ *http.Request) {
	w.Header()["Content-Type"] = jsonType
	io.WriteString(w, `{"status":"ok"}`)
}

// handleReady answers GET /readyz, the readiness check: 200 while the cache store
// is usable (StoreHealth), 503 with the store's reason while it is not, so that a
// load balancer sends traffic to replicas whose store works.
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	w.Header()["Content-Type"] = jsonType
	ctx, cancel := context.WithTimeout(r.Context(), ReadyTimeout)
	defer cancel()
	if err := s.StoreHealth(ctx); err != nil {
		s.log.Warn("not ready", "error", err.Error())
		w.WriteHeader(http.StatusServiceUnavailable)
		b := append([]byte(`{"status":"unavailable","error":`), verdictjson.AppendString(nil, "store: "+err.Error())...)
		w.Write(append(b, '}'))
		return
	}
	io.WriteString(w, `{"status":"ok"}`)
}
