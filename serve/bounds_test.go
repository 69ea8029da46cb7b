package serve

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gorobots/robots/internal/testenv"
)

// The bounds of issue 29: every answer of the API is at most MaxAnswerBytes (past
// it 413, naming the limit), a batch makes at most MaxDecisions decisions, and the
// admitted requests hold a place only once their body has come.

// badLines is a robots.txt of n lines that are not rules: a diagnostic and a lint
// finding per line.
func badLines(n int) string { return "User-agent: *\n" + strings.Repeat("x\n", n) }

func TestAnswerBounds(t *testing.T) {
	const limit = 64 << 10
	o := newOrigin(t, 200, badLines(20_000))
	s, _ := start(t, Config{AllowPrivate: true, MaxAnswerBytes: limit, MaxDecisions: 1000})
	var e struct{ Error string }
	urls := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"%s/%d"`, o.URL, i)
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, method, path, body string
		code                     int
		says                     string
	}{
		{"robots.txt described", "GET", "/v1/robots?url=" + url.QueryEscape(o.URL+"/"), "", 413, "-max-answer-bytes"},
		{"lint", "POST", "/v1/lint", badLines(20_000), 413, "-max-answer-bytes"},
		{"small lint", "POST", "/v1/lint", badLines(10), 200, ""},
		{"batch past the decisions", "POST", "/v1/check", `{"agents":["a","b"],"urls":[` + urls(501) + `]}`, 413, "1002 decisions, more than the limit of 1000 (-max-decisions)"},
		{"batch at the decisions", "POST", "/v1/check", `{"agents":["a","b"],"urls":[` + urls(100) + `]}`, 200, ""},
		{"batch past the answer", "POST", "/v1/check", `{"agents":["a","b"],"urls":[` + urls(500) + `]}`, 413, "-max-answer-bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, "http://"+s.Addr()+tc.path, strings.NewReader(tc.body))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var v any = &e
			if tc.code == 200 {
				v = new(any)
			}
			if code := decode(t, resp, v); code != tc.code || !strings.Contains(e.Error, tc.says) {
				t.Errorf("%d %q, want %d naming %q", code, e.Error, tc.code, tc.says)
			}
			if resp.ContentLength > limit {
				t.Errorf("answer of %d bytes, more than the limit of %d", resp.ContentLength, limit)
			}
		})
	}
}

// holdingPlace starts a server of one place (MaxBatches 1) and a GET /v1/robots
// that holds it, waiting for its origin until gate is closed; first receives its
// status.
func holdingPlace(t *testing.T) (s *Server, reg *prometheus.Registry, gate chan struct{}, first chan int) {
	o := newOrigin(t, 200, "User-agent: *\nDisallow: /private/\n")
	gate = make(chan struct{})
	o.mu.Lock()
	o.gate = gate
	o.mu.Unlock()
	s, reg = start(t, Config{AllowPrivate: true, MaxBatches: 1})
	first = make(chan int, 1)
	go func() {
		var a any
		first <- get(t, s, "/v1/robots?url="+url.QueryEscape(o.URL+"/"), &a)
	}()
	testenv.WaitFor(t, func() bool { return o.fetches.Load() == 1 })
	return s, reg, gate, first
}

// TestAdmittedRobotsLint: GET /v1/robots and POST /v1/lint take places as batches
// do.
func TestAdmittedRobotsLint(t *testing.T) {
	s, reg, gate, first := holdingPlace(t)
	var e struct{ Error string }
	if code := post(t, s, "/v1/lint", "User-agent: *\n", &e); code != 503 || !strings.Contains(e.Error, "-max-batches") {
		t.Errorf("lint while the robots.txt answer holds the place: %d %q, want 503 naming -max-batches", code, e.Error)
	}
	close(gate)
	if code := <-first; code != 200 {
		t.Errorf("GET /v1/robots: %d, want 200", code)
	}
	if n := counter(t, reg, "robots_batches_rejected_total"); n != 1 {
		t.Errorf("robots_batches_rejected_total = %v, want 1", n)
	}
}

// TestSlowBodies: 64 connections sending a batch's body a byte at a time hold no
// place (issue 29, item 5): a real batch is answered while they are still sending,
// with MaxBatches at its default.
func TestSlowBodies(t *testing.T) {
	o := newOrigin(t, 200, "User-agent: *\nDisallow: /private/\n")
	s, _ := start(t, Config{AllowPrivate: true})
	body := `{"agent":"a","urls":["` + o.URL + `/private/x"]}`
	var conns []net.Conn
	for range DefaultMaxBatches {
		c, err := net.Dial("tcp", s.Addr())
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		fmt.Fprintf(c, "POST /v1/check HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%c", s.Addr(), len(body), body[0])
	}
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	var ans batchAnswer
	if code := post(t, s, "/v1/check", body, &ans); code != 200 || len(ans.Results) != 1 {
		t.Errorf("batch while %d bodies are coming: %d %+v, want 200", len(conns), code, ans.Results)
	}
	// Each slow body is cut once it is slower than MinBodyRate after BodyGrace: 408.
	c := conns[0]
	c.SetReadDeadline(time.Now().Add(BodyGrace + 10*time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Errorf("slow body: %d, want 408", resp.StatusCode)
	}
}

// TestMaxConns: past MaxConns open connections a new one waits until one closes
// (issue 29, item 7).
func TestMaxConns(t *testing.T) {
	s, _ := start(t, Config{MaxConns: 2})
	var idle []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", s.Addr())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		idle = append(idle, c)
	}
	// Both are accepted once a request on one of them is answered.
	fmt.Fprintf(idle[0], "GET /healthz HTTP/1.1\r\nHost: %s\r\n\r\n", s.Addr())
	r0 := bufio.NewReader(idle[0])
	if resp, err := http.ReadResponse(r0, nil); err != nil || resp.StatusCode != 200 {
		t.Fatalf("first connection: %v %v", resp, err)
	}
	third := make(chan int, 1)
	go func() {
		c := &http.Client{Transport: &http.Transport{}}
		resp, err := c.Get("http://" + s.Addr() + "/healthz")
		if err != nil {
			third <- 0
			return
		}
		resp.Body.Close()
		third <- resp.StatusCode
	}()
	select {
	case code := <-third:
		t.Fatalf("a third connection was answered (%d) while two were open, the limit", code)
	case <-time.After(300 * time.Millisecond):
	}
	idle[1].Close()
	if code := <-third; code != 200 {
		t.Errorf("third connection once one closed: %d, want 200", code)
	}
}

// TestHosts: with configured names, the Host header must be one of them on any
// listener (issue 29, item 9); a loopback listener answers loopback names as well.
func TestHosts(t *testing.T) {
	s, _ := start(t, Config{Hosts: []string{"robots.example.com"}})
	for _, tc := range []struct {
		host string
		code int
	}{
		{"robots.example.com", 200},
		{"ROBOTS.example.com.:443", 200},
		{"localhost:8080", 200},
		{"other.example.com", 421},
		{"robots.example.com.evil.example", 421},
	} {
		req, _ := http.NewRequest("GET", "http://"+s.Addr()+"/healthz", nil)
		req.Host = tc.host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.code {
			t.Errorf("Host %q: %d, want %d", tc.host, resp.StatusCode, tc.code)
		}
	}
}

// TestEmptyPunycodeHost: "http://xn--/" has no host (issue 29, item 10): 400, not
// an origin "http://".
func TestEmptyPunycodeHost(t *testing.T) {
	s, _ := start(t, Config{})
	var a checkAnswer
	if code := get(t, s, checkPath([]string{"a"}, "http://xn--/"), &a); code != 400 || !strings.Contains(a.Error, "empty label") {
		t.Errorf("status %d %q, want 400 naming the empty label", code, a.Error)
	}
}

// TestTesterAdmitted: the tester's Test takes a place as the API's batches do
// (issue 29, item 6).
func TestTesterAdmitted(t *testing.T) {
	s, _, gate, first := holdingPlace(t)
	form := url.Values{"robots": {"User-agent: *\nDisallow: /x\n"}, "urls": {"/x"}, "agent": {"Googlebot"}, "action": {"test"}}
	resp, err := http.PostForm("http://"+s.Addr()+"/", form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" {
		t.Errorf("test while the place is held: %d, Retry-After %q; want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	close(gate)
	<-first
	if resp, err = http.PostForm("http://"+s.Addr()+"/", form); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("test once the place is free: %d, want 200", resp.StatusCode)
	}
}
