//go:build !unix

package redistest

// Pause is not available without Unix signals: the test is skipped.
func (s *Server) Pause() { s.t.Skip("pausing a process needs SIGSTOP (Unix)") }

// Resume is not available without Unix signals.
func (s *Server) Resume() {}
