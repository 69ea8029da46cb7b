// Command gatelat measures what the robots.txt gate adds to a request's latency
// through nginx (issue 37's target: under 1 ms at p99 at 5,000 requests a second on
// loopback). It runs a site, robots serve's gate and one nginx (Debian's, with
// auth_request) with two server blocks on two ports: one proxying to the site
// alone, one asking the gate first (docs/gate.md's configuration). The load is
// open-loop at a fixed rate, alternating between the two ports in short rounds so
// that both see the same machine; each request's latency is measured from the time
// it was due, so that a stall counts for every request it delays.
//
//	cd bench && go run ./cmd/gatelat -rate 5000 -duration 20s
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorobots/robots/gate"
	"github.com/gorobots/robots/internal/loadgen"
	"github.com/gorobots/robots/serve"
)

const siteRobots = "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n"

// The requests, in turn: browsers and crawlers, allowed and refused.
var mix = []struct{ ua, path string }{
	{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36", "/products/shoes?size=42"},
	{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "/products/shoes"},
	{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)", "/blog/post"},
	{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36", "/private/cart"},
	{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "/robots.txt"},
}

func main() {
	rate := flag.Int("rate", 5000, "requests a second")
	duration := flag.Duration("duration", 20*time.Second, "measured time, split evenly between the two paths")
	round := flag.Duration("round", time.Second, "length of one round on one path before switching")
	nginxBin := flag.String("nginx", "/usr/sbin/nginx", "nginx binary (Debian's has auth_request)")
	conns := flag.Int("conns", 64, "client connections (workers) per path")
	flag.Parse()
	log.SetFlags(0)

	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, siteRobots)
			return
		}
		io.WriteString(w, "a page of the site\n")
	}))
	defer site.Close()
	srv, err := serve.New(serve.Config{Addr: "127.0.0.1:0", Gate: &gate.Config{
		Sites:  []gate.Site{{Host: "site.test", Origin: site.URL}},
		Policy: gate.Policy{Disallowed: gate.Refuse, Impostor: gate.Refuse},
	}})
	if err != nil {
		log.Fatal(err)
	}
	if err := srv.Open(); err != nil {
		log.Fatal(err)
	}
	defer srv.Close()

	dir, err := os.MkdirTemp("", "gatelat")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	plain, gated := freePort(), freePort()
	conf := fmt.Sprintf(nginxConf, dir, dir, dir, dir, dir, dir, dir, plain, gated, srv.Addr(), site.Listener.Addr())
	if err := os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(conf), 0o644); err != nil {
		log.Fatal(err)
	}
	cmd := exec.Command(*nginxBin, "-p", dir, "-c", filepath.Join(dir, "nginx.conf"), "-e", filepath.Join(dir, "error.log"))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	for _, p := range []int{plain, gated} {
		waitPort(p)
	}

	paths := []*path{{name: "nginx", port: plain}, {name: "nginx + gate", port: gated}}
	for _, p := range paths {
		p.client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *conns, MaxConnsPerHost: *conns}, Timeout: 10 * time.Second}
		p.run(*rate, 200*time.Millisecond, *conns) // warm: connections, the gate's robots.txt
		p.lat = p.lat[:0]
		p.errors.Store(0)
	}
	rounds := int(*duration / *round / 2)
	for i := 0; i < rounds; i++ {
		for _, p := range paths {
			cpu0, ng0 := loadgen.CPUTime(), procCPU(cmd.Process.Pid)
			p.run(*rate, *round, *conns)
			p.cpu += loadgen.CPUTime() - cpu0 + procCPU(cmd.Process.Pid) - ng0
		}
	}
	fmt.Printf("open-loop %d req/s, %d rounds of %v per path, %d connections; latency from the time each request was due\n",
		*rate, rounds, *round, *conns)
	fmt.Printf("%-14s %9s %9s %9s %9s %9s %8s %12s\n", "path", "requests", "p50", "p90", "p99", "p99.9", "errors", "CPU/request")
	var p99, cpu [2]time.Duration
	for i, p := range paths {
		slices.Sort(p.lat)
		q := func(f float64) time.Duration { return p.lat[min(len(p.lat)-1, int(f*float64(len(p.lat))))] }
		p99[i] = q(0.99)
		cpu[i] = p.cpu / time.Duration(len(p.lat))
		fmt.Printf("%-14s %9d %9v %9v %9v %9v %8d %12v\n", p.name, len(p.lat), round3(q(0.5)), round3(q(0.9)), round3(q(0.99)), round3(q(0.999)), p.errors.Load(), round3(cpu[i]))
	}
	fmt.Printf("added by the gate at p99: %v; CPU added per request (this process: client, site, gate; and nginx): %v\n", round3(p99[1]-p99[0]), round3(cpu[1]-cpu[0]))
	if l, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Printf("load average while measured: %s", l)
	}
}

func round3(d time.Duration) time.Duration { return d.Round(time.Microsecond) }

// path is one way to the site: its port, its client and the latencies measured.
type path struct {
	name   string
	port   int
	client *http.Client
	mu     sync.Mutex
	lat    []time.Duration
	errors atomic.Int64
	cpu    time.Duration // of this process and nginx while it ran
}

// procCPU is the CPU time (user and system) a process has used, from /proc.
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command's closing parenthesis; utime and stime are the
	// 12th and 13th of them, in clock ticks (100 a second on Linux).
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+st) * 10 * time.Millisecond
}

// run sends rate requests a second for d, each due at its time, from conns workers.
func (p *path) run(rate int, d time.Duration, conns int) {
	n := int(float64(rate) * d.Seconds())
	interval := time.Second / time.Duration(rate)
	start := time.Now()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range conns {
		wg.Go(func() {
			var lat []time.Duration
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					break
				}
				due := start.Add(time.Duration(i) * interval)
				if w := time.Until(due); w > 0 {
					time.Sleep(w)
				}
				m := mix[i%len(mix)]
				req, _ := http.NewRequestWithContext(context.Background(), "GET", fmt.Sprintf("http://127.0.0.1:%d%s", p.port, m.path), nil)
				req.Host = "site.test"
				req.Header.Set("User-Agent", m.ua)
				res, err := p.client.Do(req)
				if err != nil {
					p.errors.Add(1)
					continue
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != 200 && res.StatusCode != 403 {
					p.errors.Add(1)
				}
				lat = append(lat, time.Since(due))
			}
			p.mu.Lock()
			p.lat = append(p.lat, lat...)
			p.mu.Unlock()
		})
	}
	wg.Wait()
}

func freePort() int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func waitPort(port int) {
	for range 500 {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	log.Fatalf("nginx does not listen on %d", port)
}

// nginxConf: two server blocks, one plain, one with docs/gate.md's gate.
const nginxConf = `
daemon off;
master_process off;
worker_rlimit_nofile 4096;
pid %s/nginx.pid;
error_log %s/error.log warn;
events { worker_connections 2048; }
http {
	access_log off;
	client_body_temp_path %s/body;
	proxy_temp_path %s/proxy;
	fastcgi_temp_path %s/fastcgi;
	uwsgi_temp_path %s/uwsgi;
	scgi_temp_path %s/scgi;
	proxy_http_version 1.1;
	proxy_set_header Connection "";
	server {
		listen 127.0.0.1:%d;
		location / { proxy_pass http://site; }
	}
	server {
		listen 127.0.0.1:%d;
		location / {
			auth_request /.robots-gate;
			proxy_pass http://site;
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
	upstream robots_gate { server %s; keepalive 64; }
	upstream site { server %s; keepalive 64; }
}
`
