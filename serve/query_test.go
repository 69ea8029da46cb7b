package serve

import (
	"net/url"
	"slices"
	"testing"
)

// TestCheckQuery: checkQuery reads url and agent as url.ParseQuery (through
// url.Values) does: the first url, every agent in order, escapes decoded, pairs with
// a semicolon or a bad escape skipped.
func TestCheckQuery(t *testing.T) {
	for _, q := range []string{
		"agent=Googlebot&url=https%3A%2F%2Fexample.com%2Fa%3Fb%3Dc",
		"url=http://example.com/x&agent=a&agent=b+c&agent=",
		"url=first&url=second&agent=x",
		"ag%65nt=x&%75rl=y",
		"agent=x;y&url=z&agent=%zz&agent=ok",
		"&&agent&url&=x",
		"url=%E2%82%AC&agent=%2B",
		"",
	} {
		compareQuery(t, q)
	}
}

func compareQuery(t *testing.T, q string) {
	t.Helper()
	vals, _ := url.ParseQuery(q)
	u, agents := checkQuery(q)
	if u != vals.Get("url") || !slices.Equal(agents, vals["agent"]) {
		t.Errorf("checkQuery(%q) = %q, %q; url.ParseQuery gives %q, %q", q, u, agents, vals.Get("url"), vals["agent"])
	}
}

func FuzzCheckQuery(f *testing.F) {
	f.Add("agent=Googlebot&url=https%3A%2F%2Fexample.com%2F")
	f.Add("url=a;b&agent=%zz+x")
	f.Fuzz(func(t *testing.T, q string) { compareQuery(t, q) })
}
