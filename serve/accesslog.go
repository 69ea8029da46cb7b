package serve

import (
	"log/slog"
	"net/http"
	"time"
)

// accessLog wraps h so that every request is logged once it has been answered, in
// one structured line (Config.AccessLog). The query is logged as sent: it holds
// the URLs and agents checked, never a token (tokens travel in a header).
func accessLog(log *slog.Logger, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rw := &recordingWriter{ResponseWriter: w}
		h.ServeHTTP(rw, r)
		if rw.status == 0 {
			rw.status = http.StatusOK
		}
		attrs := append([]slog.Attr{
			slog.String("method", r.Method),
			slog.String("uri", r.URL.RequestURI()),
			slog.Int("status", rw.status),
			slog.Int64("bytes", rw.bytes),
			slog.Float64("duration_seconds", time.Since(start).Seconds()),
			slog.String("remote", r.RemoteAddr),
			slog.String("user_agent", r.UserAgent()),
		}, rw.attrs...)
		log.LogAttrs(r.Context(), slog.LevelInfo, "request", attrs...)
	})
}

// recordingWriter notes the status and size of an answer.
type recordingWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
	attrs  []slog.Attr // a handler's own (the gate's decision: gate.LogAttrser)
}

// AddLogAttrs adds attributes to the request's line.
func (w *recordingWriter) AddLogAttrs(a ...slog.Attr) { w.attrs = append(w.attrs, a...) }

func (w *recordingWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *recordingWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection's writer (flushing,
// deadlines).
func (w *recordingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
