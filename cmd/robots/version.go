package main

import (
	"context"
	"fmt"

	"github.com/gorobots/robots/internal/buildinfo"
)

const versionUsage = `Usage:
	robots version
	robots -version

Print the module version, the VCS revision (with -dirty for uncommitted changes)
and the Go version this binary was built with, as recorded by the Go toolchain;
"unknown" where it recorded nothing.

Exit status: 0, or 2 on a usage error.
`

func runVersion(_ context.Context, e *env, args []string) error {
	fs := newFlagSet("version")
	args, err := parseArgs(fs, args, e.stdout)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return usagef("version: unexpected argument %q", args[0])
	}
	in := buildinfo.Read()
	fmt.Fprintf(e.stdout, "robots %s (revision %s, built %s, %s)\n", in.Version, in.Revision, in.Time, in.GoVersion)
	return nil
}
