package robots

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorobots/robots/internal/corpus"
	"github.com/gorobots/robots/internal/testenv"
)

// FuzzParse parses arbitrary bodies, seeded with the real files of the corpus: it must
// not panic, must take bounded time, and must give stable, self-consistent results.
func FuzzParse(f *testing.F) {
	// Without the corpus (and outside CI) the seeds below still run.
	var files []string
	if dir, err := corpus.Find("."); err == nil {
		files, _ = filepath.Glob(filepath.Join(dir, "robots", "*.txt"))
	} else if testenv.InCI() {
		f.Fatalf("%v (required when CI=true)", err)
	} else {
		f.Logf("%v (set $%s to its directory): seeding without it", err, corpus.EnvDir)
	}
	for i, name := range files {
		if testing.Short() && i%20 != 0 {
			continue
		}
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b, "/", "googlebot")
		}
	}
	f.Add([]byte("user-agent: *\ndisallow: /\n"), "/x", "*")
	f.Add([]byte("\xef\xbb\xbfUser-agent: a\r\nAllow: /a*b$\rDisallow /\n"), "/ab", "a")
	f.Add([]byte("User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\nCrawl-delay: 1\nDisallow: /\n"), "/x", "a")
	f.Add([]byte("\xef\xbb\xbfLicense: /a\r  LICENSE:b\rlicense c\nUser-agent: *\n\tLicense: d # e\nLicenses: f\nLicense\x00: g\n"), "/", "a")
	f.Fuzz(func(t *testing.T, body []byte, url, agent string) {
		start := time.Now()
		r := Parse(body)
		// Generous: parsing is linear; this only catches pathological blow-ups.
		if el := time.Since(start); el > 2*time.Second+time.Duration(len(body))*time.Microsecond {
			t.Fatalf("Parse took %v for %d bytes", el, len(body))
		}
		d := r.Check(agent, url)
		if d.Allowed != r.Allowed(agent, url) {
			t.Fatalf("Check and Allowed disagree")
		}
		if again := Parse(body).Check(agent, url); again != d {
			t.Fatalf("unstable: %+v then %+v", d, again)
		}
		groups := r.Groups()
		if d.Rule.Line > 0 {
			if d.Group < 0 || d.Group >= len(groups) {
				t.Fatalf("deciding rule %+v but group %d of %d", d.Rule, d.Group, len(groups))
			}
			found := slices.ContainsFunc(groups[d.Group].Rules, func(ru Rule) bool {
				return ru.Line == d.Rule.Line && ru.Allow == d.Rule.Allow
			})
			if !found {
				t.Fatalf("deciding rule %+v not in group %+v", d.Rule, groups[d.Group])
			}
		} else if !d.Allowed {
			t.Fatalf("disallowed without a rule")
		}
		for _, g := range groups {
			if len(g.Agents) == 0 {
				t.Fatalf("group without agents: %+v", g)
			}
		}
		// Parse finds the groups by its own pass over the lines (grouper); the detailed
		// reading behind Groups must find the same ones, under every dialect.
		for _, dl := range Dialects() {
			r := Parse(body, WithDialect(dl))
			gs := r.Groups()
			if len(gs) != len(r.groups) {
				t.Fatalf("%s: Parse found %d groups, Groups %d", dl, len(r.groups), len(gs))
			}
			for gi, g := range gs {
				if g.Line != int(r.groups[gi].line) || g.Agents[0].Line != g.Line {
					t.Fatalf("%s: group %d at line %d, Groups says %d (first agent on %d)", dl, gi, r.groups[gi].line, g.Line, g.Agents[0].Line)
				}
				// Rules reads a group's rules again from the body, where it starts.
				if rules := slices.Collect(r.Rules([]int{gi})); !slices.Equal(rules, g.Rules) {
					t.Fatalf("%s: Rules([%d]) = %v; Groups()[%d].Rules = %v", dl, gi, rules, gi, g.Rules)
				}
			}
			// Robots.Lines reads the lines as an exact reading does, and the detailed
			// reading on the way.
			if msg := linesDiffer(Parse(body, WithDialect(dl))); msg != "" {
				t.Fatalf("%s: %s", dl, msg)
			}
			// The detailed reading reads lines as Parse found it must (Robots.exact): as an
			// exact reading does.
			if !r.exact && !reflect.DeepEqual(r.readDetailsAs(false), r.readDetailsAs(true)) {
				t.Fatalf("%s: the detailed reading differs from an exact one", dl)
			}
			// Parse's reading notes License lines; the detailed reading reads them as fields.
			var licenses []string
			for _, f := range r.Fields() {
				if f.Name == "license" {
					licenses = append(licenses, f.Value)
				}
			}
			if got := r.Licenses(); !slices.Equal(got, licenses) {
				t.Fatalf("%s: Licenses() = %q; Fields has %q", dl, got, licenses)
			}
		}
	})
}

// FuzzCheckOnce checks that the one-pass decision agrees with Parse and Check.
func FuzzCheckOnce(f *testing.F) {
	f.Add([]byte("user-agent: a\nuser-agent: *\ndisallow: /x\nallow: /x/index.html\n"), "/x/", "a", "b")
	f.Add([]byte("User-agent: *\nDisallow: /\n\nUser-agent: b\nAllow: /p\n"), "https://h?q", "B", "")
	f.Add([]byte("user-agent: *\ndisallow: /a#b\ndisallow: /ab \t\nallow: /a/index.htm\x00x\nDisallow: /%7e\xc3\n"), "/a/", "bot", "")
	f.Fuzz(func(t *testing.T, body []byte, url, a1, a2 string) {
		agents := []string{a1, a2}
		if a2 == "" {
			agents = agents[:1]
		}
		if got, want := decideOnce(body, url, agents[0], agents[1:], nil), Parse(body).CheckAgents(agents, url); got != want {
			t.Fatalf("one pass = %+v, Parse+CheckAgents = %+v", got, want)
		}
	})
}

// FuzzLines checks the reader's bookkeeping (line ends, the cached comment position)
// against classifying each line on its own.
func FuzzLines(f *testing.F) {
	f.Add([]byte("a: b # c\r\n#x\rUser-agent: *\n\nDisallow: /#\x00#"))
	f.Fuzz(func(t *testing.T, body []byte) {
		s := string(body)
		s = s[skipBOM(s):]
		var texts []string
		for len(s) > 0 || texts == nil {
			i := strings.IndexAny(s, "\r\n")
			if i < 0 {
				texts = append(texts, s)
				break
			}
			texts = append(texts, s[:i])
			if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			s = s[i+1:]
			if s == "" {
				texts = append(texts, "")
			}
		}
		n := 0
		for l := range Lines(body) {
			if n >= len(texts) {
				t.Fatalf("more lines than %d", len(texts))
			}
			var want Line
			hash := strings.IndexByte(texts[n], '#')
			classify(&want, n+1, texts[n], 0, 0, false, hash, Google)
			if l != want {
				t.Fatalf("line %d = %+v, want %+v", n+1, l, want)
			}
			n++
		}
		if n != len(texts) {
			t.Fatalf("%d lines, want %d", n, len(texts))
		}
	})
}
