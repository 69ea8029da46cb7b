package serve

import (
	"cmp"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/gorobots/robots"
)

// An answer states each Content-Usage and Content-Signal line its verdicts refer
// to once per origin, in "usage_lines"; a verdict's "usage" names its lines by
// number (internal/verdictjson). A file of 14,221 usage lines that all apply made
// every verdict carry all of them: 7 URLs answered 7.4 MB (issue 34). Now an answer
// grows with the URLs asked (a number per line that applies) and states each line
// of the file at most once per origin.

// usageLines collects the usage lines an answer's verdicts refer to.
type usageLines struct {
	lines []originLine
	seen  map[[2]int]struct{} // origin, line
}

// originLine is a usage line and the origin (its index in the answer) whose file has it.
type originLine struct {
	origin int
	robots.UsageLine
}

// note adds the lines of origin not noted yet.
func (ul *usageLines) note(origin int, lines []robots.UsageLine) {
	for _, l := range lines {
		k := [2]int{origin, l.Line}
		if _, ok := ul.seen[k]; ok {
			continue
		}
		if ul.seen == nil {
			ul.seen = make(map[[2]int]struct{})
		}
		ul.seen[k] = struct{}{}
		ul.lines = append(ul.lines, originLine{origin, l})
	}
}

// mark and undo forget the lines noted since mark: those of a URL whose verdicts
// were left out.
func (ul *usageLines) mark() int { return len(ul.lines) }

func (ul *usageLines) undo(mark int) {
	for _, l := range ul.lines[mark:] {
		delete(ul.seen, [2]int{l.origin, l.Line})
	}
	ul.lines = ul.lines[:mark]
}

// appendTo appends the member "usage_lines" when any line was noted: the lines by
// origin and line number, each with its origin's index when withOrigin (a batch).
func (ul *usageLines) appendTo(b []byte, withOrigin bool) []byte {
	if len(ul.lines) == 0 {
		return b
	}
	slices.SortFunc(ul.lines, func(x, y originLine) int { return cmp.Or(cmp.Compare(x.origin, y.origin), cmp.Compare(x.Line, y.Line)) })
	b = append(b, `,"usage_lines":[`...)
	for i, l := range ul.lines {
		if i > 0 {
			b = append(b, ',')
		}
		j, err := json.Marshal(l.UsageLine)
		if err != nil {
			continue // a struct of strings, ints and a bool: it cannot fail
		}
		if withOrigin {
			b = append(b, `{"origin":`...)
			b = strconv.AppendInt(b, int64(l.origin), 10)
			b = append(b, ',')
			b = append(b, j[1:]...)
		} else {
			b = append(b, j...)
		}
	}
	return append(b, ']')
}
