package serve

import (
	"context"
	"errors"
	"io"
	"net/http"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/lint"
)

// handleLint answers POST /v1/lint: the body is a robots.txt file; the answer is
// the findings as "robots lint -format json" gives them (a JSON array). Of a file
// larger than the 500 KiB crawlers read, that part is linted, and the findings say
// the file is too large (file-too-large, with its size), as "robots lint" says.
func (s *Server) handleLint(r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	opts := lint.Options{}
	if len(body) > robots.DefaultMaxBytes {
		opts.FileBytes, body = len(body), body[:robots.DefaultMaxBytes]
	}
	name := r.URL.Query().Get("name")
	if name == "" {
		name = "robots.txt"
	}
	// Linting holds some hundred bytes per byte of the file at worst (a finding per
	// line, the parse's diagnostics): its bytes are counted against FileWorkBytes.
	release, err := s.takeFileWork(len(body))
	if err != nil {
		return nil, err
	}
	defer release()
	turn := coreTurn{cores: s.decideCores}
	if !turn.take(r.Context()) {
		return nil, s.stopped(context.Cause(r.Context()), lintStopped(context.Cause(r.Context()), len(body)))
	}
	fs, err := lint.CheckContext(r.Context(), name, body, opts)
	turn.release()
	if err != nil {
		// A lint stopped part way leaves out findings of any line: none are given.
		return nil, s.stopped(err, lintStopped(err, len(body)))
	}
	return appendArray(nil, fs, s.cfg.MaxAnswerBytes)
}

// lintStopped is the answer of a lint whose work ended before it was done: 413
// when it spent the request's CPU budget, 504 at its deadline.
func lintStopped(cause error, n int) error {
	var be *budgetError
	switch {
	case errors.As(cause, &be):
		return errorf(http.StatusRequestEntityTooLarge, "lint of a robots.txt file of %d bytes stopped: %v; its rules cost more to check than one request may spend", n, be)
	case errors.Is(cause, context.DeadlineExceeded):
		return errorf(http.StatusGatewayTimeout, "lint of a robots.txt file of %d bytes stopped: the request took longer than the server gives one", n)
	}
	return cause
}
