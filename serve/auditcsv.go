package serve

import (
	"bufio"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/audit"
	"github.com/gorobots/robots/crawlers"
)

// The audit's per-URL verdicts as CSV, the columns of "robots audit -format csv"
// (audit.CSV): POST /v1/audit?format=csv (or with Accept: text/csv) takes the
// JSON request of POST /v1/audit; the tester's "CSV" button posts its audit form
// to POST /audit.csv. The rows are written as the URLs are decided, so the answer
// streams and memory stays flat. An error found before the first row is answered
// as the API's (JSON, with its status) or the tester's (plain text) errors are;
// once rows are written the status is sent, so an audit that then fails ends the
// CSV early, and the trailer Robots-Audit-Stopped names the limit that ended an
// audit early ("max-urls", "timeout"), empty when it read every sitemap.

// auditStoppedTrailer is the trailer that says whether the audit read everything.
const auditStoppedTrailer = "Robots-Audit-Stopped"

// auditCSVOr answers POST /v1/audit as CSV when asked (format=csv, or Accept:
// text/csv), else as json does.
func (s *Server) auditCSVOr(json http.Handler) http.Handler {
	hm := s.metrics.handler("audit_csv")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("format") != "csv" && !strings.HasPrefix(r.Header.Get("Accept"), "text/csv") {
			json.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		code := s.auditCSV(w, r, func() (auditJob, error) {
			if !s.authorized(r) {
				w.Header().Set("WWW-Authenticate", `Bearer realm="robots"`)
				return auditJob{}, errorf(http.StatusUnauthorized, "missing or unknown bearer token")
			}
			r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
			_, job, err := s.auditJobOf(r)
			return job, err
		}, writeJSONError)
		hm.done(code, start)
	})
}

// handleAuditCSVPage answers the tester's POST /audit.csv: its audit form's audit,
// as CSV.
func (s *Server) handleAuditCSVPage(w http.ResponseWriter, r *http.Request) {
	s.auditCSV(w, r, func() (auditJob, error) {
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
		if err := s.readBodyFirst(w, r); err != nil {
			return auditJob{}, err
		}
		if err := r.ParseForm(); err != nil {
			return auditJob{}, errorf(http.StatusBadRequest, "reading the form: %v", err)
		}
		f := formOf(r)
		job, _, err := s.auditJobOfForm(&f)
		return job, err
	}, func(w http.ResponseWriter, err error) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(statusOf(err))
		fmt.Fprintf(w, "Not audited. %v\n", err)
	})
}

// auditCSV runs the audit jobOf reads and writes its verdicts as CSV, or the error
// that stopped it before any row by writeErr. It returns the status sent.
func (s *Server) auditCSV(w http.ResponseWriter, r *http.Request, jobOf func() (auditJob, error), writeErr func(http.ResponseWriter, error)) int {
	fail := func(err error) int {
		s.log.Info("request failed", "handler", "audit_csv", "status", statusOf(err), "error", err.Error())
		writeErr(w, err)
		return statusOf(err)
	}
	job, err := jobOf()
	if err != nil {
		return fail(err)
	}
	s.liftWriteDeadline(w)
	if len(job.agents) == 0 {
		job.agents = crawlers.Names()
	}
	bw := bufio.NewWriter(w)
	var out *audit.CSV
	begin := func() {
		h := w.Header()
		h.Set("Content-Type", "text/csv; charset=utf-8")
		h.Set("Content-Disposition", `attachment; filename="`+csvName(job.target)+`"`)
		h.Set("Trailer", auditStoppedTrailer)
		w.WriteHeader(http.StatusOK)
		out = audit.NewCSV(bw, job.agents)
	}
	job.verdicts = func(u string, ds []robots.Decision) {
		if out == nil {
			begin()
		}
		out.Row(u, ds)
	}
	rep, err := s.runAudit(r.Context(), job)
	if err != nil && out == nil {
		return fail(err)
	}
	if out == nil {
		begin() // no URL decided: the header row alone
	}
	if err == nil {
		err = out.Flush()
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		s.log.Warn("audit CSV cut short", "target", job.target, "error", err.Error())
		return http.StatusOK
	}
	w.Header().Set(auditStoppedTrailer, rep.Stopped)
	return http.StatusOK
}

// csvName names the CSV of an audit of target: "audit-example.com.csv".
func csvName(target string) string {
	host := target
	if i := strings.Index(host, "://"); i >= 0 {
		host = host[i+3:]
	}
	host, _, _ = strings.Cut(host, "/")
	var b strings.Builder
	for _, c := range host {
		if c == '.' || c == '-' || c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	return "audit-" + b.String() + ".csv"
}

// writeJSONError answers err as the API's JSON endpoints do: its status, and
// {"error": ...}.
func writeJSONError(w http.ResponseWriter, err error) {
	var he *httpError
	if errors.As(err, &he) && he.retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(he.retryAfter))
	}
	body := appendError(nil, err.Error())
	w.Header()["Content-Type"] = jsonType
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(statusOf(err))
	w.Write(body)
}
