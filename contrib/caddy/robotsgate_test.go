package robotsgate

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/gorobots/robots/gate"
	"github.com/gorobots/robots/internal/testenv"
)

// The site behind Caddy: its robots.txt (line 5 disallows /no-ai/ to GPTBot).
const siteRobots = `User-agent: *
Disallow: /private/

User-agent: GPTBot
Disallow: /no-ai/

User-agent: ClaudeBot
Crawl-delay: 30
Disallow: /private/
`

// caddyConf runs two sites on one port before the loopback site: gate.test
// denies (403, 429), log.test only logs (the directive's defaults). GPTBot's
// range list is a local file (gptbotRange); nothing is fetched and no DNS asked.
// /alias is rewritten to a disallowed path: the gate judges the URL the crawler
// asked for. Caddy's access log and its metrics show the decisions.
const caddyConf = `{
	admin off
	auto_https off
}
http://gate.test:{{port}} {
	bind 127.0.0.1
	log {
		output file {{dir}}/access.log
		format json
	}
	robots_gate {
		robots {{dir}}/robots.txt
		disallowed deny
		crawl_delay 429
		impostor deny
		list GPTBot {{dir}}/gptbot.txt
		offline
		no_dns
	}
	rewrite /alias /no-ai/alias
	handle /metrics {
		metrics
	}
	reverse_proxy {{upstream}}
}
http://log.test:{{port}} {
	bind 127.0.0.1
	robots_gate {
		robots {{dir}}/robots.txt
		list GPTBot {{dir}}/gptbot.txt
		offline
		no_dns
	}
	reverse_proxy {{upstream}}
}
`

const gptbotRange = "127.0.2.0/24"

const (
	uaGPTBot    = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
	uaClaudeBot = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"
	uaCCBot     = "CCBot/2.0 (https://commoncrawl.org/faq/)"
	uaBrowser   = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36"
)

// TestCaddy builds Caddy with the module (cmd/caddy), runs it in front of a
// loopback site, and sends it a scripted fleet: each request's status and the
// gate's headers are what siteRobots says, the site's pages and robots.txt come
// through, and Caddy's metrics and access log record the decisions.
func TestCaddy(t *testing.T) {
	goBin := testenv.RequireBinary(t, "go")
	dir := t.TempDir()
	bin := filepath.Join(dir, "caddy")
	build := exec.Command(goBin, "build", "-o", bin, "./cmd/caddy")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building Caddy with the module: %v\n%s", err, out)
	}

	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, siteRobots)
			return
		}
		fmt.Fprintf(w, "page %s\n", r.URL.Path)
	}))
	defer site.Close()
	for name, body := range map[string]string{"robots.txt": siteRobots, "gptbot.txt": "# test range list\n" + gptbotRange + "\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	port := testenv.FreePort(t)
	conf := strings.NewReplacer("{{port}}", fmt.Sprint(port), "{{dir}}", dir,
		"{{upstream}}", strings.TrimPrefix(site.URL, "http://")).Replace(caddyConf)
	if err := os.WriteFile(filepath.Join(dir, "Caddyfile"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	cmd := exec.Command(bin, "run", "--config", filepath.Join(dir, "Caddyfile"), "--adapter", "caddyfile")
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	testenv.StartProgram(t, cmd, addr)

	for _, tc := range []struct {
		who, host, ua, from, path string
		status                    int
		verdict, reason           string // X-Robots-Gate, and the X-Robots-Gate-Reason token
		page                      string // the body that must come through, "" for a refusal
	}{
		// A verified GPTBot (from its range) reads robots.txt, then disobeys it.
		{"gptbot", "gate.test", uaGPTBot, "127.0.2.1", "/robots.txt", 200, "pass", "robots-txt", siteRobots},
		{"gptbot", "gate.test", uaGPTBot, "127.0.2.1", "/no-ai/page", 403, "deny", "disallowed", ""},
		{"gptbot", "gate.test", uaGPTBot, "127.0.2.1", "/private/x", 200, "pass", "allowed", "page /private/x\n"},
		// Rewritten by Caddy to /no-ai/alias: judged as asked, and allowed.
		{"gptbot", "gate.test", uaGPTBot, "127.0.2.1", "/alias", 200, "pass", "allowed", "page /no-ai/alias\n"},
		// GPTBot's name from outside its range: an impostor, refused; robots.txt passes.
		{"fake gptbot", "gate.test", uaGPTBot, "127.0.9.9", "/", 403, "deny", "impostor", ""},
		{"fake gptbot", "gate.test", uaGPTBot, "127.0.9.9", "/robots.txt", 200, "pass", "robots-txt", siteRobots},
		// CCBot cannot be verified here: judged as the crawler it claims.
		{"ccbot", "gate.test", uaCCBot, "127.0.3.1", "/private/a", 403, "deny", "disallowed", ""},
		// ClaudeBot honours Crawl-delay (30 s): its second request is too soon.
		{"claudebot", "gate.test", uaClaudeBot, "127.0.4.1", "/one", 200, "pass", "allowed", "page /one\n"},
		{"claudebot", "gate.test", uaClaudeBot, "127.0.4.1", "/two", 429, "limit", "crawl-delay", ""},
		// A browser is no crawler.
		{"browser", "gate.test", uaBrowser, "127.0.5.1", "/private/x", 200, "pass", "not-a-crawler", "page /private/x\n"},
		// log.test logs the violation and passes it.
		{"gptbot", "log.test", uaGPTBot, "127.0.2.1", "/no-ai/page", 200, "log", "disallowed", "page /no-ai/page\n"},
	} {
		res, body := get(t, addr, tc.host, tc.ua, tc.from, tc.path)
		name := fmt.Sprintf("%s %s%s", tc.who, tc.host, tc.path)
		if res.StatusCode != tc.status {
			t.Errorf("%s: status %d, want %d (%s %s)", name, res.StatusCode, tc.status, res.Header.Get(gate.HeaderReason), res.Header.Get(gate.HeaderError))
		}
		reason, _, _ := strings.Cut(res.Header.Get(gate.HeaderReason), ";")
		if v := res.Header.Get(gate.HeaderVerdict); v != tc.verdict || reason != tc.reason {
			t.Errorf("%s: %s %q, reason %q; want %s, %s", name, gate.HeaderVerdict, v, reason, tc.verdict, tc.reason)
		}
		if tc.page != "" && body != tc.page {
			t.Errorf("%s: body %q, want the site's %q", name, body, tc.page)
		}
		if tc.reason == "disallowed" && !strings.Contains(res.Header.Get(gate.HeaderReason), `line=5;rule="Disallow: /no-ai/"`) &&
			!strings.Contains(res.Header.Get(gate.HeaderReason), `line=2;rule="Disallow: /private/"`) {
			t.Errorf("%s: reason %q names no rule of robots.txt", name, res.Header.Get(gate.HeaderReason))
		}
		if tc.status == 429 && res.Header.Get("Retry-After") != "30" {
			t.Errorf("%s: Retry-After %q, want 30", name, res.Header.Get("Retry-After"))
		}
	}

	// Caddy's metrics: both sites' gates count in robots_gate_decisions_total.
	res, body := get(t, addr, "gate.test", uaBrowser, "127.0.0.1", "/metrics")
	if res.StatusCode != 200 {
		t.Fatalf("/metrics: %d", res.StatusCode)
	}
	got := decisions(t, body)
	for k, n := range map[[4]string]float64{
		{"GPTBot", "verified", "deny", "disallowed"}:         1,
		{"GPTBot", "verified", "log", "disallowed"}:          1, // log.test
		{"GPTBot", "verified", "pass", "robots-txt"}:         1,
		{"GPTBot", "verified", "pass", "allowed"}:            2,
		{"GPTBot", "impostor", "deny", "impostor"}:           1,
		{"GPTBot", "impostor", "pass", "robots-txt"}:         1,
		{"CCBot", "cannot-tell", "deny", "disallowed"}:       1,
		{"ClaudeBot", "cannot-tell", "pass", "allowed"}:      1,
		{"ClaudeBot", "cannot-tell", "limit", "crawl-delay"}: 1,
		{"", "", "pass", "not-a-crawler"}:                    2, // the browser, and this request
	} {
		if got[k] != n {
			t.Errorf("robots_gate_decisions_total%v = %v, want %v", k, got[k], n)
		}
	}

	// Caddy's access log carries the decision (written when each request ends:
	// the last one logged is the one for /metrics, so all before it are there).
	testenv.WaitFor(t, func() bool {
		b, _ := os.ReadFile(filepath.Join(dir, "access.log"))
		return strings.Contains(string(b), `"uri":"/metrics"`)
	})
	b, _ := os.ReadFile(filepath.Join(dir, "access.log"))
	for _, s := range []string{`"gate":"deny"`, `"gate_reason":"disallowed"`, `"orig_uri":"/no-ai/page"`, `"crawler":"GPTBot"`, `"rule_line":5`, `"gate_reason":"impostor"`} {
		if !strings.Contains(string(b), s) {
			t.Errorf("Caddy's access log lacks %s", s)
		}
	}
}

// get sends a request to Caddy from a loopback address of the crawler's own and
// returns the answer and its body.
func get(t *testing.T, addr, host, ua, from, path string) (*http.Response, string) {
	t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	c := &http.Client{Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}, Timeout: 10 * time.Second}
	r, _ := http.NewRequest("GET", "http://"+addr+path, nil)
	r.Host = host
	r.Header.Set("User-Agent", ua)
	res, err := c.Do(r)
	if err != nil {
		t.Fatalf("%s %s: %v", host, path, err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, string(b)
}

// decisions reads robots_gate_decisions_total from a Prometheus text
// exposition, by crawler, identity, action and reason.
func decisions(t *testing.T, text string) map[[4]string]float64 {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := p.TextToMetricFamilies(strings.NewReader(text))
	if err != nil {
		t.Fatalf("Caddy's metrics: %v", err)
	}
	out := map[[4]string]float64{}
	mf, ok := mfs["robots_gate_decisions_total"]
	if !ok {
		t.Fatalf("Caddy's metrics lack robots_gate_decisions_total")
	}
	for _, m := range mf.GetMetric() {
		l := map[string]string{}
		for _, lp := range m.GetLabel() {
			l[lp.GetName()] = lp.GetValue()
		}
		out[[4]string{l["crawler"], l["identity"], l["action"], l["reason"]}] += m.GetCounter().GetValue()
	}
	return out
}
