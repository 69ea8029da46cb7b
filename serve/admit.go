package serve

import (
	"fmt"
	"net/http"
	"strconv"
)

// admit lets at most Config.MaxBatches requests through h at once, each from its
// first byte read to its last byte written, so that batches whose clients are slow to
// read (or never read) hold a bounded amount of memory. A request past the bound is
// answered 503 at once, with Retry-After.
func (s *Server) admit(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case s.batches <- struct{}{}:
			defer func() { <-s.batches }()
			h.ServeHTTP(w, r)
		default:
			s.metrics.rejected.Inc()
			body := appendError(nil, fmt.Sprintf("%d batches are being answered, the server's limit: retry in a second", cap(s.batches)))
			hd := w.Header()
			hd["Content-Type"] = jsonType
			hd.Set("Retry-After", "1")
			hd.Set("Content-Length", strconv.Itoa(len(body)))
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write(body)
		}
	})
}
