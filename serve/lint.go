package serve

import (
	"io"
	"net/http"

	"github.com/gorobots/robots/lint"
)

// handleLint answers POST /v1/lint: the body is a robots.txt file; the answer is
// the findings as "robots lint -format json" gives them (a JSON array).
func (s *Server) handleLint(r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
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
	return appendArray(nil, lint.Check(name, body), s.cfg.MaxAnswerBytes)
}
