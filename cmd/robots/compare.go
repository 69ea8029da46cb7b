package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"text/tabwriter"

	"github.com/gorobots/robots"
)

func init() {
	register("compare", "show how each interpretation decides the same URLs", runCompare)
}

const compareUsage = `Usage:
	robots compare -robots FILE [-agent NAME]... [-format text|json] URL...

Decides every URL for every agent under each interpretation of robots.txt:
google (Google's reading, the default elsewhere), rfc9309, legacy1996 (the 1996
draft: first match wins, no wildcards) and legacy1994 (the original standard:
Disallow only, agent names matched as substrings). Rows where the interpretations
disagree are marked with "!". Without -agent, the agent is "*": a crawler that no
group names. Exit status: 0 when all interpretations agree, 1 when any row
disagrees, 2 on errors.

Flags:
`

type compareVerdict struct {
	Dialect string `json:"dialect"`
	Allowed bool   `json:"allowed"`
	Line    int    `json:"line"`
	Rule    string `json:"rule,omitempty"`
}

type compareRow struct {
	URL      string           `json:"url"`
	Agent    string           `json:"agent"`
	Agree    bool             `json:"agree"`
	Verdicts []compareVerdict `json:"verdicts"`
}

func runCompare(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() { fmt.Fprint(e.stderr, compareUsage); fs.PrintDefaults() }
	robotsFile := fs.String("robots", "", "robots.txt `FILE` (- for standard input)")
	var agents agentList
	fs.Var(&agents, "agent", "crawler product `NAME` (repeatable)")
	format := fs.String("format", "text", "output `format`: text or json")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usagef("compare: %v", err)
	}
	if *robotsFile == "" {
		return usagef("compare: -robots is required")
	}
	if *format != "text" && *format != "json" {
		return usagef("compare: unknown format %q", *format)
	}
	urls := fs.Args()
	if len(urls) == 0 {
		return usagef("compare: no URL given")
	}
	if len(agents) == 0 {
		agents = agentList{"*"}
	}
	body, err := readInput(e.stdin, *robotsFile)
	if err != nil {
		return err
	}
	parsed := make([]*robots.Robots, len(robots.Dialects()))
	for i, d := range robots.Dialects() {
		parsed[i] = robots.Parse(body, robots.WithDialect(d))
	}
	var rows []compareRow
	disagree := false
	for _, u := range urls {
		for _, a := range agents {
			row := compareRow{URL: u, Agent: a, Agree: true}
			for i, r := range parsed {
				d := r.Check(a, u)
				v := compareVerdict{Dialect: robots.Dialects()[i].String(), Allowed: d.Allowed, Line: d.Rule.Line}
				if d.Rule.Line > 0 {
					v.Rule = d.Rule.String()
				}
				if i > 0 && d.Allowed != row.Verdicts[0].Allowed {
					row.Agree = false
				}
				row.Verdicts = append(row.Verdicts, v)
			}
			if !row.Agree {
				disagree = true
			}
			rows = append(rows, row)
		}
	}
	w := bufio.NewWriter(e.stdout)
	if *format == "json" {
		writeJSON(w, rows)
	} else {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprint(tw, "\tURL\tagent")
		for _, d := range robots.Dialects() {
			fmt.Fprintf(tw, "\t%s", d)
		}
		fmt.Fprintln(tw)
		for _, row := range rows {
			mark := ""
			if !row.Agree {
				mark = "!"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s", mark, row.URL, row.Agent)
			for _, v := range row.Verdicts {
				cell := verdict(v.Allowed)
				if v.Line > 0 {
					cell += fmt.Sprintf(" (%d)", v.Line)
				}
				fmt.Fprintf(tw, "\t%s", cell)
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
		if disagree {
			fmt.Fprintln(w, "\n! the interpretations disagree; (N) is the line of the deciding rule")
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if disagree {
		return exitError{1}
	}
	return nil
}
