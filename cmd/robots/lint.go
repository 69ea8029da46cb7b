package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/lint"
)

const lintUsage = `Usage:
	robots lint [-format text|json|sarif] [-strict] [-full] FILE...

Checks each robots.txt FILE ("-" reads standard input) for lines that crawlers
skip, read differently from one another, or read differently from what the
author probably meant. Each finding has a line, a column where it helps, a
severity (error, warning, info), a code and a message saying what crawlers do.
The codes are listed in lint/CODES.md.

Formats:
	text   file:line:col: severity: message [code]   (the default); 4 or more findings
	       of one code and severity in a file are one line, the first, with
	       "(N times: lines A, B, C, D, E and M more)"; where their messages
	       differ (each names another crawler), the parts that differ are
	       listed, each with its line; -full lists every line and part
	json   a JSON array of {"file", "line", "col", "severity", "code", "message"}
	sarif  SARIF 2.1.0, for code scanning tools

Exit status: 1 if any finding is an error (or, with -strict, a warning), 0
otherwise, 2 on a usage error or a file that cannot be read.
`

// maxLintFile bounds a file read for linting. It is well past the 500 KiB that
// crawlers read, so that lint can say how much of a large file is lost.
const maxLintFile = 64 << 20

func runLint(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("lint")
	format := formatFlag(fs, formatText, formatJSON, formatSARIF)
	strict := fs.Bool("strict", false, "exit with status 1 on warnings too")
	full := fs.Bool("full", false, "list every line and part of repeated findings, not the first five and \"and N more\"")
	dialects := fs.Bool("dialects", false, "also report paths of the file that the interpretations (google, rfc9309, legacy1996, legacy1994) decide differently")
	files, err := parseArgs(fs, args, e.stdout)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usagef("lint: no file given (use - for standard input)")
	}
	var all []lint.Finding
	bodies := map[string][]byte{}
	var readErr error
	for _, name := range files {
		body, err := readLimited(e.stdin, name, maxLintFile)
		if err != nil {
			fmt.Fprintf(e.stderr, "robots: lint: %v\n", err)
			readErr = fmt.Errorf("lint: cannot read every file")
			continue
		}
		shown := name
		if name == "-" {
			shown = "<stdin>"
		}
		bodies[shown] = body
		all = append(all, lint.CheckWith(shown, body, lint.Options{Dialects: *dialects})...)
	}
	w := bufio.NewWriter(e.stdout)
	switch *format {
	case "text":
		// Repeated findings (one code, one severity, one file, lint.GroupAt or
		// more) are one line with their count and lines; JSON and SARIF list each.
		for _, g := range lint.GroupedShown(all, shownItems(*full)) {
			fmt.Fprintln(w, g)
		}
	case "json":
		if all == nil {
			all = []lint.Finding{}
		}
		writeIndented(w, all)
	case "sarif":
		writeIndented(w, sarifLog(all, bodies))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if readErr != nil {
		return readErr
	}
	for _, f := range all {
		if f.Severity == lint.Error || *strict && f.Severity == lint.Warning {
			return exitError{1}
		}
	}
	return nil
}

// shownItems is how many items a list names before "and N more": every one with
// -full.
func shownItems(full bool) int {
	if full {
		return 0
	}
	return lint.GroupedLines
}

// readLimited reads a file ("-" is standard input) of at most limit bytes.
func readLimited(stdin io.Reader, name string, limit int64) ([]byte, error) {
	rd := stdin
	if name != "-" {
		fh, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer fh.Close()
		rd = fh
	}
	b, err := io.ReadAll(io.LimitReader(rd, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes", name, limit)
	}
	return b, nil
}

func writeIndented(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// SARIF 2.1.0, the subset code scanning tools read.
type sarifReport struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifRule struct {
	ID                   string    `json:"id"`
	ShortDescription     sarifText `json:"shortDescription"`
	FullDescription      sarifText `json:"fullDescription"`
	DefaultConfiguration struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations"`
	// RelatedLocations: for a sitemap listed in robots.txt whose XML breaks, the line
	// where it does.
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI string `json:"uri"`
		} `json:"artifactLocation"`
		Region sarifRegion `json:"region"`
	} `json:"physicalLocation"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// sarifLevel is the SARIF level of a severity: its name, but "note" for lint.Info.
func sarifLevel(s lint.Severity) string {
	if s == lint.Info {
		return "note"
	}
	return string(s)
}

// sarifLog describes every lint code as a rule and every finding as a result.
// SARIF counts columns in UTF-16 code units; lint counts bytes, so each column is
// converted with the line's text.
func sarifLog(findings []lint.Finding, bodies map[string][]byte) sarifReport {
	driver := sarifDriver{Name: "robots lint", InformationURI: "https://github.com/gorobots/robots/blob/main/lint/CODES.md"}
	index := map[lint.Code]int{}
	for i, c := range lint.Codes() {
		r := sarifRule{ID: string(c.Code), ShortDescription: sarifText{c.Summary}, FullDescription: sarifText{c.Crawler}}
		r.DefaultConfiguration.Level = sarifLevel(c.Severity)
		driver.Rules = append(driver.Rules, r)
		index[c.Code] = i
	}
	lines := map[string][]string{}
	results := []sarifResult{}
	for _, f := range findings {
		res := sarifResult{RuleID: string(f.Code), RuleIndex: index[f.Code], Level: sarifLevel(f.Severity), Message: sarifText{f.Message}}
		var loc sarifLocation
		name := f.File
		if name == "<stdin>" {
			name = "stdin"
		}
		u := &url.URL{Path: filepath.ToSlash(name)}
		if filepath.IsAbs(name) {
			u.Scheme = "file"
		}
		loc.PhysicalLocation.ArtifactLocation.URI = u.String()
		loc.PhysicalLocation.Region.StartLine = max(f.Line, 1)
		if f.Col > 0 {
			if _, ok := lines[f.File]; !ok {
				for l := range robots.Lines(bodies[f.File]) {
					lines[f.File] = append(lines[f.File], l.Text)
				}
			}
			loc.PhysicalLocation.Region.StartColumn = utf16Col(lines[f.File], f.Line, f.Col)
		}
		res.Locations = []sarifLocation{loc}
		results = append(results, res)
	}
	return sarifReport{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{{Tool: sarifTool{Driver: driver}, Results: results}},
	}
}

// utf16Col converts a 1-based byte column of a line to UTF-16 code units. A byte
// that is not UTF-8 counts as one unit, as the U+FFFD that replaces it.
func utf16Col(lines []string, line, col int) int {
	if line < 1 || line > len(lines) {
		return col
	}
	s := lines[line-1]
	if col-1 > len(s) {
		return col
	}
	n := 1
	for _, r := range s[:col-1] {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}
