package robots_test

import (
	"fmt"
	"testing"

	"github.com/gorobots/robots"
)

// TestDecideOnceCorpus: on real cases of the corpus, the one-pass decision is the
// decision of the parsed file.
func TestDecideOnceCorpus(t *testing.T) {
	c := loadCorpus(t)
	for i, cs := range c.Cases() {
		if i%7 != 0 { // every 7th of the 86,300 cases keeps the test quick under -race
			continue
		}
		body := c.Files[cs.File].Body
		got := robots.DecideOnce(body, cs.URL, cs.Agent)
		if want := robots.Parse(body).Decide(cs.URL, cs.Agent); got != want {
			t.Fatalf("%s, %s, %s: DecideOnce = %+v, Parse+Decide = %+v", c.Files[cs.File].Host, cs.Agent, cs.URL, got, want)
		}
	}
}

func ExampleDecideOnce() {
	body := []byte("User-agent: *\nDisallow: /private/\n")
	d := robots.DecideOnce(body, "https://example.com/private/a", "Googlebot")
	fmt.Println(d.Allowed, d.Rule)
	// Output:
	// false Disallow: /private/
}
