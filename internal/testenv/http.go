package testenv

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// Server is a test HTTP server that counts its requests.
type Server struct {
	*httptest.Server
	hits atomic.Int64
}

// Hits returns the number of requests answered.
func (s *Server) Hits() int64 { return s.hits.Load() }

// Serve starts a server answering status and body at every path.
func Serve(t testing.TB, status int, body string) *Server {
	return ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(status)
		w.Write([]byte(body))
	})
}

// ServeFunc starts a server answering with h, counting requests.
func ServeFunc(t testing.TB, h http.HandlerFunc) *Server {
	t.Helper()
	s := &Server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// ClosedAddr returns a loopback address nothing listens on.
func ClosedAddr(t testing.TB) string {
	return fmt.Sprintf("127.0.0.1:%d", FreePort(t))
}

// DialAll returns a DialContext that connects to addr whatever address it is asked
// for, so that every host name (http://o1.test, http://o2.test, ...) reaches the one
// test server listening there.
func DialAll(addr string) func(ctx context.Context, network, _ string) (net.Conn, error) {
	var d net.Dialer
	return func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, addr)
	}
}
