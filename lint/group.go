package lint

import (
	"fmt"
	"strings"
)

// GroupAt is how many findings of one code and severity in one file make
// Grouped fold them into one: a hacked file's 114 identical "unknown field" lines,
// or the 4,563 "not-a-path" lines of one file, would bury the finding that matters.
const GroupAt = 4

// GroupedLines is how many line numbers a group lists before "and N more", and how
// many of the parts in which its findings' messages differ it names.
const GroupedLines = 5

// Group is the findings of one file, code and severity, shown as one: the first
// finding, with the count and the lines of them all. When their messages differ
// (sixteen blocks-all findings, each for another crawler), Message is what they
// share with every part that differs named, each with its lines: "this group
// disallows every URL for GPTBot (line 1), CCBot (line 4), … and 11 more".
type Group struct {
	Finding       // the first, whose message stands for them all
	Count   int   // findings in the group, 1 for a finding on its own
	Lines   []int // the line of each, in order

	msgs  []string // the message of each, in order (folded groups only)
	shown int      // lines and parts named before "and N more"; 0 for all
}

// Grouped folds the findings that share a file, code and severity into one group
// when there are GroupAt or more of them, placed where the first one was; the others
// stay one each. It is for people: JSON and SARIF keep every finding. Lists name
// GroupedLines items before "and N more".
func Grouped(fs []Finding) []Group { return GroupedShown(fs, GroupedLines) }

// GroupedShown is Grouped naming at most shown lines and parts of each group before
// "and N more"; shown 0 or below names them all (robots lint -full).
func GroupedShown(fs []Finding, shown int) []Group {
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
			out = append(out, Group{Finding: f, Count: 1, Lines: []int{f.Line}, shown: max(shown, 0)})
			continue
		}
		if i, ok := at[k]; ok {
			out[i].Count++
			out[i].Lines = append(out[i].Lines, f.Line)
			out[i].msgs = append(out[i].msgs, f.Message)
			continue
		}
		at[k] = len(out)
		out = append(out, Group{Finding: f, Count: 1, Lines: []int{f.Line}, msgs: []string{f.Message}, shown: max(shown, 0)})
	}
	for _, i := range at {
		out[i].Message = out[i].merged()
		out[i].msgs = nil
	}
	return out
}

// merged is the group's message: the one message when all are the same; else the
// words they share, before and after, with the parts that differ listed between.
func (g Group) merged() string {
	first := g.msgs[0]
	pre, suf := len(first), len(first)
	same := true
	for _, m := range g.msgs[1:] {
		if m != first {
			same = false
		}
		pre = min(pre, commonPrefix(first, m))
		suf = min(suf, commonSuffix(first, m))
	}
	if same {
		return first
	}
	// Cut at word boundaries: the shared prefix ends after a space, the suffix
	// starts at one, and the two never overlap in any message.
	pre = strings.LastIndexByte(first[:pre], ' ') + 1
	for _, m := range g.msgs {
		suf = min(suf, len(m)-pre)
	}
	tail := first[len(first)-suf:]
	if i := strings.IndexByte(tail, ' '); i >= 0 {
		tail = tail[i:]
	} else {
		tail = ""
	}
	for _, m := range g.msgs {
		if len(m)-len(tail) <= pre {
			// A message that is all shared words: list whole messages instead.
			return g.listed(func(m string) string { return m }, "", "")
		}
	}
	return g.listed(func(m string) string { return m[pre : len(m)-len(tail)] }, first[:pre], tail)
}

// listed writes head, the distinct parts of the messages (part picks each
// message's) with their lines, and tail.
func (g Group) listed(part func(string) string, head, tail string) string {
	var order []string
	lines := map[string][]int{}
	for i, m := range g.msgs {
		p := part(m)
		if _, ok := lines[p]; !ok {
			order = append(order, p)
		}
		lines[p] = append(lines[p], g.Lines[i])
	}
	var b strings.Builder
	b.WriteString(head)
	sep := ", "
	if head == "" {
		sep = "; " // whole messages
	}
	for i, p := range order {
		if g.shown > 0 && i == g.shown {
			fmt.Fprintf(&b, " and %d more", len(order)-i)
			break
		}
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(p)
		ls := lines[p]
		if len(ls) == 1 {
			fmt.Fprintf(&b, " (line %d)", ls[0])
		} else {
			fmt.Fprintf(&b, " (%s)", linesText(ls, g.shown))
		}
	}
	b.WriteString(tail)
	return b.String()
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func commonSuffix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

// LinesText lists the group's lines: "lines 3, 7, 9, 12, 15 and 109 more".
func (g Group) LinesText() string { return linesText(g.Lines, g.shown) }

// LinesTextShown is LinesText naming at most shown lines (all when 0 or below).
func (g Group) LinesTextShown(shown int) string { return linesText(g.Lines, max(shown, 0)) }

func linesText(lines []int, shown int) string {
	var b strings.Builder
	b.WriteString("lines ")
	for i, l := range lines {
		if shown > 0 && i == shown {
			fmt.Fprintf(&b, " and %d more", len(lines)-i)
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
