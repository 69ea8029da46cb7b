package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gorobots/robots/lint"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary act as the robots command, so that scripts run
// the real main (signals, flags, exit statuses) in a child process.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"robots": main})
}

// scriptCmds are extra script commands (beyond testscript's built-ins), some
// defined beside the subcommand they serve, for example one that starts a
// loopback server for "robots fetch".
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"httpdir":  cmdHTTPDir,  // audit_test.go
	"expand":   cmdExpand,   // audit_test.go
	"httpsite": cmdHTTPSite, // fetch_test.go
	"repeat":   cmdRepeat,
}

// cmdRepeat appends TEXT and a newline COUNT times to FILE; with -n, no newline.
// It builds inputs too large to write out in a script (lines and files past the
// parser's limits).
//
//	repeat [-n] COUNT FILE TEXT
func cmdRepeat(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! repeat")
	}
	nl := "\n"
	if len(args) > 0 && args[0] == "-n" {
		nl, args = "", args[1:]
	}
	if len(args) != 3 {
		ts.Fatalf("usage: repeat [-n] COUNT FILE TEXT")
	}
	n, err := strconv.Atoi(args[0])
	ts.Check(err)
	f, err := os.OpenFile(ts.MkAbs(args[1]), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	ts.Check(err)
	_, err = f.WriteString(strings.Repeat(args[2]+nl, n))
	ts.Check(err)
	ts.Check(f.Close())
}

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

// TestLintCodesScripted checks that every lint code is shown by some script, in the
// text format ("[code]") or the JSON format.
func TestLintCodesScripted(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, s := range scripts {
		b, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	for _, c := range lint.Codes() {
		if !strings.Contains(all.String(), `\[`+string(c.Code)+`\]`) && !strings.Contains(all.String(), `"code": "`+string(c.Code)+`"`) {
			t.Errorf("no script shows lint code %s", c.Code)
		}
	}
}
