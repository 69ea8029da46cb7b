package robots

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gorobots/robots/internal/testenv"
)

// indexAgrees checks that the index of each rule set of r decides url as the entry
// loops do, which the slow reference checks (slowref_sweep_test.go).
func indexAgrees(r *Robots, urls ...string) error {
	progs := setProgs(r)
	for _, url := range urls {
		if err := indexAgreesOn(r, progs, url); err != nil {
			return err
		}
	}
	return nil
}

// setProgs returns the rule sets of r, each with its index: of each token and "*", or
// in the legacy dialects of each group.
func setProgs(r *Robots) []string {
	var progs []string
	if r.dialect.legacy() {
		for gi := range r.groups {
			progs = append(progs, string(r.compileSet([]int32{int32(gi)}, true)))
		}
	} else {
		for i := range r.tokens {
			progs = append(progs, string(r.compileSet(r.groupsOf(&r.tokens[i].ref), true)))
		}
		if r.star.groupN > 0 {
			progs = append(progs, string(r.compileSet(r.groupsOf(&r.star), true)))
		}
	}
	return progs
}

func indexAgreesOn(r *Robots, progs []string, url string) error {
	var pv pathView
	pv.ofURL(url)
	pv.end()
	pv.body = r.body
	if d := r.dialect; d != Google {
		p := pv.s
		if pv.slash {
			p = "/" + p
		}
		pv.set(d.matchPath(p), false, true)
	}
	for i, prog := range progs {
		ix := progIndex(prog)
		if ix == 0 {
			return fmt.Errorf("set %d has no index", i)
		}
		if err := checkIndex(prog, ix); err != nil {
			return fmt.Errorf("set %d: %w", i, err)
		}
		want, got := noMatch(), noMatch()
		if r.dialect.legacy() {
			for en := range partAt(prog, progHead+setShortHeader).entries(prog) {
				if matches(en.shape(), en.pat(prog, r.body), pv.s) {
					want = en
					break
				}
			}
			matchIndex(prog, ix, &pv, &got, true)
		} else {
			matchParts(prog, &pv, &want, false)
			matchIndex(prog, ix, &pv, &got, false)
		}
		if got != want {
			show := func(en entry) string {
				if en.n < 0 {
					return "no rule"
				}
				return fmt.Sprintf("%q (line %d)", en.pat(prog, r.body), en.line(prog))
			}
			return fmt.Errorf("%s, set %d, %q: index %s, entry loops %s", r.dialect, i, url, show(got), show(want))
		}
	}
	return nil
}

// TestIndexCorpus checks the indexes of every corpus file's rule sets, in every
// dialect, on the corpus's URLs of the file and URLs made of its rules, and on long
// paths made of them.
func TestIndexCorpus(t *testing.T) {
	c := testenv.Corpus(t)
	urls := map[int][]string{}
	for _, u := range c.URLs {
		if fi, ok := c.FileFor(u); ok {
			urls[fi] = append(urls[fi], u)
		}
	}
	failed := 0
	for fi, file := range c.Files {
		if raceEnabled && fi%raceSample != 0 {
			continue
		}
		var values []string
		for l := range Lines(file.Body) {
			if (l.Kind == KindAllow || l.Kind == KindDisallow) && l.Value != "" {
				values = append(values, l.Value)
			}
		}
		us := urls[fi]
		step := max(1, len(values)/8)
		long := ""
		for i := 0; i < len(values); i += step {
			v := strings.TrimSuffix(strings.ReplaceAll(values[i], "*", "x/"), "$")
			us = append(us, "https://h"+v, "https://h/"+v)
			long += v
		}
		us = append(us, "https://h/", "https://h?q", "https://h"+long, "https://h/"+long+"#f")
		for _, d := range Dialects() {
			r := Parse(file.Body, WithDialect(d))
			if err := indexAgrees(r, us...); err != nil {
				t.Errorf("%s: %v", file.Host, err)
				if failed++; failed > 20 {
					t.Fatal("stopped after 20 disagreements")
				}
			}
		}
	}
}

// TestIndexTable checks indexes on patterns whose pieces overlap, repeat or occur too
// early, against the entry loops.
func TestIndexTable(t *testing.T) {
	tests := []struct{ rules, path string }{
		{"disallow: /*ab*ab$\nallow: /*b*a", "/abab"},
		{"disallow: /*ab*ab$", "/xabyab"},
		{"disallow: /*ab*ab$", "/abab/ab"},
		{"disallow: /*b*ab\ndisallow: /*a", "/ab"},
		{"disallow: /a*a*a$", "/aa"},
		{"disallow: /a*a*a$", "/aaa"},
		{"disallow: /*aa*aa", "/aaa"},
		{"disallow: /*aa*aa", "/aaaa"},
		{"disallow: *\nallow: /$\nallow: *$", "/"},
		{"disallow: /x$\ndisallow: /x\nallow: /x*$", "/x"},
		{"disallow: /a$b\ndisallow: /*$b*", "/a$b"},
		{"disallow: /*.php$\nallow: /*.php", "/a.php"},
		{"disallow: /*.php$\nallow: /*.php", "/a.phpx"},
		{"disallow: /ab\ndisallow: /abc\ndisallow: /bc\nallow: /*c", "/abc"},
		{"allow: /x/index.html\ndisallow: /x/", "/x/"},
		{"disallow: ?q\ndisallow: /?q*\nallow: /*q", "https://h?q"},
		{"disallow: /\ndisallow: //\ndisallow: /*/", "https://h?/"},
	}
	for _, tt := range tests {
		url := tt.path
		if !strings.HasPrefix(url, "https://") {
			url = "https://h" + url
		}
		for _, d := range Dialects() {
			r := Parse([]byte("user-agent: *\n"+tt.rules+"\n"), WithDialect(d))
			if err := indexAgrees(r, url); err != nil {
				t.Errorf("%q: %v", tt.rules, err)
			}
		}
	}
}

// FuzzIndex checks indexes against the entry loops on any file and URL.
func FuzzIndex(f *testing.F) {
	f.Add("user-agent: *\ndisallow: /*ab*ab$\nallow: /*b*a\n", "/abab")
	f.Add("user-agent: *\ndisallow: /a*a*a$\nallow: /aa\n", "/aaa")
	f.Add("user-agent: a\ndisallow: /x\nuser-agent: *\nallow: *\ndisallow: /*x*$\n", "https://h?x")
	f.Fuzz(func(t *testing.T, body, url string) {
		if len(body) > 2048 || len(url) > 512 {
			return
		}
		if !strings.Contains(url, "://") {
			url = "https://h" + url
		}
		for _, d := range Dialects() {
			if err := indexAgrees(Parse([]byte(body), WithDialect(d)), url); err != nil {
				t.Fatalf("%v\nbody:\n%s", err, body)
			}
		}
	})
}

// TestCheckOnceBudget: on a file of many wildcard rules and long paths, CheckOnce parses
// the body once the matcher has read the path too often (onceBudget), and decides as
// Parse and Check do.
func TestCheckOnceBudget(t *testing.T) {
	var body strings.Builder
	body.WriteString("User-agent: *\r\n")
	for i := range 3000 {
		fmt.Fprintf(&body, "Disallow: /*%c%c%c%d\r\n", 'a'+i%26, 'a'+i/26%26, 'a'+i/676, i%7)
		if i%100 == 0 {
			fmt.Fprintf(&body, "Allow: /*%c%cq\r\n", 'a'+i%26, 'a'+i/26%26)
		}
	}
	b := []byte(body.String())
	r := Parse(b)
	for _, tail := range []string{"", "x", "aaa0", "zzq", "baa1q", "cxb4"} {
		for _, n := range []int{10, 16 << 10} {
			url := "https://h/" + strings.Repeat("-", n) + tail
			if got, want := CheckOnce(b, "bot", url), r.Check("bot", url); got != want {
				t.Errorf("%d bytes, then %q: CheckOnce %+v, Parse and Check %+v", n, tail, got, want)
			}
		}
	}
}
