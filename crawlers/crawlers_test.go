package crawlers

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gorobots/robots/internal/testenv"
)

// TestMajorMatchesCorpus checks the list against the hand-picked "major" tokens of
// the shared corpus, which were each checked against Common Crawl's counts.
func TestMajorMatchesCorpus(t *testing.T) {
	f, err := os.Open(filepath.Join(testenv.CorpusDir(t), "agents.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var want []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) == 3 && strings.Contains(","+cols[2]+",", ",major,") {
			want = append(want, cols[0])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	got := Names()
	if len(got) != len(want) {
		t.Fatalf("got %d major crawlers, corpus lists %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("crawler %d: got %q, corpus has %q", i, got[i], want[i])
		}
	}
	for _, c := range Major() {
		if c.Operator == "" || c.Purpose == "" {
			t.Errorf("%s: operator or purpose missing", c.Name)
		}
	}
}

func TestMajorIsACopy(t *testing.T) {
	m := Major()
	m[0].Name = "changed"
	if Major()[0].Name != "Googlebot" {
		t.Fatal("Major returned the package's own slice")
	}
}
