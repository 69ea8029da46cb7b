package serve

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/gorobots/robots/accesslog"
)

const logsRobots = "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n"

func postLogs(t *testing.T, s *Server, body string) (int, accesslog.Report, string) {
	t.Helper()
	resp, err := http.Post("http://"+s.Addr()+"/v1/logs", "application/json", strings.NewReader(body))
	b := readBody(t, resp, err)
	var rep accesslog.Report
	if resp.StatusCode == 200 {
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Fatal(err)
		}
	}
	return resp.StatusCode, rep, string(b)
}

// TestLogsAPI: the example log has Googlebot fetching robots.txt and an allowed
// URL, GPTBot fetching what its own group disallows (line 5), and a browser.
func TestLogsAPI(t *testing.T) {
	s, _ := start(t, Config{})
	code, rep, body := postLogs(t, s, `{"robots":`+jsonString(logsRobots)+`,"log":`+jsonString(logsExample+"garbage\n")+`}`)
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	if rep.Records != 4 || rep.Crawler != 3 || rep.Skipped != 1 || rep.Violations != 1 || rep.Verification {
		t.Errorf("records %d, crawler %d, skipped %d, violations %d, verification %v; want 4, 3, 1, 1, false",
			rep.Records, rep.Crawler, rep.Skipped, rep.Violations, rep.Verification)
	}
	for _, r := range rep.Crawlers {
		switch r.Crawler {
		case "GPTBot":
			if r.Disallowed != 1 || len(r.Rules) != 1 || r.Rules[0].Line != 5 || r.Rules[0].Examples[0].Value != "/private/report.pdf" {
				t.Errorf("GPTBot: %+v", r)
			}
		case "Googlebot":
			if r.RobotsFetches != 1 || r.Allowed != 1 || r.Disallowed != 0 {
				t.Errorf("Googlebot: %+v", r)
			}
		default:
			t.Errorf("unexpected crawler %s", r.Crawler)
		}
	}

	// A gzip-compressed log is read past its compressed size only to LogsMaxBytes:
	// the report says where it stopped.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	line := strings.SplitAfter(logsExample, "\n")[2]
	for n := 0; n <= LogsMaxBytes; n += len(line) {
		zw.Write([]byte(line))
	}
	zw.Close()
	code, rep, body = postLogs(t, s, `{"robots":`+jsonString(logsRobots)+`,"log_base64":"`+base64.StdEncoding.EncodeToString(gz.Bytes())+`"}`)
	if code != 200 || len(rep.Files) != 1 || !strings.Contains(rep.Files[0].Error, "longer than the limit") {
		t.Fatalf("a %d-byte gzip body of more than %d bytes: status %d, files %+v %.200s", gz.Len(), LogsMaxBytes, code, rep.Files, body)
	}
	if want := int64(LogsMaxBytes / len(line)); rep.Records != want {
		t.Errorf("%d records read before the limit, want %d", rep.Records, want)
	}

	for _, tc := range []struct{ name, body, want string }{
		{"no log", `{"robots":"x"}`, "log is required"},
		{"both logs", `{"robots":"","log":"a","log_base64":"YQ=="}`, "give one"},
		{"bad examples", `{"robots":"","log":"a","examples":99}`, "examples"},
		{"unknown field", `{"robots":"","log":"a","verify":true}`, "unknown field"},
	} {
		if code, _, body := postLogs(t, s, tc.body); code != 400 || !strings.Contains(body, tc.want) {
			t.Errorf("%s: status %d, %s; want 400 saying %q", tc.name, code, body, tc.want)
		}
	}
	resp, err := http.Get("http://" + s.Addr() + "/v1/logs")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 405 || resp.Header.Get("Allow") != "POST" {
		t.Errorf("GET /v1/logs: %d, Allow %q; want 405, POST", resp.StatusCode, resp.Header.Get("Allow"))
	}
}

// TestLogsPage: the page shows the example at first, and a posted log's crawlers,
// pasted or uploaded.
func TestLogsPage(t *testing.T) {
	s, _ := start(t, Config{})
	base := "http://" + s.Addr()
	page := func(resp *http.Response, err error) string {
		t.Helper()
		b := readBody(t, resp, err)
		if resp.StatusCode != 200 {
			t.Fatalf("status %d: %s", resp.StatusCode, b)
		}
		return string(b)
	}
	got := page(http.Get(base + "/logs"))
	if !strings.Contains(got, `id="mode_logs" aria-current="page"`) || !strings.Contains(got, "GPTBot/1.1") {
		t.Errorf("GET /logs lacks the mode or the example:\n%.500s", got)
	}
	got = page(http.PostForm(base+"/logs", url.Values{"robots": {logsRobots}, "log": {logsExample}}))
	for _, want := range []string{`id="logs_table"`, "1 violation", "<code>Disallow: /</code>", "/private/report.pdf"} {
		if !strings.Contains(got, want) {
			t.Errorf("the posted example's page lacks %q", want)
		}
	}

	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("robots", "User-agent: *\nDisallow: /blog/\n")
	fw, _ := mw.CreateFormFile("logfile", "access.log.gz")
	zw := gzip.NewWriter(fw)
	zw.Write([]byte(logsExample))
	zw.Close()
	mw.Close()
	got = page(http.Post(base+"/logs", mw.FormDataContentType(), &body))
	// Now Googlebot's /blog/ is the violation, and GPTBot's URL is allowed.
	if !strings.Contains(got, "<code>Disallow: /blog/</code>") || !strings.Contains(got, "1 violation") {
		t.Errorf("the uploaded log's page:\n%s", got)
	}
}

// TestLogsPageLimit: a report whose page would pass PageMaxBytes is answered 413, as
// the tester's is, with the form and a message naming the limit (it was a 500).
func TestLogsPageLimit(t *testing.T) {
	// An uploaded log (the form does not echo it) of several crawlers' violations:
	// the report is most of the page.
	var log strings.Builder
	for i, token := range []string{"GPTBot", "ClaudeBot", "CCBot", "Bytespider", "PerplexityBot", "Amazonbot"} {
		for j := range 5 {
			fmt.Fprintf(&log, "203.0.113.%d - - [20/Nov/2026:10:0%d:00 +0000] \"GET /private/%s-%d HTTP/1.1\" 200 100 \"-\" \"Mozilla/5.0 (compatible; %s/1.0)\"\n", i+1, j, token, j, token)
		}
	}
	post := func(s *Server) (int, string) {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		mw.WriteField("robots", logsRobots)
		fw, _ := mw.CreateFormFile("logfile", "access.log")
		io.WriteString(fw, log.String())
		mw.Close()
		resp, err := http.Post("http://"+s.Addr()+"/logs", mw.FormDataContentType(), &body)
		return resp.StatusCode, string(readBody(t, resp, err))
	}
	s, _ := start(t, Config{})
	code, whole := post(s)
	if code != 200 || !strings.Contains(whole, `id="logs_table"`) || !strings.Contains(whole, "Bytespider") {
		t.Fatalf("without a limit: status %d, want 200 with the report:\n%.3000s", code, whole)
	}
	// One byte less than the report's page: the report cannot be shown, the form can.
	s, _ = start(t, Config{PageMaxBytes: len(whole) - 1})
	code, got := post(s)
	if code != 413 || !strings.Contains(got, "the report would be more than") ||
		strings.Contains(got, `id="logs_table"`) || !strings.Contains(got, `id="mode_logs"`) {
		t.Errorf("limit %d: status %d, want 413 with the message in the page, no report:\n%.3000s", len(whole)-1, code, got)
	}
}
