package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary act as the robots command, so that scripts run
// the real main (signals, flags, exit statuses) in a child process.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"robots": main})
}

// scriptCmds are extra script commands (beyond testscript's built-ins). A
// subcommand's test file may add its own in an init function, for example one that
// starts a loopback server for "robots fetch"; keep the names distinct.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){}

// TestScripts runs every script in testdata/*.txtar. Each script runs in its own
// temporary directory; $SHARED is the shared test data (../shared beside the
// repository) when it is there, and the condition [shared] says whether it is.
func TestScripts(t *testing.T) {
	shared, _ := filepath.Abs(filepath.Join("..", "..", "..", "shared"))
	_, err := os.Stat(shared)
	haveShared := err == nil
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Cmds:                scriptCmds,
		Setup: func(e *testscript.Env) error {
			if haveShared {
				e.Setenv("SHARED", shared)
			}
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "shared":
				if !haveShared && os.Getenv("CI") == "true" {
					t.Fatalf("shared test data not found at %s (required when CI=true)", shared)
				}
				return haveShared, nil
			}
			return false, errUnknownCond(cond)
		},
	})
}

type errUnknownCond string

func (e errUnknownCond) Error() string { return "unknown condition " + string(e) }
