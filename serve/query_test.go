package serve

import (
	"fmt"
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
		"url=/a&agent=x&dialect=legacy1996&merge_agents=true&dialect=rfc9309",
		"merge_agents=1&url=/a",
		"merge_agents=no&url=/a",
		"",
	} {
		t.Run(fmt.Sprintf("%q", q), func(t *testing.T) { compareQuery(t, q) })
	}
}

func compareQuery(t *testing.T, q string) {
	t.Helper()
	vals, _ := url.ParseQuery(q)
	p := checkQuery(q)
	// dialect: the last given, as a later parameter overrides; merge_agents: the last.
	dialect, merge := "", false
	if d := vals["dialect"]; len(d) > 0 {
		dialect = d[len(d)-1]
	}
	if m := vals["merge_agents"]; len(m) > 0 {
		merge = m[len(m)-1] == "true" || m[len(m)-1] == "1"
	}
	if p.url != vals.Get("url") || !slices.Equal(p.agents, vals["agent"]) || p.dialect != dialect || p.merge != merge {
		t.Errorf("checkQuery(%q) = %+v; url.ParseQuery gives url %q, agents %q, dialect %q, merge %v", q, p, vals.Get("url"), vals["agent"], dialect, merge)
	}
}

func FuzzCheckQuery(f *testing.F) {
	f.Add("agent=Googlebot&url=https%3A%2F%2Fexample.com%2F")
	f.Add("url=a;b&agent=%zz+x")
	f.Fuzz(func(t *testing.T, q string) { compareQuery(t, q) })
}
