// Command passes loads the shared corpus, parses the files the real cases use, then
// makes a number of passes of one kind of work over it. It exists to be run under
// valgrind's cachegrind by ../../cachegrind.sh, which runs it twice with different
// pass counts and subtracts, so that loading and setting up cancel out: the counts
// of instructions, branch mispredictions and cache misses, unlike times, do not move
// with the load of a shared machine.
//
// Usage:
//
//	passes -op allowed|decideonce|parse|parsedecide -passes N
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/internal/corpus"
)

func main() {
	op := flag.String("op", "allowed", "the work of one pass: allowed (every case, files parsed beforehand), decideonce (every case), parse (every file) or parsedecide (every 20th case: its file parsed, then one decision)")
	passes := flag.Int("passes", 1, "how many passes")
	flag.Parse()
	n, err := run(*op, *passes)
	if err != nil {
		fmt.Fprintln(os.Stderr, "passes:", err)
		os.Exit(2)
	}
	fmt.Println(n) // the ops of one pass, which cachegrind.sh divides by
}

func run(op string, passes int) (int, error) {
	dir, err := corpus.Find(".")
	if err != nil {
		return 0, err
	}
	c, err := corpus.Load(dir)
	if err != nil {
		return 0, err
	}
	cases := c.Cases()
	switch op {
	case "allowed":
		parsed := map[int]*robots.Robots{}
		rs := make([]*robots.Robots, len(cases))
		for i, cs := range cases {
			if parsed[cs.File] == nil {
				parsed[cs.File] = robots.Parse(c.Files[cs.File].Body)
			}
			rs[i] = parsed[cs.File]
		}
		// The first decision for an agent compiles its rule set (issue 18): made here,
		// in the setting up that both runs share, so that a pass counts decisions alone.
		for i, cs := range cases {
			rs[i].Allowed(cs.Agent, cs.URL)
		}
		allowed := 0
		for range passes {
			for i, cs := range cases {
				if rs[i].Allowed(cs.Agent, cs.URL) {
					allowed++
				}
			}
		}
		return len(cases), nil
	case "decideonce":
		for range passes {
			for _, cs := range cases {
				robots.CheckOnce(c.Files[cs.File].Body, cs.Agent, cs.URL)
			}
		}
		return len(cases), nil
	case "parsedecide":
		// What ParseAndDecide/lib=robots does: parse a case's file, then its first decision
		// (which compiles the agent's rule set), for every 20th case.
		n := 0
		for range passes {
			n = 0
			for i := 0; i < len(cases); i += 20 {
				cs := cases[i]
				robots.Parse(c.Files[cs.File].Body).Allowed(cs.Agent, cs.URL)
				n++
			}
		}
		if passes == 0 {
			n = (len(cases) + 19) / 20
		}
		return n, nil
	case "parse":
		for range passes {
			for _, f := range c.Files {
				robots.Parse(f.Body)
			}
		}
		return len(c.Files), nil
	}
	return 0, fmt.Errorf("unknown -op %q", op)
}
