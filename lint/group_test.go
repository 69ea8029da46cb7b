package lint

import (
	"fmt"
	"strings"
	"testing"
)

// TestGrouped: a hacked file's repeated findings (HTML injected after the rules)
// fold into one line with the count and lines, placed at the first; a finding of
// another kind stays on its own line; Check's result keeps every finding.
func TestGrouped(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: Googlebot\nDisalow: /tmp/\n\n")
	for range 114 {
		b.WriteString(`<div style="display:none"><a href="https://spam.example/">cheap</a></div>` + "\n")
	}
	// The last block of the injection swallowed the line break before "User-agent: *".
	b.WriteString(`<div style="display:none"><a href="https://spam.example/">cheap</a></div>User-agent: *` + "\nDisallow: /wp-admin/\n")
	fs := Check("hacked.txt", []byte(b.String()))
	if len(fs) < 116 {
		t.Fatalf("%d findings, want at least the misspelled Disallow and the 114 lines", len(fs))
	}
	gs := Grouped(fs)
	var first *Group
	for i := range gs {
		if gs[i].Count > 1 {
			if first != nil && gs[i].Code == first.Code && gs[i].File == first.File && gs[i].Severity == first.Severity {
				t.Errorf("two groups of %s", gs[i].Code)
			}
			if first == nil {
				first = &gs[i]
			}
		}
	}
	if first == nil || first.Count != 114 || first.Lines[0] != 4 {
		t.Fatalf("groups %+v, want one of the 114 findings from line 4", gs)
	}
	s := first.String()
	if !strings.HasPrefix(s, "hacked.txt:4:1: warning: ") || !strings.HasSuffix(s, "(114 times: lines 4, 5, 6, 7, 8 and 109 more)") {
		t.Errorf("group line %q, want the first position, the count and the first five lines", s)
	}
	glued := 0
	for _, g := range gs {
		if g.Code == GluedField {
			glued++
			if g.Count != 1 || g.Line != 118 || g.Severity != Error {
				t.Errorf("glued-field group %+v, want the one error on line 118", g)
			}
		}
	}
	if glued != 1 {
		t.Errorf("%d glued-field lines, want 1 kept apart from the HTML lines: %v", glued, gs)
	}
	if len(gs) > 6 {
		t.Errorf("%d lines for %d findings, want a handful: %v", len(gs), len(fs), gs)
	}
	// Three of a kind stay three lines.
	few := []Finding{{File: "a", Line: 1, Code: "x"}, {File: "a", Line: 2, Code: "x"}, {File: "a", Line: 3, Code: "x"}}
	if g := Grouped(few); len(g) != 3 || g[0].Count != 1 {
		t.Errorf("Grouped of 3 = %+v, want them one by one", g)
	}
}

// TestGroupedNamesEach: repeated findings whose messages differ in the crawler
// they name are one line that names every crawler with its line, not the first
// one's message for all; GroupedShown(fs, 0) names all of a longer list.
func TestGroupedNamesEach(t *testing.T) {
	names := []string{"GPTBot", "CCBot", "ClaudeBot", "Bytespider", "Google-Extended", "PerplexityBot", "Amazonbot"}
	var b strings.Builder
	for _, n := range names {
		b.WriteString("User-agent: " + n + "\nDisallow: /\n\n")
	}
	b.WriteString("User-agent: *\nDisallow: /private/\n")
	fs := Check("many.txt", []byte(b.String()))
	var blocks []Group
	for _, g := range Grouped(fs) {
		if g.Code == BlocksAll {
			blocks = append(blocks, g)
		}
	}
	if len(blocks) != 1 || blocks[0].Count != len(names) {
		t.Fatalf("blocks-all groups %+v, want one of %d", blocks, len(names))
	}
	msg := blocks[0].Message
	// Group i starts at line 3i+1; the first five are named, two more counted.
	for i, n := range names[:GroupedLines] {
		if want := fmt.Sprintf("%s (line %d)", n, 3*i+1); !strings.Contains(msg, want) {
			t.Errorf("message %q does not name %q", msg, want)
		}
	}
	if !strings.HasPrefix(msg, "this group disallows every URL for GPTBot (line 1), CCBot (line 4)") || !strings.HasSuffix(msg, " and 2 more") {
		t.Errorf("message %q, want the shared words once and each crawler named", msg)
	}
	for _, g := range GroupedShown(fs, 0) {
		if g.Code != BlocksAll {
			continue
		}
		for i, n := range names {
			if want := fmt.Sprintf("%s (line %d)", n, 3*i+1); !strings.Contains(g.Message, want) {
				t.Errorf("full message %q does not name %q", g.Message, want)
			}
		}
		if strings.Contains(g.String(), "more") {
			t.Errorf("full group %q still cuts its list", g)
		}
	}
	// Identical messages stay one message.
	same := []Finding{{File: "a", Line: 1, Code: "x", Message: "m"}, {File: "a", Line: 2, Code: "x", Message: "m"},
		{File: "a", Line: 3, Code: "x", Message: "m"}, {File: "a", Line: 4, Code: "x", Message: "m"}}
	if g := Grouped(same); len(g) != 1 || g[0].Message != "m" {
		t.Errorf("Grouped of identical = %+v, want message m", g)
	}
}
