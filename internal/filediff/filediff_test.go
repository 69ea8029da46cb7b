package filediff

import (
	"fmt"
	"slices"
	"testing"

	"github.com/gorobots/robots"
)

// TestProbes: the URLs Probes picks are those where the changed rules decide, and
// Diff over them names the crawlers each change blocks.
func TestProbes(t *testing.T) {
	const origin = "https://example.com"
	for _, tc := range []struct {
		name       string
		old, new   string
		wantProbes []string
		wantURL    []string // "agent url before→after"
	}{
		{
			name:       "a rule added to the * group, a group added for GPTBot",
			old:        "User-agent: *\nDisallow: /private\n",
			new:        "User-agent: *\nDisallow: /private\nDisallow: /*.pdf$\n\nUser-agent: GPTBot\nDisallow: /\n",
			wantProbes: []string{"/", "/.pdf"},
			wantURL:    []string{"GPTBot / true→false", "GPTBot /.pdf true→false", "Googlebot /.pdf true→false"}, // sorted
		},
		{
			name:       "a group removed: its rules are probed",
			old:        "User-agent: Googlebot\nDisallow: /search\nAllow: /search/about\n",
			new:        "",
			wantProbes: []string{"/", "/search", "/search/about"},
			wantURL:    []string{"Googlebot /search false→true"},
		},
		{
			name:       "the same rules in another order: no change, only the root probed",
			old:        "User-agent: *\nDisallow: /a\nDisallow: /b\n",
			new:        "User-agent: *\nDisallow: /b\nDisallow: /a\n",
			wantProbes: []string{"/"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := robots.ParseString(tc.old), robots.ParseString(tc.new)
			probes := Probes(origin, Groups(a.Groups(), b.Groups()))
			var want []string
			for _, p := range tc.wantProbes {
				want = append(want, origin+p)
			}
			if !slices.Equal(probes, want) {
				t.Errorf("Probes = %q; want %q", probes, want)
			}
			var got []string
			for _, c := range Diff(a, b, []string{"Googlebot", "GPTBot"}, probes) {
				if c.Kind == "url" {
					got = append(got, fmt.Sprintf("%s %s %v→%v", c.Agent, c.URL[len(origin):], *c.Before.Allowed, *c.After.Allowed))
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.wantURL) {
				t.Errorf("URL changes = %q; want %q", got, tc.wantURL)
			}
		})
	}
}
