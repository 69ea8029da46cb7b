// Command gatelat measures what the robots.txt gate adds to a request's latency
// through a reverse proxy (issue 37's target: under 1 ms at p99 through nginx at
// 5,000 requests a second on loopback).
//
// Everything but the gate is the same on both paths, and each part is a process
// of its own, as deployed:
//
//   - the proxy serves the site itself (static files: the pages and /robots.txt),
//     so the plain path is the proxy alone;
//   - with -proxy nginx (Debian's nginx, master process and worker_processes auto,
//     as Debian ships it), the gated path is the same files behind auth_request to
//     `robots serve -gate-site …` (docs/gate.md's configuration), the robots binary
//     built from this checkout (or -robots), verifying crawlers with range lists
//     from files (no DNS, no fetching: the machine is offline);
//   - with -proxy caddy, Caddy built with contrib/caddy (or -caddy) serves both
//     paths, the gated one with the robots_gate directive (no second service);
//   - the load generator is lean: raw HTTP/1.1 on kept-alive connections, open
//     loop at a fixed rate, each request's latency measured from the time it was
//     due, so a stall counts for every request it delays.
//
// The load alternates between the two paths in short rounds so that both see the
// same machine. It prints p50/p90/p99/p99.9 per path, their differences, and the
// CPU time per request of each process (generator, proxy, gate) from /proc.
//
//	cd bench && go build -o /tmp/gatelat ./cmd/gatelat && /tmp/gatelat -rate 5000 -duration 20s
//	/tmp/gatelat -proxy caddy -rate 5000 -duration 20s
//
// Run it from inside the checkout (it builds cmd/robots, or contrib/caddy/cmd/caddy,
// with the go command), or give the binaries with -robots and -caddy.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gorobots/robots/internal/loadgen"
)

const siteRobots = "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n"

// The requests, in turn: browsers and crawlers, allowed and refused. The gate
// verifies Googlebot and GPTBot by range lists naming the loopback address the
// proxy connects from, so both are verified crawlers.
var mix = []struct{ ua, path string }{
	{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36", "/products/shoes?size=42"},
	{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "/products/shoes"},
	{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)", "/blog/post"},
	{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36", "/private/cart"},
	{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "/robots.txt"},
}

// siteFiles are the site's files, served by the proxy.
var siteFiles = map[string]string{
	"products/shoes": "a page of the site\n",
	"blog/post":      "a post of the site's blog\n",
	"private/cart":   "a cart\n",
	"robots.txt":     siteRobots,
}

func main() {
	rate := flag.Int("rate", 5000, "requests a second")
	duration := flag.Duration("duration", 20*time.Second, "measured time, split evenly between the two paths")
	round := flag.Duration("round", time.Second, "length of one round on one path before switching")
	proxy := flag.String("proxy", "nginx", "the proxy: nginx (auth_request to robots serve) or caddy (the robots_gate directive)")
	nginxBin := flag.String("nginx", "/usr/sbin/nginx", "nginx binary (Debian's has auth_request)")
	nginxWorkers := flag.String("nginx-workers", "auto", "nginx's worker_processes")
	robotsBin := flag.String("robots", "", "robots binary for the gate (default: built from this checkout's cmd/robots)")
	caddyBin := flag.String("caddy", "", "Caddy with contrib/caddy, for -proxy caddy (default: built from this checkout's contrib/caddy/cmd/caddy)")
	conns := flag.Int("conns", 64, "client connections per path")
	gateEnv := flag.String("gate-env", "", "space-separated `KEY=VALUE`s added to the environment of the gate process and the bare server (GOGC=400 GOMAXPROCS=1: docs/gate.md)")
	bare := flag.Bool("bare", false, "with -proxy nginx: a third path, nginx + auth_request to a bare Go net/http server answering 200 (a process of its own), to tell the subrequest's cost from the gate's")
	bareServe := flag.String("bare-serve", "", "(internal) serve the bare auth answer at `address`")
	send := flag.String("send", "", "send -n forward-auth requests (the mix, with the headers nginx sends) to http://`address`/v1/gate on 4 connections, then exit (bench/cachegrind-gateproc.sh)")
	sendN := flag.Int("n", 1000, "requests for -send")
	cpuProfile := flag.String("cpuprofile", "", "with -proxy nginx: write the gate process's CPU profile over the measured rounds to `file` (go tool pprof -top file)")
	flag.Parse()
	log.SetFlags(0)
	if *bareServe != "" {
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
		go func() { <-sig; os.Exit(0) }()
		log.Fatal(http.ListenAndServe(*bareServe, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Content-Length"] = []string{"0"}
		})))
	}
	if *send != "" {
		if err := sendForwardAuth(*send, *sendN); err != nil {
			log.Fatalf("gatelat: -send: %v", err)
		}
		return
	}
	if *proxy != "nginx" && *proxy != "caddy" {
		log.Fatalf("-proxy %q: want nginx or caddy", *proxy)
	}

	dir, err := os.MkdirTemp("", "gatelat")
	if err != nil {
		log.Fatal(err)
	}
	atExit(func() { os.RemoveAll(dir) })
	// Interrupted, gatelat stops what it started all the same.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() { <-sig; exit(1) }()
	must(os.Chmod(dir, 0o755)) // nginx's workers run as another user when gatelat runs as root
	html := filepath.Join(dir, "html")
	for name, body := range siteFiles {
		must(os.MkdirAll(filepath.Dir(filepath.Join(html, name)), 0o755))
		must(os.WriteFile(filepath.Join(html, name), []byte(body), 0o644))
	}
	// The range lists: the loopback address the proxy connects from.
	lists := map[string]string{}
	for _, name := range []string{"Googlebot", "GPTBot"} {
		f := filepath.Join(dir, name+".ranges")
		must(os.WriteFile(f, []byte("127.0.0.1/32\n"), 0o644))
		lists[name] = f
	}

	plain, gated, bared := freePort(), freePort(), freePort()
	var procs []*proc // the proxy first, then the gate
	var debugAddr string
	switch *proxy {
	case "nginx":
		if *robotsBin == "" {
			*robotsBin = build(dir, "robots", "cmd/robots", ".")
		}
		gatePort, debugPort := freePort(), freePort()
		debugAddr = fmt.Sprintf("127.0.0.1:%d", debugPort)
		args := []string{"serve", "-addr", fmt.Sprintf("127.0.0.1:%d", gatePort), "-data", filepath.Join(dir, "data"),
			"-gate-site", "site.test=" + filepath.Join(html, "robots.txt"),
			"-gate-disallowed", "deny", "-gate-impostor", "deny", "-gate-offline", "-gate-no-dns", "-debug-addr", debugAddr}
		for name, f := range lists {
			args = append(args, "-gate-list", name+"="+f)
		}
		env := strings.Fields(*gateEnv)
		gate := start(dir, "gate", env, *robotsBin, args...)
		waitPort(gatePort)
		conf := fmt.Sprintf(nginxConf, *nginxWorkers, dir, dir, dir, dir, dir, dir, dir, plain, html, gated, html, gatePort)
		var bareProc *proc
		if *bare {
			barePort := freePort()
			self, err := os.Executable()
			must(err)
			bareProc = start(dir, "bare", env, self, "-bare-serve", fmt.Sprintf("127.0.0.1:%d", barePort))
			waitPort(barePort)
			conf = strings.TrimSuffix(strings.TrimSpace(conf), "}") + fmt.Sprintf(bareConf, bared, html, barePort)
		}
		must(os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(conf), 0o644))
		ng := start(dir, "nginx", nil, *nginxBin, "-p", dir, "-c", filepath.Join(dir, "nginx.conf"), "-e", filepath.Join(dir, "error.log"))
		procs = append(procs, ng, gate)
		if bareProc != nil {
			procs = append(procs, bareProc)
		}
	case "caddy":
		if *caddyBin == "" {
			*caddyBin = build(dir, "caddy", "contrib/caddy", "./cmd/caddy")
		}
		var list strings.Builder
		for name, f := range lists {
			fmt.Fprintf(&list, "\t\tlist %s %s\n", name, f)
		}
		conf := fmt.Sprintf(caddyfile, plain, html, gated, filepath.Join(html, "robots.txt"), list.String(), html)
		must(os.WriteFile(filepath.Join(dir, "Caddyfile"), []byte(conf), 0o644))
		c := start(dir, "caddy", []string{"XDG_DATA_HOME=" + dir, "XDG_CONFIG_HOME=" + dir, "HOME=" + dir},
			*caddyBin, "run", "--config", filepath.Join(dir, "Caddyfile"), "--adapter", "caddyfile")
		procs = append(procs, c)
	}
	for _, p := range []int{plain, gated} {
		waitPort(p)
	}

	name := *proxy
	paths := []*path{{name: name, port: plain}, {name: name + " + gate", port: gated}}
	if *bare && *proxy == "nginx" {
		waitPort(bared)
		paths = append(paths, &path{name: "nginx + bare", port: bared})
	}
	for _, p := range paths {
		p.conns = make([]*conn, *conns)
		p.run(*rate, 500*time.Millisecond) // warm: connections, the gate's robots.txt
		p.reset()
	}
	var profile chan error
	if *cpuProfile != "" && debugAddr != "" {
		profile = make(chan error, 1)
		go func() { profile <- fetchProfile(debugAddr, *duration, *cpuProfile) }()
	}
	rounds := max(1, int(*duration / *round / time.Duration(len(paths))))
	for range rounds {
		for _, p := range paths {
			c0, s0 := cpuTimes(procs), switches(procs)
			p.run(*rate, *round)
			for i, c := range cpuTimes(procs) {
				p.cpu[i] += c - c0[i]
			}
			for i, n := range switches(procs) {
				p.switches[i] += n - s0[i]
			}
		}
	}
	if profile != nil {
		if err := <-profile; err != nil {
			log.Printf("cpu profile: %v", err)
		} else {
			log.Printf("the gate's CPU profile: %s (go tool pprof -top %s)", *cpuProfile, *cpuProfile)
		}
	}

	fmt.Printf("open-loop %d req/s, %d rounds of %v per path, %d connections; latency from the time each request was due\n",
		*rate, rounds, *round, *conns)
	procNames := []string{"generator", *proxy}
	if *proxy == "nginx" {
		procNames = append(procNames, "gate")
		if *bare {
			procNames = append(procNames, "bare")
		}
	}
	fmt.Printf("%-14s %8s %9s %9s %9s %9s %6s %6s %6s  CPU/request:", "path", "requests", "p50", "p90", "p99", "p99.9", "200", "403", "errors")
	for _, n := range procNames {
		fmt.Printf(" %9s", n)
	}
	fmt.Println()
	var q [3][4]time.Duration
	var cpu [3][4]time.Duration
	for i, p := range paths {
		if len(p.lat) == 0 {
			fatalf("gatelat: no request on %s was answered (%d errors); see the logs in %s", p.name, p.errors.Load(), dir)
		}
		slices.Sort(p.lat)
		for j, f := range []float64{0.5, 0.9, 0.99, 0.999} {
			q[i][j] = p.lat[min(len(p.lat)-1, int(f*float64(len(p.lat))))].Round(time.Microsecond)
		}
		fmt.Printf("%-14s %8d %9v %9v %9v %9v %6d %6d %6d              ", p.name, len(p.lat), q[i][0], q[i][1], q[i][2], q[i][3],
			p.status[200].Load(), p.status[403].Load(), p.errors.Load())
		for j := range procNames {
			cpu[i][j] = p.cpu[j] / time.Duration(len(p.lat))
			fmt.Printf(" %9v", cpu[i][j].Round(100*time.Nanosecond))
		}
		fmt.Println()
	}
	fmt.Printf("context switches per request:")
	for _, p := range paths {
		fmt.Printf(" %s", p.name)
		for j, n := range procNames {
			fmt.Printf(" %s %.2f", n, float64(p.switches[j])/float64(len(p.lat)))
		}
		fmt.Printf(";")
	}
	fmt.Println()
	fmt.Printf("added by the gate: p50 %v, p90 %v, p99 %v, p99.9 %v; CPU per request:", q[1][0]-q[0][0], q[1][1]-q[0][1], q[1][2]-q[0][2], q[1][3]-q[0][3])
	var total time.Duration
	for j, n := range procNames {
		d := cpu[1][j] - cpu[0][j]
		total += d
		fmt.Printf(" %s %+v,", n, d.Round(100*time.Nanosecond))
	}
	fmt.Printf(" in all %+v\n", total.Round(100*time.Nanosecond))
	if len(paths) == 3 {
		var all time.Duration
		for j := range procNames {
			all += cpu[2][j] - cpu[0][j]
		}
		fmt.Printf("added by auth_request to a bare server: p50 %v, p90 %v, p99 %v, p99.9 %v; CPU per request: nginx %+v, bare server %+v, in all %+v\n",
			q[2][0]-q[0][0], q[2][1]-q[0][1], q[2][2]-q[0][2], q[2][3]-q[0][3],
			(cpu[2][1] - cpu[0][1]).Round(100*time.Nanosecond), cpu[2][3].Round(100*time.Nanosecond), all.Round(100*time.Nanosecond))
	}
	if l, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Printf("load average after: %s", l)
	}
	exit(0)
}

func must(err error) {
	if err != nil {
		fatalf("gatelat: %v", err)
	}
}

// atExits are what exit does before the process ends: stop the processes
// gatelat started, remove its directory; the last added first.
var (
	atExitMu sync.Mutex
	atExits  []func()
)

func atExit(f func()) {
	atExitMu.Lock()
	defer atExitMu.Unlock()
	atExits = append(atExits, f)
}

func exit(code int) {
	atExitMu.Lock() // held: a second exit (a signal during the first) waits here until the process ends
	for i := len(atExits) - 1; i >= 0; i-- {
		atExits[i]()
	}
	os.Exit(code)
}

func fatalf(format string, a ...any) {
	log.Printf(format, a...)
	exit(1)
}

// build builds pkg of the module in sub (a directory of this checkout, found by
// going up from the working directory) into dir/name, and returns its path.
func build(dir, name, sub, pkg string) string {
	root, err := os.Getwd()
	must(err)
	for {
		if b, err := os.ReadFile(filepath.Join(root, "go.mod")); err == nil && bytes.HasPrefix(b, []byte("module github.com/gorobots/robots\n")) {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			fatalf("gatelat: run it inside the robots checkout to build %s, or give its binary with -%s", sub, name)
		}
		root = parent
	}
	out := filepath.Join(dir, name)
	log.Printf("building %s from %s", sub, root)
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = filepath.Join(root, sub)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		fatalf("gatelat: building %s: %v", sub, err)
	}
	return out
}

// proc is a process gatelat started: the proxy or the gate.
type proc struct {
	name string
	cmd  *exec.Cmd
}

// start starts a program with env added to gatelat's environment and its output
// in dir/name.log.
func start(dir, name string, env []string, bin string, args ...string) *proc {
	f, err := os.Create(filepath.Join(dir, name+".log"))
	must(err)
	p := &proc{name: name, cmd: exec.Command(bin, args...)}
	p.cmd.Stdout, p.cmd.Stderr = f, f
	p.cmd.Env = append(os.Environ(), env...)
	if err := p.cmd.Start(); err != nil {
		fatalf("gatelat: starting %s: %v", name, err)
	}
	atExit(p.stop)
	return p
}

func (p *proc) stop() {
	if p.cmd.Process != nil {
		p.cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { p.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			p.cmd.Process.Kill()
			<-done
		}
	}
}

// cpuTimes is the CPU time used so far by this process (the generator) and by
// each of procs with its children (nginx's master and workers).
func cpuTimes(procs []*proc) []time.Duration {
	t := []time.Duration{loadgen.CPUTime()}
	for _, p := range procs {
		t = append(t, treeCPU(p.cmd.Process.Pid))
	}
	return t
}

// switches is the number of context switches (voluntary or not) so far of the
// threads of this process and of each of procs with its children.
func switches(procs []*proc) []int64 {
	n := []int64{treeSwitches(os.Getpid())}
	for _, p := range procs {
		n = append(n, treeSwitches(p.cmd.Process.Pid))
	}
	return n
}

func treeSwitches(pid int) int64 {
	var n int64
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/status", pid))
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && (k == "voluntary_ctxt_switches" || k == "nonvoluntary_ctxt_switches") {
				c, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				n += c
			}
		}
	}
	if c, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid)); err == nil {
		for _, child := range strings.Fields(string(c)) {
			if k, err := strconv.Atoi(child); err == nil {
				n += treeSwitches(k)
			}
		}
	}
	return n
}

// treeCPU is the CPU time (user and system) of a process and its children, from /proc.
func treeCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command's closing parenthesis; utime and stime are the
	// 12th and 13th of them, in clock ticks (100 a second on Linux).
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	t := time.Duration(u+s) * 10 * time.Millisecond
	if c, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid)); err == nil {
		for _, child := range strings.Fields(string(c)) {
			if n, err := strconv.Atoi(child); err == nil {
				t += treeCPU(n)
			}
		}
	}
	return t
}

// fetchProfile writes the gate's CPU profile over d to file.
func fetchProfile(addr string, d time.Duration, file string) error {
	res, err := http.Get(fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", addr, int(d.Seconds())))
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		return fmt.Errorf("%s", res.Status)
	}
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	return os.WriteFile(file, b, 0o644)
}

// path is one way to the site: its port, its connections and what was measured.
type path struct {
	name     string
	port     int
	conns    []*conn
	mu       sync.Mutex
	lat      []time.Duration
	status   [600]atomic.Int64
	errors   atomic.Int64
	cpu      [4]time.Duration // of the generator, the proxy, the gate (and the bare server) while it ran
	switches [4]int64         // their threads' context switches while it ran
}

func (p *path) reset() {
	p.lat = p.lat[:0]
	p.errors.Store(0)
	for i := range p.status {
		p.status[i].Store(0)
	}
}

// requests are the mix's requests as bytes.
var requests = func() [][]byte {
	var r [][]byte
	for _, m := range mix {
		r = append(r, fmt.Appendf(nil, "GET %s HTTP/1.1\r\nHost: site.test\r\nUser-Agent: %s\r\nAccept: */*\r\n\r\n", m.path, m.ua))
	}
	return r
}()

// sendForwardAuth sends n forward-auth requests of the mix to addr on 4
// connections, as nginx's auth_request sends them, one after another on each.
func sendForwardAuth(addr string, n int) error {
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for w := range 4 {
		wg.Go(func() {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			cn := &conn{c: c, br: bufio.NewReader(c)}
			for i := w; i < n; i += 4 {
				m := mix[i%len(mix)]
				req := fmt.Appendf(nil, "GET /v1/gate HTTP/1.1\r\nHost: %s\r\nX-Original-URI: %s\r\nX-Original-Method: GET\r\n"+
					"X-Forwarded-Host: site.test\r\nX-Forwarded-Proto: http\r\nX-Forwarded-For: 127.0.0.1\r\nUser-Agent: %s\r\nAccept: */*\r\n\r\n", addr, m.path, m.ua)
				if code, err := cn.do(req); err != nil || code != 200 && code != 403 {
					errs <- fmt.Errorf("request %d: status %d, %v", i, code, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// run sends rate requests a second for d, each due at its time, on the path's
// connections: a request waits for a free connection, and its latency counts
// from the time it was due.
func (p *path) run(rate int, d time.Duration) {
	n := int(float64(rate) * d.Seconds())
	interval := time.Second / time.Duration(rate)
	type job struct {
		i   int
		due time.Time
	}
	jobs := make(chan job, n)
	var wg sync.WaitGroup
	for k := range p.conns {
		wg.Go(func() {
			lat := make([]time.Duration, 0, 2*n/len(p.conns))
			for j := range jobs {
				c := p.conns[k]
				if c == nil {
					var err error
					if c, err = dial(p.port); err != nil {
						p.errors.Add(1)
						continue
					}
					p.conns[k] = c
				}
				code, err := c.do(requests[j.i%len(requests)])
				if err != nil {
					c.close()
					p.conns[k] = nil
					p.errors.Add(1)
					continue
				}
				lat = append(lat, time.Since(j.due))
				if code < 0 || code >= len(p.status) {
					code = 0
				}
				p.status[code].Add(1)
				if code != 200 && code != 403 {
					p.errors.Add(1)
				}
			}
			p.mu.Lock()
			p.lat = append(p.lat, lat...)
			p.mu.Unlock()
		})
	}
	start := time.Now()
	for i := range n {
		due := start.Add(time.Duration(i) * interval)
		if w := time.Until(due); w > 0 {
			time.Sleep(w)
		}
		jobs <- job{i, due}
	}
	close(jobs)
	wg.Wait()
}

// conn is a kept-alive HTTP/1.1 client connection.
type conn struct {
	c  net.Conn
	br *bufio.Reader
}

func dial(port int) (*conn, error) {
	c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return nil, err
	}
	return &conn{c: c, br: bufio.NewReaderSize(c, 16<<10)}, nil
}

func (c *conn) close() { c.c.Close() }

// do sends one request and reads its response, returning the status code.
func (c *conn) do(req []byte) (int, error) {
	if _, err := c.c.Write(req); err != nil {
		return 0, err
	}
	line, err := c.br.ReadSlice('\n')
	if err != nil {
		return 0, err
	}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
		return 0, fmt.Errorf("bad status line %q", line)
	}
	code, err := strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, fmt.Errorf("bad status line %q", line)
	}
	length, chunked, closing := -1, false, false
	for {
		h, err := c.br.ReadSlice('\n')
		if err != nil {
			return 0, err
		}
		h = bytes.TrimRight(h, "\r\n")
		if len(h) == 0 {
			break
		}
		k, v, _ := bytes.Cut(h, []byte(":"))
		v = bytes.TrimSpace(v)
		switch {
		case bytes.EqualFold(k, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(v)); err != nil {
				return 0, fmt.Errorf("bad Content-Length %q", v)
			}
		case bytes.EqualFold(k, []byte("Transfer-Encoding")):
			chunked = bytes.EqualFold(v, []byte("chunked"))
		case bytes.EqualFold(k, []byte("Connection")):
			closing = bytes.EqualFold(v, []byte("close"))
		}
	}
	switch {
	case chunked:
		for {
			l, err := c.br.ReadSlice('\n')
			if err != nil {
				return 0, err
			}
			size, err := strconv.ParseInt(string(bytes.TrimSpace(bytes.SplitN(l, []byte(";"), 2)[0])), 16, 64)
			if err != nil {
				return 0, fmt.Errorf("bad chunk size %q", l)
			}
			if size == 0 {
				for { // trailers, then the blank line
					t, err := c.br.ReadSlice('\n')
					if err != nil {
						return 0, err
					}
					if len(bytes.TrimRight(t, "\r\n")) == 0 {
						break
					}
				}
				break
			}
			if _, err := c.br.Discard(int(size) + 2); err != nil {
				return 0, err
			}
		}
	case length >= 0:
		if _, err := c.br.Discard(length); err != nil {
			return 0, err
		}
	default:
		return 0, errors.New("a response without a length")
	}
	if closing {
		return code, errors.New("the server closed the connection")
	}
	return code, nil
}

func freePort() int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	must(err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitPort waits until port accepts connections.
func waitPort(port int) {
	for range 1000 {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	fatalf("gatelat: nothing listens on %d", port)
}

// nginxConf: two server blocks serving the same files, one plain, one with
// docs/gate.md's gate. Master process and worker_processes auto, as Debian's
// nginx.conf runs it.
const nginxConf = `
daemon off;
worker_processes %s;
worker_rlimit_nofile 4096;
pid %s/nginx.pid;
error_log %s/error.log warn;
events { worker_connections 2048; }
http {
	access_log off;
	sendfile on;
	tcp_nopush on;
	default_type text/plain;
	client_body_temp_path %s/body;
	proxy_temp_path %s/proxy;
	fastcgi_temp_path %s/fastcgi;
	uwsgi_temp_path %s/uwsgi;
	scgi_temp_path %s/scgi;
	proxy_http_version 1.1;
	proxy_set_header Connection "";
	server {
		listen 127.0.0.1:%d;
		root %s;
	}
	server {
		listen 127.0.0.1:%d;
		root %s;
		location / {
			auth_request /.robots-gate;
		}
		location = /.robots-gate {
			internal;
			proxy_pass http://robots_gate/v1/gate;
			proxy_pass_request_body off;
			proxy_set_header Content-Length "";
			proxy_set_header X-Original-URI $request_uri;
			proxy_set_header X-Original-Method $request_method;
			proxy_set_header X-Forwarded-Host $host;
			proxy_set_header X-Forwarded-Proto $scheme;
			proxy_set_header X-Forwarded-For $remote_addr;
		}
	}
	upstream robots_gate { server 127.0.0.1:%d; keepalive 64; }
}
`

// bareConf: a third server block, nginx + auth_request to a bare server.
const bareConf = `
	server {
		listen 127.0.0.1:%d;
		root %s;
		location / {
			auth_request /.bare;
		}
		location = /.bare {
			internal;
			proxy_pass http://bare_auth/;
			proxy_pass_request_body off;
			proxy_set_header Content-Length "";
			proxy_set_header X-Original-URI $request_uri;
			proxy_set_header X-Original-Method $request_method;
			proxy_set_header X-Forwarded-Host $host;
			proxy_set_header X-Forwarded-Proto $scheme;
			proxy_set_header X-Forwarded-For $remote_addr;
		}
	}
	upstream bare_auth { server 127.0.0.1:%d; keepalive 64; }
}
`

// caddyfile: two sites serving the same files, one with the robots_gate directive.
const caddyfile = `{
	admin off
	auto_https off
	persist_config off
}
http://:%d {
	bind 127.0.0.1
	root * %s
	file_server
}
http://:%d {
	bind 127.0.0.1
	robots_gate {
		robots %s
		disallowed deny
		impostor deny
		offline
		no_dns
%s	}
	root * %s
	file_server
}
`
