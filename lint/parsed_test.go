package lint

import (
	"reflect"
	"testing"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/internal/corpus"
	"github.com/gorobots/robots/internal/testenv"
)

// TestParsed checks that Options.Parsed, the rules as the caller parsed them,
// gives the findings Check gives parsing the body itself, on every 7th file of
// the shared corpus and on files whose findings need the parsed groups.
func TestParsed(t *testing.T) {
	bodies := [][]byte{
		[]byte("User-agent: *\nDisallow: /\nUser-agent: *\nAllow: /x\n"),
		[]byte("User-agent: GPTBot\nDisallow: /\nContent-Usage: train-ai=n\nCrawl-delay: x\n"),
		[]byte("<html><body>not found</body></html>\n"),
	}
	if dir, err := corpus.Find("."); err == nil {
		c, err := corpus.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range c.Files {
			if i%7 == 0 {
				bodies = append(bodies, f.Body)
			}
		}
	} else if testenv.InCI() {
		t.Fatal("shared corpus not found:", err)
	}
	for _, body := range bodies {
		want := Check("robots.txt", body)
		got := CheckWith("robots.txt", body, Options{Parsed: robots.Parse(body)})
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("with Parsed: %v\nwithout: %v\nbody: %.200q", got, want, body)
		}
	}
}
