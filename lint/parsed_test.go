package lint

import (
	"reflect"
	"testing"

	"github.com/gorobots/robots"
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
	for _, cf := range corpusFiles(t, 7) {
		bodies = append(bodies, cf.body)
	}
	for _, body := range bodies {
		want := Check("robots.txt", body)
		got := CheckWith("robots.txt", body, Options{Parsed: robots.Parse(body)})
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("with Parsed: %v\nwithout: %v\nbody: %.200q", got, want, body)
		}
	}
}
