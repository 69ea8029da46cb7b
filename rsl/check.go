package rsl

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/gorobots/robots"
)

// matcher finds the <content> whose URL pattern matches a URL longest, with the
// project's robots.txt matcher: each pattern is the value of a Disallow rule in a file
// of its own origin (path patterns in one that every origin shares), so that the rule
// deciding a URL is the longest pattern that matches it.
type matcher struct {
	paths    *robots.Robots            // patterns written as paths
	byOrigin map[string]*robots.Robots // patterns written as full URLs, by origin
	line     map[*robots.Robots][]int  // a file's line → the index of its content
}

const matchAgent = "rsl"

func (m *matcher) compile(contents []Content) error {
	files := map[string]*strings.Builder{}
	lines := map[string][]int{}
	for i := range contents {
		c := &contents[i]
		if c.Err != "" {
			continue
		}
		origin, pattern, err := splitPattern(c.URL)
		if err != nil {
			c.Err = err.Error()
			continue
		}
		b := files[origin]
		if b == nil {
			b = &strings.Builder{}
			b.WriteString("user-agent: " + matchAgent + "\n")
			files[origin] = b
			lines[origin] = []int{-1, -1} // line 0 does not exist, line 1 is the user-agent
		}
		b.WriteString("disallow: " + pattern + "\n")
		lines[origin] = append(lines[origin], i)
	}
	m.byOrigin = map[string]*robots.Robots{}
	m.line = map[*robots.Robots][]int{}
	for origin, b := range files {
		r := robots.ParseString(b.String(), robots.WithMaxBytes(2*MaxBytes))
		m.line[r] = lines[origin]
		if origin == "" {
			m.paths = r
		} else {
			m.byOrigin[origin] = r
		}
	}
	return nil
}

// splitPattern splits a content URL into its origin ("" for a path) and its path
// pattern.
func splitPattern(p string) (origin, pattern string, err error) {
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "*") {
		return "", p, nil
	}
	u, err := url.Parse(p)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", "", fmt.Errorf("content url %q is neither a path (starting with / or *) nor an absolute http(s) URL", p)
	}
	origin, err = originOf(u)
	if err != nil {
		return "", "", err
	}
	// The rest of the URL as written, which may hold '*' and '$'.
	rest := p[strings.Index(p, "//")+2:]
	if i := strings.IndexAny(rest, "/*?"); i >= 0 {
		rest = rest[i:]
	} else {
		rest = "/"
	}
	if !strings.HasPrefix(rest, "/") && !strings.HasPrefix(rest, "*") {
		rest = "/" + rest
	}
	return origin, rest, nil
}

func originOf(u *url.URL) (string, error) {
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if port == "80" && u.Scheme == "http" || port == "443" && u.Scheme == "https" {
		port = ""
	}
	if port != "" {
		host += ":" + port
	}
	return u.Scheme + "://" + host, nil
}

// Match returns the content whose URL pattern matches rawURL longest, or nil. A
// pattern written as a path matches the URL of any origin: the caller asks about URLs
// of the site the licence was found for.
func (d *Document) Match(rawURL string) *Content {
	if d == nil {
		return nil
	}
	best, bestLen := -1, -1
	try := func(r *robots.Robots) {
		if r == nil {
			return
		}
		dec := r.Check(matchAgent, rawURL)
		if dec.Allowed || dec.Rule.Line <= 0 {
			return
		}
		if n := len(dec.Rule.Value); n > bestLen {
			best, bestLen = d.m.line[r][dec.Rule.Line], n
		}
	}
	if u, err := url.Parse(rawURL); err == nil && u.Host != "" {
		if o, err := originOf(u); err == nil {
			try(d.m.byOrigin[o])
		}
	}
	try(d.m.paths)
	if best < 0 {
		return nil
	}
	return &d.Contents[best]
}

// Query is a use to ask a licence about: the usage, and, when they are known, the
// user's kind ("commercial", …) and country (ISO 3166-1 alpha-2). An empty User or Geo
// is not asked about: a licence restricted to some users or places then permits with
// that condition (Verdict.Conditions).
type Query struct {
	Usage Usage
	User  string
	Geo   string
}

// Verdict is what a document says of a use of the asset at a URL.
type Verdict struct {
	Answer Answer `json:"answer"`
	// Content is the URL pattern of the <content> that applies ("" when none does),
	// and ContentLine its line.
	Content     string `json:"content"`
	ContentLine int    `json:"content_line"`
	// Licenses are the lines of the licences that give Answer: those that permit the
	// use when it is permitted, else those that prohibit it, else those that cannot be
	// read.
	Licenses []int `json:"licenses"`
	// Payments are the payment terms of the licences that permit the use ("free" when
	// a licence names none).
	Payments []Payment `json:"payments"`
	// Conditions are the restrictions on users and places that Query did not ask
	// about, of the licences that permit the use: "user: education, personal".
	Conditions []string `json:"conditions"`
	// Reason says why, in words.
	Reason string `json:"reason"`
}

// Check answers for the asset at rawURL and the use q: Permitted if a licence of the
// content that matches the URL longest permits it (and, for each type of value asked
// about, no <prohibits> of that licence names it and any <permits> of that type does),
// Unknown if none does and a licence cannot be read, or if no content matches or the
// usage is not RSL's; otherwise Prohibited.
func (d *Document) Check(rawURL string, q Query) Verdict {
	v := Verdict{Licenses: []int{}, Payments: []Payment{}, Conditions: []string{}}
	if _, err := ParseUsage(string(q.Usage)); err != nil {
		v.Reason = err.Error()
		return v
	}
	c := d.Match(rawURL)
	if c == nil {
		v.Reason = "no <content> of the licence matches the URL"
		return v
	}
	v.Content, v.ContentLine = c.URL, c.Line
	var prohibited, unreadable []int
	var why []string
	for _, l := range c.Licenses {
		if l.Err != "" {
			unreadable = append(unreadable, l.Line)
			why = append(why, fmt.Sprintf("licence at line %d cannot be read: %s", l.Line, l.Err))
			continue
		}
		a, conds := l.check(q)
		switch a {
		case Permitted:
			v.Licenses = append(v.Licenses, l.Line)
			if len(l.Payments) == 0 {
				v.Payments = append(v.Payments, Payment{Type: "free"})
			}
			v.Payments = append(v.Payments, l.Payments...)
			v.Conditions = append(v.Conditions, conds...)
		case Prohibited:
			prohibited = append(prohibited, l.Line)
		}
	}
	switch {
	case len(v.Licenses) > 0:
		v.Answer = Permitted
		var pay []string
		for _, p := range v.Payments {
			pay = append(pay, p.String())
		}
		v.Reason = fmt.Sprintf("%s permitted by the licence at line %v (payment: %s)", q.Usage, v.Licenses, strings.Join(pay, "; "))
	case len(unreadable) > 0:
		v.Licenses = unreadable
		v.Reason = strings.Join(why, "; ")
	case len(prohibited) > 0:
		v.Answer, v.Licenses = Prohibited, prohibited
		v.Reason = fmt.Sprintf("%s prohibited or not permitted by every licence of the content at line %d", q.Usage, c.Line)
	default:
		v.Reason = fmt.Sprintf("the content at line %d has no licence", c.Line)
	}
	return v
}

// check answers for one readable licence, with the conditions of its permission.
func (l *License) check(q Query) (Answer, []string) {
	usageIn := func(vs []Usage) bool {
		for _, v := range vs {
			if v.covers(q.Usage) {
				return true
			}
		}
		return false
	}
	if usageIn(l.Prohibits.Usage) || l.Permits.Usage != nil && !usageIn(l.Permits.Usage) {
		return Prohibited, nil
	}
	var conds []string
	for _, t := range []struct {
		name             string
		asked            string
		permits, prohibs []string
	}{{"user", q.User, l.Permits.User, l.Prohibits.User}, {"geo", strings.ToUpper(q.Geo), l.Permits.Geo, l.Prohibits.Geo}} {
		if t.asked == "" {
			if t.permits != nil {
				conds = append(conds, t.name+": only "+strings.Join(t.permits, ", "))
			}
			if len(t.prohibs) > 0 {
				conds = append(conds, t.name+": not "+strings.Join(t.prohibs, ", "))
			}
			continue
		}
		if contains(t.prohibs, t.asked) || t.permits != nil && !contains(t.permits, t.asked) {
			return Prohibited, nil
		}
	}
	return Permitted, conds
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
