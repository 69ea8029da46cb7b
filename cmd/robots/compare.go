package main

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/internal/weburl"
	"github.com/gorobots/robots/lint"
)

const compareUsage = `Usage:
	robots compare -robots FILE [-agent NAME]... [-format text|json] URL...

Decides every URL for every agent under each interpretation of robots.txt:
google (Google's reading, the default elsewhere), rfc9309, legacy1996 (the 1996
draft: first match wins, no wildcards) and legacy1994 (the original standard:
Disallow only, agent names matched as substrings). Rows where the interpretations
disagree are marked with "!". Without -agent, the agent is "*": a crawler that no
group names. Where a Content-Usage or Content-Signal line applies (AI usage
preferences), a second line shows each interpretation's reading of them, stated
preferences only ("usage" in the JSON): google and rfc9309 read both lines, the
legacy interpretations neither.

A file over 500 KiB is read as crawlers read it, to its first 512,000 bytes; the
command reads at most 2,048,000 bytes of a file. Compare says where reading stopped and
why (in JSON, "cut": {"line", "bytes_read", "file_bytes", "message"}; "file_bytes" is
null when the command stopped first).

Exit status: 0 when all interpretations agree, 1 when any row disagrees, 2 on a
usage error, a file that cannot be read or a URL that is not one.
`

// compareVerdict is one dialect's verdict: the fields of a verdict (see verdictJSON)
// that differ between dialects.
type compareVerdict struct {
	Dialect string  `json:"dialect"`
	Allowed bool    `json:"allowed"`
	Rule    *string `json:"rule"`
	Line    int     `json:"line"`
	// Usage is the dialect's reading of the usage preferences, when a Content-Usage or
	// Content-Signal line applies (the legacy dialects know neither).
	Usage *robots.Usage `json:"usage,omitempty"`
}

type compareRow struct {
	URL      string           `json:"url"`
	Input    string           `json:"input,omitempty"`
	Agent    string           `json:"agent"`
	Agree    bool             `json:"agree"`
	Verdicts []compareVerdict `json:"verdicts"`
	Cut      *cutJSON         `json:"cut,omitempty"` // where crawlers stop reading the file, when they do
	said     bool             // a usage preference line applies under some dialect
}

func runCompare(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("compare")
	robotsFile := fs.String("robots", "", "robots.txt `FILE` (- for standard input)")
	var agents agentList
	fs.Var(&agents, "agent", "crawler product `NAME` (repeatable)")
	format := formatFlag(fs, formatText, formatJSON)
	args, err := parseArgs(fs, args, e.stdout)
	if err != nil {
		return err
	}
	if *robotsFile == "" {
		return usagef("compare: -robots is required")
	}
	urls := args
	if len(urls) == 0 {
		return usagef("compare: no URL given")
	}
	if len(agents) == 0 {
		agents = agentList{"*"}
	}
	body, capped, err := readInput(e.stdin, *robotsFile)
	if err != nil {
		return err
	}
	rd := lint.ReadDialects(body)
	cut := cutOf(*robotsFile, robots.Parse(body), len(body), capped)
	if cut != nil {
		fmt.Fprintf(e.stderr, "robots: compare: warning: %s\n", cut.Message)
	}
	rows := []any{}
	disagree, failed := false, false
	w := bufio.NewWriter(e.stdout)
	for _, raw := range urls {
		u, err := weburl.Encode(raw)
		if err != nil {
			failed = true
			if *format == formatJSON {
				rows = append(rows, errorJSON{URL: raw, Error: err.Error()})
			} else {
				fmt.Fprintf(e.stderr, "robots: compare: %v\n", err)
			}
			continue
		}
		if *format == formatText && encoded(raw, u) {
			fmt.Fprintf(e.stderr, "robots: compare: warning: %s\n", requestedAs(raw, u))
		}
		for _, a := range agents {
			vs, agree := rd.Check(a, u)
			row := compareRow{URL: u, Agent: a, Agree: agree, Cut: cut}
			if encoded(raw, u) {
				row.Input = raw
			}
			prefs := rd.Usage(a, u)
			for i, v := range vs {
				row.Verdicts = append(row.Verdicts, compareVerdict{Dialect: v.Dialect.String(), Allowed: v.Allowed, Rule: ruleJSON(v.Rule), Line: v.Rule.Line,
					Usage: usageJSON(prefs[i])})
				row.said = row.said || row.Verdicts[i].Usage != nil
			}
			if !row.Agree {
				disagree = true
			}
			rows = append(rows, row)
		}
	}
	if *format == formatJSON {
		writeJSONLine(w, rows)
	} else {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprint(tw, "\tURL\tagent")
		for _, d := range rd.Dialects() {
			fmt.Fprintf(tw, "\t%s", d)
		}
		fmt.Fprintln(tw)
		for _, r := range rows {
			row, ok := r.(compareRow)
			if !ok {
				continue
			}
			mark := ""
			if !row.Agree {
				mark = "!"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s", mark, row.URL, row.Agent)
			for _, v := range row.Verdicts {
				cell := verdict(v.Allowed)
				if v.Line > 0 {
					cell += fmt.Sprintf(" (line %d)", v.Line)
				}
				fmt.Fprintf(tw, "\t%s", cell)
			}
			fmt.Fprintln(tw)
			if row.said {
				fmt.Fprint(tw, "\t\t")
				for _, v := range row.Verdicts {
					cell := "no preference read"
					if v.Usage != nil {
						cell = cmp.Or(v.Usage.String(), "nothing stated")
					}
					fmt.Fprintf(tw, "\t%s", cell)
				}
				fmt.Fprintln(tw)
			}
		}
		tw.Flush()
		if disagree {
			fmt.Fprintln(w, "\n! the interpretations disagree; (line N) is the deciding rule's line")
		}
	}
	return finish(w, failed, disagree)
}
