package serve

import (
	"encoding/json"
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
	findings := lint.Check(name, body)
	if findings == nil {
		findings = []lint.Finding{}
	}
	return json.Marshal(findings)
}
