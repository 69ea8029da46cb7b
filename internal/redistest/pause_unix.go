//go:build unix

package redistest

import "syscall"

// Pause stops the process with SIGSTOP: its port still accepts connections (the
// kernel queues them) but nothing answers, as with a hung server. Resume ends it.
func (s *Server) Pause() { s.signal(syscall.SIGSTOP) }

// Resume continues a paused server.
func (s *Server) Resume() { s.signal(syscall.SIGCONT) }
