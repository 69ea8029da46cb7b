package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/crawlers"
)

// The command's contract, the same for every subcommand:
//   - flags may come before, between and after the arguments; "--" ends them;
//   - -h (or -help) prints the subcommand's help on standard output and exits 0, as
//     "robots help CMD" does;
//   - an unknown flag or a bad flag value is one line on standard error naming it,
//     with the hint "robots CMD -h", and exit status 2;
//   - exit status 0: every URL allowed, nothing found, no change; 1: something
//     disallowed, findings, changes; 2: bad input or a failure. Each usage text ends
//     with its own "Exit status" paragraph saying what that means for the command.

// errHelpShown is returned by parseArgs after -h printed the help: exit status 0.
var errHelpShown = errors.New("help shown")

// newFlagSet returns the flag set of subcommand name. The flag package's own output
// is silenced: parseArgs reports errors in one line and -h prints usage on stdout.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseArgs parses flags that may come before, between or after the positional
// arguments ("robots diff OLD NEW -urls FILE"), which flag.FlagSet alone stops at.
// Everything after "--" is positional. It returns the positional arguments. For -h
// it prints the help of the subcommand to out and returns errHelpShown; for a bad
// flag it returns a usage error naming the flag.
func parseArgs(fs *flag.FlagSet, args []string, out io.Writer) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				printHelp(out, fs)
				return nil, errHelpShown
			}
			return nil, usagef("%s: %s (see \"robots %s -h\")", fs.Name(), flagError(err), fs.Name())
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		// fs.Parse consumed a "--" if the arguments left start right after one.
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// flagError rewords the flag package's errors: "flag provided but not defined: -x"
// becomes "unknown flag -x".
func flagError(err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return "unknown flag " + name
	}
	return msg
}

// printHelp prints the usage text of a subcommand and its flags.
func printHelp(w io.Writer, fs *flag.FlagSet) {
	c, ok := lookup(fs.Name())
	if ok {
		fmt.Fprint(w, c.usage)
	}
	fmt.Fprintln(w, "\nFlags:")
	var b strings.Builder
	fs.SetOutput(&b)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		fmt.Fprint(w, wrapFlagLine(line))
	}
}

// maxHelpLine is the widest line of a help text, in bytes (the flag descriptions
// are wrapped to it).
const maxHelpLine = 100

// wrapFlagLine wraps a line of the flag package's defaults ("    \tdescription")
// at spaces so that no line is wider than maxHelpLine, continuing with the same
// indent; a tab counts as the four columns the flag package assumes.
func wrapFlagLine(line string) string {
	const indent = "    \t"
	width := func(s string) int { return len(s) + 3*strings.Count(s, "\t") }
	if width(strings.TrimSuffix(line, "\n")) <= maxHelpLine || !strings.HasPrefix(line, indent) {
		return line
	}
	var out strings.Builder
	cur := indent
	for _, word := range strings.Fields(line) {
		if cur != indent && width(cur)+1+len(word) > maxHelpLine {
			out.WriteString(cur + "\n")
			cur = indent
		}
		if cur != indent {
			cur += " "
		}
		cur += word
	}
	out.WriteString(cur + "\n")
	return out.String()
}

// Output formats. Each subcommand that prints results takes -format with the
// formats it supports; text is the default.
const (
	formatText  = "text"
	formatJSON  = "json"
	formatJSONL = "jsonl"
	formatSARIF = "sarif"
	formatCSV   = "csv"
)

// formatFlag defines -format with the given choices (the first is the default), and
// -json as an alias of -format json where the subcommand had it.
func formatFlag(fs *flag.FlagSet, choices ...string) *string {
	f := choices[0]
	fs.Func("format", "output `format`: "+strings.Join(choices, ", ")+" (default "+choices[0]+")", func(v string) error {
		for _, c := range choices {
			if v == c {
				f = v
				return nil
			}
		}
		return fmt.Errorf("want %s", strings.Join(choices, ", "))
	})
	return &f
}

// jsonAlias defines -json as a shorthand for -format json.
func jsonAlias(fs *flag.FlagSet, format *string) {
	fs.BoolFunc("json", "same as -format json", func(v string) error {
		if v == "true" {
			*format = formatJSON
		}
		return nil
	})
}

// agentList is a repeatable -agent flag.
type agentList []string

func (a *agentList) String() string     { return strings.Join(*a, ",") }
func (a *agentList) Set(v string) error { *a = append(*a, v); return nil }

// crawlerFlags are the flags of the subcommands that read robots.txt files for the
// major crawlers unless told which (audit, diff, explain): -agent (see
// agentList.orMajor), -dialect and -format.
type crawlerFlags struct {
	agents  agentList
	dialect robots.Dialect
	format  *string
}

// newCrawlerFlags defines the crawlerFlags on fs, with formats as the choices of
// -format (the first is the default).
func newCrawlerFlags(fs *flag.FlagSet, formats ...string) *crawlerFlags {
	var f crawlerFlags
	fs.Var(&f.agents, "agent", "crawler product `NAME` (repeatable; default: the major crawlers)")
	dialectFlag(fs, &f.dialect)
	f.format = formatFlag(fs, formats...)
	return &f
}

// orMajor returns the agents asked about, or the major crawlers when none was.
func (a agentList) orMajor() []string {
	if len(a) == 0 {
		return crawlers.Names()
	}
	return a
}
