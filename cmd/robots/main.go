// Command robots checks, lints, explains, compares and fetches robots.txt files, and
// serves decisions and a web tester.
//
// Usage:
//
//	robots <command> [flags] [arguments]
//
// Run "robots help" for the list of commands.
package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// exitError carries an exit status other than 2 (usage) through run.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// finish flushes w and gives the exit status of a subcommand that answers a
// question: 2 when some input failed, 1 when the answer is no (a URL disallowed,
// interpretations that disagree, a change), 0 otherwise.
func finish(w *bufio.Writer, failed, no bool) error {
	if err := w.Flush(); err != nil {
		return err
	}
	switch {
	case failed:
		return exitError{2}
	case no:
		return exitError{1}
	}
	return nil
}

// usageError is a bad flag or argument: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// env is what a subcommand may touch: no package-level state.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// lookupEnv reads an environment variable (os.LookupEnv): serve's settings, and
	// GOMEMLIMIT (logs) and GOGC (corpus), which the environment wins over.
	lookupEnv func(string) (string, bool)
}

type command struct {
	name    string
	summary string
	usage   string // the help text before the flags; "robots help NAME" and -h print it
	run     func(ctx context.Context, e *env, args []string) error
}

// commands is the table of subcommands, in the order "robots help" lists them;
// each runs from its own file. A function rather than a variable: the run
// functions print their help through lookup, which reads this table.
func commands() []command {
	return []command{
		{"audit", "check a live site's sitemap URLs against its robots.txt", auditUsage, runAudit},
		{"check", "decide whether crawlers may fetch URLs", checkUsage, runCheck},
		{"compare", "show how each interpretation decides the same URLs", compareUsage, runCompare},
		{"corpus", "read every robots.txt of a crawl's WARC files into a table (Parquet, CSV, JSON)", corpusUsage, runCorpus},
		{"crawlers", "list the crawler registry: product tokens, operators, purposes", crawlersUsage, runCrawlers},
		{"diff", "compare two versions of a robots.txt file", diffUsage, runDiff},
		{"explain", "show which group and rule apply to each crawler", explainUsage, runExplain},
		{"fetch", "fetch a robots.txt and tell how it went", fetchUsage, runFetch},
		{"generate", "write a stance per purpose into a robots.txt file", generateUsage, runGenerate},
		{"lint", "find mistakes in robots.txt files", lintUsage, runLint},
		{"logs", "report what crawlers did in access logs: violations, impostors", logsUsage, runLogs},
		{"monitor", "exit 1 when crawlers' verdicts on chosen URLs change (for cron and CI)", monitorUsage, runMonitor},
		{"serve", "run the robots.txt service and web tester", serveUsage, runServe},
		{"version", "print the module version and VCS revision of this binary", versionUsage, runVersion},
	}
}

// lookup finds the subcommand called name.
func lookup(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

const usage = `robots: check, lint, explain, compare, diff, fetch and audit robots.txt files and sites, or serve
them to crawlers and people (an API and a web tester); watch crawlers' verdicts for changes
(monitor); list the crawlers they name (crawlers);
report what crawlers did in access logs (logs); read every robots.txt of a web crawl's WARC
files into a table (corpus); write a stance per purpose into a file (generate).

Usage:
	robots <command> [flags] [arguments]

Commands:
%s
Run "robots help <command>" or "robots <command> -h" for a command's flags.
Flags may come before or after the arguments; "--" ends the flags.

Exit status: 0 when the answer is yes (every URL allowed, nothing found, no change), 1 when
it is no (something disallowed, findings, changes), 2 on bad input or a failure. Each
command's help says what 0 and 1 mean for it.
`

func printUsage(w io.Writer) {
	list := ""
	for _, c := range commands() {
		list += fmt.Sprintf("\t%-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, usage, list)
}

// run dispatches to a subcommand and returns its error; the exit status follows from it.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, lookupEnv: os.LookupEnv}
	if len(args) == 0 {
		printUsage(stderr)
		return usagef("no command given")
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && name == "help" {
			c, ok := lookup(args[1])
			if !ok {
				return usagef("help: unknown command %q (see \"robots help\")", args[1])
			}
			if err := c.run(ctx, e, []string{"-h"}); err != errHelpShown {
				return err
			}
			return nil
		}
		printUsage(stdout)
		return nil
	}
	if name == "-version" || name == "--version" {
		return runVersion(ctx, e, args[1:])
	}
	c, ok := lookup(name)
	if !ok {
		return usagef("unknown command %q (see \"robots help\")", name)
	}
	err := c.run(ctx, e, args[1:])
	if err == errHelpShown {
		return nil
	}
	return err
}

// exitCode maps run's error to the process exit status: 0 ok, 1 a negative answer
// (a disallowed URL, a lint error, a diff), 2 usage or input errors.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	fmt.Fprintln(stderr, "robots:", err)
	return 2
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := exitCode(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr), os.Stderr)
	stop()
	os.Exit(code)
}
