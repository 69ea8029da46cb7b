package serve

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/accesslog"
	"github.com/gorobots/robots/internal/counttext"
)

// POST /v1/logs and the tester's logs page (GET and POST /logs): an excerpt of an
// access log judged against a robots.txt, the report of "robots logs -format json"
// (package accesslog), one contract with the command. The service judges against
// the one file given (no snapshots, no fetch) and does not verify identities: that
// would make it send DNS queries and fetch range lists for whoever calls it.
//
// The log may be gzip-compressed (told by its first bytes); it is read to
// LogsMaxBytes after decompression, so that a small compressed body cannot hold an
// unbounded amount of work. Reading is streamed and every per-crawler structure is
// bounded (accesslog's limits).

// LogsMaxBytes bounds the log of one request or page, after decompression: an
// excerpt of some 50,000 Combined lines, read in a fraction of a second.
const LogsMaxBytes = 16 << 20

// logsRequest is the body of POST /v1/logs.
type logsRequest struct {
	Robots string `json:"robots"` // the robots.txt file
	// Log is the access log as text; LogBase64 the same as base64 of its bytes, for
	// a gzip-compressed log. One of them.
	Log       string `json:"log"`
	LogBase64 string `json:"log_base64"`
	Host      string `json:"host"`     // as -host: only the requests of this host, when the log names hosts
	Examples  int    `json:"examples"` // example URLs per rule, as -examples; 0 for the default
	Dialect   string `json:"dialect"`
}

func (s *Server) handleLogs(r *http.Request) ([]byte, error) {
	var req logsRequest
	if err := readRequest(r, &req); err != nil {
		return nil, err
	}
	log := []byte(req.Log)
	if req.LogBase64 != "" {
		if req.Log != "" {
			return nil, errorf(http.StatusBadRequest, "log and log_base64: give one")
		}
		var err error
		if log, err = base64.StdEncoding.DecodeString(req.LogBase64); err != nil {
			return nil, errorf(http.StatusBadRequest, "log_base64: %v", err)
		}
	}
	dialect, err := dialectOf(req.Dialect)
	if err != nil {
		return nil, err
	}
	rep, err := s.readLogs(r.Context(), req.Robots, log, "log", req.Host, req.Examples, dialect)
	if err != nil {
		return nil, err
	}
	return json.Marshal(rep)
}

// readLogs judges one log against one robots.txt. A log that ends early (past
// LogsMaxBytes, a broken gzip stream) is no error: its report says so in "files".
func (s *Server) readLogs(ctx context.Context, robotsTxt string, log []byte, name, host string, examples int, dialect robots.Dialect) (*accesslog.Report, error) {
	if examples < 0 || examples > accesslog.MaxExamples {
		return nil, errorf(http.StatusBadRequest, "examples: %d, want 0 (the default, %d) to %d", examples, accesslog.DefaultExamples, accesslog.MaxExamples)
	}
	if len(log) == 0 {
		return nil, errorf(http.StatusBadRequest, "log is required: lines of an access log (Common, Combined, Caddy or Cloudflare JSON)")
	}
	release, err := s.takeFileWork(len(robotsTxt))
	if err != nil {
		return nil, err
	}
	defer release()
	a := accesslog.NewAnalyzer(accesslog.Config{
		Robots:   accesslog.Timeline{accesslog.NewVersion("robots.txt", time.Time{}, []byte(robotsTxt), robots.WithDialect(dialect))},
		Examples: examples,
		Host:     strings.ToLower(strings.TrimSpace(host)),
		MaxBytes: LogsMaxBytes,
	})
	if err := a.Read(ctx, name, bytes.NewReader(log)); err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return a.Report(), nil
}

// The logs page.

type logsForm struct {
	Robots, Log, Host string
}

type logsPageData struct {
	Form     logsForm
	Error    string
	Report   *accesslog.Report
	Rows     []accesslog.Row // in the order shown: impostors and violations first
	MaxBytes string
}

const logsExample = `66.249.66.1 - - [20/Nov/2026:10:00:00 +0000] "GET /robots.txt HTTP/1.1" 200 120 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
66.249.66.1 - - [20/Nov/2026:10:00:04 +0000] "GET /blog/ HTTP/1.1" 200 5120 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
20.171.207.2 - - [20/Nov/2026:10:01:00 +0000] "GET /private/report.pdf HTTP/1.1" 200 90210 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)"
203.0.113.7 - - [20/Nov/2026:10:02:00 +0000] "GET /private/ HTTP/1.1" 200 800 "-" "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
`

func parseLogsPage() (*template.Template, error) {
	return template.New("logs.html").Funcs(template.FuncMap{
		"thousands": func(n int64) string { return counttext.Thousands(int(n)) },
		"utc":       func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05Z") },
		"status": func(m map[string]int64) string {
			var parts []string
			for _, k := range slices.Sorted(maps.Keys(m)) {
				parts = append(parts, fmt.Sprintf("%s×%s", k, counttext.Thousands(int(m[k]))))
			}
			return strings.Join(parts, " ")
		},
	}).ParseFS(webFiles, "web/logs.html")
}

// handleLogsPage answers GET and POST /logs. The form is posted as
// multipart/form-data (the log may be a file) or urlencoded; a file, when one is
// chosen, wins over the pasted text.
func (s *Server) handleLogsPage(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	d := logsPageData{MaxBytes: sizeText(LogsMaxBytes)}
	code := http.StatusOK
	if r.Method == http.MethodPost {
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
		var release func()
		err := s.readBodyFirst(w, r)
		var log []byte
		name := "pasted log"
		if err == nil {
			if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
				err = r.ParseMultipartForm(s.cfg.MaxBodyBytes)
			} else {
				err = r.ParseForm()
			}
			if err != nil {
				err = errorf(http.StatusBadRequest, "reading the form: %v", err)
			}
		}
		if err == nil {
			d.Form = logsForm{Robots: r.FormValue("robots"), Log: r.FormValue("log"), Host: r.FormValue("host")}
			log = []byte(d.Form.Log)
			if f, fh, ferr := r.FormFile("logfile"); ferr == nil {
				log, err = io.ReadAll(f)
				f.Close()
				name = fh.Filename
				d.Form.Log = ""
			}
		}
		if err == nil {
			if release, err = s.takePlace(); err == nil {
				d.Report, err = s.readLogs(r.Context(), d.Form.Robots, log, name, d.Form.Host, 0, robots.Google)
			}
		}
		if release != nil {
			defer release()
		}
		if err != nil {
			code = statusOf(err)
			d.Error = err.Error()
			d.Report = nil
		} else {
			d.Rows = d.Report.Ordered()
		}
	} else {
		d.Form.Robots = "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n"
		d.Form.Log = logsExample
	}
	s.renderPage(w, "logs page", s.logsPage, &d, code, start, func(limit string) string {
		d.Report, d.Rows = nil, nil
		d.Error = fmt.Sprintf("the report would be more than %s of HTML, the page's limit: read this log with POST /v1/logs or robots logs", limit)
		return d.Error
	})
}
