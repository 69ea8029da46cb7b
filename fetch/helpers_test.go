package fetch_test

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/testenv"
)

// t0 is the clock of tests that decide expiry: the time is a parameter of mustGet.
var t0 = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

const (
	agent = "TestBot"
	// rulesBody disallows /private for every crawler.
	rulesBody = "User-agent: *\nDisallow: /private\n"
)

// newClient returns a client configured by cfg, with short timeouts unless cfg sets
// them: every server here is on loopback.
func newClient(t testing.TB, cfg fetch.Config) *fetch.Client {
	t.Helper()
	if cfg.Timeout == 0 {
		cfg.Timeout = 2 * time.Second
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = time.Second
	}
	return fetch.NewClient(cfg)
}

func serve(t testing.TB, h http.HandlerFunc) *testenv.Server { return testenv.ServeFunc(t, h) }

// heldServer serves rulesBody once release is closed (or after 5 s, so that a failing
// test does not hang), for tests of what happens while a fetch is in flight.
func heldServer(t testing.TB) (srv *testenv.Server, release chan struct{}) {
	release = make(chan struct{})
	srv = serve(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-time.After(5 * time.Second):
		}
		w.Write([]byte(rulesBody))
	})
	return srv, release
}

// answer serves status and body at every path, with header lines "Name: value".
func answer(status int, body string, header ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(status)
		w.Write([]byte(body))
	}
}

// rawServer accepts TCP connections on loopback and hands each to fn, for servers
// that misbehave below HTTP. Connections are closed when fn returns or the test ends.
func rawServer(t testing.TB, fn func(c net.Conn, req *bufio.Reader)) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			stop := context.AfterFunc(ctx, func() { c.Close() })
			go func() {
				defer stop()
				defer c.Close()
				fn(c, bufio.NewReader(c))
			}()
		}
	}()
	t.Cleanup(func() { cancel(); l.Close(); <-done })
	return "http://" + l.Addr().String()
}

// readRequest consumes a request's head.
func readRequest(br *bufio.Reader) {
	for {
		line, err := br.ReadString('\n')
		if err != nil || line == "\r\n" || line == "\n" {
			return
		}
	}
}

// closedPort returns a loopback address nothing listens on.
func closedPort(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func mustGet(t testing.TB, c *fetch.Client, url string, now time.Time) *fetch.Result {
	t.Helper()
	res, err := fetch.GetAt(c, context.Background(), url, now)
	if err != nil {
		t.Fatalf("Get(%s) at %v: %v", url, now, err)
	}
	return res
}

// verdicts decides /private and /public of res's origin.
func verdicts(res *fetch.Result) (private, public bool) {
	return res.Allowed(agent, "/private/x"), res.Allowed(agent, "/public/x")
}
