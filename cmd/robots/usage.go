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

// usageText says, for the text formats, what the lines that apply state:
// "content-usage: train-ai=disallowed (line 4), search=allowed (line 4); content-signal:
// ai-train=disallowed (line 5)", with the lines that state nothing readable; "" when
// no line applies.
func usageText(u *robots.Usage) string {
	if u == nil {
		return ""
	}
	var parts []string
	for _, f := range []struct {
		name string
		st   []robots.Stated
	}{{"content-usage", u.ContentUsage}, {"content-signal", u.ContentSignal}} {
		var said []string
		for _, s := range f.st {
			if s.Preference != robots.UsageUnknown {
				said = append(said, fmt.Sprintf("%s=%s (line %d)", s.Label, s.Preference, s.Line))
			}
		}
		if len(said) > 0 {
			parts = append(parts, f.name+": "+strings.Join(said, ", "))
		}
	}
	for _, l := range u.Lines {
		if l.Error != "" {
			parts = append(parts, fmt.Sprintf("line %d does not parse, so it states nothing (robots lint says why)", l.Line))
		}
	}
	if len(parts) == 0 {
		return "usage: nothing stated"
	}
	return strings.Join(parts, "; ")
}

// compactUsage is a table cell of the stated preferences: "train-ai=n(4) ai-train=no(5)",
// the tokens as a file writes them.
func compactUsage(u *robots.Usage) string {
	var said []string
	for _, f := range []struct {
		st      []robots.Stated
		yes, no string
	}{{u.ContentUsage, "y", "n"}, {u.ContentSignal, "yes", "no"}} {
		for _, s := range f.st {
			switch s.Preference {
			case robots.UsageAllowed:
				said = append(said, fmt.Sprintf("%s=%s(%d)", s.Label, f.yes, s.Line))
			case robots.UsageDisallowed:
				said = append(said, fmt.Sprintf("%s=%s(%d)", s.Label, f.no, s.Line))
			}
		}
	}
	if len(said) == 0 {
		return "nothing stated"
	}
	return strings.Join(said, " ")
}
