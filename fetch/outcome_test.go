package fetch_test

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/testenv"
)

// TestOutcomeTable runs every row of the outcome table of SPEC §2 against a real
// server on loopback. The expected verdicts follow from the table: 2xx obey the file
// (rulesBody disallows /private), 4xx except 429 allow everything, 429, 5xx and
// network failures disallow everything (no cached copy exists yet).
func TestOutcomeTable(t *testing.T) {
	type want struct {
		outcome fetch.Outcome
		effect  fetch.Effect
		status  int
		private bool // verdict for /private/x
		public  bool // verdict for /public/x
	}
	obey := want{fetch.Success, fetch.ObeyRules, 200, false, true}
	allow := func(status int) want { return want{fetch.Unavailable, fetch.AllowAll, status, true, true} }
	deny := func(status int) want { return want{fetch.Unreachable, fetch.DisallowAll, status, false, false} }

	type row struct {
		name string
		url  func(t *testing.T) string
		want want
	}
	tests := []row{
		{"200", httpStatus(200, rulesBody), obey},
		{"203", httpStatus(203, rulesBody), want{fetch.Success, fetch.ObeyRules, 203, false, true}},
		{"204 empty", httpStatus(204, ""), want{fetch.Success, fetch.ObeyRules, 204, true, true}},
		{"206", httpStatus(206, rulesBody), want{fetch.Success, fetch.ObeyRules, 206, false, true}},
		{"301 to 200", redirectChain(1, 301), obey},
		{"302 to 200", redirectChain(1, 302), obey},
		{"303 to 200", redirectChain(1, 303), obey},
		{"307 to 200", redirectChain(1, 307), obey},
		{"308 to 200", redirectChain(1, 308), obey},
		{"5 redirects", redirectChain(5, 301), obey},
		{"6 redirects read as 404", redirectChain(6, 301), allow(301)},
		{"redirect loop read as 404", redirectLoop, allow(302)},
		{"redirect without Location read as 404", httpStatus(302, ""), allow(302)},
		{"redirect to 503", redirectTo(503), deny(503)},
		{"redirect to 404", redirectTo(404), allow(404)},
		{"connection refused", func(t *testing.T) string { return "http://" + closedPort(t) }, deny(0)},
		{"DNS failure", dnsFailure, deny(0)},
		{"reset before answering", resetServer, deny(0)},
		{"hang before answering", hangServer, deny(0)},
		{"body trickles past the timeout", trickleServer, deny(200)},
		{"invalid response", invalidResponse, deny(0)},
		{"broken chunking", brokenChunking, deny(200)},
		{"body cut short", shortBody, deny(200)},
		{"corrupt gzip", corruptGzip, deny(200)},
	}
	// The other statuses answer with rulesBody: the status alone decides.
	for _, status := range []int{300, 400, 401, 403, 404, 410, 451} {
		tests = append(tests, row{strconv.Itoa(status), httpStatus(status, rulesBody), allow(status)})
	}
	for _, status := range []int{429, 500, 502, 503, 504, 599} {
		tests = append(tests, row{strconv.Itoa(status), httpStatus(status, rulesBody), deny(status)})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base := tc.url(t)
			// Only the rows about the timeout wait for it; the others get room to
			// finish their hops on a loaded machine (a redirect loop timed out at 500 ms
			// under CI's load and read as unreachable).
			cfg := fetch.Config{Timeout: 30 * time.Second}
			if tc.name == "hang before answering" || tc.name == "body trickles past the timeout" {
				cfg.Timeout = 500 * time.Millisecond
			}
			if tc.name == "DNS failure" {
				cfg.DialContext = failingResolver(t).DialContext
			}
			c := newClient(t, cfg)
			res := mustGet(t, c, base+"/public/x", t0)
			got := want{res.Outcome, res.Effect, res.Status, false, false}
			got.private, got.public = verdicts(res)
			if got != tc.want {
				t.Errorf("got %+v; want %+v (err %v, hops %v)", got, tc.want, res.Err, res.Hops)
			}
			if tc.want.outcome == fetch.Unreachable && res.Err == nil && res.Status == 0 {
				t.Errorf("network failure without Err")
			}
		})
	}
}

func httpStatus(status int, body string) func(t *testing.T) string {
	return func(t *testing.T) string { return serve(t, answer(status, body)).URL }
}

// redirectChain serves /robots.txt → /r1 → … → /rN → rulesBody, with code.
func redirectChain(n, code int) func(t *testing.T) string {
	return func(t *testing.T) string { return redirectChainTo(t, n, code, rulesBody) }
}

// redirectChainTo serves /robots.txt → /r1 → … → /rN → body, with code.
func redirectChainTo(t *testing.T, n, code int, body string) string {
	return serve(t, func(w http.ResponseWriter, r *http.Request) {
		step := 0
		if r.URL.Path != "/robots.txt" {
			fmt.Sscanf(r.URL.Path, "/r%d", &step)
		}
		if step < n {
			http.Redirect(w, r, fmt.Sprintf("/r%d", step+1), code)
			return
		}
		w.Write([]byte(body))
	}).URL
}

func redirectLoop(t *testing.T) string {
	return serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.Redirect(w, r, "/loop", http.StatusFound)
			return
		}
		http.Redirect(w, r, "/robots.txt", http.StatusFound)
	}).URL
}

// redirectTo serves a redirect to another server that answers status.
func redirectTo(status int) func(t *testing.T) string {
	return func(t *testing.T) string {
		target := serve(t, answer(status, rulesBody))
		return serve(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, target.URL+"/robots.txt", http.StatusMovedPermanently)
		}).URL
	}
}

// failingResolver is a dialer whose DNS server refuses every query.
func failingResolver(t *testing.T) *net.Dialer {
	dnsAddr := closedPort(t)
	return &net.Dialer{Resolver: &net.Resolver{PreferGo: true,
		Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, dnsAddr)
		}}}
}

func dnsFailure(t *testing.T) string { return "http://robots-fetch-test.invalid" }

func resetServer(t *testing.T) string {
	return rawServer(t, func(c net.Conn, br *bufio.Reader) {
		readRequest(br)
		c.(*net.TCPConn).SetLinger(0) // close with RST
	})
}

func hangServer(t *testing.T) string {
	return rawServer(t, func(c net.Conn, br *bufio.Reader) {
		readRequest(br)
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		br.ReadByte() // until the client gives up or the test ends
	})
}

func trickleServer(t *testing.T) string {
	return serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
		for i := 0; i < 100; i++ { // 5 s at most, 10 times the client's timeout
			if _, err := w.Write([]byte("#")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}).URL
}

func invalidResponse(t *testing.T) string {
	return rawServer(t, func(c net.Conn, br *bufio.Reader) {
		readRequest(br)
		c.Write([]byte("SSH-2.0-OpenSSH_9.2\r\n\r\n"))
	})
}

func brokenChunking(t *testing.T) string {
	return rawServer(t, func(c net.Conn, br *bufio.Reader) {
		readRequest(br)
		c.Write([]byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nUser-\r\nzz\r\nagent\r\n0\r\n\r\n"))
	})
}

func shortBody(t *testing.T) string {
	return rawServer(t, func(c net.Conn, br *bufio.Reader) {
		readRequest(br)
		c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nUser-agent: *\n"))
	})
}

func corruptGzip(t *testing.T) string {
	return serve(t, answer(200, "\x1f\x8b\x08\x00garbage that is not deflate", "Content-Encoding", "gzip")).URL
}

// TestRedirectHops checks the story of a redirected fetch: every hop recorded, the
// rules of the last applying to the original origin.
func TestRedirectHops(t *testing.T) {
	base := redirectChain(5, http.StatusMovedPermanently)(t)
	res := mustGet(t, newClient(t, fetch.Config{}), base+"/", t0)
	want := []fetch.Hop{{base + "/robots.txt", 301}, {base + "/r1", 301}, {base + "/r2", 301},
		{base + "/r3", 301}, {base + "/r4", 301}, {base + "/r5", 200}}
	if fmt.Sprint(res.Hops) != fmt.Sprint(want) {
		t.Errorf("hops = %v; want %v", res.Hops, want)
	}
	if res.Origin != base || res.RobotsURL != base+"/robots.txt" {
		t.Errorf("origin %q robots %q; want %q", res.Origin, res.RobotsURL, base)
	}

	base6 := redirectChain(6, http.StatusMovedPermanently)(t)
	res = mustGet(t, newClient(t, fetch.Config{}), base6+"/", t0)
	if len(res.Hops) != 6 || !strings.Contains(fmt.Sprint(res.Err), fetch.ErrTooManyRedirects.Error()) {
		t.Errorf("6 redirects: %d hops, err %v; want 6 hops and %q", len(res.Hops), res.Err, fetch.ErrTooManyRedirects)
	}
}

// TestLegacy1996Redirects: the 1996 draft (§3.1) says "a robot should follow the
// redirects until a resource can be found". Under legacy1996 six 302s then a 200 with
// "Disallow: /x" give that file's rules (RFC 9309's five hops would read the chain as
// a 404 and allow everything); the chain is followed up to Legacy1996MaxRedirects
// (20) and never round a loop.
func TestLegacy1996Redirects(t *testing.T) {
	const body = "User-agent: *\nDisallow: /x\n"
	legacy := fetch.Config{Dialect: robots.Legacy1996}
	tests := []struct {
		name      string
		cfg       fetch.Config
		redirects int
		outcome   fetch.Outcome
		xAllowed  bool
		hops      int
	}{
		{"legacy1996: six 302s then the file", legacy, 6, fetch.Success, false, 7},
		{"legacy1996: twenty 302s then the file", legacy, fetch.Legacy1996MaxRedirects, fetch.Success, false, 21},
		{"legacy1996: twenty-one 302s read as 404", legacy, fetch.Legacy1996MaxRedirects + 1, fetch.Unavailable, true, 21},
		{"google: six 302s read as 404", fetch.Config{}, 6, fetch.Unavailable, true, 6},
		{"rfc9309: six 302s read as 404", fetch.Config{Dialect: robots.RFC9309}, 6, fetch.Unavailable, true, 6},
		{"google: five 302s then the file", fetch.Config{}, 5, fetch.Success, false, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustGet(t, newClient(t, tt.cfg), redirectChainTo(t, tt.redirects, http.StatusFound, body)+"/", t0)
			if res.Outcome != tt.outcome || res.Allowed(agent, "/x") != tt.xAllowed || len(res.Hops) != tt.hops {
				t.Errorf("%v, /x allowed %v, %d hops (err %v); want %v, %v, %d hops",
					res.Outcome, res.Allowed(agent, "/x"), len(res.Hops), res.Err, tt.outcome, tt.xAllowed, tt.hops)
			}
		})
	}
	t.Run("legacy1996: a loop stops at once", func(t *testing.T) {
		res := mustGet(t, newClient(t, legacy), redirectLoop(t)+"/", t0)
		if res.Outcome != fetch.Unavailable || !errors.Is(res.Err, fetch.ErrTooManyRedirects) || len(res.Hops) != 2 {
			t.Errorf("%v, err %v, %d hops; want unavailable, %q, 2 hops (/robots.txt, /loop)", res.Outcome, res.Err, len(res.Hops), fetch.ErrTooManyRedirects)
		}
	})
}

// TestCrossHostRedirect: rules found by following a redirect to another host apply
// to the original origin only, and are never cached under the target's origin.
func TestCrossHostRedirect(t *testing.T) {
	target := serve(t, answer(200, "User-agent: *\nDisallow: /target-only\n"))
	origin := serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/robots.txt", http.StatusMovedPermanently)
	})
	var misses []string
	c := newClient(t, fetch.Config{Observer: fetch.Observer{CacheMiss: func(o string) { misses = append(misses, o) }}})
	res := mustGet(t, c, origin.URL+"/x", t0)
	if res.Origin != origin.URL || res.Allowed(agent, "/target-only") {
		t.Fatalf("origin %s allowed /target-only = %v; want origin %s, disallowed", res.Origin, res.Allowed(agent, "/target-only"), origin.URL)
	}
	// The target's own robots.txt (the same file here) must be fetched for its origin.
	res = mustGet(t, c, target.URL+"/x", t0)
	if res.Origin != target.URL || len(res.Hops) != 1 {
		t.Errorf("target: origin %s hops %v; want its own fetch", res.Origin, res.Hops)
	}
	if fmt.Sprint(misses) != fmt.Sprint([]string{origin.URL, target.URL}) || target.Hits() != 2 {
		t.Errorf("misses %v, target hits %d; want a miss per origin and 2 fetches of the target", misses, target.Hits())
	}
}

// TestBodies: bodies over the limit, compressed bodies and bombs, HTML, BOM and CRLF.
func TestBodies(t *testing.T) {
	limit := robots.DefaultMaxBytes
	// A file whose rule past the limit must be ignored.
	big := rulesBody + strings.Repeat("# filler line of a large robots.txt file\n", limit/40+10) + "Disallow: /late\n"
	bomb := append([]byte("User-agent: *\n"), bytes.Repeat([]byte("Disallow: /bomb\n"), 8<<20/16)...) // 8 MiB decoded, 16 times the limit

	tests := []struct {
		name      string
		body      []byte
		encoding  string
		truncated bool
		bytesRead int64
		disallow  []string // paths that must be disallowed
		allow     []string // paths that must be allowed
	}{
		{"over the limit", []byte(big), "", true, int64(limit), []string{"/private"}, []string{"/late"}},
		{"exactly the limit", []byte(rulesBody + strings.Repeat("#", limit-len(rulesBody))), "", false, int64(limit), []string{"/private"}, nil},
		{"gzip", gz([]byte(rulesBody)), "gzip", false, int64(len(rulesBody)), []string{"/private"}, []string{"/public"}},
		{"gzip over the limit", gz([]byte(big)), "gzip", true, int64(limit), []string{"/private"}, []string{"/late"}},
		{"gzip bomb", gz(bomb), "gzip", true, int64(limit), []string{"/bomb"}, []string{"/public"}},
		{"deflate (zlib)", zl([]byte(rulesBody)), "deflate", false, int64(len(rulesBody)), []string{"/private"}, nil},
		{"deflate (raw)", fl([]byte(rulesBody)), "deflate", false, int64(len(rulesBody)), []string{"/private"}, nil},
		{"deflate bomb", zl(bomb), "deflate", true, int64(limit), []string{"/bomb"}, nil},
		{"HTML page", []byte("<!DOCTYPE html>\n<html><body><pre>\nUser-agent: *\nDisallow: /html/\n</pre></body></html>\n"), "", false, -1, []string{"/html/x"}, []string{"/public"}},
		{"BOM and CRLF", []byte("\xef\xbb\xbfUser-agent: *\r\nDisallow: /bom\r\n"), "", false, -1, []string{"/bom"}, []string{"/public"}},
		{"CR only", []byte("User-agent: *\rDisallow: /cr\r"), "", false, -1, []string{"/cr"}, []string{"/public"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				if tc.encoding != "" {
					w.Header().Set("Content-Encoding", tc.encoding)
				}
				w.Write(tc.body)
			})
			res := mustGet(t, newClient(t, fetch.Config{}), srv.URL+"/", t0)
			if res.Outcome != fetch.Success || res.Truncated != tc.truncated {
				t.Fatalf("outcome %v truncated %v (err %v); want success, truncated %v", res.Outcome, res.Truncated, res.Err, tc.truncated)
			}
			if tc.bytesRead >= 0 && res.BytesRead != tc.bytesRead {
				t.Errorf("BytesRead = %d; want %d", res.BytesRead, tc.bytesRead)
			}
			if res.WireBytes > int64(limit)+1 {
				t.Errorf("WireBytes = %d; want at most the limit + 1 (%d)", res.WireBytes, limit+1)
			}
			for _, p := range tc.disallow {
				if res.Allowed(agent, p) {
					t.Errorf("%s allowed; want disallowed", p)
				}
			}
			for _, p := range tc.allow {
				if !res.Allowed(agent, p) {
					t.Errorf("%s disallowed; want allowed", p)
				}
			}
		})
	}
}

// compress returns b written through a compressor made by newWriter.
func compress[W io.WriteCloser](b []byte, newWriter func(io.Writer, int) (W, error), level int) []byte {
	var buf bytes.Buffer
	w, _ := newWriter(&buf, level)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func gz(b []byte) []byte { return compress(b, gzip.NewWriterLevel, gzip.BestCompression) }
func zl(b []byte) []byte { return compress(b, zlib.NewWriterLevel, zlib.BestCompression) }
func fl(b []byte) []byte { return compress(b, flate.NewWriter, flate.BestCompression) }

// TestDialerSeesEveryHop: the dialer given as an option makes every connection of
// a redirect chain, to every host.
func TestDialerSeesEveryHop(t *testing.T) {
	target := serve(t, answer(200, rulesBody))
	origin := serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/robots.txt", http.StatusFound)
	})
	var dialled []string
	d := &net.Dialer{}
	c := newClient(t, fetch.Config{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dialled = append(dialled, addr)
		return d.DialContext(ctx, network, addr)
	}})
	mustGet(t, c, origin.URL+"/", t0)
	want := []string{strings.TrimPrefix(origin.URL, "http://"), strings.TrimPrefix(target.URL, "http://")}
	if fmt.Sprint(dialled) != fmt.Sprint(want) {
		t.Errorf("dialled %v; want %v", dialled, want)
	}

	// A dialer that refuses (as an SSRF guard would) makes the origin unreachable.
	refuse := errors.New("address not allowed")
	c = newClient(t, fetch.Config{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		return nil, refuse
	}})
	res := mustGet(t, c, origin.URL+"/", t0)
	if res.Outcome != fetch.Unreachable || !strings.Contains(fmt.Sprint(res.Err), refuse.Error()) {
		t.Errorf("refusing dialer: outcome %v err %v; want unreachable with %q", res.Outcome, res.Err, refuse)
	}
}

// TestBadURLs: URLs without a robots.txt are errors, not outcomes.
func TestBadURLs(t *testing.T) {
	c := newClient(t, fetch.Config{})
	for _, tc := range []struct{ name, url string }{
		{"empty", ""},
		{"relative", "/relative"},
		{"mailto", "mailto:a@example.com"},
		{"no host", "http://"},
		{"unclosed bracket", "http://[::1"},
		{"port out of range", "http://host:99999/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if res, err := c.Get(context.Background(), tc.url); err == nil {
				t.Errorf("Get(%q) = %+v, nil; want an error", tc.url, res)
			}
		})
	}
	t.Run("gopher", func(t *testing.T) {
		_, err := c.Get(context.Background(), "gopher://example.com/")
		if !errors.Is(err, fetch.ErrUnsupportedScheme) {
			t.Errorf("gopher: %v; want ErrUnsupportedScheme", err)
		}
	})
}

// TestErrKeepsType: the error of a fetch can be matched with errors.Is, from the
// fetch and from the cache.
func TestErrKeepsType(t *testing.T) {
	refuse := errors.New("address not allowed")
	c := newClient(t, fetch.Config{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		return nil, refuse
	}})
	for i := range 2 {
		res := mustGet(t, c, "http://blocked.test/", t0)
		if !errors.Is(res.Err, refuse) {
			t.Errorf("get %d: Err %v does not match the dialer's error", i+1, res.Err)
		}
	}
}

// TestHTTPS fetches over TLS; the default port 443 is no part of the origin.
func TestHTTPS(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(rulesBody))
	}))
	defer srv.Close()
	c := newClient(t, fetch.Config{TLSConfig: srv.Client().Transport.(*http.Transport).TLSClientConfig})
	res := mustGet(t, c, srv.URL+"/", t0)
	if res.Outcome != fetch.Success || res.Allowed(agent, "/private") || !strings.HasPrefix(res.Origin, "https://127.0.0.1:") {
		t.Errorf("https: %v %s (err %v); want success", res.Outcome, res.Origin, res.Err)
	}
	// Without the test root, the certificate is invalid: a network failure.
	res = mustGet(t, newClient(t, fetch.Config{}), srv.URL+"/", t0)
	if res.Outcome != fetch.Unreachable {
		t.Errorf("untrusted certificate: %v; want unreachable", res.Outcome)
	}
}

// TestInternationalHost: the request for an internationalised host goes to its
// punycode name, and the result is kept under the punycode origin (SPEC §1).
func TestInternationalHost(t *testing.T) {
	var hosts []string
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		hosts = append(hosts, r.Host)
		w.Write([]byte(rulesBody))
	})
	addr := srv.Listener.Addr().String()
	var dialled []string
	d := &net.Dialer{}
	c := newClient(t, fetch.Config{DialContext: func(ctx context.Context, network, a string) (net.Conn, error) {
		dialled = append(dialled, a)
		return d.DialContext(ctx, network, addr)
	}})
	res := mustGet(t, c, "http://www.exämple.test/seite", t0)
	again := mustGet(t, c, "http://WWW.XN--EXMPLE-CUA.TEST:80/", t0)
	if res.Origin != "http://www.xn--exmple-cua.test" || again != res {
		t.Errorf("origins %q and %q; want one, http://www.xn--exmple-cua.test", res.Origin, again.Origin)
	}
	if fmt.Sprint(dialled) != "[www.xn--exmple-cua.test:80]" || fmt.Sprint(hosts) != "[www.xn--exmple-cua.test]" {
		t.Errorf("dialled %v with Host %v; want one request to www.xn--exmple-cua.test", dialled, hosts)
	}
}

// TestMaxInFlight: fetches beyond the bound wait for a free slot.
func TestMaxInFlight(t *testing.T) {
	slow, release := heldServer(t)
	quick := serve(t, answer(200, rulesBody))
	c := newClient(t, fetch.Config{MaxInFlight: 1, Timeout: 10 * time.Second})
	done := make(chan struct{})
	go func() { mustGet(t, c, slow.URL+"/", t0); close(done) }()
	testenv.WaitFor(t, func() bool { return slow.Hits() > 0 })
	quickDone := make(chan struct{})
	go func() { mustGet(t, c, quick.URL+"/", t0); close(quickDone) }()
	select {
	case <-quickDone:
		t.Fatal("a second fetch ran while the only slot was taken")
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	<-done
	<-quickDone
	if quick.Hits() != 1 {
		t.Errorf("quick origin: %d fetches; want 1", quick.Hits())
	}
}
