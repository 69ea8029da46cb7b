package audit

import (
	"encoding/csv"
	"io"
	"strconv"

	"github.com/gorobots/robots"
)

// CSV writes an audit's per-URL verdicts as CSV, the one form of "robots audit
// -format csv", the API's POST /v1/audit?format=csv and the tester's export: a
// header row, "url" then each crawler's token, then a row per sitemap URL of the
// origin, as Config.Verdicts gives them, each cell a verdict (CSVCell). Rows are
// written as they come, so that memory stays flat however many URLs the
// sitemaps list.
type CSV struct {
	w   *csv.Writer
	row []string
}

// NewCSV returns a CSV writing to w the verdicts of agents, and writes the header
// row.
func NewCSV(w io.Writer, agents []string) *CSV {
	c := &CSV{w: csv.NewWriter(w), row: make([]string, len(agents)+1)}
	c.w.Write(append([]string{"url"}, agents...))
	return c
}

// Row writes the verdicts of url, decisions in the order of the agents; it has
// the signature of Config.Verdicts.
func (c *CSV) Row(url string, decisions []robots.Decision) {
	c.row[0] = url
	for i, d := range decisions {
		c.row[i+1] = CSVCell(d)
	}
	c.w.Write(c.row)
}

// Flush writes what is buffered and returns the first error met writing.
func (c *CSV) Flush() error {
	c.w.Flush()
	return c.w.Error()
}

// CSVCell is one verdict of the CSV: "allowed", "allowed line 4" (an Allow rule
// decided), "disallowed line 12", or "disallowed" when robots.txt's fetch decides
// (unreachable).
func CSVCell(d robots.Decision) string {
	v := "disallowed"
	if d.Allowed {
		v = "allowed"
	}
	if d.Rule.Line > 0 {
		v += " line " + strconv.Itoa(d.Rule.Line)
	}
	return v
}
