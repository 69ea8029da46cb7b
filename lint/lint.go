// Package lint checks robots.txt files for the mistakes that make crawlers do
// something other than what the author meant.
//
// [Check] reads a file the way the robots package parses it ([robots.Lines] for each
// line, [robots.Parse] for groups and decisions) and returns [Finding]s: a line and
// column, a [Severity], a stable [Code] and a message that says what crawlers will
// actually do. [Codes] lists every code; CODES.md explains them. The findings on how
// a line is read are the parser's own diagnostics ([robots.Robots.Diagnostics]),
// under the same codes: [Code] is [robots.Code].
//
// The checks follow Google's interpretation, which RFC 9309 standardised, and point
// out where other crawlers (older parsers, the 1996 draft's first-match rule) read
// the same line differently.
package lint

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gorobots/robots"
)

// Finding is one problem found in a file.
type Finding struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`          // 1-based; 0 for the file as a whole
	Col      int      `json:"col,omitempty"` // 1-based byte column; 0 when the whole line is meant
	Severity Severity `json:"severity"`
	Code     Code     `json:"code"`
	Message  string   `json:"message"`
}

func (f Finding) String() string {
	pos := fmt.Sprintf("%s:%d", f.File, f.Line)
	if f.Col > 0 {
		pos += fmt.Sprintf(":%d", f.Col)
	}
	return fmt.Sprintf("%s: %s: %s [%s]", pos, f.Severity, f.Message, f.Code)
}

// file is the state of one check: the body read both line by line and as a whole.
type file struct {
	ctx    context.Context // CheckContext's
	name   string
	body   []byte
	lines  []robots.Line // every line, also past the size limit
	read   []robots.Line // the lines before the size limit, which crawlers read
	r      *robots.Robots
	diags  []robots.Diagnostic // the parser's, in line order
	groups []robots.Group
	html   bool       // not robots.txt at all: the line checks stay quiet
	sets   []ruleSet  // cached by ruleSets
	keys   []agentKey // by line: cached by agentKey
	ids    []int32    // by rule line: its value's number; cached by valueIDs
	counts []int32    // by value number: the rules with that value; cached by valueIDs
	blocks []int8     // per group: 1 blocks every path, -1 has an allow, 0 neither; cached by blocksEverything
	pats   []*pattern // by line: the rules prepared for comparison; cached by pattern
	slab   []pattern  // where pattern makes them
	out    []Finding
	opts   Options
}

// Options turns on checks that are off by default.
type Options struct {
	// Dialects reports the paths the file's own rules name whose verdict differs
	// between the interpretations of robots.txt (Google, RFC 9309, the 1996 draft, the
	// 1994 standard) with the DialectsDisagree code. It is off by default because most
	// files disagree somewhere: the 1996 draft's first-match rule turns the common
	// "Disallow: /dir/" then "Allow: /dir/file" around, and old crawlers read '*'
	// literally.
	Dialects bool
	// FileBytes is the size of the whole file when body is only its beginning: a
	// server that keeps the first 500 KiB of a larger upload, which is all crawlers
	// read, lints that part and says, as for a whole file, that the file is too
	// large (file-too-large, with this size). 0 when body is the whole file.
	FileBytes int
	// Parsed is body as robots.Parse(body) reads it (Google's reading, with the
	// default size limit), when the caller has parsed it already (robots corpus: the
	// access method did), so that it is not parsed again: the lines checked are
	// Parsed's (robots.Robots.Lines). nil lets Check parse it.
	Parsed *robots.Robots
}

// checks run in order on every file. A later check (for example one comparing
// dialects) is one more function here.
var checks = []func(*file){
	checkHTML,
	checkNotRobots,
	checkSize,
	checkLines,
	checkGroupMerge,
	checkAgents,
	checkEmptyGroups,
	checkCrawlDelay,
	checkStarRules,
	checkRules,
	checkBlocksAll,
	checkDialects,
	checkUsage,
	checkUsageGroups,
}

// Check reads body, the contents of the robots.txt file called name, and returns
// what it finds, ordered by line and column. A well-formed file gives no findings
// of severity Warning or Error.
func Check(name string, body []byte) []Finding {
	return CheckWith(name, body, Options{})
}

// CheckWith is Check with options.
func CheckWith(name string, body []byte, opts Options) []Finding {
	out, _ := CheckContext(context.Background(), name, body, opts)
	return out
}

// CheckContext is CheckWith, stopped when ctx is done (a server's time or work
// budget, a client gone): it then returns the findings of the checks that ran to
// their end, and ctx's cause (context.Cause) as the error. Checks are stopped
// between rules, so that a file of many thousand rules stops at once.
func CheckContext(ctx context.Context, name string, body []byte, opts Options) ([]Finding, error) {
	f := newFile(ctx, name, body, opts)
	for _, c := range checks {
		n := len(f.out)
		c(f)
		if f.stopped() {
			f.out = f.out[:n] // what the stopped check found so far, in part
			break
		}
	}
	slices.SortStableFunc(f.out, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col), strings.Compare(string(a.Code), string(b.Code)))
	})
	if f.stopped() {
		return f.out, context.Cause(ctx)
	}
	return f.out, nil
}

// newFile reads body for the checks.
func newFile(ctx context.Context, name string, body []byte, opts Options) *file {
	r := opts.Parsed
	if r == nil {
		r = robots.Parse(body)
	}
	f := &file{ctx: ctx, name: name, body: body, r: r, opts: opts}
	f.lines = make([]robots.Line, 0, bytes.Count(body, []byte{'\n'})+1) // CR alone ends a line too, rarely
	// One reading of the body gives its lines and, on the way, its groups and the
	// parser's diagnostics.
	for l := range r.Lines() {
		f.lines = append(f.lines, l)
	}
	f.groups = f.r.Groups()
	f.diags = f.r.Diagnostics()
	if n := len(f.diags); n > 0 && f.diags[n-1].Code == robots.FileTooLarge {
		// r read the body up to the size limit; the lines past it are checked too
		// (checkSize), and the line where the limit falls is read whole.
		f.lines = f.lines[:0]
		for l := range robots.Lines(body) {
			f.lines = append(f.lines, l)
		}
	}
	f.read = f.lines
	return f
}

// stopped reports whether the lint's context is done: the checks that take time
// in proportion to the rules squared ask between rules, and end.
func (f *file) stopped() bool { return f.ctx.Err() != nil }

func (f *file) add(line, col int, code Code, format string, args ...any) {
	ci, _ := Describe(code)
	f.out = append(f.out, Finding{File: f.name, Line: line, Col: col, Severity: ci.Severity, Code: code,
		Message: fmt.Sprintf(format, args...)})
}

// line returns line n (1-based), or the zero Line.
func (f *file) line(n int) robots.Line {
	if n < 1 || n > len(f.lines) {
		return robots.Line{}
	}
	return f.lines[n-1]
}

// keyCol is the column of a line's field name.
func keyCol(l robots.Line) int {
	return len(l.Text) - len(strings.TrimLeft(l.Text, " \t\v\f")) + 1
}

// describe writes a rule as the file does, with its line: `Disallow: /x (line 3)`.
func describe(r robots.Rule) string {
	return strconv.Quote(r.String()) + " (line " + strconv.Itoa(r.Line) + ")" // fmt's %q and %d
}
