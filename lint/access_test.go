package lint

import (
	"testing"

	"github.com/gorobots/robots"
)

// TestAccess: how much of a site a file lets a crawler fetch (Access), from the
// groups that apply to it. A disallow rule matching every path ("/", "*", "/*")
// blocks the crawler entirely unless an allow rule with a path applies too; any other
// disallow rule with a path blocks it partly; empty disallows, and values that are no
// path, restrict nothing. The groups of a crawler count together (RFC 9309 2.2.1).
func TestAccess(t *testing.T) {
	for _, tt := range []struct {
		name, body string
		want       Access
	}{
		{"no file", "", AccessAll},
		{"other crawler", "User-agent: other\nDisallow: /\n", AccessAll},
		{"root", "User-agent: bot\nDisallow: /\n", AccessNone},
		{"star", "User-agent: *\nDisallow: *\n", AccessNone},
		{"slash star", "User-agent: bot\nDisallow: /*\n", AccessNone},
		{"root and a path", "User-agent: bot\nDisallow: /private\nDisallow: /\n", AccessNone},
		{"root, but an allow", "User-agent: bot\nDisallow: /\nAllow: /public\n", AccessPart},
		{"allow in the other group", "User-agent: bot\nDisallow: /\n\nUser-agent: bot\nAllow: /public\n", AccessPart},
		{"root in the other group", "User-agent: bot\nDisallow: /a\n\nUser-agent: bot\nDisallow: /\n", AccessNone},
		{"a path", "User-agent: bot\nDisallow: /private/\n", AccessPart},
		{"empty disallow", "User-agent: bot\nDisallow:\n", AccessAll},
		{"allow only", "User-agent: bot\nAllow: /\n", AccessAll},
		{"no path", "User-agent: bot\nDisallow: private\n", AccessAll},
		{"allow, then root", "User-agent: bot\nAllow: /a\nDisallow: /b\nDisallow: /\n", AccessPart},
		{"named group over star", "User-agent: *\nDisallow: /\n\nUser-agent: bot\nDisallow: /tmp\n", AccessPart},
	} {
		r := robots.ParseString(tt.body)
		gs, _ := r.GroupsFor("bot")
		if got := AccessOf(r.Groups(), gs); got != tt.want {
			t.Errorf("%s: AccessOf = %s; want %s", tt.name, got, tt.want)
		}
		if got := AccessIn(r, gs); got != tt.want {
			t.Errorf("%s: AccessIn = %s; want %s", tt.name, got, tt.want)
		}
	}
}

// TestAccessInAllocs: AccessIn reads the rules in place.
func TestAccessInAllocs(t *testing.T) {
	r := robots.ParseString("User-agent: *\nDisallow: /a\nAllow: /b\n\nUser-agent: bot\nDisallow: /\n")
	gs := []int{0, 1}
	if n := testing.AllocsPerRun(100, func() { AccessIn(r, gs) }); n != 0 {
		t.Errorf("AccessIn allocates %v times; want 0", n)
	}
}
