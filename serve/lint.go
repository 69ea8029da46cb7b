package serve

import (
	"encoding/json"
	"io"
	"net/http"

	"github.com/gorobots/robots"
)

// handleLint answers POST /v1/lint: the body is a robots.txt file.
func (s *Server) handleLint(r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	findings := robots.Parse(body).Diagnostics()
	if findings == nil {
		findings = []robots.Diagnostic{}
	}
	return json.Marshal(map[string]any{"findings": findings})
}
