package main

import (
	"context"
	"fmt"

	"github.com/gorobots/robots/signals"
)

const generateUsage = `Usage:
	robots generate -stance PURPOSE=STANCE,... [FILE]

Writes a stance per purpose into the robots.txt FILE ("-" or none: standard input;
empty: a new file) and prints the result. Purposes: search, ai-train, ai-input,
ai-search, ai-user; stances: block (the crawlers of the registry whose every
purpose is blocked may fetch nothing: a group with "Disallow: /", or the rule added
to the group that already names them), no (they may fetch, and Content-Usage and
Content-Signal lines in every group say n / no for the purpose), allow (y / yes).
"Block training, keep search and assistants":
	robots generate -stance ai-train=block,search=allow,ai-user=allow robots.txt

No other crawler's verdict changes: the command checks every crawler of the registry
on "/" and every path the file's rules name, in Google's and RFC 9309's readings,
and writes nothing when one would change; "robots diff OLD NEW" shows what changed.
Notes on standard error say what the stance could not do (a crawler that also
serves a purpose kept is told, not blocked).

The service's POST /v1/generate ({"robots": FILE, "stance": "..."}, answered with
"robots", "added" and "notes"; 422 when a verdict would change) and the web tester's
Generate write the same file.

Exit status: 0 when written, 1 when a verdict would change, 2 on a usage error.
`

func runGenerate(_ context.Context, e *env, args []string) error {
	fs := newFlagSet("generate")
	stanceFlag := fs.String("stance", "", "the stance per purpose: `PURPOSE=block|no|allow,...`")
	pos, err := parseArgs(fs, args, e.stdout)
	if err != nil {
		return err
	}
	if *stanceFlag == "" {
		return usagef("generate: -stance is required (see \"robots generate -h\")")
	}
	stance, err := signals.ParseStance(*stanceFlag)
	if err != nil {
		return usagef("generate: %v", err)
	}
	name := "-"
	switch len(pos) {
	case 0:
	case 1:
		name = pos[0]
	default:
		return usagef("generate: want at most one FILE")
	}
	body, _, err := readInput(e.stdin, name)
	if err != nil {
		return err
	}
	out, notes, err := signals.Generate(string(body), stance)
	for _, n := range notes {
		fmt.Fprintf(e.stderr, "robots: generate: note: %s\n", n)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "robots: %v\n", err)
		return exitError{1}
	}
	_, err = fmt.Fprint(e.stdout, out)
	return err
}
