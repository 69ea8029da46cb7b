// Package redistest runs real redis-server processes for tests: a single server
// that a test can stop, pause and bring back on the same address, and a Redis
// Cluster of several such servers made with redis-cli. Servers listen on free
// loopback ports, keep nothing on disk but the cluster's node file, and are stopped
// when the test ends.
//
// Without redis-server (or redis-cli, for a cluster) a test is skipped, except in
// CI (CI=true), where it fails: .ci/run must install them.
package redistest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorobots/robots/internal/testenv"
)

// Bounds of the waits for a server or a cluster to become usable: far above what
// they take on a loaded machine (well under a second for a server, a few seconds
// for a cluster to agree), so that only a broken setup reaches them.
const (
	StartTimeout   = 10 * time.Second
	ClusterTimeout = 30 * time.Second
)

// Addr returns the address of a redis-server for this test: the one named by
// $ROBOTS_TEST_REDIS if set, else one started by Start.
func Addr(t testing.TB) string {
	t.Helper()
	if addr := os.Getenv("ROBOTS_TEST_REDIS"); addr != "" {
		return addr
	}
	return Start(t).Addr
}

// Server is one redis-server process. Its methods are safe for concurrent use.
type Server struct {
	Addr string // host:port, the same across Stop and Start
	t    testing.TB
	bin  string
	args []string

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
	out  *bytes.Buffer
}

// Start runs a redis-server on a free loopback port, without persistence, until the
// test ends. extra are more command-line options ("--name", "value", ...).
func Start(t testing.TB, extra ...string) *Server {
	t.Helper()
	bin := testenv.RequireBinary(t, "redis-server")
	port := testenv.FreePort(t)
	args := append([]string{"--port", fmt.Sprint(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", t.TempDir(), "--protected-mode", "no"}, extra...)
	s := &Server{Addr: fmt.Sprintf("127.0.0.1:%d", port), t: t, bin: bin, args: args}
	t.Cleanup(s.Stop)
	s.Start()
	return s
}

// URL is the server's address as a redis:// URL.
func (s *Server) URL() string { return "redis://" + s.Addr }

// Start starts the server again after Stop, on the same address and directory, and
// waits until it accepts connections. It does nothing if the server runs.
func (s *Server) Start() {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return
	}
	cmd := exec.Command(s.bin, s.args...)
	out := new(bytes.Buffer)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("starting redis-server: %v", err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	s.cmd, s.done, s.out = cmd, done, out
	deadline := time.Now().Add(StartTimeout)
	for {
		c, err := net.DialTimeout("tcp", s.Addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return
		}
		select {
		case <-done:
			s.t.Fatalf("redis-server exited before accepting connections on %s: %s", s.Addr, out)
		default:
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("redis-server did not accept connections on %s within %v: %s", s.Addr, StartTimeout, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop kills the server (SIGKILL: an outage, not a shutdown) and waits for it to
// exit. It does nothing if the server is stopped.
func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Kill()
	<-s.done
	s.cmd = nil
}

func (s *Server) signal(sig os.Signal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		if err := s.cmd.Process.Signal(sig); err != nil {
			s.t.Fatalf("redis-server: %v", err)
		}
	}
}

// Cluster is a Redis Cluster of masters without replicas, each a Server.
type Cluster struct {
	Nodes []*Server
	cli   string
}

// StartCluster starts n (at least 3) cluster-enabled servers and joins them with
// redis-cli --cluster create, each node owning a third of the hash slots. The
// nodes keep serving their slots while another is down
// (cluster-require-full-coverage no), and mark a silent node failed after two
// seconds (cluster-node-timeout).
func StartCluster(t testing.TB, n int) *Cluster {
	t.Helper()
	if n < 3 {
		t.Fatalf("a Redis Cluster needs at least 3 masters; asked for %d", n)
	}
	cli, err := exec.LookPath("redis-cli")
	if err != nil {
		testenv.Missing(t, "redis-cli is not installed (apt-get install redis-tools; .ci/run installs it in CI)")
	}
	c := &Cluster{cli: cli}
	for range n {
		// The cluster bus gets its own free port: the default (port + 10000) may be taken.
		c.Nodes = append(c.Nodes, Start(t, "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
			"--cluster-port", fmt.Sprint(testenv.FreePort(t)), "--cluster-node-timeout", "2000",
			"--cluster-require-full-coverage", "no"))
	}
	args := []string{"--cluster", "create"}
	for _, s := range c.Nodes {
		args = append(args, s.Addr)
	}
	args = append(args, "--cluster-replicas", "0", "--cluster-yes")
	ctx, cancel := context.WithTimeout(context.Background(), ClusterTimeout)
	defer cancel()
	if out, err := exec.CommandContext(ctx, cli, args...).CombinedOutput(); err != nil {
		t.Fatalf("redis-cli %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	c.WaitOK()
	return c
}

// URL is the cluster in go-redis's cluster URL form:
// redis://HOST1:PORT1?addr=HOST2:PORT2&addr=HOST3:PORT3.
func (c *Cluster) URL() string {
	q := url.Values{}
	for _, s := range c.Nodes[1:] {
		q.Add("addr", s.Addr)
	}
	return "redis://" + c.Nodes[0].Addr + "?" + q.Encode()
}

// WaitOK waits until every running node reports cluster_state:ok and knows every
// slot's owner.
func (c *Cluster) WaitOK() {
	t := c.Nodes[0].t
	t.Helper()
	deadline := time.Now().Add(ClusterTimeout)
	for _, s := range c.Nodes {
		for {
			out, err := exec.Command(c.cli, "-h", "127.0.0.1", "-p", s.Addr[strings.LastIndexByte(s.Addr, ':')+1:], "cluster", "info").Output()
			if err == nil && bytes.Contains(out, []byte("cluster_state:ok")) && bytes.Contains(out, []byte("cluster_slots_ok:16384")) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("node %s: cluster not ok within %v: %v\n%s", s.Addr, ClusterTimeout, err, out)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}
