package serve

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/audit"
	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/counttext"
	"github.com/gorobots/robots/internal/verdictjson"
	"github.com/gorobots/robots/internal/weburl"
	"github.com/gorobots/robots/lint"
	"github.com/gorobots/robots/signals"
)

// The web tester: one form posted to "/" and answered with the same page, results
// included, so that the whole flow works without JavaScript. app.js only adds
// conveniences: line numbers beside the editors, crawler search and presets, a
// progress line with a Cancel button while a fetch runs, and lighting a verdict's
// line on hover.
//
// The form has two actions. Fetch gets the live robots.txt of an origin into the
// editor and tests it as crawlers see it now (the fetch status included: a 404
// allows everything, an unreachable origin disallows everything). Test (the default
// action, also on Enter) tests the text in the editor and never fetches, so that
// fetch → edit → test tests the edits.
//
// No editor component: the input is line-oriented plain text, and what the tester
// needs around it (line numbers, the deciding lines highlighted, findings beside
// their lines, links to lines) is served as an annotated copy of the file next to a
// plain textarea. A code editor (CodeMirror 6 is the usual choice) would need a
// bundling step and a few hundred KB of script to give little more, and would leave
// the page unusable without JavaScript.
//
// With bearer tokens configured (-token-file), Fetch needs one of them in the form's
// token field: a fetch reaches out to the origin named and fills the shared cache,
// which is what the tokens guard on the API. Test needs none: it reads only the
// posted text, within the limits below, like the open /v1/lint would. A form field,
// not the Authorization header, because a plain HTML form cannot send headers.

//go:embed web
var webFiles embed.FS

// Limits of the tester, on top of MaxBodyBytes and MaxURLs.
const (
	// MaxPageAgents bounds the crawlers of one tester form (the major crawlers are 76).
	MaxPageAgents = 100

	// DefaultPageMaxCells bounds the verdicts of one form, URLs × crawlers: a site
	// owner's list of a few hundred URLs for the default crawlers fits; a form of
	// 10,000 URLs × 100 crawlers, which once built 91 MB of HTML, does not.
	DefaultPageMaxCells = 10_000

	// DefaultPageMaxBytes bounds the HTML of one answer. The largest legitimate page
	// is a diff of two 500 KiB files of short lines, each echoed in its editor and
	// annotated line by line (about 4.5 MiB each), with the verdicts.
	DefaultPageMaxBytes = 16 << 20

	// PageMaxFileBytes bounds a pasted file. Google reads the first 500 KiB of a
	// robots.txt and ignores the rest (RFC 9309 §2.5), and so do the tester's
	// verdicts, while lint says the file is too large, as "robots lint" does: twice
	// that is held, so that an 833 KiB file is tested rather than refused. (A diff
	// form of two such files, form-encoded, may pass MaxBodyBytes: 413.)
	PageMaxFileBytes = 2 * robots.DefaultMaxBytes
)

// Estimated HTML bytes per item of a page, to refuse a page too large before it is
// built (the rendering is bounded by the page limit as well).
const (
	estBytesPerLine = 160 // a line of the annotated file, beside its text
	estBytesPerCell = 140 // a verdict cell
)

func parsePage() (*template.Template, error) {
	return template.New("index.html").Funcs(template.FuncMap{
		"dict": func(kv ...any) map[string]any {
			m := make(map[string]any, len(kv)/2)
			for i := 0; i+1 < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1]
			}
			return m
		},
		"plural":       counttext.Plural,
		"join":         strings.Join,
		"thousands":    counttext.Thousands,
		"crawlerCount": crawlerCount,
		"half":         func(f float64) float64 { return round1(f / 2) },
		"wbr":          wbr,
		"has":          func(list []string, v string) bool { return slices.Contains(list, v) },
		"stances":      stanceChoices,
	}).ParseFS(webFiles, "web/index.html")
}

// wbr lets a long URL wrap after the slashes of its path and its query separators
// rather than anywhere in a word; never inside "scheme://", which wrapped would read
// "http:// / 127.0.0.1/".
func wbr(u string) template.HTML {
	var b strings.Builder
	start := 0
	if i := strings.Index(u, "://"); i >= 0 && !strings.ContainsAny(u[:i], "/?&=") {
		start = i + 3
		b.WriteString(template.HTMLEscapeString(u[:start]))
	}
	for _, r := range u[start:] {
		b.WriteString(template.HTMLEscapeString(string(r)))
		if r == '/' || r == '?' || r == '&' || r == '=' {
			b.WriteString("<wbr>")
		}
	}
	return template.HTML(b.String())
}

func (s *Server) pageRoutes(mux *http.ServeMux) {
	static, _ := fs.Sub(webFiles, "web/static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET /{$}", s.handlePage)
	mux.HandleFunc("POST /{$}", s.handlePage)
	mux.HandleFunc("GET /logs", s.handleLogsPage)
	mux.HandleFunc("POST /logs", s.handleLogsPage)
	mux.HandleFunc("POST /audit.csv", s.handleAuditCSVPage) // auditcsv.go
}

// pageForm is the tester's input, echoed back into the form.
type pageForm struct {
	Robots    string // the file, or the old file in diff mode
	RobotsNew string // the new file in diff mode
	FetchURL  string // the origin whose robots.txt Fetch gets
	URLs      string // one per line: absolute URLs or paths
	Agents    []string
	More      string // more agents, separated by commas or spaces
	Diff      bool
	Dialect   string // the reading of robots.txt: google (or empty), rfc9309, legacy1996, legacy1994
	Action    string // "fetch" or "test"
	Fetched   string // digest of the file Fetch put in the editor, to tell edits from it
	Token     string // never echoed
	Audit     bool   // the "Audit a site" mode (auditpage.go)
	AuditURL  string // the site to audit
	// AllowBlocked names the purposes or crawlers the site blocks on purpose
	// (audit.Intended, as robots audit -allow-blocked), separated by commas.
	AllowBlocked string
	// Stance is the stance per purpose Generate writes (generate.go), one
	// "purpose=stance" per field, joined by commas into robots generate's -stance.
	Stance []string
	// Hosts and As are the audit's other hosts and the crawlers fetched as (as
	// robots audit -hosts and -as), separated by commas or spaces.
	Hosts, As string
	// Pages is how many pages the audit reads for their headers and meta tags (as
	// robots audit -pages and POST /v1/audit's "pages"), as typed.
	Pages string
}

type crawlerChoice struct {
	Name     string
	Operator string
	Checked  bool
}

// family is one kind of crawler in the picker.
type family struct {
	ID       string
	Title    string
	Crawlers []crawlerChoice
}

// preset is a selection the picker offers in one click.
type preset struct {
	ID, Title string
	Names     []string
}

type pageData struct {
	Form          pageForm
	Families      []family
	Presets       []preset
	Checked       int
	TokenRequired bool
	Error         string
	Result        *pageResult
	Audit         *auditView
	AuditLimits   string // what an audit reads at most, in words
}

// pageResult is what a test found.
type pageResult struct {
	Diff    bool
	BadURLs int // lines of the URL list that are not URLs, shown in their rows
	// Stopped says why the test's work ended before every URL was decided (its CPU
	// budget spent, its deadline passed); Undecided URLs are shown as such.
	Stopped   string
	Undecided int
	Source    sourceView
	Columns   []column
	Rows      []pageRow
	Changed   int // rows with a changed verdict, in diff mode
	Files     []*fileView
	Groups    []groupChangeView // diff mode: the groups added, removed or changed
	Sitemaps  []sitemapChange   // diff mode
	Purposes  *purposesView     // one answer per purpose (purposes.go)
	// Generated is what Generate wrote (generate.go): the new version compared.
	Generated *generatedView
	// History is the timeline of a fetched file's versions (historypage.go).
	History *historyView
}

// sourceView says where the tested file came from and what that means for the
// verdicts: with a fetch, the status (a 404 allows everything, an unreachable site
// disallows everything) explains verdicts that no line decides.
type sourceView struct {
	Title  string // one line: "Fetched https://example.com/robots.txt"
	Detail string // the status and its meaning for the verdicts
	Class  string // "ok", "warn" or "bad"
	Effect string // "rules", "allow-all" or "disallow-all"
}

// column is one or more crawlers that get the same groups, and therefore the same
// verdicts: one column for all of them keeps the table narrow.
type column struct {
	Agents []string
	Groups []groupRef // per file
	Same   bool       // diff mode: the same group, at the same lines, in both files
	// Delay is the crawl-delay of the (old) file for the column's crawlers, with its
	// line and who ignores it (audit.CrawlDelay's words); "" when none applies.
	Delay string
}

// groupRef says which group a crawler gets in one file.
type groupRef struct {
	File  string // "a" or "b": the prefix of the file's line anchors
	Lines []int  // first line of each group that applies
	Star  bool   // the "*" group applies
	None  bool   // no group applies (everything allowed)
	Note  string // instead of a group: the fetch status decides
}

type pageRow struct {
	URL     string
	Cells   []pageCell
	Changed bool
	// Error says why a line of the URL list was not tested (not a URL), at its place
	// among the verdicts; Line is its line in the list.
	Error string
	Line  int
	// Undecided: the test stopped before this URL (pageResult.Stopped says why).
	Undecided bool
}

type pageCell struct {
	Old, New verdict
	Changed  bool
}

type verdict struct {
	Allowed bool
	File    string // "a" or "b"
	Line    int
	Rule    string
	Why     string // when no rule decided: why
	Status  bool   // the fetch status decided, not the file
	Usage   string // the usage preferences stated for the URL (robots.Usage.String), "" when none
	// Readings says that the other reading of the file gives the crawler other usage
	// preferences (verdictjson.Readings), "" when they agree.
	Readings string
}

type fileView struct {
	ID       string // "a" or "b": prefix of line anchors
	Title    string
	Lines    []lineView
	Findings []findingView
	Errors   int
	Warnings int
	Infos    int
	Hits     int // lines that decide at least one verdict
	Added    int // diff mode: lines marked as added (new file) or removed (old file)
	Removed  int
	// LintStopped says why the file's lint ended before all its checks ran; the
	// findings are those of the checks that did.
	LintStopped string
	name        string // the file's name to lint
	body        []byte
}

type lineView struct {
	Num      int
	Text     string
	Kind     string
	Hit      bool   // decides at least one verdict
	Mark     string // diff mode: "add" or "del"
	Findings []findingView
}

type findingView struct {
	Line     int
	Severity string
	Code     string
	Message  string
	// More is, for repeated findings shown as one (lint.Grouped), how many and
	// where: "114 times: lines 4, 5, 6, 7, 8 and 109 more".
	More string
	// Full is, when Message or More leaves items out ("and N more"), the message
	// and the lines in full, which the page opens on request.
	Full string
}

// groupedFindings is the findings list of a file: repeated findings as one entry
// (lint.Grouped), errors first.
func groupedFindings(fs []lint.Finding) []findingView {
	var out []findingView
	full := lint.GroupedShown(fs, 0)
	for i, g := range lint.Grouped(fs) {
		fv := findingView{Line: g.Line, Severity: string(g.Severity), Code: string(g.Code), Message: g.Message}
		if g.Count > 1 {
			fv.More = fmt.Sprintf("%d times: %s", g.Count, g.LinesText())
			if f := full[i]; f.Message != g.Message || f.LinesText() != g.LinesText() {
				fv.Full = fmt.Sprintf("%s (%s)", f.Message, f.LinesText())
			}
		}
		out = append(out, fv)
	}
	slices.SortStableFunc(out, func(a, b findingView) int { return severityRank(a.Severity) - severityRank(b.Severity) })
	return out
}

type groupChangeView struct {
	Kind    string // added, removed, changed
	Agents  string
	OldLine int
	NewLine int
	Lines   []string // "- Disallow: /x", "+ Allow: /y"
}

type sitemapChange struct {
	Kind, URL string
}

func (s *Server) handlePage(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	d := pageData{TokenRequired: len(s.cfg.Tokens) > 0, Presets: presets(), AuditLimits: s.auditLimitsText()}
	code := http.StatusOK
	if r.Method == http.MethodPost {
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
		// The form is read whole first, at MinBodyRate (admit.go), and a test is then
		// admitted as the API's batches are: it holds one of MaxBatches places until
		// its page is written, and its files' bytes count against FileWorkBytes
		// while it runs. An audit has its own bound (MaxAudits).
		var release func()
		err := s.readBodyFirst(w, r)
		if err == nil {
			if err = r.ParseForm(); err != nil {
				err = fmt.Errorf("reading the form: %w", err)
			}
		}
		if err == nil {
			d.Form = formOf(r)
			if d.Form.Audit {
				s.liftWriteDeadline(w)
				d.Audit, err = s.auditPage(r, &d.Form)
			} else if release, err = s.takePlace(); err == nil {
				// Its work is bounded as the API's is (work.go): the CPU budget, the
				// deadline a tenth before the write timeout, the client leaving.
				ctx, stop := withWork(r.Context(), s.cfg.CPUBudget, start.Add(s.cfg.WriteTimeout-s.cfg.WriteTimeout/10))
				if d.Form.Action == "generate" {
					d.Result, err = s.generateTest(r.WithContext(ctx), &d.Form)
				} else {
					d.Result, err = s.boundedTest(r.WithContext(ctx), &d.Form)
				}
				stop()
			}
		}
		if release != nil {
			defer release() // once the page is written
		}
		if err != nil {
			code = statusOf(err)
			d.Error = err.Error()
			if he := (*httpError)(nil); errors.As(err, &he) && he.retryAfter > 0 {
				w.Header().Set("Retry-After", strconv.Itoa(he.retryAfter))
			}
			d.Result = nil
			d.Audit = nil
		}
	} else if r.URL.Query().Get("mode") == "audit" {
		d.Form.Audit = true
	} else if q := r.URL.Query(); q.Get("history") != "" && s.historyCompare(r.Context(), q, &d.Form) {
		// Two versions of the timeline (historypage.go), ready to compare.
	} else {
		d.Form.URLs = "/\n/search?q=robots\n/private/file.html"
		d.Form.Robots = "User-agent: *\nDisallow: /private/\nAllow: /private/public.html\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: https://example.com/sitemap.xml\n"
	}
	d.Families, d.Checked = choices(d.Form.Agents, r.Method == http.MethodPost)
	s.renderPage(w, "page", s.page, &d, code, start, func(limit string) string {
		d.Result = nil
		d.Audit = nil
		d.Error = fmt.Sprintf("the answer would be more than %s of HTML, the tester's limit: test fewer URLs or crawlers at once (POST /v1/check takes larger batches)", limit)
		return d.Error
	})
}

// renderPage answers with the page template t makes of d, in at most PageMaxBytes of
// HTML. Past that the answer is 413: cut leaves in d only the form and a message
// naming the limit (it returns the message), and the page is made again; when even
// that is too large, the message is the answer, as plain text.
func (s *Server) renderPage(w http.ResponseWriter, name string, t *template.Template, d any, code int, start time.Time, cut func(limit string) string) {
	buf := &limitedBuffer{max: s.cfg.PageMaxBytes}
	err := t.Execute(buf, d)
	if errors.Is(err, errPageTooLarge) {
		code = http.StatusRequestEntityTooLarge
		msg := cut(sizeText(int64(s.cfg.PageMaxBytes)))
		buf = &limitedBuffer{max: s.cfg.PageMaxBytes}
		if err = t.Execute(buf, d); errors.Is(err, errPageTooLarge) {
			http.Error(w, msg, code)
			s.metrics.page.done(code, start)
			return
		}
	}
	s.writePage(w, name, code, buf, err, start)
}

// writePage answers a request for one of the HTML pages (the tester, the logs page)
// with what its template, the one named, wrote into buf, or with a plain 500 when
// that failed (err); either way it counts the answer in the pages' metrics.
func (s *Server) writePage(w http.ResponseWriter, name string, code int, buf *limitedBuffer, err error, start time.Time) {
	hm := s.metrics.page
	if err != nil {
		s.log.Error(name+" template", "error", err)
		http.Error(w, "internal error rendering the page", http.StatusInternalServerError)
		hm.done(http.StatusInternalServerError, start)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self'; script-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'")
	// same-origin, not no-referrer: with no-referrer a browser sends "Origin: null" with
	// the form, which the cross-site check (sameorigin.go) rightly refuses.
	w.Header().Set("Referrer-Policy", "same-origin")
	w.WriteHeader(code)
	w.Write(buf.Bytes())
	hm.done(code, start)
}

var errPageTooLarge = errors.New("page too large")

// limitedBuffer is a bytes.Buffer that refuses to grow past max bytes, so that a
// page too large to send is never built whole.
type limitedBuffer struct {
	bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.max {
		return 0, errPageTooLarge
	}
	return b.Buffer.Write(p)
}

func (b *limitedBuffer) WriteString(p string) (int, error) {
	if b.Len()+len(p) > b.max {
		return 0, errPageTooLarge
	}
	return b.Buffer.WriteString(p)
}

func formOf(r *http.Request) pageForm {
	return pageForm{
		Robots:       r.PostForm.Get("robots"),
		RobotsNew:    r.PostForm.Get("robots_new"),
		FetchURL:     strings.TrimSpace(r.PostForm.Get("fetch_url")),
		URLs:         r.PostForm.Get("urls"),
		Agents:       r.PostForm["agent"],
		More:         r.PostForm.Get("more_agents"),
		Diff:         r.PostForm.Get("diff") != "",
		Dialect:      r.PostForm.Get("dialect"),
		Action:       r.PostForm.Get("action"),
		Fetched:      r.PostForm.Get("fetched"),
		Token:        r.PostForm.Get("token"),
		Audit:        r.PostForm.Get("mode") == "audit",
		AuditURL:     strings.TrimSpace(r.PostForm.Get("audit_url")),
		AllowBlocked: strings.TrimSpace(r.PostForm.Get("allow_blocked")),
		Stance:       r.PostForm["stance"],
		Hosts:        strings.TrimSpace(r.PostForm.Get("hosts")),
		As:           strings.TrimSpace(r.PostForm.Get("as")),
		Pages:        strings.TrimSpace(r.PostForm.Get("pages")),
	}
}

// choices lists the major crawlers by family, checked as the user left them (or
// the preselected ones on a first visit), and how many are checked.
func choices(checked []string, posted bool) ([]family, int) {
	fams := []family{
		{ID: "search", Title: "Search engines"},
		{ID: "ai", Title: "AI crawlers"},
		{ID: "seo", Title: "SEO tools"},
		{ID: "social", Title: "Social previews"},
		{ID: "ads", Title: "Ads"},
		{ID: "archive", Title: "Archives"},
		{ID: "other", Title: "Other"},
	}
	n := 0
	for _, c := range crawlers.Major() {
		on := slices.Contains(preselected, c.Name)
		if posted {
			on = slices.Contains(checked, c.Name)
		}
		if on {
			n++
		}
		i := slices.IndexFunc(fams, func(f family) bool { return f.ID == familyOf(c) })
		if i < 0 {
			i = len(fams) - 1
		}
		fams[i].Crawlers = append(fams[i].Crawlers, crawlerChoice{Name: c.Name, Operator: c.Operator, Checked: on})
	}
	// The rest of the registry, folded under the major ones: the search finds them
	// too (it found only the 76 major crawlers, not the other 203).
	more := family{ID: "more", Title: "More of the registry"}
	for _, c := range crawlers.All() {
		if c.Major {
			continue
		}
		on := posted && slices.Contains(checked, c.Name)
		if on {
			n++
		}
		more.Crawlers = append(more.Crawlers, crawlerChoice{Name: c.Name, Operator: c.Operator, Checked: on})
	}
	return append(fams, more), n
}

// crawlerCount is how many crawlers the picker lists: every one of the registry.
func crawlerCount() int { return len(crawlers.All()) }

// preselected are the major search and AI crawlers the tester checks by default.
var preselected = []string{
	"Googlebot", "bingbot", "DuckDuckBot", "Applebot", "YandexBot", "Baiduspider",
	"GPTBot", "ChatGPT-User", "OAI-SearchBot", "ClaudeBot", "Google-Extended", "PerplexityBot", "CCBot",
}

// presets are the picker's one-click selections: the defaults, then each family's
// best-known members (the crawlers site owners most often name in robots.txt).
func presets() []preset {
	return []preset{
		{"default", "Defaults", preselected},
		{"search", "Search engines", []string{"Googlebot", "bingbot", "DuckDuckBot", "Applebot", "YandexBot", "Baiduspider", "Slurp", "SeznamBot", "Yeti", "PetalBot"}},
		{"ai", "AI crawlers", byFamily("ai")},
		{"seo", "SEO tools", byFamily(string(crawlers.SEO))},
		{"social", "Social", byFamily(string(crawlers.Social))},
		{"google", "Google's crawlers", byOperator("Google")},
	}
}

// familyOf is the picker family a crawler is listed under: its main (first)
// purpose, the AI purposes together as "ai".
func familyOf(c crawlers.Crawler) string {
	if len(c.Purposes) == 0 {
		return string(crawlers.Other)
	}
	if c.Purposes[0].IsAI() {
		return "ai"
	}
	return string(c.Purposes[0])
}

func byFamily(id string) []string {
	var out []string
	for _, c := range crawlers.Major() {
		if familyOf(c) == id {
			out = append(out, c.Name)
		}
	}
	return out
}

func byOperator(op string) []string {
	var out []string
	for _, c := range crawlers.Major() {
		if c.Operator == op {
			out = append(out, c.Name)
		}
	}
	return out
}

// digest identifies a fetched file, to tell later whether the editor still holds it.
func digest(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:12])
}

// tokenOK reports whether tok is one of the configured bearer tokens.
func (s *Server) tokenOK(tok string) bool {
	good := 0
	for _, t := range s.cfg.Tokens {
		good |= subtle.ConstantTimeCompare([]byte(tok), []byte(t))
	}
	return good == 1
}

// originURL is the site the user typed in the fetch field, as weburl.Site reads
// it, or the input as it is when it names none.
func originURL(in string) string {
	if u, _, err := weburl.Site(in); err == nil {
		return u
	}
	return in
}

// sayChosen puts a note on the scheme chosen for a site typed without one
// (weburl.Site) before a source's detail.
func sayChosen(src *sourceView, note string) {
	if note != "" {
		src.Detail = strings.ToUpper(note[:1]) + note[1:] + ". " + src.Detail
	}
}

// retryText says what to try next when the origin of robotsURL gave no answer.
func retryText(robotsURL string, status int) string {
	if status != 0 {
		return ""
	}
	if o, err := fetch.Origin(robotsURL); err == nil {
		if r := weburl.Retry(o); r != "" {
			return " To try next: " + r + "."
		}
	}
	return ""
}

// pageAgents returns the crawlers a form picks, in the picker's order, then the
// others typed.
func (s *Server) pageAgents(f *pageForm) ([]string, error) {
	agents := slices.Clone(f.Agents)
	for _, a := range strings.FieldsFunc(f.More, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\r' || r == '\t' }) {
		if !slices.Contains(agents, a) {
			agents = append(agents, a)
		}
	}
	if len(agents) == 0 {
		return nil, errorf(http.StatusBadRequest, "pick at least one crawler")
	}
	if len(agents) > MaxPageAgents {
		return nil, errorf(http.StatusRequestEntityTooLarge, "%d crawlers, more than the tester's limit of %d", len(agents), MaxPageAgents)
	}
	if err := s.agentsOf(agents); err != nil {
		return nil, err
	}
	return agents, nil
}

// boundedTest is test with the form's files counted against FileWorkBytes, at most
// all of it (the two files of a diff form may hold up to PageMaxFileBytes each).
func (s *Server) boundedTest(r *http.Request, f *pageForm) (*pageResult, error) {
	done, err := s.takeFileWork(min(len(f.Robots)+len(f.RobotsNew), s.cfg.FileWorkBytes))
	if err != nil {
		return nil, err
	}
	defer done()
	return s.test(r, f)
}

// test runs the tester on a posted form: the file fetched or pasted (and the new
// one when comparing), its columns of crawlers told the same, and a verdict per
// URL and column.
func (s *Server) test(r *http.Request, f *pageForm) (*pageResult, error) {
	agents, err := s.pageAgents(f)
	if err != nil {
		return nil, err
	}
	list, err := s.pageURLs(f.URLs, len(agents))
	if err != nil {
		return nil, err
	}
	dialect, err := robots.ParseDialect(f.Dialect)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "%v", err)
	}
	fetching := f.Action == "fetch" || f.Action == "" && f.FetchURL != "" && strings.TrimSpace(f.Robots) == ""
	if !fetching {
		if err := checkPageFiles(f); err != nil {
			return nil, err
		}
	}

	res := &pageResult{Diff: f.Diff}
	// The old (or only) file: fetched, or the editor's text.
	var old testedFile
	if fetching {
		if old, err = s.fetchedFile(r, f, dialect); err != nil {
			return nil, err
		}
	} else {
		old = editorFile(f, dialect)
	}
	res.Source = old.source
	if old.effect == fetch.ObeyRules {
		old.other = signals.OtherReading(old.rb, string(old.body))
	}
	if f.Action == "" {
		f.Action = "test"
	}
	if dialect != robots.Google {
		res.Source.Title += ", read as " + dialect.String()
	}

	// Refuse a page too large before building it.
	cells := len(list.urls) * len(agents)
	est := estimatePage(old.body, cells) + estBytesPerStance*min(len(list.urls), MaxPurposeURLs)*len(agents)
	if f.Diff {
		est += estimatePage([]byte(f.RobotsNew), cells)
	}
	if est > s.cfg.PageMaxBytes {
		return nil, errorf(http.StatusRequestEntityTooLarge, "the answer would be about %s of HTML, more than the tester's limit of %s: test fewer URLs or crawlers at once, or a shorter file",
			sizeText(int64(est)), sizeText(int64(s.cfg.PageMaxBytes)))
	}

	old.view = newFileView("a", "robots.txt", old.body)
	res.Files = []*fileView{old.view}
	var newer *testedFile // the new file, when comparing
	if f.Diff {
		old.view.Title = "Old robots.txt"
		rb := robots.ParseString(f.RobotsNew, robots.WithDialect(dialect))
		newer = &testedFile{rb: rb, decide: rb.Check, usage: rb.Usage, effect: fetch.ObeyRules,
			view: newFileView("b", "New robots.txt", []byte(f.RobotsNew)), other: signals.OtherReading(rb, f.RobotsNew)}
		res.Files = append(res.Files, newer.view)
		res.Groups, res.Sitemaps = diffGroups(old.rb, newer.rb)
		markDiff(old.view, newer.view)
	}

	var newRobots *robots.Robots
	if newer != nil {
		newRobots = newer.rb
	}
	var agentCol []int
	res.Columns, agentCol = columnsOf(agents, old.rb, newRobots, old.effect)
	// Verdicts first, then the answers per purpose, then the files' lint, while the
	// request's work lasts (work.go); deciding and linting on the cores the API
	// decides on (Config.DecideCores), not while fetching a site's signals.
	ctx := r.Context()
	turn := coreTurn{cores: s.decideCores}
	defer turn.release()
	res.addRows(ctx, &turn, list, agents, agentCol, &old, newer)
	turn.release()
	switch {
	case res.Stopped != "":
		// No answers per purpose: the page says the test stopped.
	case newer != nil:
		res.Purposes = s.testPurposes(ctx, newer.rb, f.RobotsNew, fetch.ObeyRules, false, "", agents, list.urls)
		res.Purposes.Title = "By purpose, in the new version"
	default:
		res.Purposes = s.testPurposes(ctx, old.rb, string(old.body), old.effect, fetching, old.origin, agents, list.urls)
	}
	if fetching && res.Stopped == "" {
		res.History = s.historyViewOf(ctx, old.origin, agents, dialect)
	}
	for _, v := range res.Files {
		v.lint(ctx, &turn)
	}
	if cause := context.Cause(ctx); cause != nil && (res.Stopped != "" || slices.ContainsFunc(res.Files, func(v *fileView) bool { return v.LintStopped != "" })) {
		s.stopped(cause, nil)
	}
	return res, nil
}

// addRows decides the URLs of list for agents, in the old file and the newer one
// (nil unless comparing), one cell per column (agentCol), the lines that are not
// URLs where they were, and counts the lines of each file that decided. Each URL
// is decided holding a turn on a core; once ctx is done, the URLs left are marked
// undecided and Stopped says why.
func (res *pageResult) addRows(ctx context.Context, turn *coreTurn, list urlList, agents []string, agentCol []int, old, newer *testedFile) {
	res.BadURLs = len(list.bad)
	bad, badAt := list.bad, list.badAt
	for ui, u := range list.urls {
		for len(bad) > 0 && badAt[0] == ui {
			res.Rows = append(res.Rows, bad[0])
			bad, badAt = bad[1:], badAt[1:]
		}
		if res.Stopped == "" && (spent(ctx) || !turn.take(ctx)) {
			res.Stopped = testStoppedText(context.Cause(ctx), ui, len(list.urls))
		}
		if res.Stopped != "" {
			res.Rows = append(res.Rows, pageRow{URL: u, Undecided: true})
			res.Undecided++
			continue
		}
		row := rowOf(u, agents, agentCol, len(res.Columns), old, newer)
		if row.Changed {
			res.Changed++
		}
		res.Rows = append(res.Rows, row)
	}
	res.Rows = append(res.Rows, bad...)
	for _, v := range res.Files {
		for _, l := range v.Lines {
			if l.Hit {
				v.Hits++
			}
		}
	}
}

// urlList is the tester's list of URLs: those to test, and the lines that are not
// URLs, each shown before the URL of index badAt.
type urlList struct {
	urls  []string
	bad   []pageRow
	badAt []int
}

// pageURLs reads the tester's URL list, one per line, within the limits of one
// test of agents crawlers. URLs as people type them are tested as a browser
// requests them (weburl, as the command and the API do): /café is /caf%C3%A9. A
// line that is not a URL is shown where it is, with why, and the others are
// tested, as "robots check" and POST /v1/check do.
func (s *Server) pageURLs(text string, agents int) (urlList, error) {
	var list urlList
	for i, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			u, err := weburl.Encode(l)
			if err != nil {
				list.bad = append(list.bad, pageRow{URL: l, Error: err.Error(), Line: i + 1})
				list.badAt = append(list.badAt, len(list.urls))
				continue
			}
			list.urls = append(list.urls, u)
		}
	}
	urls := list.urls
	if len(urls) == 0 {
		if len(list.bad) > 0 {
			return list, errorf(http.StatusBadRequest, "line %d of the URL list: %s", list.bad[0].Line, list.bad[0].Error)
		}
		return list, errorf(http.StatusBadRequest, "list at least one URL or path to test")
	}
	if len(urls) > s.cfg.MaxURLs {
		return list, errorf(http.StatusRequestEntityTooLarge, "%s URLs, more than the limit of %s", counttext.Thousands(len(urls)), counttext.Thousands(s.cfg.MaxURLs))
	}
	for _, u := range urls {
		if len(u) > MaxURLBytes {
			return list, errorf(http.StatusBadRequest, "a URL of %d bytes, more than the limit of %d", len(u), MaxURLBytes)
		}
	}
	if cells := len(urls) * agents; cells > s.cfg.PageMaxCells {
		return list, errorf(http.StatusRequestEntityTooLarge, "%s URLs × %d crawlers = %s verdicts, more than the tester's limit of %s: test fewer URLs or crawlers at once (POST /v1/check takes larger batches)",
			counttext.Thousands(len(urls)), agents, counttext.Thousands(cells), counttext.Thousands(s.cfg.PageMaxCells))
	}
	return list, nil
}

// checkPageFiles refuses a pasted file larger than the tester holds.
func checkPageFiles(f *pageForm) error {
	for _, body := range []string{f.Robots, f.RobotsNew} {
		if len(body) > PageMaxFileBytes {
			return errorf(http.StatusRequestEntityTooLarge, "a file of %s, more than the tester holds (%s; Google reads the first %s of a robots.txt, RFC 9309 §2.5): test its first %s",
				sizeText(int64(len(body))), sizeText(PageMaxFileBytes), sizeText(robots.DefaultMaxBytes), sizeText(robots.DefaultMaxBytes))
		}
	}
	return nil
}

// testedFile is a file the tester decides with: its text and rules, how it
// decides (a fetched file as its fetch status says: a 404 allows everything), where
// it came from, and its view on the page.
type testedFile struct {
	body   []byte
	rb     *robots.Robots
	decide func(agent, url string) robots.Decision
	usage  func(agent, url string) robots.Usage
	effect fetch.Effect
	source sourceView
	view   *fileView
	origin string         // a fetched file's origin, against which paths are decided
	other  *robots.Robots // the file in the other reading, when it states usage (signals.OtherReading)
}

// readings says when the other reading of the file gives the crawler other usage
// preferences at u than pref (verdictjson.Readings).
func (t *testedFile) readings(agent, u string, pref robots.Usage) string {
	if t.other == nil {
		return ""
	}
	if t.origin != "" && strings.HasPrefix(u, "/") {
		u = t.origin + u
	}
	return verdictjson.Readings(t.other, []string{agent}, u, pref)
}

// editorFile is the file in the tester's editor, read as dialect.
func editorFile(f *pageForm, dialect robots.Dialect) testedFile {
	body := []byte(f.Robots)
	rb := robots.ParseString(f.Robots, robots.WithDialect(dialect))
	return testedFile{body: body, rb: rb, decide: rb.Check, usage: rb.Usage, effect: fetch.ObeyRules, source: editorSource(f, body)}
}

// fetchedFile fetches the robots.txt of the site in the form's fetch field (with a
// token when the server asks for one) and puts it into the editor. Paths are
// decided against the fetched origin.
func (s *Server) fetchedFile(r *http.Request, f *pageForm, dialect robots.Dialect) (testedFile, error) {
	if f.FetchURL == "" {
		return testedFile{}, errorf(http.StatusBadRequest, "enter the site whose robots.txt to fetch (such as example.com)")
	}
	if len(s.cfg.Tokens) > 0 && !s.tokenOK(f.Token) {
		return testedFile{}, errorf(http.StatusUnauthorized, "this server fetches only for holders of an API token (it was started with -token-file): enter yours, or paste the file and press Test")
	}
	target, note, err := siteURL(f.FetchURL)
	if err != nil {
		return testedFile{}, err
	}
	ctx, cancel := s.withCheckTimeout(r.Context())
	defer cancel()
	fr, err := s.lookup(ctx, target)
	if err != nil {
		return testedFile{}, err
	}
	t := testedFile{effect: fr.Effect, body: []byte(fr.Body)} // a copy: the page's helpers read bytes
	f.Robots = fr.Body
	f.Fetched = digest(t.body)
	f.FetchURL = fr.Origin
	t.source = fetchSource(fr)
	sayChosen(&t.source, note)
	origin := fr.Origin
	t.origin = origin
	abs := func(u string) string {
		if strings.HasPrefix(u, "/") {
			return origin + u
		}
		return u
	}
	t.decide = func(agent, u string) robots.Decision { return fr.Check(agent, abs(u)) }
	t.usage = func(agent, u string) robots.Usage { return fr.Usage(agent, abs(u)) }
	t.rb = fr.Robots
	if t.rb == nil || dialect != robots.Google && fr.Effect == fetch.ObeyRules {
		// Another reading of the same file; the status code's effect (allow or
		// disallow everything) stays as the fetch decided it.
		rb := robots.ParseString(fr.Body, robots.WithDialect(dialect))
		t.rb = rb
		if fr.Effect == fetch.ObeyRules {
			t.decide = func(agent, u string) robots.Decision { return rb.Check(agent, abs(u)) }
			t.usage = func(agent, u string) robots.Usage { return rb.Usage(agent, abs(u)) }
		}
	}
	return t, nil
}

// testStoppedText says why a test stopped after decided of n URLs.
func testStoppedText(cause error, decided, n int) string {
	why := "its client left"
	var be *budgetError
	switch {
	case errors.As(cause, &be):
		why = "the test " + strings.TrimPrefix(be.Error(), "this request ")
	case errors.Is(cause, context.DeadlineExceeded):
		why = "the test took longer than the server gives one"
	}
	return fmt.Sprintf("%s: %s of %s URLs decided; test the others again, fewer at once", why, counttext.Thousands(decided), counttext.Thousands(n))
}

// rowOf decides URL u for agents, each in its column of ncols (agentCol), in the
// old file and, when comparing, the newer one.
func rowOf(u string, agents []string, agentCol []int, ncols int, old, newer *testedFile) pageRow {
	row := pageRow{URL: u, Cells: make([]pageCell, ncols)}
	for ai, a := range agents {
		ci := agentCol[ai]
		if row.Cells[ci].Old.File != "" {
			continue // the column's first crawler decided
		}
		var c pageCell
		c.Old = verdictOf(old.decide(a, u), old.view, old.effect)
		uo := old.usage(a, u)
		c.Old.Usage = uo.String()
		c.Old.Readings = old.readings(a, u, uo)
		if newer != nil {
			c.New = verdictOf(newer.decide(a, u), newer.view, newer.effect)
			un := newer.usage(a, u)
			c.New.Usage = un.String()
			c.New.Readings = newer.readings(a, u, un)
			// A change of usage preferences (ai-train=yes to ai-train=no) is a change
			// of the URL, as a change of verdict is; lines that only move are not.
			c.Changed = c.Old.Allowed != c.New.Allowed || c.Old.Allowed && c.New.Allowed && !samePrefs(uo, un)
			row.Changed = row.Changed || c.Changed
		}
		row.Cells[ci] = c
	}
	return row
}

// columnsOf groups agents into the verdict table's columns: crawlers that get the
// same groups in every file (newRobots is nil unless comparing) get the same
// verdicts, one column each, with the old file's crawl-delay. It returns the
// columns and, per agent, its column.
func columnsOf(agents []string, oldRobots, newRobots *robots.Robots, effect fetch.Effect) ([]column, []int) {
	var cols []column
	colOf := map[string]int{}
	var agentCol []int
	for _, a := range agents {
		refs := []groupRef{groupRefOf(oldRobots, a, "a", effect)}
		if newRobots != nil {
			refs = append(refs, groupRefOf(newRobots, a, "b", fetch.ObeyRules))
		}
		key := fmt.Sprint(refs)
		i, ok := colOf[key]
		if !ok {
			i = len(cols)
			colOf[key] = i
			same := len(refs) == 2 && refs[0].Star == refs[1].Star && refs[0].None == refs[1].None &&
				refs[0].Note == refs[1].Note && slices.Equal(refs[0].Lines, refs[1].Lines)
			cols = append(cols, column{Groups: refs, Same: same})
			if effect == fetch.ObeyRules {
				if secs, line, ok := audit.DelayOf(oldRobots, a); ok {
					cols[i].Delay = fmt.Sprintf("%gs (line %d)", secs, line)
				}
			}
		}
		cols[i].Agents = append(cols[i].Agents, a)
		if c, ok := crawlers.Lookup(a); ok && c.CrawlDelay == crawlers.Ignored && cols[i].Delay != "" {
			cols[i].Delay += ", ignored by " + a + " (as its operator says)"
		}
		agentCol = append(agentCol, i)
	}
	return cols, agentCol
}

// estimatePage estimates the HTML bytes of a file's view and of the verdicts.
func estimatePage(body []byte, cells int) int {
	return 2*len(body) + estBytesPerLine*(bytes.Count(body, []byte("\n"))+1) + estBytesPerCell*cells
}

func groupRefOf(rb *robots.Robots, agent, file string, effect fetch.Effect) groupRef {
	switch effect {
	case fetch.AllowAll:
		return groupRef{File: file, Note: "no robots.txt: everything allowed"}
	case fetch.DisallowAll:
		return groupRef{File: file, Note: "site unreachable: everything disallowed"}
	}
	idx, star := rb.GroupsFor(agent)
	g := groupRef{File: file, Star: star, None: len(idx) == 0}
	groups := rb.Groups()
	for _, i := range idx {
		if i >= 0 && i < len(groups) {
			g.Lines = append(g.Lines, groups[i].Line)
		}
	}
	return g
}

// fetchSource explains a fetch: what came back and what it means for the verdicts.
func fetchSource(fr *fetch.Result) sourceView {
	src := sourceView{Title: "Fetched " + fr.RobotsURL, Effect: fr.Effect.String(), Class: "ok"}
	switch fr.Effect {
	case fetch.AllowAll:
		src.Title = "No robots.txt at " + fr.RobotsURL
	case fetch.DisallowAll:
		src.Title = "Could not fetch " + fr.RobotsURL
	}
	status := "no answer"
	if fr.Status != 0 {
		status = fmt.Sprintf("status %d", fr.Status)
	}
	why := ""
	if fr.Err != nil {
		why = " (" + fr.Err.Error() + ")"
	}
	switch {
	case fr.Stale:
		src.Class = "warn"
		src.Detail = fmt.Sprintf("The site is unreachable now: %s%s. Crawlers keep using the last copy they fetched, from %s, shown below; the verdicts follow it.",
			status, why, fr.LastSuccess.UTC().Format("2006-01-02 15:04 MST"))
	case fr.Effect == fetch.ObeyRules:
		src.Detail = fmt.Sprintf("%s, %s. The verdicts follow its rules; edit it below and press Test to try changes (Test never fetches).", status, sizeText(int64(len(fr.Body))))
		if fr.Truncated {
			src.Class = "warn"
			last := 0
			for l := range robots.Lines([]byte(fr.Body)) {
				last = l.Num
			}
			src.Detail += fmt.Sprintf(" The file is longer than crawlers read: they read its first %s bytes (500 KiB, the limit of Google and RFC 9309) and stop in line %s; the groups and rules after that are not read, and were not fetched.",
				counttext.Thousands(len(fr.Body)), counttext.Thousands(last))
		}
	case fr.Effect == fetch.AllowAll:
		src.Class = "warn"
		src.Detail = fmt.Sprintf("No robots.txt: %s%s. Without a file, crawlers may fetch every URL of the site, so every verdict is allowed and no line decides.", status, why)
	case fr.Effect == fetch.DisallowAll:
		src.Class = "bad"
		src.Detail = fmt.Sprintf("The site could not be reached: %s%s. Until it can be, crawlers treat every URL as disallowed (RFC 9309 §2.3.1.4), so every verdict is disallowed and no line decides. The editor is empty: paste the file to test its rules.", status, why)
		src.Detail += retryText(fr.RobotsURL, fr.Status)
	}
	return src
}

// editorSource explains a test of the editor's text.
func editorSource(f *pageForm, body []byte) sourceView {
	src := sourceView{Title: "The text in the editor", Effect: fetch.ObeyRules.String(), Class: "info"}
	if f.Diff {
		src.Title = "The old and new versions in the editors"
	}
	switch {
	case f.Fetched != "" && f.FetchURL != "" && digest(body) == f.Fetched:
		src.Title = "The file fetched from " + strings.TrimSuffix(originURL(f.FetchURL), "/") + "/robots.txt, unchanged"
	case f.Fetched != "" && f.FetchURL != "":
		src.Title = "Your edited copy of " + strings.TrimSuffix(originURL(f.FetchURL), "/") + "/robots.txt"
		src.Detail = "Tested as edited; the live file was not fetched again."
	}
	if len(bytes.TrimSpace(body)) == 0 {
		src.Detail = "The editor is empty: an empty robots.txt allows every URL."
	}
	return src
}

func verdictOf(d robots.Decision, v *fileView, effect fetch.Effect) verdict {
	out := verdict{Allowed: d.Allowed, File: v.ID, Line: d.Rule.Line}
	switch {
	case d.Rule.Line > 0:
		out.Rule = d.Rule.String()
		if i := d.Rule.Line - 1; i < len(v.Lines) {
			v.Lines[i].Hit = true
		}
	case effect == fetch.AllowAll:
		out.Why, out.Status = "no robots.txt", true
	case effect == fetch.DisallowAll:
		out.Why, out.Status = "site unreachable", true
	case d.Group < 0:
		out.Why = "no group applies"
	default:
		out.Why = "no rule matches"
	}
	return out
}

func newFileView(id, title string, body []byte) *fileView {
	v := &fileView{ID: id, Title: title}
	for l := range robots.Lines(body) {
		v.Lines = append(v.Lines, lineView{Num: l.Num, Text: l.Text, Kind: l.Kind.String()})
	}
	// A file that ends with a line end has no line after it, as editors count; an
	// empty file has none.
	if n := len(v.Lines); n > 0 && v.Lines[n-1].Text == "" && (len(body) == 0 || bytes.HasSuffix(body, []byte("\n")) || bytes.HasSuffix(body, []byte("\r"))) {
		v.Lines = v.Lines[:n-1]
	}
	v.name, v.body = title, body
	return v
}

// lintStoppedText says why a file's lint stopped.
func lintStoppedText(cause error) string {
	var be *budgetError
	switch {
	case errors.As(cause, &be):
		return "Lint stopped: the test " + strings.TrimPrefix(be.Error(), "this request ") + " before all its checks ran; the findings of those that did are shown."
	case errors.Is(cause, context.DeadlineExceeded):
		return "Lint stopped: the test took longer than the server gives one before all its checks ran; the findings of those that did are shown."
	}
	return "Lint stopped: its client left."
}

// lint puts the file's lint findings beside its lines, holding a turn on a core,
// while ctx lasts; LintStopped says why it stopped, if it did.
func (v *fileView) lint(ctx context.Context, turn *coreTurn) {
	if spent(ctx) || !turn.take(ctx) {
		v.LintStopped = lintStoppedText(context.Cause(ctx))
		return
	}
	fs, err := lint.CheckContext(ctx, v.name, v.body, lint.Options{})
	if err != nil {
		v.LintStopped = lintStoppedText(err)
	}
	v.Findings = groupedFindings(fs)
	for _, f := range fs {
		fv := findingView{Line: f.Line, Severity: string(f.Severity), Code: string(f.Code), Message: f.Message}
		switch fv.Severity {
		case "error":
			v.Errors++
		case "warning":
			v.Warnings++
		default:
			v.Infos++
		}
		if i := f.Line - 1; i >= 0 && i < len(v.Lines) {
			v.Lines[i].Findings = append(v.Lines[i].Findings, fv)
		}
	}
}

func severityRank(s string) int {
	switch s {
	case "error":
		return 0
	case "warning":
		return 1
	}
	return 2
}

// sizeText writes a byte count for people: 1,234 bytes, 12 KiB, 8 MiB.
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 10<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return counttext.Thousands(int(n)) + " bytes"
}

// samePrefs reports whether two usages state the same preferences, wherever stated.
func samePrefs(a, b robots.Usage) bool {
	same := func(x, y []robots.Stated) bool {
		return slices.EqualFunc(x, y, func(p, q robots.Stated) bool { return p.Label == q.Label && p.Preference == q.Preference })
	}
	return same(a.ContentUsage, b.ContentUsage) && same(a.ContentSignal, b.ContentSignal)
}
