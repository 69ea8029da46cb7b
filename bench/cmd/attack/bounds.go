package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorobots/robots/internal/loadgen"
	"github.com/gorobots/robots/serve"
)

// The attacks of issue 29: answers that clients never read, audits of hostile
// sites, and slow request bodies. The sites are served by one handler, by host name:
//
//	lines-N.test   robots.txt "User-agent: *" then 255,000 lines "x" (510 KB)
//	nest-N.test    robots.txt naming /sitemap.xml, a 50 KB gzip of <urlset><url> and
//	               17 million <x>
//	rules-N.test   robots.txt of 4,000 Disallow rules and 8 sitemaps of 25,000 long
//	               URLs, each blocked by one of the rules

// sitesHandler answers for every host of the bounds scenarios.
func (a *attack) sitesHandler() http.Handler {
	lines := []byte("User-agent: *\n" + strings.Repeat("x\n", 255000))
	var nest []byte
	{
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		io.WriteString(zw, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url>`)
		x := bytes.Repeat([]byte("<x>"), 1<<20)
		for range 17 {
			zw.Write(x)
		}
		zw.Close()
		nest = b.Bytes()
	}
	var rules strings.Builder
	rules.WriteString("User-agent: *\n")
	for i := range 4000 {
		fmt.Fprintf(&rules, "Disallow: /section-%d/\n", i)
	}
	for i := range 8 {
		fmt.Fprintf(&rules, "Sitemap: {A}/sitemap-%d.xml\n", i)
	}
	// A sitemap of 25,000 long URLs, each under one of the 4,000 rules; {A} is the
	// site.
	long := strings.Repeat("a-long-path-segment-", 12)
	sitemap := func(n int) string {
		var b strings.Builder
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for i := range 25000 {
			fmt.Fprintf(&b, "<url><loc>{A}/section-%d/%s%d-%d</loc></url>\n", (n*25000+i)%4000, long, n, i)
		}
		b.WriteString("</urlset>\n")
		return b.String()
	}
	var maps [8]string
	for i := range maps {
		maps[i] = sitemap(i)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := strings.Cut(r.Host, ":")
		site := "http://" + r.Host
		switch {
		case strings.HasPrefix(host, "lines-") && r.URL.Path == "/robots.txt":
			w.Write(lines)
		case strings.HasPrefix(host, "nest-") && r.URL.Path == "/robots.txt":
			io.WriteString(w, "User-agent: *\nDisallow: /private/\nSitemap: "+site+"/sitemap.xml.gz\n")
		case strings.HasPrefix(host, "nest-") && r.URL.Path == "/sitemap.xml.gz":
			w.Write(nest)
		case strings.HasPrefix(host, "rules-") && r.URL.Path == "/robots.txt":
			io.WriteString(w, strings.ReplaceAll(rules.String(), "{A}", site))
		case strings.HasPrefix(host, "rules-") && strings.HasPrefix(r.URL.Path, "/sitemap-"):
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/sitemap-"), ".xml"))
			io.WriteString(w, strings.ReplaceAll(maps[n%8], "{A}", site))
		default:
			http.NotFound(w, r)
		}
	})
}

// resetPeakRSS makes VmHWM the resident size of now (Linux: clear_refs 5), so that
// each scenario's peak is its own.
func resetPeakRSS() { os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// holdRequests sends each request on a connection of its own and never reads the
// answers; it returns the connections, to close once the measure is taken.
func (a *attack) holdRequests(reqs []string) []net.Conn {
	var mu sync.Mutex
	var conns []net.Conn
	var wg sync.WaitGroup
	for _, req := range reqs {
		wg.Go(func() {
			c, err := net.Dial("tcp", a.srv.Addr())
			if err != nil {
				return
			}
			// A small receive buffer, as a client that does not read keeps it full.
			if tc, ok := c.(*net.TCPConn); ok {
				tc.SetReadBuffer(4 << 10)
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			io.WriteString(c, req)
		})
	}
	wg.Wait()
	return conns
}

// probe asks /healthz every 100 ms until done is closed, and returns what it saw.
func (a *attack) probe(done <-chan struct{}) *probes {
	p := &probes{}
	c := &http.Client{Timeout: 10 * time.Second}
	for {
		start := time.Now()
		resp, err := c.Get("http://" + a.srv.Addr() + "/healthz")
		if err != nil || resp.StatusCode != 200 {
			p.failed++
		}
		if err == nil {
			resp.Body.Close()
		}
		p.times = append(p.times, time.Since(start))
		select {
		case <-done:
			return p
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// probes are the answer times of /healthz and its failures.
type probes struct {
	times  []time.Duration
	failed int
}

func (p *probes) String() string {
	slices.Sort(p.times)
	at := func(q float64) time.Duration { return p.times[int(q*float64(len(p.times)-1))].Round(time.Millisecond) }
	over := 0
	for _, t := range p.times {
		if t > 100*time.Millisecond {
			over++
		}
	}
	return fmt.Sprintf("/healthz every 100 ms meanwhile: %d asked, median %v, p99 %v, slowest %v; %d over 100 ms, %d failed",
		len(p.times), at(0.5), at(0.99), at(1), over, p.failed)
}

// statuses reads the status line of each held connection's answer, as far as one
// came within wait, and counts them.
func statuses(conns []net.Conn, wait time.Duration) map[string]int {
	out := map[string]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Go(func() {
			c.SetReadDeadline(time.Now().Add(wait))
			line := make([]byte, 12)
			st := "none"
			if _, err := io.ReadFull(c, line); err == nil {
				st = string(line[9:12])
			}
			mu.Lock()
			out[st]++
			mu.Unlock()
		})
	}
	wg.Wait()
	return out
}

// answers: clients that ask for large answers and never read them (issue 29, item 1):
// 100 GET /v1/robots of a 510 KB file of 255,000 bad lines, 30 POST /v1/lint of 512
// KB, 3 batches of 100 agents × 10,000 URLs of ~400 bytes.
func (a *attack) answers(hold time.Duration, origins int) error {
	fmt.Printf("\n== answers: 100 GET /v1/robots of a 510 KB file on %d origin(s), 30 POST /v1/lint of 512 KB, 3 batches of 100 agents x 10,000 URLs (~400 bytes), none read; held %v\n", origins, hold)
	var reqs []string
	for i := range 100 {
		q := url.QueryEscape(fmt.Sprintf("http://lines-%d.test/", i%origins)) // one origin: the issue's
		reqs = append(reqs, fmt.Sprintf("GET /v1/robots?url=%s HTTP/1.1\r\nHost: %s\r\n\r\n", q, a.srv.Addr()))
	}
	lint := "User-agent: *\n" + strings.Repeat("x\n", 512000/2-7)
	for range 30 {
		reqs = append(reqs, fmt.Sprintf("POST /v1/lint HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n\r\n%s", a.srv.Addr(), len(lint), lint))
	}
	agents := make([]string, 100)
	for i := range agents {
		agents[i] = "bot" + strconv.Itoa(i)
	}
	urls := make([]string, 10000)
	pad := strings.Repeat("p", 370)
	for i := range urls {
		urls[i] = "http://ok-1.test/" + pad + strconv.Itoa(i)
	}
	body, _ := json.Marshal(map[string]any{"agents": agents, "urls": urls})
	for range 3 {
		reqs = append(reqs, fmt.Sprintf("POST /v1/check HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", a.srv.Addr(), len(body), body))
	}
	return a.measure(reqs, hold)
}

// measure sends reqs without reading, probes /healthz while they are held, then
// reports the heap, the peak resident size and the answers' statuses.
func (a *attack) measure(reqs []string, hold time.Duration) error {
	base := liveHeap()
	resetPeakRSS()
	peak := heapPeak()
	conns := a.holdRequests(reqs)
	done := make(chan struct{})
	time.AfterFunc(hold, func() { close(done) })
	pr := a.probe(done)
	p := peak()
	rss := loadgen.PeakRSS()
	st := statuses(conns, 5*time.Second)
	for _, c := range conns {
		c.Close()
	}
	fmt.Printf("requests %d; answers' statuses %v\n", len(reqs), st)
	fmt.Printf("heap: %s before, peak %s; peak RSS (VmHWM, this process: server, sites and clients) %s\n", mib(base), mib(p), mib(rss))
	fmt.Println(pr)
	return nil
}

// audits: audits of hostile sites (issue 29, items 2 and 3): 4 at once of a
// sitemap of 17 million nested elements, then 2 at once with 50 examples per rule
// over 4,000 rules and 200,000 URLs.
func (a *attack) audits() error {
	fmt.Printf("\n== audits: 4 of a 50 KB gzip of 17 million nested <x>, at once\n")
	var reqs []string
	for i := range 4 {
		b := fmt.Sprintf(`{"url":"http://nest-%d.test/","agents":["Googlebot"]}`, i)
		reqs = append(reqs, fmt.Sprintf("POST /v1/audit HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", a.srv.Addr(), len(b), b))
	}
	if err := a.measureAudits(reqs); err != nil {
		return err
	}
	fmt.Printf("\n== audits: 2 with 50 examples per rule, 4,000 rules, 8 sitemaps of 25,000 long URLs, at once\n")
	reqs = nil
	for i := range 2 {
		b := fmt.Sprintf(`{"url":"http://rules-%d.test/","agents":["Googlebot","bingbot"],"examples":50}`, i)
		reqs = append(reqs, fmt.Sprintf("POST /v1/audit HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", a.srv.Addr(), len(b), b))
	}
	return a.measureAudits(reqs)
}

// measureAudits sends the audits, reads their answers (their size), and reports
// as measure does.
func (a *attack) measureAudits(reqs []string) error {
	base := liveHeap()
	resetPeakRSS()
	peak := heapPeak()
	done := make(chan struct{})
	probed := make(chan *probes)
	go func() { probed <- a.probe(done) }()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var lines []string
	for _, req := range reqs {
		wg.Go(func() {
			start := time.Now()
			c, err := net.Dial("tcp", a.srv.Addr())
			if err != nil {
				return
			}
			defer c.Close()
			io.WriteString(c, req)
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				return
			}
			var rep struct {
				Stopped  string
				Totals   struct{ URLs int }
				Blocked  []struct{ Examples []string }
				Sitemaps []struct{ Status, Error string }
			}
			b, _ := io.ReadAll(resp.Body)
			json.Unmarshal(b, &rep)
			ex := 0
			for _, bl := range rep.Blocked {
				ex += len(bl.Examples)
			}
			sm := ""
			if len(rep.Sitemaps) > 0 {
				sm = rep.Sitemaps[0].Status + ": " + rep.Sitemaps[0].Error
			}
			mu.Lock()
			lines = append(lines, fmt.Sprintf("status %d, %d bytes, %v; urls %d, blocks %d, examples %d; first sitemap %q", resp.StatusCode, len(b),
				time.Since(start).Round(time.Millisecond), rep.Totals.URLs, len(rep.Blocked), ex, sm))
			mu.Unlock()
		})
	}
	wg.Wait()
	close(done)
	pr := <-probed
	p := peak()
	for _, l := range lines {
		fmt.Println(l)
	}
	fmt.Printf("heap: %s before, peak %s; peak RSS (VmHWM, this process) %s\n", mib(base), mib(p), mib(loadgen.PeakRSS()))
	fmt.Println(pr)
	return nil
}

// slowBodies: 64 connections send a batch's body a byte every 3 s (issue 29, item
// 5); meanwhile real batches are sent.
func (a *attack) slowBodies(hold time.Duration) error {
	fmt.Printf("\n== slow bodies: %d connections send a batch's body a byte every 3 s, for %v; a real batch every 100 ms meanwhile\n", serve.DefaultMaxBatches, hold)
	body := `{"agent":"TestBot","urls":["http://ok-1.test/private/x"]}`
	var conns []net.Conn
	for range serve.DefaultMaxBatches {
		c, err := net.Dial("tcp", a.srv.Addr())
		if err != nil {
			return err
		}
		conns = append(conns, c)
		fmt.Fprintf(c, "POST /v1/check HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", a.srv.Addr(), len(body))
	}
	stop := make(chan struct{})
	go func() {
		for i := 0; ; i++ {
			for _, c := range conns {
				c.Write([]byte{body[i%len(body)]})
			}
			select {
			case <-stop:
				return
			case <-time.After(3 * time.Second):
			}
		}
	}()
	codes := map[int]int{}
	var slowest time.Duration
	for end := time.Now().Add(hold); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		start := time.Now()
		st, _, err := a.batch(context.Background(), []string{"http://ok-1.test/private/x"})
		if err != nil {
			st = 0
		}
		codes[st]++
		slowest = max(slowest, time.Since(start))
	}
	close(stop)
	st := statuses(conns, 5*time.Second)
	for _, c := range conns {
		c.Close()
	}
	fmt.Printf("real batches: %v (status: count), slowest %v; the slow bodies' answers: %v\n", codes, slowest.Round(time.Millisecond), st)
	return nil
}
