package main

import (
	"fmt"
	"strings"

	"github.com/gorobots/robots"
)

// usageJSON is the "usage" of a verdict: what the file prefers about the use of the
// URL's content (robots.Usage, one JSON shape everywhere), or nil, and "usage" left
// out, when no Content-Usage or Content-Signal line applies to the URL.
func usageJSON(u robots.Usage) *robots.Usage {
	if len(u.Lines) == 0 {
		return nil
	}
	return &u
}

// usageText says, for the text formats, what the lines that apply state, as
// robots.Usage.String writes it ("usage: train-ai=n (line 4), ai-train=no (line 5)"),
// with the lines that state nothing readable; "" when no line applies.
func usageText(u *robots.Usage) string {
	if u == nil {
		return ""
	}
	said := u.String()
	if said == "" {
		said = "nothing stated"
	}
	parts := []string{"usage: " + said}
	for _, l := range u.Lines {
		if l.Error != "" {
			parts = append(parts, fmt.Sprintf("line %d does not parse, so it states nothing (robots lint says why)", l.Line))
		}
	}
	return strings.Join(parts, "; ")
}
