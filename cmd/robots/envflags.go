package main

import (
	"flag"
	"fmt"
	"strings"
)

// The environment rule of "robots serve", so that a container or a unit file can
// configure it and secrets (a Redis password in -redis) need not sit on a command
// line: every flag -NAME may be given as the variable ROBOTS_NAME, the name in
// capitals with '-' as '_' (-addr is ROBOTS_ADDR, -token-file ROBOTS_TOKEN_FILE,
// -allow-private ROBOTS_ALLOW_PRIVATE=true). A flag given on the command line wins
// over its variable; a variable that is set but empty counts as set.
const envRule = `Every flag can also be set in the environment: -NAME as ROBOTS_NAME, in capitals
with - as _ (ROBOTS_ADDR, ROBOTS_REDIS, ROBOTS_TOKEN_FILE, ROBOTS_ALLOW_PRIVATE=true).
A flag on the command line wins over its variable.
`

// envName is the environment variable of flag name.
func envName(name string) string {
	return "ROBOTS_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// flagsFromEnv sets each flag of fs not given on the command line from its
// variable, if set. It sets every flag it can and returns the first bad value,
// naming the variable.
func flagsFromEnv(fs *flag.FlagSet, lookup func(string) (string, bool)) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var first error
	fs.VisitAll(func(f *flag.Flag) {
		if given[f.Name] {
			return
		}
		v, ok := lookup(envName(f.Name))
		if !ok {
			return
		}
		if err := fs.Set(f.Name, v); err != nil && first == nil {
			first = fmt.Errorf("%s=%q (flag -%s): %v", envName(f.Name), v, f.Name, err)
		}
	})
	return first
}
