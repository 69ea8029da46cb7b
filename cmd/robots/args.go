package main

import (
	"errors"
	"flag"
)

// parseInterspersed parses flags that may come before, between or after the
// positional arguments ("robots diff OLD NEW -urls FILE"), which flag.FlagSet alone
// stops at. Everything after "--" is positional. It returns the positional arguments,
// or flag.ErrHelp for -h.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
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

// isHelp reports whether err is the -h flag, which is not an error.
func isHelp(err error) bool { return errors.Is(err, flag.ErrHelp) }
