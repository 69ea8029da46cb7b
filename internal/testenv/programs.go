package testenv

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startTimeout bounds how long a server may take to accept connections.
const startTimeout = 10 * time.Second

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

// waitListening waits until addr accepts connections or the process exits.
func waitListening(t testing.TB, addr string, cmd *exec.Cmd, done <-chan struct{}, log func() string) {
	t.Helper()
	deadline := time.Now().Add(startTimeout)
	for time.Now().Before(deadline) {
		select {
		case <-done:
			t.Fatalf("%s exited before accepting connections: %s", cmd.Path, log())
		default:
		}
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s did not accept connections on %s within %v: %s", cmd.Path, addr, startTimeout, log())
}

// start runs cmd until the test ends and waits for addr to accept connections.
func start(t testing.TB, cmd *exec.Cmd, addr string) {
	t.Helper()
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", cmd.Path, err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
	waitListening(t, addr, cmd, done, out.String)
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
	start(t, exec.Command(bin, conf), addr)
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
