package testenv

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// startTimeout bounds how long a server may take to accept connections: generous,
// so that a program slow to start on a loaded machine does not fail its test (Caddy's
// test waited this long before StartProgram was its one home).
const startTimeout = 30 * time.Second

// RequireBinary returns the path of a program the test runs for real: name or one
// of the alternatives, each a name looked up in $PATH or an absolute path. Without
// it, t is ended by Missing (skipped, or failed with CI=true: .ci/run installs it).
func RequireBinary(t testing.TB, name string, alternatives ...string) string {
	t.Helper()
	for _, n := range append([]string{name}, alternatives...) {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
		if filepath.IsAbs(n) {
			if _, err := os.Stat(n); err == nil {
				return n
			}
		}
	}
	Missing(t, "%s is not installed (apt-get install %s; .ci/run installs it in CI)", name, name)
	return ""
}

// FreePort returns a loopback TCP port that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// StartProgram runs cmd until the test ends and waits until addr accepts
// connections. Should the program exit first, or not listen within startTimeout,
// t fails with what it printed and the contents of logs (files it writes its
// errors to, such as nginx's error log).
func StartProgram(t testing.TB, cmd *exec.Cmd, addr string, logs ...string) {
	t.Helper()
	var (
		mu  sync.Mutex
		out strings.Builder
	)
	w := lockedWriter{&mu, &out}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", cmd.Path, err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
	output := func() string {
		mu.Lock()
		s := out.String()
		mu.Unlock()
		for _, f := range logs {
			b, _ := os.ReadFile(f)
			s += string(b)
		}
		return s
	}
	for deadline := time.Now().Add(startTimeout); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		select {
		case <-done:
			t.Fatalf("%s exited before accepting connections: %s", cmd.Path, output())
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return
		}
	}
	t.Fatalf("%s did not accept connections on %s within %v: %s", cmd.Path, addr, startTimeout, output())
}

// lockedWriter lets the output of a program be read while the program writes it.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// StartFTP starts vsftpd on a free loopback port serving files (name → content) to
// anonymous users, and returns its address. vsftpd needs root to switch to its
// anonymous user; without root the test is skipped (in CI, which runs as root, it
// fails).
func StartFTP(t testing.TB, files map[string]string) string {
	t.Helper()
	bin := RequireBinary(t, "vsftpd", "/usr/sbin/vsftpd")
	if os.Geteuid() != 0 {
		Missing(t, "vsftpd needs root to serve anonymous users")
	}
	dir := t.TempDir()
	root, empty := filepath.Join(dir, "root"), filepath.Join(dir, "empty")
	for _, d := range []string{root, empty} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// vsftpd refuses a chroot writable by the anonymous user, and t.TempDir is 0700.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	port := FreePort(t)
	conf := filepath.Join(dir, "vsftpd.conf")
	lines := []string{
		"listen=YES", "listen_ipv6=NO", "listen_address=127.0.0.1", fmt.Sprintf("listen_port=%d", port),
		"background=NO", "anonymous_enable=YES", "local_enable=NO", "write_enable=NO",
		"anon_root=" + root, "no_anon_password=YES", "secure_chroot_dir=" + empty,
		"pasv_enable=YES", "pasv_address=127.0.0.1", "connect_from_port_20=NO",
		"seccomp_sandbox=NO", "xferlog_enable=NO", "dirmessage_enable=NO", "syslog_enable=NO",
		"vsftpd_log_file=" + filepath.Join(dir, "vsftpd.log"),
	}
	if err := os.WriteFile(conf, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	StartProgram(t, exec.Command(bin, conf), addr)
	// vsftpd accepts before it greets; wait for the greeting so tests start clean.
	c, err := net.DialTimeout("tcp", addr, startTimeout)
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(startTimeout))
	line, err := bufio.NewReader(c).ReadString('\n')
	c.Close()
	if err != nil || !strings.HasPrefix(line, "220") {
		t.Fatalf("vsftpd on %s greeted %q, %v", addr, line, err)
	}
	return addr
}
