package serve

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/miekg/dns"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/accesslog"
	"github.com/gorobots/robots/gate"
	"github.com/gorobots/robots/internal/testenv"
	"github.com/gorobots/robots/verify"
)

// The site behind the proxies: its robots.txt, and what the fleet expects of it.
const gateSiteRobots = `User-agent: *
Disallow: /private/

User-agent: GPTBot
Disallow: /no-ai/

User-agent: ClaudeBot
Crawl-delay: 30
Disallow: /private/
`

// Each crawler of the fleet sends its requests from an address of its own on
// loopback. The gate verifies them with package verify, offline: Googlebot's and
// GPTBot's range lists are these (in files, as the operators' lists would be
// read), and reverse DNS asks a DNS server on loopback (gateDNS).
var gateRanges = map[string]netip.Prefix{
	"Googlebot": netip.MustParsePrefix("127.0.1.0/24"),
	"GPTBot":    netip.MustParsePrefix("127.0.2.0/24"),
}

// gateZone is the DNS of the fleet's addresses: the fake Googlebot's address has a
// PTR that claims googlebot.com, whose name resolves elsewhere (forward-confirmed
// reverse DNS says no). Every other name is NXDOMAIN.
var gateZone = []string{
	"9.9.0.127.in-addr.arpa. 300 IN PTR crawl-127-0-9-9.googlebot.com.",
	"crawl-127-0-9-9.googlebot.com. 300 IN A 66.249.66.9",
}

// gateVerifier is a verify.Verifier reading gateRanges from files and DNS from a
// server on loopback serving gateZone.
func gateVerifier(t *testing.T) gate.Verifier {
	t.Helper()
	dir := t.TempDir()
	lists := map[string]string{}
	for name, p := range gateRanges {
		f := filepath.Join(dir, name+".txt")
		if err := os.WriteFile(f, []byte("# test range list\n"+p.String()+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		lists[name] = f
	}
	v, err := verify.New(verify.Options{Lists: lists, Offline: true, Resolver: startGateDNS(t, gateZone)})
	if err != nil {
		t.Fatal(err)
	}
	return gate.FromVerify(v)
}

// startGateDNS runs a DNS server on loopback answering from zone (NXDOMAIN for
// any other name) until the test ends, and returns a resolver that asks it.
func startGateDNS(t *testing.T, zone []string) *net.Resolver {
	t.Helper()
	records := map[string][]dns.RR{}
	for _, z := range zone {
		rr, err := dns.NewRR(z)
		if err != nil {
			t.Fatal(err)
		}
		k := strings.ToLower(rr.Header().Name) + " " + dns.TypeToString[rr.Header().Rrtype]
		records[k] = append(records[k], rr)
	}
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	srv := &dns.Server{PacketConn: pc, NotifyStartedFunc: func() { close(started) }, Handler: dns.HandlerFunc(func(w dns.ResponseWriter, q *dns.Msg) {
		m := new(dns.Msg)
		m.SetReply(q)
		m.Authoritative = true
		if len(q.Question) == 1 {
			qq := q.Question[0]
			m.Answer = records[strings.ToLower(qq.Name)+" "+dns.TypeToString[qq.Qtype]]
			if len(m.Answer) == 0 {
				m.Rcode = dns.RcodeNameError
			}
		}
		w.WriteMsg(m)
	})}
	go srv.ActivateAndServe()
	<-started
	t.Cleanup(func() { srv.Shutdown() })
	addr := pc.LocalAddr().String()
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", addr)
	}}
}

// fleetRequest is one request of the scripted fleet and what the gate must do
// with it, read from gateSiteRobots: the status through the proxy in deny mode,
// and the action and reason the metrics count.
type fleetRequest struct {
	who, ua, from, path string
	status              int // in deny mode; in log mode every request passes (200)
	action, reason      string
}

const (
	fleetGooglebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	fleetGPTBot    = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
	fleetClaudeBot = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"
	fleetCCBot     = "CCBot/2.0 (https://commoncrawl.org/faq/)"
	fleetBrowser   = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36"
)

var fleet = []fleetRequest{
	// An obeying, verified Googlebot: reads robots.txt, fetches what it allows.
	{"googlebot", fleetGooglebot, "127.0.1.1", "/robots.txt", 200, "pass", "robots-txt"},
	{"googlebot", fleetGooglebot, "127.0.1.1", "/", 200, "pass", "allowed"},
	{"googlebot", fleetGooglebot, "127.0.1.1", "/blog/post?id=3", 200, "pass", "allowed"},
	// A disobeying, verified GPTBot: its own group disallows /no-ai/ and, replacing
	// the * group, allows /private/.
	{"gptbot", fleetGPTBot, "127.0.2.1", "/no-ai/page", 403, "deny", "disallowed"},
	{"gptbot", fleetGPTBot, "127.0.2.1", "/private/x", 200, "pass", "allowed"},
	// An impostor of Googlebot, from outside its range: refused even where
	// Googlebot may go; robots.txt still passes.
	{"fake googlebot", fleetGooglebot, "127.0.9.9", "/", 403, "deny", "impostor"},
	{"fake googlebot", fleetGooglebot, "127.0.9.9", "/robots.txt", 200, "pass", "robots-txt"},
	// A crawler verification cannot tell about is judged as the crawler it claims.
	{"ccbot", fleetCCBot, "127.0.3.1", "/private/a", 403, "deny", "disallowed"},
	{"ccbot", fleetCCBot, "127.0.3.1", "/a", 200, "pass", "allowed"},
	// ClaudeBot honours Crawl-delay (30 s here): its second request is too soon.
	{"claudebot", fleetClaudeBot, "127.0.4.1", "/one", 200, "pass", "allowed"},
	{"claudebot", fleetClaudeBot, "127.0.4.1", "/two", 429, "limit", "crawl-delay"},
	// A browser is no crawler: the gate does not judge it.
	{"browser", fleetBrowser, "127.0.5.1", "/private/x", 200, "pass", "not-a-crawler"},
}

// TestGateThroughProxies is issue 37's "done when": a real nginx (auth_request)
// and a real Caddy (forward_auth) in front of a loopback site ask robots serve's
// gate about every request of a scripted fleet; the answers through the proxies
// and the gate's metrics are checked against what robots.txt says, in deny mode
// and in log mode.
func TestGateThroughProxies(t *testing.T) {
	nginx := testenv.RequireBinary(t, "nginx", "/usr/sbin/nginx")
	caddy := testenv.RequireBinary(t, "caddy")
	for _, mode := range []string{"deny", "log"} {
		t.Run(mode, func(t *testing.T) {
			site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/robots.txt" {
					io.WriteString(w, gateSiteRobots)
					return
				}
				fmt.Fprintf(w, "page %s\n", r.URL.Path)
			}))
			defer site.Close()
			policy := gate.Policy{}
			if mode == "deny" {
				policy = gate.Policy{Disallowed: gate.Refuse, Impostor: gate.Refuse, CrawlDelay: gate.Slow, FailClosed: true}
			}
			var access strings.Builder
			var accessMu sync.Mutex
			reg := prometheus.NewRegistry()
			srv, err := New(Config{Addr: "127.0.0.1:0", Registry: reg,
				AccessLog: slog.New(slog.NewJSONHandler(&lockedWriter{w: &access, mu: &accessMu}, nil)),
				Gate: &gate.Config{
					// A site per proxy: Crawl-delay is kept per site.
					Sites:    []gate.Site{{Host: "site.test", Origin: site.URL}, {Host: "caddy.test", Origin: site.URL}},
					Policy:   policy,
					Verifier: gateVerifier(t),
					// The proxies connect from 127.0.0.1; the fleet from other loopback addresses.
					Forward: gate.Forward{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}},
				}})
			if err != nil {
				t.Fatal(err)
			}
			if err := srv.Open(); err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			upstream := strings.TrimPrefix(site.URL, "http://")
			proxies := map[string]string{
				"nginx": startNginx(t, nginx, srv.Addr(), upstream),
				"caddy": startCaddy(t, caddy, srv.Addr(), upstream),
			}
			want := map[[4]string]float64{} // crawler, identity, action, reason
			for _, name := range []string{"nginx", "caddy"} {
				for _, fr := range fleet {
					status, action := fr.status, fr.action
					if mode == "log" && status != 200 {
						status, action = 200, "log"
					}
					if mode == "log" && fr.reason == "impostor" {
						// Logged, the impostor is judged as Googlebot, which may fetch /.
						action = "log"
					}
					res := fleetGet(t, proxies[name], map[string]string{"nginx": "site.test", "caddy": "caddy.test"}[name], fr)
					if res.StatusCode != status {
						t.Errorf("%s, %s %s: status %d, want %d (%s: %s)", name, fr.who, fr.path, res.StatusCode, status,
							res.Header.Get(gate.HeaderVerdict), res.Header.Get(gate.HeaderReason))
					}
					// The reason reaches the client through both proxies (nginx:
					// add_header; Caddy: the gate's answer itself when it refuses).
					if status != 200 {
						if got := reasonOf(res.Header.Get(gate.HeaderReason)); got != fr.reason || res.Header.Get(gate.HeaderVerdict) != action {
							t.Errorf("%s, %s %s: %s %q, %s %q; want %s, %s", name, fr.who, fr.path, gate.HeaderVerdict, res.Header.Get(gate.HeaderVerdict),
								gate.HeaderReason, res.Header.Get(gate.HeaderReason), action, fr.reason)
						}
					}
					if status == 429 && res.Header.Get("Retry-After") != "30" {
						t.Errorf("%s, %s %s: Retry-After %q, want 30", name, fr.who, fr.path, res.Header.Get("Retry-After"))
					}
					if status == 200 && fr.reason != "not-a-crawler" && !strings.HasPrefix(res.Header.Get("X-Page"), "page ") && fr.path != "/robots.txt" {
						t.Errorf("%s, %s %s: the site's page did not come through", name, fr.who, fr.path)
					}
					crawler := robots.ProductToken(fr.ua)
					id := "cannot-tell"
					if p, ok := gateRanges[crawler]; ok {
						id = "impostor"
						if p.Contains(netip.MustParseAddr(fr.from)) {
							id = "verified"
						}
					}
					if fr.reason == "not-a-crawler" {
						crawler, id = "", ""
					}
					want[[4]string{crawler, id, action, fr.reason}]++
				}
			}
			got := gateCounts(t, reg)
			for k, n := range want {
				if got[k] != n {
					t.Errorf("robots_gate_decisions_total%v = %v, want %v", k, got[k], n)
				}
			}
			for k, n := range got {
				if _, ok := want[k]; !ok {
					t.Errorf("robots_gate_decisions_total%v = %v, not expected", k, n)
				}
			}
			// The access log names the original request and the reason.
			accessMu.Lock()
			log := access.String()
			accessMu.Unlock()
			for _, s := range []string{`"orig_uri":"/no-ai/page"`, `"crawler":"GPTBot"`, `"rule_line":5`, `"gate_reason":"impostor"`} {
				if !strings.Contains(log, s) {
					t.Errorf("access log lacks %s", s)
				}
			}
			// Without the forwarded headers: a clear error, and the fail mode.
			res, err := http.Get("http://" + srv.Addr() + "/v1/gate")
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			wantStatus := map[string]int{"deny": 403, "log": 200}[mode]
			if res.StatusCode != wantStatus || !strings.Contains(res.Header.Get(gate.HeaderError), "none of X-Forwarded-Host") {
				t.Errorf("no forwarded headers: %d %q, want %d and an error naming the header", res.StatusCode, res.Header.Get(gate.HeaderError), wantStatus)
			}
			// The report is robots logs' (package accesslog), counted from the
			// gate's decisions: robots logs -merge reads it.
			rep, err := accesslog.Merge(srv.gate.Report())
			if err != nil {
				t.Fatalf("the gate's report does not merge as a report of robots logs: %v", err)
			}
			if mode == "deny" && (rep.Impostors != 4 || rep.Violations != 6) {
				t.Errorf("report: %d impostor requests and %d violations, want 4 (the fake Googlebot's page and robots.txt) and 6 (one disallowed GPTBot, one CCBot, one ClaudeBot too soon, through each proxy)", rep.Impostors, rep.Violations)
			}
			rows := map[string]accesslog.Row{}
			for _, r := range rep.Crawlers {
				rows[r.Crawler+" "+r.Identity] = r
			}
			gpt := rows["GPTBot verified"]
			if gpt.Requests != 4 || gpt.Disallowed != 2 || gpt.Allowed != 2 || len(gpt.Rules) != 1 || gpt.Rules[0].Line != 5 || gpt.Rules[0].Requests != 2 {
				t.Errorf("GPTBot's row: %+v, want 4 requests, 2 disallowed by line 5, 2 allowed", gpt)
			}
			if g := rows["Googlebot verified"]; g.RobotsFetches != 2 || g.Allowed != 4 || g.Method != "ip-range" {
				t.Errorf("Googlebot's row: %+v, want 2 robots.txt fetches, 4 allowed, verified by ip-range", g)
			}
			if c := rows["ClaudeBot cannot-tell"]; c.TooFast != 2 || c.CrawlDelay != 30 || !c.HonoursCrawlDelay {
				t.Errorf("ClaudeBot's row: %+v, want 2 too fast for its Crawl-delay of 30 s", c)
			}
			if f := rows["Googlebot impostor"]; f.Requests != 4 || f.Method != "reverse-dns" {
				t.Errorf("fake Googlebot's row: %+v, want 4 requests, shown an impostor by reverse DNS", f)
			}
		})
	}
}

// reasonOf is the reason token of an X-Robots-Gate-Reason value.
func reasonOf(v string) string {
	tok, _, _ := strings.Cut(v, ";")
	return tok
}

// fleetGet sends one request of the fleet through a proxy, from the crawler's
// own loopback address, and reads the answer.
func fleetGet(t *testing.T, proxy, host string, fr fleetRequest) *http.Response {
	t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(fr.from)}, Timeout: 5 * time.Second}
	c := &http.Client{Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}, Timeout: 10 * time.Second}
	r, _ := http.NewRequest("GET", "http://"+proxy+fr.path, nil)
	r.Host = host
	r.Header.Set("User-Agent", fr.ua)
	res, err := c.Do(r)
	if err != nil {
		t.Fatalf("%s %s: %v", fr.who, fr.path, err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	res.Header.Set("X-Page", string(body))
	return res
}

// gateCounts reads robots_gate_decisions_total by crawler, identity, action, reason.
func gateCounts(t *testing.T, reg *prometheus.Registry) map[[4]string]float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[[4]string]float64{}
	for _, mf := range mfs {
		if mf.GetName() != "robots_gate_decisions_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			l := labels(m)
			out[[4]string{l["crawler"], l["identity"], l["action"], l["reason"]}] += m.GetCounter().GetValue()
		}
	}
	// The request without forwarded headers is counted too; it is checked apart.
	return out
}

func labels(m *dto.Metric) map[string]string {
	out := map[string]string{}
	for _, l := range m.GetLabel() {
		out[l.GetName()] = l.GetValue()
	}
	return out
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// startNginx runs nginx on a free loopback port in front of upstream, asking the
// gate at gateAddr about every request (docs/gate.md's configuration), and
// returns its address. It stops when the test ends.
func startNginx(t *testing.T, bin, gateAddr, upstream string) string {
	t.Helper()
	dir := t.TempDir()
	addr := fmt.Sprintf("127.0.0.1:%d", testenv.FreePort(t))
	conf := fmt.Sprintf(nginxGateConf, dir, dir, dir, dir, dir, dir, dir, addr, gateAddr, upstream)
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	testenv.StartProgram(t, exec.Command(bin, "-p", dir, "-c", path, "-e", filepath.Join(dir, "error.log")), addr, filepath.Join(dir, "error.log"))
	return addr
}

// nginxGateConf is docs/gate.md's nginx configuration, with the test's paths
// and addresses.
const nginxGateConf = `
daemon off;
master_process off;
pid %s/nginx.pid;
error_log %s/error.log warn;
events { worker_connections 256; }
http {
	access_log off;
	client_body_temp_path %s/body;
	proxy_temp_path %s/proxy;
	fastcgi_temp_path %s/fastcgi;
	uwsgi_temp_path %s/uwsgi;
	scgi_temp_path %s/scgi;
	server {
		listen %s;
		server_name site.test;

		location / {
			auth_request /.robots-gate;
			auth_request_set $robots_gate $upstream_http_x_robots_gate;
			auth_request_set $robots_gate_reason $upstream_http_x_robots_gate_reason;
			auth_request_set $robots_gate_retry $upstream_http_retry_after;
			add_header X-Robots-Gate $robots_gate always;
			add_header X-Robots-Gate-Reason $robots_gate_reason always;
			error_page 500 = @robots_gate_error;
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
		location @robots_gate_error {
			if ($robots_gate = limit) {
				add_header Retry-After $robots_gate_retry always;
				add_header X-Robots-Gate $robots_gate always;
				add_header X-Robots-Gate-Reason $robots_gate_reason always;
				return 429 "Too many requests: robots.txt asks for a Crawl-delay\n";
			}
			return 500;
		}
	}
	upstream robots_gate { server %s; keepalive 16; }
	upstream site { server %s; }
}
`

// startCaddy runs Caddy on a free loopback port in front of upstream, asking the
// gate at gateAddr with forward_auth (docs/gate.md's Caddyfile), and returns its
// address. It stops when the test ends.
func startCaddy(t *testing.T, bin, gateAddr, upstream string) string {
	t.Helper()
	dir := t.TempDir()
	port := testenv.FreePort(t)
	conf := fmt.Sprintf(caddyGateConf, port, gateAddr, upstream)
	path := filepath.Join(dir, "Caddyfile")
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "--config", path, "--adapter", "caddyfile")
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	testenv.StartProgram(t, cmd, addr)
	return addr
}

// caddyGateConf is docs/gate.md's Caddyfile, with the test's addresses.
const caddyGateConf = `{
	admin off
	auto_https off
}
http://caddy.test:%d {
	bind 127.0.0.1
	forward_auth %s {
		uri /v1/gate
		copy_headers X-Robots-Gate X-Robots-Gate-Reason
	}
	reverse_proxy %s
}
`

// gateOpenAPI sends the gate's operations real requests, as a proxy would, and
// validates them and their answers against the OpenAPI document (TestOpenAPI).
func gateOpenAPI(t *testing.T, router routers.Router, seen map[string]bool) {
	dir := t.TempDir()
	file := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(file, []byte(gateSiteRobots), 0o644); err != nil {
		t.Fatal(err)
	}
	s, _ := start(t, Config{Tokens: []string{"t0ken"}, Gate: &gate.Config{Sites: []gate.Site{{Host: "site.test", File: file}},
		Policy: gate.Policy{Disallowed: gate.Refuse, CrawlDelay: gate.Slow, FailClosed: true}}})
	proxy := func(uri, ua string) map[string]string {
		return map[string]string{"X-Forwarded-Uri": uri, "X-Forwarded-Host": "site.test", "X-Forwarded-For": "192.0.2.7",
			"X-Forwarded-Method": "GET", "X-Forwarded-Proto": "https", "User-Agent": ua}
	}
	for _, tc := range []struct {
		name, method, path string
		header             map[string]string
		status             int
	}{
		{"gate pass", "GET", "/v1/gate", proxy("/a", fleetGPTBot), 200},
		{"gate deny", "GET", "/v1/gate", proxy("/no-ai/a", fleetGPTBot), 403},
		{"gate pass, HEAD", "HEAD", "/v1/gate", proxy("/b", fleetClaudeBot), 200},
		{"gate limit", "GET", "/v1/gate", proxy("/c", fleetClaudeBot), 429},
		{"gate bad request", "GET", "/v1/gate", map[string]string{"X-Forwarded-Host": "site.test"}, 403},
		{"gate report", "GET", "/v1/gate-report", map[string]string{"Authorization": "Bearer t0ken"}, 200},
		{"gate report without token", "GET", "/v1/gate-report", nil, 401},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, "http://"+s.Addr()+tc.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			route, params, err := router.FindRoute(req)
			if err != nil {
				t.Fatalf("%s %s is not in the document: %v", tc.method, tc.path, err)
			}
			seen[route.Operation.OperationID] = true
			in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
				Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: resp.StatusCode, Header: resp.Header,
				Body: io.NopCloser(bytes.NewReader(body)), Options: &openapi3filter.Options{IncludeResponseStatus: true}}
			if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
				t.Errorf("answer %d %.300s: %v", resp.StatusCode, body, err)
			}
		})
	}
}
