package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/dns/dnsmessage"

	"github.com/gorobots/robots/accesslog"
	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/internal/testenv"
	"github.com/gorobots/robots/webbotauth"
)

// The "done when" of issue 35: a real nginx on loopback serves a site, a scripted
// fleet crawls it from several 127.x addresses, and "robots logs -verify" on
// nginx's own access log reports exactly the violations and impostors injected.
// The operators' range lists are served by a loopback HTTP server and DNS by a
// loopback DNS server, and the signing crawler's key directory is a local file:
// nothing leaves the machine. nginx writes two logs of the same requests: its
// default Combined format, which holds no headers (the signed crawler cannot be
// told), and JSON lines in Caddy's shape with the signature headers (it is verified).

const fleetRobots = `User-agent: *
Disallow: /private/

User-agent: bingbot
Disallow: /private/
Crawl-delay: 5

User-agent: GPTBot
Disallow: /
`

const (
	uaGooglebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	uaBingbot   = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
	uaGPTBot    = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)"
	uaClaudeBot = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"
	uaFirefox   = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
	uaChatGPT   = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 ChatGPT Agent"
)

func TestLogsNginxFleet(t *testing.T) {
	nginx := testenv.RequireBinary(t, "nginx", "/usr/sbin/nginx")
	dir := t.TempDir()
	site := filepath.Join(dir, "site")
	for name, body := range map[string]string{
		"robots.txt": fleetRobots, "index.html": "home", "public/a": "a", "public/1": "1", "public/2": "2",
		"public/3": "3", "public/c": "c", "private/x": "x", "private/secret": "s", "private/other": "o", "y": "y",
	} {
		p := filepath.Join(site, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	accessLog := filepath.Join(dir, "access.log")
	jsonLog := filepath.Join(dir, "access.json")
	addr := startNginx(t, nginx, dir, site, accessLog, jsonLog)

	// The range lists: the fleet's real crawlers are each at one address; every other
	// list of the registry is served empty, so that no list is fetched from outside.
	lists := map[string]string{
		"Googlebot": `{"prefixes":[{"ipv4Prefix":"127.0.0.10/32"}]}`,
		"bingbot":   `{"prefixes":[{"ipv4Prefix":"127.0.0.20/32"}]}`,
		"GPTBot":    `{"prefixes":[{"ipv4Prefix":"127.0.0.30/32"}]}`,
	}
	ranges := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if body, ok := lists[strings.TrimPrefix(r.URL.Path, "/")]; ok {
			io.WriteString(w, body)
			return
		}
		io.WriteString(w, `{"prefixes":[]}`)
	}))
	t.Cleanup(ranges.Close)
	args := []string{"logs", "-robots", filepath.Join(site, "robots.txt"), "-format", "json", "-verify"}
	seen := map[string]bool{}
	for _, c := range crawlers.All() {
		for _, u := range c.Verify.Ranges {
			if !seen[u] {
				seen[u] = true
				args = append(args, "-ranges", u+"="+ranges.URL+"/empty")
			}
		}
	}
	for token := range lists {
		args = append(args, "-ranges", token+"="+ranges.URL+"/"+token)
	}
	// DNS: 127.0.0.66 has no PTR record; 127.0.0.67's PTR names a googlebot.com host
	// whose address is another: neither is forward-confirmed.
	dns := startDNS(t, map[string]string{"67.0.0.127.in-addr.arpa.": "crawl-67.googlebot.com."},
		map[string][4]byte{"crawl-67.googlebot.com.": {127, 0, 0, 99}})
	args = append(args, "-dns", dns)

	// The fleet.
	base := "http://" + addr
	get := func(from, ua string, paths ...string) {
		t.Helper()
		c := clientFrom(t, from)
		for _, p := range paths {
			req, _ := http.NewRequest("GET", base+p, nil)
			req.Header.Set("User-Agent", ua)
			resp, err := c.Do(req)
			if err != nil {
				t.Fatalf("%s from %s: %v", p, from, err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		c.CloseIdleConnections()
	}
	// Googlebot, verified by its range list, obeys.
	get("127.0.0.10", uaGooglebot, "/robots.txt", "/", "/public/a")
	// bingbot, verified, honours Crawl-delay but asks four URLs within a second
	// while its group says 5 s: the last three are too fast at any clock alignment.
	get("127.0.0.20", uaBingbot, "/robots.txt", "/public/1", "/public/2", "/public/3")
	// GPTBot, verified, fetches what its group disallows (line 9).
	get("127.0.0.30", uaGPTBot, "/robots.txt", "/private/x", "/y")
	// ClaudeBot has no range list or DNS name: cannot tell; it obeys.
	get("127.0.0.40", uaClaudeBot, "/robots.txt", "/public/c")
	// Two impostors claim to be Googlebot: in no range list, and DNS does not confirm.
	get("127.0.0.66", uaGooglebot, "/private/secret", "/admin")
	get("127.0.0.67", uaGooglebot, "/private/other")
	// A browser is no crawler, wherever it goes.
	get("127.0.0.1", uaFirefox, "/private/x")
	// ChatGPT's agent signs its requests (Web Bot Auth) with the key of its
	// directory, https://chatgpt.com, which the test maps to a local JWKS file.
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	keys := filepath.Join(dir, "chatgpt-keys.json")
	if err := os.WriteFile(keys, webbotauth.MarshalDirectory(pub), 0o644); err != nil {
		t.Fatal(err)
	}
	args = append(args, "-ranges", "https://chatgpt.com="+keys)
	signed := clientFrom(t, "127.0.0.50")
	signed.Transport = &webbotauth.Transport{Signer: &webbotauth.Signer{Key: priv, Agent: "https://chatgpt.com"}, Base: signed.Transport}
	for _, p := range []string{"/robots.txt", "/public/a"} {
		req, _ := http.NewRequest("GET", base+p, nil)
		req.Header.Set("User-Agent", uaChatGPT)
		resp, err := signed.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}

	// nginx writes a request's line after it has answered: wait for all 18 lines
	// the fleet sent before reading either log.
	for _, f := range []string{accessLog, jsonLog} {
		testenv.WaitFor(t, func() bool { b, _ := os.ReadFile(f); return bytes.Count(b, []byte("\n")) >= 18 })
	}
	// The Combined log holds no headers: the signed requests cannot be told.
	checkFleetReport(t, append(args, accessLog), accessLog, "cannot-tell", "")
	// The JSON log holds them: the signature verifies.
	checkFleetReport(t, append(args, jsonLog), jsonLog, "verified", "signature")
}

// checkFleetReport runs robots logs and checks its report against what the fleet
// did; the ChatGPT agent's row has the identity and method given.
func checkFleetReport(t *testing.T, args []string, logFile, chatgptIdentity, chatgptMethod string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
	var ee exitError
	if !errors.As(err, &ee) || ee.code != 1 {
		t.Fatalf("robots logs: %v (want exit status 1); stderr:\n%s", err, stderr.String())
	}
	var rep accesslog.Report
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	log, _ := os.ReadFile(logFile)
	if rep.Records != 18 || rep.Skipped != 0 || rep.Crawler != 17 {
		t.Fatalf("%s: records %d, skipped %d, crawler requests %d; want 18, 0, 17. The log:\n%s", logFile, rep.Records, rep.Skipped, rep.Crawler, log)
	}
	if rep.Violations != 5 || rep.Impostors != 3 {
		t.Errorf("%s: violations %d, impostors %d; want 5 (GPTBot 2, bingbot 3), 3", logFile, rep.Violations, rep.Impostors)
	}
	type want struct {
		requests, robots, allowed, disallowed, tooFast int64
		addrs                                          string
		rule                                           string // "line rule", of the only rule
		method                                         string
	}
	wants := map[string]want{
		"Googlebot/verified":         {3, 1, 2, 0, 0, "127.0.0.10", "", "ip-range"},
		"Googlebot/impostor":         {3, 0, 1, 2, 0, "127.0.0.66 127.0.0.67", "2 Disallow: /private/", "reverse-dns"},
		"bingbot/verified":           {4, 1, 3, 0, 3, "127.0.0.20", "", "ip-range"},
		"GPTBot/verified":            {3, 1, 0, 2, 0, "127.0.0.30", "9 Disallow: /", "ip-range"},
		"ClaudeBot/" + CannotTell:    {2, 1, 1, 0, 0, "127.0.0.40", "", ""},
		"ChatGPT/" + chatgptIdentity: {2, 1, 1, 0, 0, "127.0.0.50", "", chatgptMethod},
	}
	if len(rep.Crawlers) != len(wants) {
		t.Errorf("%s: %d rows, want %d: %+v", logFile, len(rep.Crawlers), len(wants), rep.Crawlers)
	}
	for _, r := range rep.Crawlers {
		key := r.Crawler + "/" + r.Identity
		w, ok := wants[key]
		if !ok {
			t.Errorf("%s: unexpected row %s: %+v", logFile, key, r)
			continue
		}
		var addrs []string
		for _, a := range r.Addresses {
			addrs = append(addrs, a.Value)
		}
		rule := ""
		if len(r.Rules) == 1 {
			rule = fmt.Sprintf("%d %s", r.Rules[0].Line, r.Rules[0].Rule)
		}
		got := want{r.Requests, r.RobotsFetches, r.Allowed, r.Disallowed, r.TooFast, strings.Join(addrs, " "), rule, r.Method}
		if got != w {
			t.Errorf("%s: %s: got %+v, want %+v (%s)", logFile, key, got, w, r.Detail)
		}
	}
	if t.Failed() {
		t.Logf("the access log:\n%s\nstderr:\n%s", log, stderr.String())
	}
}

// CannotTell is accesslog.CannotTell, short for the table.
const CannotTell = accesslog.CannotTell

// clientFrom returns an HTTP client whose connections come from the local address ip.
func clientFrom(t *testing.T, ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}, Timeout: 10 * time.Second}
}

// startNginx runs nginx in the foreground on a free loopback port, serving root,
// writing the Combined Log Format (nginx's default, with the client address) to
// accessLog and JSON lines with the request headers to jsonLog, and returns its
// address. It is stopped when the test ends.
func startNginx(t *testing.T, bin, dir, root, accessLog, jsonLog string) string {
	t.Helper()
	port := testenv.FreePort(t)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	conf := fmt.Sprintf(`daemon off;
master_process off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log;
events { worker_connections 64; }
http {
	client_body_temp_path %[1]s/body;
	proxy_temp_path %[1]s/proxy;
	fastcgi_temp_path %[1]s/fastcgi;
	uwsgi_temp_path %[1]s/uwsgi;
	scgi_temp_path %[1]s/scgi;
	access_log %[2]s combined;
	# The same requests as JSON lines in the shape of Caddy's access log, with the
	# headers a Web Bot Auth signature needs ($http_host: the Host as sent, port and
	# all, which the signature's @authority covers).
	log_format caddy escape=json '{"ts":$msec,"status":$status,"request":{"client_ip":"$remote_addr",'
		'"method":"$request_method","host":"$http_host","uri":"$request_uri","headers":{'
		'"User-Agent":["$http_user_agent"],"Signature":["$http_signature"],'
		'"Signature-Input":["$http_signature_input"],"Signature-Agent":["$http_signature_agent"]}}}';
	access_log %[5]s caddy;
	server {
		listen %[3]s;
		root %[4]s;
	}
}
`, dir, accessLog, addr, root, jsonLog)
	confFile := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(confFile, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	errorLog := filepath.Join(dir, "error.log")
	testenv.StartProgram(t, exec.Command(bin, "-c", confFile, "-p", dir, "-e", errorLog), addr, errorLog)
	return addr
}

// startDNS answers DNS on a loopback UDP port: PTR records from ptr (reverse name →
// host name) and A records from a; any other name does not exist. It returns the
// server's address.
func startDNS(t *testing.T, ptr map[string]string, a map[string][4]byte) string {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	t.Cleanup(func() { pc.Close(); wg.Wait() })
	go func() {
		defer wg.Done()
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			if out, ok := dnsAnswer(buf[:n], ptr, a); ok {
				pc.WriteTo(out, from)
			}
		}
	}()
	return pc.LocalAddr().String()
}

func dnsAnswer(query []byte, ptr map[string]string, a map[string][4]byte) ([]byte, bool) {
	var p dnsmessage.Parser
	h, err := p.Start(query)
	if err != nil {
		return nil, false
	}
	q, err := p.Question()
	if err != nil {
		return nil, false
	}
	name := strings.ToLower(q.Name.String())
	resp := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionDesired: h.RecursionDesired})
	resp.EnableCompression()
	_, hasPTR := ptr[name]
	_, hasA := a[name]
	if !hasPTR && !hasA {
		resp = dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RCode: dnsmessage.RCodeNameError})
	}
	resp.StartQuestions()
	resp.Question(q)
	resp.StartAnswers()
	rh := dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 60}
	switch {
	case q.Type == dnsmessage.TypePTR && hasPTR:
		resp.PTRResource(rh, dnsmessage.PTRResource{PTR: dnsmessage.MustNewName(ptr[name])})
	case q.Type == dnsmessage.TypeA && hasA:
		resp.AResource(rh, dnsmessage.AResource{A: a[name]})
	}
	out, err := resp.Finish()
	return out, err == nil
}
