package main

import (
	"bufio"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorobots/robots/internal/testenv"
)

// serveProc is a "robots serve" child process with every line it printed.
type serveProc struct {
	cmd   *exec.Cmd
	addr  string
	mu    sync.Mutex
	lines []string
	done  chan struct{} // closed once stderr is drained
}

func (p *serveProc) output() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.lines...)
}

// stop sends SIGINT, waits for the process to exit and returns its lines.
func (p *serveProc) stop(t *testing.T) []string {
	t.Helper()
	p.cmd.Process.Signal(os.Interrupt)
	<-p.done
	if err := p.cmd.Wait(); err != nil {
		t.Errorf("robots serve after SIGINT: %v", err)
	}
	return p.output()
}

// listenAddr finds the address in a "listening" line, text or JSON.
func listenAddr(line string) (string, bool) {
	if a, ok := strings.CutPrefix(line, "robots serve: listening on "); ok {
		_, a, _ = strings.Cut(strings.Fields(a)[0], "://")
		return a, true
	}
	var j struct{ Msg, URL string }
	if json.Unmarshal([]byte(line), &j) == nil && j.Msg == "serving" {
		_, a, _ := strings.Cut(j.URL, "://")
		return a, true
	}
	return "", false
}

// startServe runs "robots serve args..." with env added to the environment and
// returns once it listens.
func startServe(t *testing.T, env []string, args ...string) *serveProc {
	t.Helper()
	exe, err := exec.LookPath("robots")
	if err != nil {
		t.Fatalf("the robots command is not on PATH (TestMain installs it): %v", err)
	}
	p := &serveProc{cmd: exec.Command(exe, append([]string{"serve"}, args...)...), done: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), env...)
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.cmd.Process.Kill(); <-p.done; p.cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.mu.Lock()
			p.lines = append(p.lines, sc.Text())
			p.mu.Unlock()
			if a, ok := listenAddr(sc.Text()); ok {
				found <- a
			}
		}
	}()
	select {
	case p.addr = <-found:
		return p
	case <-p.done:
		t.Fatalf("robots serve %q exited: %q", args, p.output())
	case <-time.After(20 * time.Second):
		t.Fatalf("robots serve %q did not start listening: %q", args, p.output())
	}
	return nil
}

// runServeFails runs "robots serve args..." expecting it to fail, and returns what
// it printed.
func runServeFails(t *testing.T, env []string, args ...string) string {
	t.Helper()
	exe, err := exec.LookPath("robots")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, append([]string{"serve"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("robots serve %q: %v, output %s; want exit status 2", args, err, out)
	}
	return string(out)
}

func httpStatus(t *testing.T, req *http.Request) int {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

func getStatus(t *testing.T, rawURL string) int {
	t.Helper()
	req, err := http.NewRequest("GET", rawURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	return httpStatus(t, req)
}

// TestEnvName: the one rule that maps a flag to its variable.
func TestEnvName(t *testing.T) {
	for _, tc := range []struct{ flag, want string }{
		{"addr", "ROBOTS_ADDR"},
		{"redis", "ROBOTS_REDIS"},
		{"token-file", "ROBOTS_TOKEN_FILE"},
		{"allow-private", "ROBOTS_ALLOW_PRIVATE"},
		{"max-inflight", "ROBOTS_MAX_INFLIGHT"},
		{"connect-timeout", "ROBOTS_CONNECT_TIMEOUT"},
		{"v", "ROBOTS_V"},
	} {
		t.Run(tc.flag, func(t *testing.T) {
			if got := envName(tc.flag); got != tc.want {
				t.Errorf("envName(%q) = %q, want %q", tc.flag, got, tc.want)
			}
		})
	}
}

// TestServeEnvConfig: serve's flags can be given in the environment; a flag on the
// command line wins; -token-file works from either; a bad value names its variable.
func TestServeEnvConfig(t *testing.T) {
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
	}))
	defer origin.Close()
	tokens := filepath.Join(t.TempDir(), "tokens")
	if err := os.WriteFile(tokens, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	check := func(addr, token string) int {
		req, _ := http.NewRequest("GET", "http://"+addr+"/v1/check?"+url.Values{"agent": {"a"}, "url": {origin.URL + "/x"}}.Encode(), nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		return httpStatus(t, req)
	}

	t.Run("address from ROBOTS_ADDR", func(t *testing.T) {
		want := testenv.ClosedAddr(t)
		p := startServe(t, []string{"ROBOTS_ADDR=" + want, "ROBOTS_DATA=" + t.TempDir()})
		if p.addr != want {
			t.Errorf("listening on %s, want %s from ROBOTS_ADDR", p.addr, want)
		}
	})
	t.Run("the flag wins over the variable", func(t *testing.T) {
		want := testenv.ClosedAddr(t)
		p := startServe(t, []string{"ROBOTS_ADDR=" + testenv.ClosedAddr(t)}, "-addr", want, "-data", t.TempDir())
		if p.addr != want {
			t.Errorf("listening on %s, want %s from -addr", p.addr, want)
		}
	})
	t.Run("boolean from ROBOTS_ALLOW_PRIVATE", func(t *testing.T) {
		guarded := startServe(t, nil, "-addr", "127.0.0.1:0", "-data", t.TempDir())
		open := startServe(t, []string{"ROBOTS_ALLOW_PRIVATE=true"}, "-addr", "127.0.0.1:0", "-data", t.TempDir())
		if code := check(guarded.addr, ""); code != http.StatusForbidden {
			t.Errorf("loopback origin without the variable: %d, want 403", code)
		}
		if code := check(open.addr, ""); code != 200 {
			t.Errorf("loopback origin with ROBOTS_ALLOW_PRIVATE=true: %d, want 200", code)
		}
	})
	for _, how := range []string{"flag", "variable"} {
		t.Run("token file by "+how, func(t *testing.T) {
			env, args := []string{"ROBOTS_ALLOW_PRIVATE=1"}, []string{"-addr", "127.0.0.1:0", "-data", t.TempDir()}
			if how == "flag" {
				args = append(args, "-token-file", tokens)
			} else {
				env = append(env, "ROBOTS_TOKEN_FILE="+tokens)
			}
			p := startServe(t, env, args...)
			if code := check(p.addr, ""); code != http.StatusUnauthorized {
				t.Errorf("no token: %d, want 401", code)
			}
			if code := check(p.addr, "s3cret"); code != 200 {
				t.Errorf("the file's token: %d, want 200", code)
			}
		})
	}
	t.Run("a bad value names its variable", func(t *testing.T) {
		out := runServeFails(t, []string{"ROBOTS_MAX_URLS=many"}, "-addr", "127.0.0.1:0", "-data", t.TempDir())
		if !strings.Contains(out, "ROBOTS_MAX_URLS") || !strings.Contains(out, "many") {
			t.Errorf("output %q; want it to name ROBOTS_MAX_URLS and its value", out)
		}
	})
}

// TestServeAccessLog: off by default; with -access-log, one structured line per
// request with its method, URI, status and size.
func TestServeAccessLog(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		lines int
	}{
		{"off by default", nil, 0},
		{"on with -access-log", []string{"-access-log"}, 3},
		{"on with ROBOTS_ACCESS_LOG", nil, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var env []string
			if strings.Contains(tc.name, "ROBOTS_") {
				env = []string{"ROBOTS_ACCESS_LOG=true"}
			}
			p := startServe(t, env, append([]string{"-addr", "127.0.0.1:0", "-data", t.TempDir()}, tc.args...)...)
			base := "http://" + p.addr
			getStatus(t, base+"/healthz")
			getStatus(t, base+"/v1/check?url=x")
			getStatus(t, base+"/nothing-here")
			var got []string
			for _, l := range p.stop(t) {
				if strings.Contains(l, "msg=request") {
					got = append(got, l)
				}
			}
			if len(got) != tc.lines {
				t.Fatalf("%d access lines %q; want %d", len(got), got, tc.lines)
			}
			if tc.lines == 0 {
				return
			}
			for i, want := range []string{
				"method=GET uri=/healthz status=200 bytes=15 ",
				"method=GET uri=\"/v1/check?url=x\" status=400 ",
				"method=GET uri=/nothing-here status=404 ",
			} {
				if !strings.Contains(got[i], want) || !strings.Contains(got[i], "duration_seconds=") || !strings.Contains(got[i], "remote=127.0.0.1:") {
					t.Errorf("access line %d: %q; want it to hold %q, a duration and the client", i, got[i], want)
				}
			}
		})
	}
}

// TestServeJSONLogs: under -log json every line the process prints is a JSON object
// with a time, a level and a message: where it listens, request failures, access
// lines, shutting down, and errors that stop it.
func TestServeJSONLogs(t *testing.T) {
	isJSON := func(t *testing.T, lines []string) {
		t.Helper()
		if len(lines) == 0 {
			t.Fatal("no output")
		}
		for _, l := range lines {
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Errorf("not JSON: %q", l)
				continue
			}
			for _, k := range []string{"time", "level", "msg"} {
				if _, ok := m[k]; !ok {
					t.Errorf("line %q has no %q", l, k)
				}
			}
		}
	}
	t.Run("running", func(t *testing.T) {
		p := startServe(t, []string{"ROBOTS_LOG=json"}, "-addr", "127.0.0.1:0", "-data", t.TempDir(), "-access-log", "-v")
		getStatus(t, "http://"+p.addr+"/v1/check?url=x") // a failed request: logged at -v
		getStatus(t, "http://"+p.addr+"/healthz")
		lines := p.stop(t)
		isJSON(t, lines)
		var msgs []string
		for _, l := range lines {
			var m struct{ Msg string }
			json.Unmarshal([]byte(l), &m)
			msgs = append(msgs, m.Msg)
		}
		for _, want := range []string{"serving", "request failed", "request", "shutting down"} {
			if !strings.Contains(strings.Join(msgs, "\n")+"\n", want+"\n") {
				t.Errorf("messages %q lack %q", msgs, want)
			}
		}
	})
	t.Run("store in use", func(t *testing.T) {
		dir := t.TempDir()
		startServe(t, nil, "-addr", "127.0.0.1:0", "-data", dir)
		out := runServeFails(t, nil, "-log", "json", "-addr", "127.0.0.1:0", "-data", dir)
		isJSON(t, strings.Split(strings.TrimSpace(out), "\n"))
		if !strings.Contains(out, "in use by another process") {
			t.Errorf("output %q; want the store-in-use error", out)
		}
	})
	t.Run("bad variable", func(t *testing.T) {
		out := runServeFails(t, []string{"ROBOTS_TIMEOUT=soon"}, "-log", "json", "-addr", "127.0.0.1:0", "-data", t.TempDir())
		isJSON(t, strings.Split(strings.TrimSpace(out), "\n"))
	})
}

// TestServeDebugAddr: -debug-addr serves Go's profiles on a listener of its own, and
// only there; without it, no profile is served anywhere.
func TestServeDebugAddr(t *testing.T) {
	p := startServe(t, nil, "-addr", "127.0.0.1:0", "-data", t.TempDir(), "-debug-addr", "127.0.0.1:0")
	var debug string
	for _, l := range p.output() {
		if a, ok := strings.CutPrefix(l, "robots serve: profiles on http://"); ok {
			debug = strings.TrimSuffix(a, "/debug/pprof/")
		}
	}
	if debug == "" {
		t.Fatalf("no line says where the profiles are: %q", p.output())
	}
	for _, tc := range []struct {
		url  string
		want int
		body string
	}{
		{"http://" + debug + "/debug/pprof/", 200, "goroutine"},
		{"http://" + debug + "/debug/pprof/goroutine?debug=1", 200, "goroutine profile: total"},
		{"http://" + debug + "/debug/pprof/heap?debug=1", 200, "heap profile:"},
		{"http://" + debug + "/v1/check?agent=a&url=https://example.com/", 404, ""}, // the API is not here
		{"http://" + p.addr + "/debug/pprof/", 404, ""},                             // nor the profiles there
	} {
		resp, err := http.Get(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.want || !strings.Contains(string(b), tc.body) {
			t.Errorf("GET %s: %d %.80q; want %d holding %q", tc.url, resp.StatusCode, b, tc.want, tc.body)
		}
	}
	p.stop(t)

	q := startServe(t, nil, "-addr", "127.0.0.1:0", "-data", t.TempDir())
	if got := getStatus(t, "http://"+q.addr+"/debug/pprof/"); got != 404 {
		t.Errorf("GET /debug/pprof/ without -debug-addr: %d; want 404", got)
	}
	for _, l := range q.stop(t) {
		if strings.Contains(l, "profiles") {
			t.Errorf("without -debug-addr the server says %q", l)
		}
	}
}

// TestServeTLS: with -tls-cert and -tls-key (or their variables) the server says it
// listens on https:// and answers over TLS; one without the other stops it at once.
func TestServeTLS(t *testing.T) {
	certFile, keyFile, pool := testenv.WriteCert(t, t.TempDir(), 7)
	p := startServe(t, []string{"ROBOTS_TLS_KEY=" + keyFile}, "-addr", "127.0.0.1:0", "-data", t.TempDir(), "-tls-cert", certFile)
	if !slices.ContainsFunc(p.output(), func(l string) bool { return strings.HasPrefix(l, "robots serve: listening on https://") }) {
		t.Errorf("no line says it listens on https://: %q", p.output())
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}, Timeout: 10 * time.Second}
	resp, err := client.Get("https://" + p.addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.TLS == nil || resp.TLS.PeerCertificates[0].SerialNumber.Int64() != 7 {
		t.Errorf("GET /healthz over TLS: %d; want 200 with the certificate given", resp.StatusCode)
	}
	p.stop(t)

	out := runServeFails(t, nil, "-addr", "127.0.0.1:0", "-data", t.TempDir(), "-tls-key", keyFile)
	if !strings.Contains(out, "give both files or neither") {
		t.Errorf("-tls-key alone: %q; want it to ask for both files", out)
	}
}
