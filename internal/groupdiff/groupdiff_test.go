package groupdiff

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gorobots/robots"
)

func TestGroups(t *testing.T) {
	tests := []struct {
		name     string
		old, new string
		want     string // kind:old:new, comma separated
	}{
		{"same", "User-agent: a\nDisallow: /x\n", "User-agent: a\nDisallow: /x\n", ""},
		{"order and comments are no change", "User-agent: a\nDisallow: /x\nAllow: /y\n", "# hi\nUser-agent: A\nAllow: /y\nDisallow: /x\n", ""},
		{"rule added", "User-agent: a\nDisallow: /x\n", "User-agent: a\nDisallow: /x\nDisallow: /z\n", "changed:0:0"},
		{"group added", "User-agent: a\nDisallow: /x\n", "User-agent: a\nDisallow: /x\n\nUser-agent: b\nDisallow: /\n", "added:-1:1"},
		{"group removed", "User-agent: a\nDisallow: /x\n\nUser-agent: b\nDisallow: /\n", "User-agent: b\nDisallow: /\n", "removed:0:-1"},
		{"agent added reads as a change", "User-agent: a\nDisallow: /x\n", "User-agent: a\nUser-agent: b\nDisallow: /x\n", "changed:0:0"},
		{"crawl-delay changed", "User-agent: a\nCrawl-delay: 1\n", "User-agent: a\nCrawl-delay: 2\n", "changed:0:0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, c := range Groups(robots.Parse([]byte(tt.old)).Groups(), robots.Parse([]byte(tt.new)).Groups()) {
				got = append(got, fmt.Sprintf("%s:%d:%d", c.Kind, c.Old, c.New))
			}
			if g := strings.Join(got, ","); g != tt.want {
				t.Errorf("got %q, want %q", g, tt.want)
			}
		})
	}
}

func TestMinus(t *testing.T) {
	got := Minus([]string{"a", "b", "a", "c"}, []string{"a", "c"})
	if strings.Join(got, ",") != "b,a" {
		t.Errorf("got %q, want [b a]: one a of b cancels one a of a", got)
	}
}
