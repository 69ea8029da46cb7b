package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorobots/robots/internal/testenv"
)

// wildcardFile is a robots.txt of n rules "Disallow: /*xxxxx" (five random letters
// each): the file of issue 34's attacks, on which a long path costs a decision
// some thousand times a common file's.
func wildcardFile(n int) string {
	rng := rand.New(rand.NewPCG(34, 34))
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for range n {
		b.WriteString("Disallow: /*")
		for range 5 {
			b.WriteByte(byte('a' + rng.IntN(26)))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// costlyBatch is a batch for crawlers agents of urls URLs of origin, each with a
// path of pathBytes.
func costlyBatch(origin string, agents, urls, pathBytes int) (body string, asked []string) {
	names := make([]string, agents)
	for i := range names {
		names[i] = fmt.Sprintf("Bot%d", i)
	}
	asked = make([]string, urls)
	for i := range asked {
		asked[i] = fmt.Sprintf("%s/%d/%s", origin, i, strings.Repeat("9", pathBytes))
	}
	b, _ := json.Marshal(map[string]any{"agents": names, "urls": asked})
	return string(b), asked
}

// budgetAnswer is a batch answer with what says it stopped.
type budgetAnswer struct {
	Results []struct {
		URL         string `json:"url"`
		Allowed     *bool  `json:"allowed"`
		Error       string `json:"error"`
		ErrorStatus int    `json:"error_status"`
	} `json:"results"`
	Stopped   string `json:"stopped"`
	Undecided int    `json:"undecided"`
}

// TestBatchCPUBudget: a batch whose decisions cost more than the server's CPU budget
// stops deciding once it is spent (issue 34), and its answer says so: every URL
// asked has a result in request order, the URLs decided first (for every crawler),
// then each URL not decided with an error of status 413 naming the budget;
// "stopped" says why and "undecided" how many.
func TestBatchCPUBudget(t *testing.T) {
	o := newOrigin(t, 200, wildcardFile(2000))
	const agents = 20
	s, reg := start(t, Config{AllowPrivate: true, CPUBudget: time.Millisecond, MaxAnswerBytes: 256 << 20})
	body, asked := costlyBatch(o.URL, agents, 5000, 200)
	var ans budgetAnswer
	if code := post(t, s, "/v1/check", body, &ans); code != 200 {
		t.Fatalf("status %d, want 200", code)
	}
	if ans.Stopped != "cpu-budget" {
		t.Fatalf("stopped %q, want cpu-budget", ans.Stopped)
	}
	decided := 0
	for _, r := range ans.Results {
		if r.Allowed != nil {
			decided++
		}
	}
	if decided%agents != 0 {
		t.Errorf("%d verdicts: not a whole number of URLs for %d crawlers (a URL is decided for every crawler or not at all)", decided, agents)
	}
	urls := decided / agents
	if got, want := len(ans.Results), decided+(len(asked)-urls); got != want {
		t.Fatalf("%d results, want %d (%d verdicts, then one per URL not decided)", got, want, decided)
	}
	if ans.Undecided != len(asked)-urls || ans.Undecided == 0 {
		t.Errorf("undecided %d, want %d (more than none)", ans.Undecided, len(asked)-urls)
	}
	for i, r := range ans.Results[decided:] {
		u := asked[urls+i]
		if r.URL != u || r.Allowed != nil || r.ErrorStatus != http.StatusRequestEntityTooLarge || !strings.Contains(r.Error, "-cpu-budget") {
			t.Fatalf("result of URL %d: %+v; want %s not decided, 413 naming -cpu-budget", urls+i, r, u)
		}
	}
	for i, r := range ans.Results[:decided] {
		if u := asked[i/agents]; r.URL != u {
			t.Fatalf("verdict %d for %s, want %s (in request order)", i, r.URL, u)
		}
	}
	if n := counter(t, reg, "robots_requests_stopped_total"); n != 1 {
		t.Errorf("robots_requests_stopped_total = %v, want 1", n)
	}
	if n := counter(t, reg, "robots_decisions_total"); int(n) != decided {
		t.Errorf("robots_decisions_total = %v, want the %d verdicts", n, decided)
	}
}

// TestBatchClientGone: once the client of a batch leaves, the batch decides no more
// (issue 34). Its URLs alternate between an origin held fresh and one whose
// robots.txt does not come: the batch decides the URLs of the first chunk while
// the origins are held, then waits for the other origin; its client leaves then
// (the fetch started: a signal, not a wait), and the held origin's other URLs are
// not decided, where before they were, nobody reading.
func TestBatchClientGone(t *testing.T) {
	held := newOrigin(t, 200, "User-agent: *\nDisallow: /x\n")
	slow := newOrigin(t, 200, "User-agent: *\nDisallow: /x\n")
	gate := make(chan struct{})
	defer close(gate)
	slow.mu.Lock()
	slow.gate = gate
	slow.mu.Unlock()
	s, reg := start(t, Config{AllowPrivate: true, CPUBudget: time.Hour})
	if code := get(t, s, checkPath([]string{"a"}, held.URL+"/"), &struct{}{}); code != 200 {
		t.Fatalf("warming %s: %d", held.URL, code)
	}
	const n = 500
	urls := make([]string, 0, 2*n)
	for i := range n {
		urls = append(urls, fmt.Sprintf("%s/%d", held.URL, i), fmt.Sprintf("%s/%d", slow.URL, i))
	}
	body, _ := json.Marshal(map[string]any{"agent": "a", "urls": urls})
	decided0 := counter(t, reg, "robots_decisions_total")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		req, _ := http.NewRequestWithContext(ctx, "POST", "http://"+s.Addr()+"/v1/check", strings.NewReader(string(body)))
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	testenv.WaitFor(t, func() bool { return slow.fetches.Load() == 1 })
	cancel()
	<-done
	testenv.WaitFor(t, func() bool {
		return counter(t, reg, "robots_http_requests_total") == 2 // the warming check, then the batch
	})
	if d := counter(t, reg, "robots_decisions_total") - decided0; d >= n {
		t.Errorf("%v decisions after the client left, want fewer than the %d URLs of the held origin (those of the first chunk)", d, n)
	}
}

// TestLintCPUBudget: a lint whose checks cost more than the CPU budget stops, and
// says so: 413 naming the budget, rather than findings of part of the checks.
func TestLintCPUBudget(t *testing.T) {
	s, reg := start(t, Config{CPUBudget: time.Millisecond})
	var e struct{ Error string }
	// Each rule twice: the checks of repeated rules compare every pair.
	file := wildcardFile(8000) + strings.TrimPrefix(wildcardFile(8000), "User-agent: *\n")
	if code := post(t, s, "/v1/lint", file, &e); code != http.StatusRequestEntityTooLarge || !strings.Contains(e.Error, "-cpu-budget") {
		t.Errorf("lint: %d %q, want 413 naming -cpu-budget", code, e.Error)
	}
	if n := counter(t, reg, "robots_requests_stopped_total"); n != 1 {
		t.Errorf("robots_requests_stopped_total = %v, want 1", n)
	}
}

// TestPageCPUBudget: the tester's Test spends the same CPU budget as the API's
// requests (issue 34): its verdicts stop once it is spent, the URLs left are shown
// not decided (in their places, after those decided), the page says why at the
// top, and the file's lint, which comes after the verdicts, says it stopped
// rather than "No findings". 1,000 URLs of 1,000-byte paths against 2,000
// wildcard rules cost far more than the 1 ms budget (one decision alone costs
// tens of microseconds; the lint of the file, milliseconds).
func TestPageCPUBudget(t *testing.T) {
	s, reg := start(t, Config{CPUBudget: time.Millisecond})
	const urls = 1000
	var list strings.Builder
	for i := range urls {
		fmt.Fprintf(&list, "/%d/%s\n", i, strings.Repeat("9", 1000))
	}
	form := url.Values{"robots": {wildcardFile(2000)}, "urls": {list.String()}, "agent": {"Googlebot", "Bot1", "Bot2"}}
	code, page := postPage(t, s, form)
	if code != http.StatusOK {
		t.Fatalf("status %d, want 200 (a page with the verdicts the budget allowed)", code)
	}
	if !strings.Contains(page, `id="stopped"`) || !strings.Contains(page, "-cpu-budget 1ms") {
		t.Fatalf("the page does not say the test stopped at its CPU budget (-cpu-budget 1ms)")
	}
	rows := regexp.MustCompile(`<tr( class="[^"]*")?><th scope="row" class="url">/<wbr>(\d+)/`).FindAllStringSubmatch(page, -1)
	if len(rows) != urls {
		t.Fatalf("%d rows, want one per URL (%d)", len(rows), urls)
	}
	undecided := 0
	for i, r := range rows {
		if r[2] != strconv.Itoa(i) {
			t.Fatalf("row %d is URL /%s/…, want the URLs in the order listed", i, r[2])
		}
		switch {
		case strings.Contains(r[1], "undecided"):
			undecided++
		case undecided > 0:
			t.Fatalf("row %d decided after %d undecided; want the decided URLs first", i, undecided)
		}
	}
	if undecided == 0 {
		t.Fatalf("every URL decided within a 1 ms budget")
	}
	if want := fmt.Sprintf("%d of 1,000 URLs decided", urls-undecided); !strings.Contains(page, want) {
		t.Errorf("the page does not say %q", want)
	}
	if !strings.Contains(page, "Lint stopped: the test spent its CPU budget") || strings.Contains(page, "No findings") {
		t.Errorf("the file's lint does not say it stopped at the budget")
	}
	if n := counter(t, reg, "robots_requests_stopped_total"); n != 1 {
		t.Errorf("robots_requests_stopped_total = %v, want 1", n)
	}
}

// TestUsageOnce: a file of many usage lines that all apply (issue 34's: 14,221
// lines made 7 URLs a 7.4 MB answer) has each line stated once per origin in
// "usage_lines", and each verdict names them by number: the answer grows with the
// URLs asked by a number per line, not by the lines' text.
func TestUsageOnce(t *testing.T) {
	const lines, urls = 300, 20
	file := "User-agent: *\nAllow: /\n" + strings.Repeat("Content-Usage: train-ai=n\n", lines)
	o := newOrigin(t, 200, file)
	s, _ := start(t, Config{AllowPrivate: true})
	asked := make([]string, urls)
	for i := range asked {
		asked[i] = fmt.Sprintf("%s/page/%d", o.URL, i)
	}
	body, _ := json.Marshal(map[string]any{"agent": "SomeBot", "urls": asked})
	var ans struct {
		Results []struct {
			Usage struct {
				Lines []int `json:"lines"`
			} `json:"usage"`
		} `json:"results"`
		Lines []struct {
			Origin    int    `json:"origin"`
			Line      int    `json:"line"`
			Statement string `json:"statement"`
		} `json:"usage_lines"`
	}
	if code := post(t, s, "/v1/check", string(body), &ans); code != 200 || len(ans.Results) != urls {
		t.Fatalf("status %d, %d results", code, len(ans.Results))
	}
	if len(ans.Lines) != lines {
		t.Fatalf("%d usage_lines, want each of the %d lines once", len(ans.Lines), lines)
	}
	for i, l := range ans.Lines {
		// Lines 3 to 302 of the file, in order, all of origin 0.
		if l.Origin != 0 || l.Line != i+3 || l.Statement != "train-ai=n" {
			t.Fatalf("usage_lines[%d] = %+v, want origin 0, line %d, train-ai=n", i, l, i+3)
		}
	}
	for i, r := range ans.Results {
		if len(r.Usage.Lines) != lines || r.Usage.Lines[0] != 3 || r.Usage.Lines[lines-1] != lines+2 {
			t.Fatalf("result %d names %d lines, want lines 3 to %d", i, len(r.Usage.Lines), lines+2)
		}
	}
}
