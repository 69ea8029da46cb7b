package serve

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/netguard"
)

// What every JSON endpoint shares: the bearer token check, the body limit, the
// error shape and status, the log line of a failure, and the handler's metrics.

// httpError is an error with the status it should be answered with.
type httpError struct {
	code       int
	msg        string
	allow      string // the Allow header of a 405
	retryAfter int    // the Retry-After header of a 503, in seconds
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
	case errors.Is(err, fetch.ErrBusy):
		return http.StatusServiceUnavailable // the fetch queue is full: try again later
	}
	return http.StatusBadGateway
}

func slogLevel(code int) slog.Level {
	if code >= 500 {
		return slog.LevelWarn
	}
	return slog.LevelInfo
}

var jsonType = []string{"application/json"}

// api wraps a JSON handler: authorization, the body limit, the error shape, logs and
// metrics. h returns the encoded answer or an error.
func (s *Server) api(name string, h func(r *http.Request) ([]byte, error)) http.Handler {
	return s.jsonHandler(name, false, h)
}

// admitted is api for the requests counted by admission (admit.go): the body is
// read first, then the request takes a place, held until its answer is written. Its
// work is bounded (work.go): h's request context is done when the client leaves,
// at the work's deadline, or once h has spent the CPU budget.
func (s *Server) admitted(name string, h func(r *http.Request) ([]byte, error)) http.Handler {
	return s.jsonHandler(name, true, h)
}

func (s *Server) jsonHandler(name string, admitted bool, h func(r *http.Request) ([]byte, error)) http.Handler {
	hm := s.metrics.handler(name)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		var body []byte
		var err error
		if s.authorized(r) {
			r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
			if admitted {
				var release func()
				if err = s.readBodyFirst(w, r); err == nil {
					release, err = s.takePlace()
				}
				if release != nil {
					defer release() // once the answer is written
				}
			}
			if err == nil && admitted {
				// A tenth of the write timeout is left for writing the answer.
				ctx, stop := withWork(r.Context(), s.cfg.CPUBudget, start.Add(s.cfg.WriteTimeout-s.cfg.WriteTimeout/10))
				body, err = h(r.WithContext(ctx))
				stop()
			} else if err == nil {
				body, err = h(r)
			}
			if err == nil && len(body) > s.cfg.MaxAnswerBytes {
				s.buffers.put(body)
				err = tooLarge(len(body), s.cfg.MaxAnswerBytes)
			}
		} else {
			w.Header().Set("WWW-Authenticate", `Bearer realm="robots"`)
			err = errorf(http.StatusUnauthorized, "missing or unknown bearer token")
		}
		code := http.StatusOK
		if err != nil {
			code = statusOf(err)
			body = appendError(nil, err.Error())
			var he *httpError
			if errors.As(err, &he) && he.allow != "" {
				w.Header().Set("Allow", he.allow)
			}
			if errors.As(err, &he) && he.retryAfter > 0 {
				w.Header().Set("Retry-After", strconv.Itoa(he.retryAfter))
			}
			level := slogLevel(code)
			s.log.Log(r.Context(), level, "request failed", "handler", name, "status", code, "error", err.Error())
		}
		h := w.Header()
		h["Content-Type"] = jsonType
		// Stated, so that a large answer is sent as it is rather than in chunks.
		h["Content-Length"] = []string{strconv.Itoa(len(body))}
		w.WriteHeader(code)
		w.Write(body)
		s.buffers.put(body)
		hm.done(code, start)
	})
}

func (s *Server) authorized(r *http.Request) bool {
	if len(s.cfg.Tokens) == 0 {
		return true
	}
	// RFC 9110 §11.1: the scheme name is case-insensitive ("bearer" is "Bearer"), and
	// one or more spaces separate it from the token.
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	tok = strings.TrimLeft(tok, " ")
	good := 0
	for _, t := range s.cfg.Tokens {
		good |= subtle.ConstantTimeCompare([]byte(tok), []byte(t))
	}
	return good == 1
}

// tooLarge is the error of an answer past MaxAnswerBytes: at least n bytes.
func tooLarge(n, limit int) error {
	return errorf(http.StatusRequestEntityTooLarge, "the answer is larger than %d bytes (at least %d), the server's limit (-max-answer-bytes): ask about less at once", limit, n)
}
