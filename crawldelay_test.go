package robots

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gorobots/robots/internal/testenv"
)

// oldCrawlDelay is what Robots.CrawlDelay returned before it stopped allocating: the
// groups of GroupsFor, in file order, and the first value ParseCrawlDelay accepts in
// them. The tests below check the new one against it.
func oldCrawlDelay(r *Robots, agents ...string) (time.Duration, bool) {
	gs, _ := r.GroupsFor(agents...)
	all := r.Groups()
	for _, gi := range gs {
		for _, f := range all[gi].Fields {
			if f.Name != "crawl-delay" {
				continue
			}
			if d, err := ParseCrawlDelay(f.Value); err == nil {
				return d, true
			}
		}
	}
	return 0, false
}

// delayBodies are files written to reach every way of choosing the groups: named
// groups in any order, several agents naming the same group or different ones, the
// "*" fallback, invalid values before valid ones, and groups without a delay. Each
// group has a rule: in Google's reading a crawl-delay line does not end the run of
// user-agent lines, so without one consecutive groups would merge.
var delayBodies = map[string]string{
	"empty":              "",
	"star only":          "user-agent: *\ncrawl-delay: 10\n",
	"named before star":  "user-agent: a\ndisallow: /p\ncrawl-delay: 1\n\nuser-agent: *\ndisallow: /p\ncrawl-delay: 2\n",
	"star before named":  "user-agent: *\ndisallow: /p\ncrawl-delay: 2\n\nuser-agent: a\ndisallow: /p\ncrawl-delay: 1\n",
	"named, no delay":    "user-agent: a\ndisallow: /x\n\nuser-agent: *\ndisallow: /p\ncrawl-delay: 2\n",
	"two groups of a":    "user-agent: a\ndisallow: /x\n\nuser-agent: b\ndisallow: /p\ncrawl-delay: 3\n\nuser-agent: a\ndisallow: /p\ncrawl-delay: 4\n",
	"a and b, b first":   "user-agent: b\ndisallow: /p\ncrawl-delay: 3\n\nuser-agent: a\ndisallow: /p\ncrawl-delay: 4\n",
	"shared group":       "user-agent: a\nuser-agent: b\ncrawl-delay: 0.5\n",
	"invalid then valid": "user-agent: a\ncrawl-delay: ten\ncrawl-delay: 10 seconds\ncrawl-delay: -1\ncrawl-delay: 7\n",
	"only invalid":       "user-agent: *\ncrawl-delay: 1e10\ncrawl-delay: NaN\ncrawl-delay: inf\ncrawl-delay:\n",
	"other spellings": "user-agent: a\ndisallow: /p\ncrawl-delay: 1e1\n\nuser-agent: b\ndisallow: /p\ncrawl-delay: +.5\n\n" +
		"user-agent: c\ndisallow: /p\ncrawl-delay: 0x1p-2\n\nuser-agent: d\ndisallow: /p\ncrawl-delay: .25\n",
	"limits": "user-agent: a\ndisallow: /p\ncrawl-delay: 1000000000\n\nuser-agent: b\ndisallow: /p\ncrawl-delay: 1000000000.5\n\n" +
		"user-agent: c\ndisallow: /p\ncrawl-delay: 0.\n\nuser-agent: d\ndisallow: /p\ncrawl-delay: 1.2.3\n",
	"long numbers": "user-agent: a\ndisallow: /p\ncrawl-delay: 0." + strings.Repeat("0", 320) + "1\n\n" +
		"user-agent: b\ndisallow: /p\ncrawl-delay: " + strings.Repeat("9", 320) + "\n\n" +
		"user-agent: c\ndisallow: /p\ncrawl-delay: 0." + strings.Repeat("0", 297) + "1\n",
	"delay outside": "crawl-delay: 5\nuser-agent: a\ndisallow: /\n",
	"legacy star":   "user-agent: a*\ndisallow: /p\ncrawl-delay: 6\n\nuser-agent: *\ndisallow: /p\ncrawl-delay: 8\n",
}

// delayAgents are the agents asked about, alone and together.
var delayAgents = [][]string{nil, {"a"}, {"b"}, {"A"}, {"c"}, {"d"}, {"z"}, {"a", "b"}, {"b", "a"}, {"z", "b"}, {"a", "a"}, {""}, {"*"}}

// TestCrawlDelayAsBefore checks CrawlDelay against oldCrawlDelay on the written files,
// the conformance files and a sample of the corpus, under every dialect.
func TestCrawlDelayAsBefore(t *testing.T) {
	bodies := map[string]string{}
	for name, b := range delayBodies {
		bodies[name] = b
	}
	for _, file := range conformanceFiles {
		for i, c := range readJSONL[conformanceCase](t, file) {
			bodies[fmt.Sprintf("%s case %d", file, i)] = string(c.body(t))
		}
	}
	check := func(t *testing.T, name string, r *Robots, agents [][]string) {
		t.Helper()
		for _, as := range agents {
			got, gotOK := r.CrawlDelay(as...)
			want, wantOK := oldCrawlDelay(r, as...)
			if got != want || gotOK != wantOK {
				t.Errorf("%s, %s: CrawlDelay(%q) = %v, %v; before: %v, %v", name, r.dialect, as, got, gotOK, want, wantOK)
			}
		}
	}
	t.Run("written and conformance", func(t *testing.T) {
		for name, body := range bodies {
			for _, d := range Dialects() {
				check(t, name, Parse([]byte(body), WithDialect(d), WithMaxBytes(len(body))), delayAgents)
			}
		}
	})
	t.Run("written values", func(t *testing.T) {
		// The expected values, from ParseCrawlDelay's documentation.
		for _, tt := range []struct {
			name   string
			agents []string
			want   time.Duration
			ok     bool
		}{
			{"star only", []string{"a"}, 10 * time.Second, true},
			{"named before star", []string{"a"}, time.Second, true},
			{"named before star", []string{"b"}, 2 * time.Second, true},
			{"star before named", []string{"a"}, time.Second, true},
			{"named, no delay", []string{"a"}, 0, false},
			{"two groups of a", []string{"a"}, 4 * time.Second, true},
			{"two groups of a", []string{"a", "b"}, 3 * time.Second, true},
			{"a and b, b first", []string{"a", "b"}, 3 * time.Second, true},
			{"shared group", []string{"b", "a"}, 500 * time.Millisecond, true},
			{"invalid then valid", []string{"a"}, 7 * time.Second, true},
			{"only invalid", []string{"a"}, 0, false},
			{"other spellings", []string{"a"}, 10 * time.Second, true},
			{"other spellings", []string{"b"}, 500 * time.Millisecond, true},
			{"other spellings", []string{"c"}, 250 * time.Millisecond, true},
			{"other spellings", []string{"d"}, 250 * time.Millisecond, true},
			{"limits", []string{"a"}, 1e9 * time.Second, true},
			{"limits", []string{"b"}, 0, false},
			{"limits", []string{"c"}, 0, true},
			{"limits", []string{"d"}, 0, false},
			{"long numbers", []string{"a"}, 0, true},
			{"long numbers", []string{"b"}, 0, false},
			{"long numbers", []string{"c"}, 0, true},
			{"delay outside", []string{"a"}, 0, false},
			{"empty", []string{"a"}, 0, false},
		} {
			t.Run(tt.name+"/"+strings.Join(tt.agents, ","), func(t *testing.T) {
				r := Parse([]byte(delayBodies[tt.name]))
				if d, ok := r.CrawlDelay(tt.agents...); d != tt.want || ok != tt.ok {
					t.Errorf("CrawlDelay(%q) = %v, %v; want %v, %v", tt.agents, d, ok, tt.want, tt.ok)
				}
			})
		}
	})
	t.Run("corpus", func(t *testing.T) {
		c := testenv.Corpus(t)
		agents := [][]string{{"*"}, {"googlebot"}, {"bingbot"}, {"Yandex"}, {"bingbot", "msnbot"}, {"googlebot-image", "googlebot"}}
		for _, a := range c.Major {
			agents = append(agents, []string{a})
		}
		step := 5 // every fifth file: a fifth of the corpus is 3,896 files
		if raceEnabled {
			step *= raceSample
		}
		for i, f := range c.Files {
			if i%step != 0 {
				continue
			}
			for _, d := range Dialects() {
				check(t, f.Host, Parse(f.Body, WithDialect(d)), agents)
			}
		}
	})
}

// TestCrawlDelayAllocs: CrawlDelay allocates nothing for values written as decimal
// numbers, whatever the groups; the corpus's values are nearly all of that form,
// and its files with another kind of value are counted and named.
func TestCrawlDelayAllocs(t *testing.T) {
	for name, body := range map[string]string{
		"star":             delayBodies["star only"],
		"named":            delayBodies["named before star"],
		"two groups":       delayBodies["two groups of a"],
		"no delay":         "user-agent: *\ndisallow: /\n",
		"words and commas": "user-agent: *\ncrawl-delay: 10 seconds\ncrawl-delay: 1,5\ncrawl-delay:\ncrawl-delay: 2\n",
	} {
		for _, d := range Dialects() {
			t.Run(name+"/"+d.String(), func(t *testing.T) {
				r := Parse([]byte(body), WithDialect(d))
				agents := []string{"a", "b"}
				if n := testing.AllocsPerRun(100, func() { r.CrawlDelay(agents...) }); n != 0 {
					t.Errorf("CrawlDelay allocates %v times per call; want 0", n)
				}
			})
		}
	}
	t.Run("corpus", func(t *testing.T) {
		c := testenv.Corpus(t)
		var allocating []string
		for i, f := range c.Files {
			if raceEnabled && i%raceSample != 0 {
				continue
			}
			r := Parse(f.Body)
			for _, a := range []string{"*", "googlebot", "bingbot", "yandex"} {
				if n := testing.AllocsPerRun(1, func() { r.CrawlDelay(a) }); n != 0 {
					allocating = append(allocating, f.Host+" "+a)
				}
			}
		}
		// Values no decimal number spells and that hold only letters and signs ("ten",
		// "1e10"): ParseCrawlDelay's error allocates. A handful of corpus files.
		if len(allocating) > 20 {
			t.Errorf("%d calls allocate; want at most 20. First: %q", len(allocating), allocating[:5])
		}
		t.Logf("%d calls allocate: %q", len(allocating), allocating)
	})
}

func TestContainsFold(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{"crawl-delay", true},
		{"Crawl-Delay: 5", true},
		{"user-agent: *\nCRAWL-DELAY: 5\n", true},
		{"# crawl-delay in a comment", true},
		{"xcrawl-delayx", true},
		{"-crawl-delay", true},
		{"a-b-c crawl-delay", true},
		{"crawl--delay", false},
		{"crawl-dela", false},
		{"rawl-delay", false},
		{"crawl_delay: 5", false},
		{"crawldelay: 5", false},
		{"crawl delay: 5", false},
		{"", false},
		{"-", false},
		{"user-agent: *\ndisallow: /a-b\n", false},
	} {
		t.Run(tt.s, func(t *testing.T) {
			if got := containsFold(tt.s, "crawl-delay"); got != tt.want {
				t.Errorf("containsFold(%q) = %v, want %v", tt.s, got, tt.want)
			}
		})
	}
}

// TestCrawlDelayWithoutDetails: a file that names no crawl-delay answers CrawlDelay
// without reading its fields (details), in every dialect; one that does reads them.
func TestCrawlDelayWithoutDetails(t *testing.T) {
	for _, d := range Dialects() {
		r := Parse([]byte("user-agent: *\ndisallow: /a\n\nuser-agent: b\nallow: /\n"), WithDialect(d))
		if _, ok := r.CrawlDelay("b"); ok {
			t.Errorf("%s: a crawl-delay in a file without one", d)
		}
		if r.detail.Load() != nil {
			t.Errorf("%s: CrawlDelay read the fields of a file that names no crawl-delay", d)
		}
		r = Parse([]byte("user-agent: *\ndisallow: /a\nCrawl-Delay: 3\n"), WithDialect(d))
		if got, ok := r.CrawlDelay("b"); !ok || got != 3*time.Second {
			t.Errorf("%s: CrawlDelay = %v, %v; want 3s", d, got, ok)
		}
	}
}
