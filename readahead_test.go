package robots

import (
	"sync"
	"testing"
	"time"

	"github.com/gorobots/robots/internal/readahead"
)

// TestReadAhead: reading files ahead (for the server, through internal/readahead)
// reads them and nothing more: no rule set is compiled, no size changes, decisions
// are the same; files that are nil, not files, of another dialect or past MaxFiles
// are skipped; reading ahead while the first decisions compile the same sets is
// safe (run with -race).
func TestReadAhead(t *testing.T) {
	if readahead.Files == nil {
		t.Fatal("readahead.Files is not set")
	}
	body := []byte("User-agent: a\nDisallow: /a\nAllow: /a/open\n\n" +
		"User-agent: b\nDisallow: /b\n\n" +
		"User-agent: *\nDisallow: /\nAllow: /public/\nCrawl-delay: 2\n")
	tests := []struct {
		agent, url string
		allowed    bool
		line       int
	}{
		{"a", "/a/secret", false, 2},
		{"A", "/a/open/x", true, 3},
		{"b", "/b/x", false, 6},
		{"googlebot", "/public/y", true, 10},
		{"googlebot", "/x", false, 9},
	}
	compiled := Parse(body)
	compiled.Check("a", "/a")
	compiled.Check("googlebot", "/a")
	if d, ok := compiled.CrawlDelay("googlebot"); !ok || d != 2*time.Second { // builds its table of delays
		t.Fatalf("CrawlDelay = %v, %v; want 2s", d, ok)
	}
	files := []any{Parse(body), compiled, Parse(nil), Parse([]byte("User-agent: a\nDisallow: /\n")),
		Parse(body, WithDialect(Legacy1996)), (*Robots)(nil), nil, "not a file"}
	for len(files) <= readahead.MaxFiles {
		files = append(files, Parse(body))
	}
	sizes := make([]int, len(files))
	for i, f := range files {
		if r, ok := f.(*Robots); ok {
			sizes[i] = r.MemSize()
		}
	}
	for _, agent := range []string{"a", "A", "b", "googlebot", "", "x"} {
		readahead.Files(files, agent)
		readahead.Files(files[:0], agent)
	}
	for i, f := range files {
		r, ok := f.(*Robots)
		if !ok {
			continue
		}
		if got := r.MemSize(); got != sizes[i] {
			t.Errorf("file %d: MemSize %d after reading ahead, %d before", i, got, sizes[i])
		}
		if r == nil || r == compiled {
			continue
		}
		if r.star.prog.load() != "" {
			t.Errorf("file %d: reading ahead compiled the star set", i)
		}
		for j := range r.tokens {
			if r.tokens[j].ref.prog.load() != "" {
				t.Errorf("file %d: reading ahead compiled the set of %q", i, r.tokens[j].token)
			}
		}
	}
	for _, f := range files[:2] {
		for _, tt := range tests {
			if d := f.(*Robots).Check(tt.agent, tt.url); d.Allowed != tt.allowed || d.Rule.Line != tt.line {
				t.Errorf("Check(%q, %q) = %+v after reading ahead, want allowed %v by line %d", tt.agent, tt.url, d, tt.allowed, tt.line)
			}
		}
	}

	// Reading ahead while the first decisions compile the sets it reads.
	for range 20 {
		fresh := []any{Parse(body), Parse(body)}
		var wg sync.WaitGroup
		for _, tt := range tests {
			wg.Go(func() { readahead.Files(fresh, tt.agent) })
			wg.Go(func() {
				for _, f := range fresh {
					if d := f.(*Robots).Check(tt.agent, tt.url); d.Allowed != tt.allowed || d.Rule.Line != tt.line {
						t.Errorf("Check(%q, %q) = %+v, want allowed %v by line %d", tt.agent, tt.url, d, tt.allowed, tt.line)
					}
				}
			})
		}
		wg.Wait()
	}
}
