package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestHelpTexts checks every help text against the contract: the top-level help
// names every command, in its list and in its first paragraph; each command's help
// has one "Exit status" paragraph of its own (not a generic one contradicting its
// rules); no line is wider than maxHelpLine bytes (a tab counted as the four
// columns the flag package assumes).
func TestHelpTexts(t *testing.T) {
	var top bytes.Buffer
	if err := run(context.Background(), []string{"help"}, nil, &top, &top); err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(top.String(), "\n\n")
	checkLines(t, "robots help", top.String())
	seen := map[string]string{}
	for i, c := range commands()[1:] {
		if prev := commands()[i].name; prev >= c.name {
			t.Errorf("commands(): %s after %s; \"robots help\" lists them in alphabetical order", c.name, prev)
		}
	}
	for _, c := range commands() {
		name := c.name
		if !strings.Contains(top.String(), "\t"+name+" ") {
			t.Errorf("robots help: no line for %s", name)
		}
		if name != "version" && !strings.Contains(first, name) {
			t.Errorf("robots help: the first paragraph does not name %s:\n%s", name, first)
		}
		var out bytes.Buffer
		if err := run(context.Background(), []string{name, "-h"}, nil, &out, &out); err != nil {
			t.Fatalf("%s -h: %v", name, err)
		}
		help := out.String()
		checkLines(t, name+" -h", help)
		if n := strings.Count(help, "Exit status"); n != 1 {
			t.Errorf("%s -h: %d \"Exit status\" paragraphs, want 1", name, n)
			continue
		}
		_, para, _ := strings.Cut(help, "Exit status")
		para, _, _ = strings.Cut(para, "\n\n")
		if other, dup := seen[para]; dup {
			t.Errorf("%s -h and %s -h have the same exit status text: %q", name, other, para)
		}
		seen[para] = name
	}
}

func checkLines(t *testing.T, what, text string) {
	t.Helper()
	for i, line := range strings.Split(text, "\n") {
		if w := len(line) + 3*strings.Count(line, "\t"); w > maxHelpLine {
			t.Errorf("%s: line %d is %d columns wide, over %d: %q", what, i+1, w, maxHelpLine, line)
		}
	}
}
