package robots

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// conformanceCase is one allow/disallow assertion of a public test suite (see
// testdata/conformance/README.md for the schema and provenance).
type conformanceCase struct {
	Suite        string  `json:"suite"`
	Name         string  `json:"name"`
	Robots       *string `json:"robots"`
	RobotsBase64 string  `json:"robots_base64"`
	Agent        string  `json:"agent"`
	URL          string  `json:"url"`
	Allowed      bool    `json:"allowed"`
	Google       *bool   `json:"google"`
	Line         int     `json:"line"`
}

func (c conformanceCase) body(t testing.TB) []byte {
	if c.Robots != nil {
		return []byte(*c.Robots)
	}
	b, err := base64.StdEncoding.DecodeString(c.RobotsBase64)
	if err != nil {
		t.Fatalf("%s: bad robots_base64: %v", c.Name, err)
	}
	return b
}

func readJSONL[T any](t testing.TB, name string) []T {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "conformance", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 8<<20)
	for n := 1; sc.Scan(); n++ {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s:%d: %v", name, n, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// conformanceFiles are the suites of allow/disallow cases in testdata/conformance.
var conformanceFiles = []string{"google_robots_test.jsonl", "google_spec_test.jsonl", "protego.jsonl", "texting_robots.jsonl"}

// TestConformanceGoogle checks every allow/disallow case of Google's own suites, and
// the Google verdicts recorded for the protego and texting_robots suites.
func TestConformanceGoogle(t *testing.T) {
	for _, file := range conformanceFiles {
		t.Run(file, func(t *testing.T) {
			cases := readJSONL[conformanceCase](t, file)
			if len(cases) == 0 {
				t.Fatal("no cases")
			}
			failed := 0
			for i, c := range cases {
				want := c.Allowed
				if c.Google != nil {
					want = *c.Google
				} else if file == "protego.jsonl" || file == "texting_robots.jsonl" {
					t.Fatalf("case %d (%s) has no google verdict", i, c.Name)
				}
				r := Parse(c.body(t))
				if got := r.Allowed(c.Agent, c.URL); got != want {
					failed++
					if failed <= 20 {
						t.Errorf("case %d %s (line %d): agent %q url %q: Allowed = %v, want %v\nrobots.txt:\n%s",
							i, c.Name, c.Line, c.Agent, c.URL, got, want, truncate(string(c.body(t)), 600))
					}
				}
				// Check must agree with Allowed.
				if d := r.Check(c.Agent, c.URL); d.Allowed != want {
					t.Errorf("case %d %s: Check.Allowed = %v, want %v", i, c.Name, d.Allowed, want)
				}
			}
			if failed > 0 {
				t.Errorf("%d of %d cases failed", failed, len(cases))
			}
		})
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
