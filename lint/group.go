package lint

import (
	"fmt"
	"strings"
)

// GroupAt is how many findings of one code and severity in one file make
// Grouped fold them into one: a hacked file's 114 identical "unknown field" lines,
// or the 4,563 "not-a-path" lines of one file, would bury the finding that matters.
const GroupAt = 4

// GroupedLines is how many line numbers a group lists before "and N more".
const GroupedLines = 5

// Group is the findings of one file, code and severity, shown as one: the first
// finding, with the count and the lines of them all.
type Group struct {
	Finding       // the first, whose message stands for them all
	Count   int   // findings in the group, 1 for a finding on its own
	Lines   []int // the line of each, in order
}

// Grouped folds the findings that share a file, code and severity into one group
// when there are GroupAt or more of them, placed where the first one was; the others
// stay one each. It is for people: JSON and SARIF keep every finding.
func Grouped(fs []Finding) []Group {
	type key struct {
		file     string
		code     Code
		severity Severity
	}
	n := map[key]int{}
	for _, f := range fs {
		n[key{f.File, f.Code, f.Severity}]++
	}
	var out []Group
	at := map[key]int{} // the index in out of a folded group
	for _, f := range fs {
		k := key{f.File, f.Code, f.Severity}
		if n[k] < GroupAt {
			out = append(out, Group{Finding: f, Count: 1, Lines: []int{f.Line}})
			continue
		}
		if i, ok := at[k]; ok {
			out[i].Count++
			out[i].Lines = append(out[i].Lines, f.Line)
			continue
		}
		at[k] = len(out)
		out = append(out, Group{Finding: f, Count: 1, Lines: []int{f.Line}})
	}
	return out
}

// LinesText lists the group's lines: "lines 3, 7, 9, 12, 15 and 109 more".
func (g Group) LinesText() string {
	var b strings.Builder
	b.WriteString("lines ")
	for i, l := range g.Lines {
		if i == GroupedLines {
			fmt.Fprintf(&b, " and %d more", len(g.Lines)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, l)
	}
	return b.String()
}

// String is the finding's line (Finding.String) for a group of one; for more, the
// first finding's position and message with the count and the lines of them all:
//
//	hacked.txt:12:1: warning: unknown field "<div": ignored [unknown-field] (114 times: lines 12, 13, 14, 15, 16 and 109 more)
func (g Group) String() string {
	if g.Count <= 1 {
		return g.Finding.String()
	}
	return fmt.Sprintf("%s (%d times: %s)", g.Finding.String(), g.Count, g.LinesText())
}
