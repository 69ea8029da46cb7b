package serve

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/lint"
)

// The web tester: a form posted to "/" and answered with the same page, results
// included, so that it works without JavaScript; app.js only adds conveniences
// (highlighting a verdict's line on hover, selecting all crawlers, hiding the second
// file outside diff mode).

//go:embed web
var webFiles embed.FS

func parsePage() (*template.Template, error) {
	return template.New("index.html").Funcs(template.FuncMap{
		"dict": func(kv ...any) map[string]any {
			m := make(map[string]any, len(kv)/2)
			for i := 0; i+1 < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1]
			}
			return m
		},
	}).ParseFS(webFiles, "web/index.html")
}

func (s *Server) pageRoutes(mux *http.ServeMux) {
	static, _ := fs.Sub(webFiles, "web/static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET /{$}", s.handlePage)
	mux.HandleFunc("POST /{$}", s.handlePage)
}

// pageForm is the tester's input, echoed back into the form.
type pageForm struct {
	Robots    string // the file, or the old file in diff mode
	RobotsNew string // the new file in diff mode
	FetchURL  string // fetch the file from this URL's origin instead of Robots
	URLs      string // one per line: absolute URLs or paths
	Agents    []string
	More      string // more agents, separated by commas or spaces
	Diff      bool
	Dialect   string // the reading of robots.txt: google (or empty), rfc9309, legacy1996, legacy1994
}

type crawlerChoice struct {
	Name    string
	Purpose string
	Checked bool
}

type pageData struct {
	Form     pageForm
	Crawlers []crawlerChoice
	Error    string
	Result   *pageResult
}

type pageResult struct {
	Diff    bool
	Agents  []string
	Rows    []pageRow
	Changed int // rows with a changed verdict, in diff mode
	Files   []*fileView
	Note    string // where the file came from
}

type pageRow struct {
	URL   string
	Cells []pageCell
}

type pageCell struct {
	Old, New verdict
	Changed  bool
}

type verdict struct {
	Allowed bool
	Line    int
	Rule    string
	Why     string // when no rule decided: why
}

type fileView struct {
	ID       string // "a" or "b": prefix of line anchors
	Title    string
	Lines    []lineView
	Groups   []agentGroup
	Findings int
}

type lineView struct {
	Num      int
	Text     string
	Kind     string
	Hit      bool // decides at least one verdict
	Findings []lint.Finding
}

// agentGroup says which group a crawler gets in one file.
type agentGroup struct {
	Agent string
	Lines []int // first line of each group that applies
	Star  bool  // the "*" group applies
}

// MaxPageAgents bounds the crawlers of one tester form (each is a column).
const MaxPageAgents = 100

func (s *Server) handlePage(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	hm := s.metrics.page
	d := pageData{}
	code := http.StatusOK
	if r.Method == http.MethodPost {
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
		var err error
		if err = r.ParseForm(); err != nil {
			err = fmt.Errorf("reading the form: %w", err)
		} else {
			d.Form = formOf(r)
			d.Result, err = s.test(r, &d.Form)
		}
		if err != nil {
			code = statusOf(err)
			d.Error = err.Error()
		}
	} else {
		d.Form.URLs = "/\n/search?q=robots\n/private/file.html"
		d.Form.Robots = "User-agent: *\nDisallow: /private/\nAllow: /private/public.html\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: https://example.com/sitemap.xml\n"
	}
	d.Crawlers = choices(d.Form.Agents, r.Method == http.MethodPost)
	var buf bytes.Buffer
	if err := s.page.Execute(&buf, d); err != nil {
		s.log.Error("page template", "error", err)
		http.Error(w, "internal error rendering the page", http.StatusInternalServerError)
		hm.done(http.StatusInternalServerError, start)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self'; script-src 'self'; img-src 'self' data:")
	w.WriteHeader(code)
	w.Write(buf.Bytes())
	hm.done(code, start)
}

func formOf(r *http.Request) pageForm {
	f := pageForm{
		Robots:    r.PostForm.Get("robots"),
		RobotsNew: r.PostForm.Get("robots_new"),
		FetchURL:  strings.TrimSpace(r.PostForm.Get("fetch_url")),
		URLs:      r.PostForm.Get("urls"),
		Agents:    r.PostForm["agent"],
		More:      r.PostForm.Get("more_agents"),
		Diff:      r.PostForm.Get("diff") != "",
		Dialect:   r.PostForm.Get("dialect"),
	}
	return f
}

// choices lists the crawlers of the form: the major ones, checked as the user left
// them (or the preselected ones on a first visit), then any others the user named.
func choices(checked []string, posted bool) []crawlerChoice {
	var out []crawlerChoice
	for _, c := range crawlers.Major() {
		on := slices.Contains(preselected, c.Name)
		if posted {
			on = slices.Contains(checked, c.Name)
		}
		out = append(out, crawlerChoice{Name: c.Name, Purpose: string(c.Purpose), Checked: on})
	}
	return out
}

// test runs the tester on a posted form.
func (s *Server) test(r *http.Request, f *pageForm) (*pageResult, error) {
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
		return nil, errorf(http.StatusRequestEntityTooLarge, "%d crawlers, more than the limit of %d", len(agents), MaxPageAgents)
	}
	if err := s.agentsOf(agents); err != nil {
		return nil, err
	}
	var urls []string
	for _, l := range strings.Split(f.URLs, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			urls = append(urls, l)
		}
	}
	if len(urls) > s.cfg.MaxURLs {
		return nil, errorf(http.StatusRequestEntityTooLarge, "%d URLs, more than the limit of %d", len(urls), s.cfg.MaxURLs)
	}

	dialect, err := robots.ParseDialect(f.Dialect)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "%v", err)
	}
	readAs := robots.WithDialect(dialect)
	res := &pageResult{Diff: f.Diff, Agents: agents}
	// The old (or only) file: fetched, or pasted.
	var oldDecide func(url string, agent string) robots.Decision
	var oldBody []byte
	var oldRobots *robots.Robots
	if f.FetchURL != "" {
		ctx, cancel := s.withCheckTimeout(r.Context())
		defer cancel()
		fr, err := s.lookup(ctx, f.FetchURL)
		if err != nil {
			return nil, err
		}
		oldBody = fr.Body
		f.Robots = string(oldBody)
		oldRobots = fr.Robots
		res.Note = fetchNote(fr)
		origin := fr.Origin
		oldDecide = func(u, agent string) robots.Decision {
			if strings.HasPrefix(u, "/") {
				u = origin + u
			}
			return fr.Check(agent, u)
		}
		if oldRobots == nil || dialect != robots.Google && fr.Effect == fetch.ObeyRules {
			// Another reading of the same file; the status code's effect (allow or
			// disallow everything) stays as the fetch decided it.
			oldRobots = robots.Parse(oldBody, readAs)
			if fr.Effect == fetch.ObeyRules {
				oldDecide = func(u, agent string) robots.Decision {
					if strings.HasPrefix(u, "/") {
						u = origin + u
					}
					return oldRobots.Check(agent, u)
				}
			}
		}
	} else {
		oldBody = []byte(f.Robots)
		oldRobots = robots.Parse(oldBody, readAs)
		oldDecide = func(u, agent string) robots.Decision { return oldRobots.Check(agent, u) }
		res.Note = "the pasted file"
	}
	oldView := newFileView("a", "robots.txt", oldBody, oldRobots, agents)
	res.Files = []*fileView{oldView}
	var newRobots *robots.Robots
	var newView *fileView
	if f.Diff {
		oldView.Title = "old robots.txt"
		newRobots = robots.Parse([]byte(f.RobotsNew), readAs)
		newView = newFileView("b", "new robots.txt", []byte(f.RobotsNew), newRobots, agents)
		res.Files = append(res.Files, newView)
	}

	if dialect != robots.Google {
		res.Note += ", read as " + dialect.String()
	}
	for _, u := range urls {
		row := pageRow{URL: u}
		changed := false
		for _, a := range agents {
			var c pageCell
			c.Old = verdictOf(oldDecide(u, a), oldView)
			if f.Diff {
				c.New = verdictOf(newRobots.Check(a, u), newView)
				c.Changed = c.Old.Allowed != c.New.Allowed
				changed = changed || c.Changed
			}
			row.Cells = append(row.Cells, c)
		}
		if changed {
			res.Changed++
		}
		res.Rows = append(res.Rows, row)
	}
	return res, nil
}

func fetchNote(fr *fetch.Result) string {
	note := fmt.Sprintf("%s: %s", fr.RobotsURL, fr.Outcome)
	if fr.Status != 0 {
		note += fmt.Sprintf(" (status %d)", fr.Status)
	}
	switch fr.Effect {
	case fetch.AllowAll:
		note += ", so every URL is allowed"
	case fetch.DisallowAll:
		note += ", so every URL is disallowed for now"
	}
	if fr.Stale {
		note += "; the last good copy is in use"
	}
	if fr.Err != nil {
		note += "; " + fr.Err.Error()
	}
	return note
}

func verdictOf(d robots.Decision, v *fileView) verdict {
	out := verdict{Allowed: d.Allowed, Line: d.Rule.Line}
	if d.Rule.Line > 0 {
		out.Rule = d.Rule.String()
		if i := d.Rule.Line - 1; i < len(v.Lines) {
			v.Lines[i].Hit = true
		}
	} else if d.Allowed {
		out.Why = "no rule matched"
	} else {
		out.Why = "the file could not be fetched"
	}
	return out
}

func newFileView(id, title string, body []byte, rb *robots.Robots, agents []string) *fileView {
	v := &fileView{ID: id, Title: title}
	for l := range robots.Lines(body) {
		v.Lines = append(v.Lines, lineView{Num: l.Num, Text: l.Text, Kind: l.Kind.String()})
	}
	for _, f := range lint.Check(title, body) {
		if i := f.Line - 1; i >= 0 && i < len(v.Lines) {
			v.Lines[i].Findings = append(v.Lines[i].Findings, f)
			v.Findings++
		}
	}
	groups := rb.Groups()
	for _, a := range agents {
		idx, star := rb.GroupsFor(a)
		g := agentGroup{Agent: a, Star: star}
		for _, i := range idx {
			if i >= 0 && i < len(groups) {
				g.Lines = append(g.Lines, groups[i].Line)
			}
		}
		v.Groups = append(v.Groups, g)
	}
	return v
}

// preselected are the major search and AI crawlers the tester checks by default.
var preselected = []string{
	"Googlebot", "bingbot", "DuckDuckBot", "Applebot", "YandexBot", "Baiduspider",
	"GPTBot", "ChatGPT-User", "OAI-SearchBot", "ClaudeBot", "Google-Extended", "PerplexityBot", "CCBot",
}
