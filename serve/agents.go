package serve

import (
	"net/http"
	"strings"
)

// MaxAgentBytes bounds one agent name; product tokens are a few dozen bytes.
const MaxAgentBytes = 256

// agentsOf checks the agent names of a request.
func (s *Server) agentsOf(agents []string) error {
	if len(agents) == 0 {
		return errorf(http.StatusBadRequest, "agent is required (a crawler product token such as Googlebot)")
	}
	if len(agents) > s.cfg.MaxAgents {
		return errorf(http.StatusRequestEntityTooLarge, "%d agents, more than the limit of %d", len(agents), s.cfg.MaxAgents)
	}
	for _, a := range agents {
		if strings.TrimSpace(a) == "" {
			return errorf(http.StatusBadRequest, "empty agent name")
		}
		if len(a) > MaxAgentBytes {
			return errorf(http.StatusBadRequest, "agent name of %d bytes, more than the limit of %d", len(a), MaxAgentBytes)
		}
	}
	return nil
}
