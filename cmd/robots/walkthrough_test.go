package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestWalkthrough runs the README's site-owner walk-through as written: each
// "go run ./cmd/robots …" line between the walkthrough markers is run from the
// repository's root with its arguments, its exit status compared with the
// "# exit N" the README gives, and each line the README shows under it looked for
// in what it prints. The site of docs/walkthrough is served on a free port in place
// of 127.0.0.1:8000 (the README serves it with python3), the port replaced in the
// files, the commands and the lines expected.
func TestWalkthrough(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "<!-- walkthrough -->")
	block, _, ok2 := strings.Cut(block, "<!-- /walkthrough -->")
	if !ok || !ok2 {
		t.Fatal("README.md has no walkthrough block")
	}
	dir := filepath.Join(root, "docs", "walkthrough")
	var host string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := os.ReadFile(filepath.Join(dir, filepath.Base(r.URL.Path)))
		if err != nil || r.URL.Path == "/" {
			http.NotFound(w, r)
			return
		}
		w.Write(bytes.ReplaceAll(b, []byte("127.0.0.1:8000"), []byte(host)))
	}))
	defer srv.Close()
	host = srv.Listener.Addr().String()
	t.Chdir(root)

	type step struct {
		args []string
		exit int
		want []string
	}
	var steps []*step
	exitRE := regexp.MustCompile(`#\s*exit (\d)`)
	for _, line := range strings.Split(block, "\n") {
		line = strings.ReplaceAll(line, "127.0.0.1:8000", host)
		switch {
		case strings.HasPrefix(line, "$ go run ./cmd/robots "):
			cmd, comment, _ := strings.Cut(strings.TrimPrefix(line, "$ go run ./cmd/robots "), "#")
			m := exitRE.FindStringSubmatch("#" + comment)
			if m == nil {
				t.Fatalf("README: %q does not say its exit status (# exit N)", line)
			}
			code, _ := strconv.Atoi(m[1])
			steps = append(steps, &step{args: strings.Fields(cmd), exit: code})
		case strings.HasPrefix(line, "$ "), strings.HasPrefix(line, "```"), strings.TrimSpace(line) == "":
		case len(steps) > 0:
			steps[len(steps)-1].want = append(steps[len(steps)-1].want, line)
		}
	}
	if len(steps) < 3 {
		t.Fatalf("%d commands in the walk-through, want lint, explain and audit", len(steps))
	}
	for _, st := range steps {
		var out, errOut bytes.Buffer
		code := exitCode(run(context.Background(), st.args, strings.NewReader(""), &out, &errOut), &errOut)
		if code != st.exit {
			t.Errorf("robots %s: exit %d, the README says %d\n%s%s", strings.Join(st.args, " "), code, st.exit, out.String(), errOut.String())
		}
		for _, w := range st.want {
			if !strings.Contains("\n"+out.String(), "\n"+w+"\n") {
				t.Errorf("robots %s: no line %q in its output:\n%s", strings.Join(st.args, " "), w, out.String())
			}
		}
	}
}
