package fetch_test

import (
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"sync"
	"testing"

	"github.com/gorobots/robots/fetch"
)

// proxy is an HTTP proxy on loopback that answers every robots.txt itself and
// records the URLs asked for.
type proxy struct {
	mu   sync.Mutex
	urls []string
	url  string
}

func startProxy(t *testing.T) *proxy {
	p := &proxy{}
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.urls = append(p.urls, r.URL.String()) // absolute: a request to a proxy
		p.mu.Unlock()
		w.Write([]byte(rulesBody))
	})
	p.url = srv.URL
	return p
}

func (p *proxy) seen() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.urls...)
}

// TestProxy: robots.txt requests go through the proxy Config.Proxy names, or
// through the caller's own transport (Config.HTTP); with NoProxy, directly.
func TestProxy(t *testing.T) {
	p := startProxy(t)
	pu, _ := url.Parse(p.url)
	viaProxy := &http.Transport{Proxy: http.ProxyURL(pu)}
	t.Cleanup(viaProxy.CloseIdleConnections)
	for _, tc := range []struct {
		name string
		cfg  fetch.Config
	}{
		{"Proxy", fetch.Config{Proxy: http.ProxyURL(pu)}},
		{"the caller's transport", fetch.Config{HTTP: viaProxy, Proxy: fetch.NoProxy}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(p.seen())
			res := mustGet(t, newClient(t, tc.cfg), "http://site.test/page", t0)
			if res.Outcome != fetch.Success || res.Allowed(agent, "http://site.test/private") {
				t.Errorf("%v %v; want the proxy's file obeyed", res.Outcome, res.Effect)
			}
			if got := p.seen()[before:]; len(got) != 1 || got[0] != "http://site.test/robots.txt" {
				t.Errorf("the proxy saw %v; want http://site.test/robots.txt", got)
			}
		})
	}
	t.Run("NoProxy", func(t *testing.T) {
		before := len(p.seen())
		res := mustGet(t, newClient(t, fetch.Config{Proxy: fetch.NoProxy, DialContext: failingResolver(t).DialContext}), "http://site.test/", t0)
		if res.Outcome != fetch.Unreachable || len(p.seen()) != before {
			t.Errorf("%v, proxy asked %d times; want a direct attempt, unreachable", res.Outcome, len(p.seen())-before)
		}
	})
}

// TestProxyFromEnvironment: by default robots.txt requests use the environment's
// proxy, as http.DefaultTransport does. net/http reads the environment once per
// process, so the check runs in a process of its own.
func TestProxyFromEnvironment(t *testing.T) {
	if os.Getenv("FETCH_TEST_PROXY_CHILD") == "1" {
		res := mustGet(t, newClient(t, fetch.Config{}), "http://site.test/page", t0)
		if res.Outcome != fetch.Success || res.Allowed(agent, "http://site.test/private") {
			t.Fatalf("%v %v; want the proxy's file obeyed", res.Outcome, res.Effect)
		}
		return
	}
	p := startProxy(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestProxyFromEnvironment$", "-test.count=1")
	cmd.Env = append(os.Environ(), "FETCH_TEST_PROXY_CHILD=1", "HTTP_PROXY="+p.url, "http_proxy="+p.url, "NO_PROXY=", "no_proxy=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if got := p.seen(); len(got) != 1 || got[0] != "http://site.test/robots.txt" {
		t.Errorf("the proxy saw %v; want http://site.test/robots.txt", got)
	}
}
