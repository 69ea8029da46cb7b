package census

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gorobots/robots/internal/testenv"
	"github.com/parquet-go/parquet-go"
)

// duckDB returns the directory holding node_modules/@duckdb/node-api: DuckDB from
// the npm registry (its package ships the native library), which reads the
// Parquet files back in TestParquetDuckDB. .ci/run installs it and sets
// $ROBOTS_DUCKDB; without it the test installs it in a temporary directory.
func duckDB(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("ROBOTS_DUCKDB"); d != "" {
		return d
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		testenv.Missing(t, "no npm and no $ROBOTS_DUCKDB: DuckDB cannot be installed (.ci/run installs it and sets $ROBOTS_DUCKDB)")
	}
	dir := t.TempDir()
	cmd := exec.Command(npm, "install", "--no-audit", "--no-fund", "--prefix", dir, duckDBPackage)
	if out, err := cmd.CombinedOutput(); err != nil {
		testenv.Missing(t, "npm install %s: %v\n%s", duckDBPackage, err, out)
	}
	return dir
}

// duckDBPackage is the DuckDB release the tests read Parquet with (.ci/run pins the same).
const duckDBPackage = "@duckdb/node-api@1.5.6-r.1"

// duckQuery runs sql in DuckDB and returns the rows as JSON objects of strings.
func duckQuery(t *testing.T, dir, sql string) []map[string]any {
	t.Helper()
	script := `import { DuckDBInstance } from '@duckdb/node-api';
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
const r = await c.runAndReadAll(process.argv[2]);
process.stdout.write(JSON.stringify(r.getRowObjectsJson()));
`
	name := filepath.Join(dir, "query.mjs")
	if err := os.WriteFile(name, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", name, sql)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("duckdb: %v\n%s", err, stderr.String())
	}
	var rows []map[string]any
	if err := json.Unmarshal(out, &rows); err != nil {
		t.Fatalf("duckdb output: %v\n%s", err, out)
	}
	return rows
}

// TestParquetDuckDB writes the rows of two WARC files as two Parquet files, one a
// file as a batch job's tasks do, and reads them back together with DuckDB: every
// value of every row comes back, the two files concatenate, and the share of hosts
// that disallow GPTBot entirely (docs/corpus.md's query) is the rows' own.
func TestParquetDuckDB(t *testing.T) {
	dd := duckDB(t)
	out := t.TempDir()
	var all []Row
	for i, gz := range []bool{true, false} {
		w, _, _ := buildCases(gz)
		name := fmt.Sprintf("part-%d.warc", i)
		f, err := os.Create(filepath.Join(out, fmt.Sprintf("part-%d.parquet", i)))
		if err != nil {
			t.Fatal(err)
		}
		pw, err := NewWriter("parquet", f)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Scan(context.Background(), bytes.NewReader(w.bytes()), name, Config{Crawlers: testCrawlers}, func(r *Row) error {
			all = append(all, *r)
			return pw.Write(r)
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := pw.Close(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	glob := filepath.Join(out, "*.parquet")
	// DuckDB keeps the order of the files (by name) and of their rows.
	got := duckQuery(t, dd, fmt.Sprintf("SELECT COLUMNS(*)::VARCHAR FROM read_parquet('%s')", glob))
	if len(got) != len(all) {
		t.Fatalf("DuckDB read %d rows, %d written", len(got), len(all))
	}
	for i, r := range all {
		want := r.strings()
		for c, col := range columns {
			if g := fmt.Sprint(got[i][col]); g != want[c] {
				t.Errorf("row %d (%s %s) %s: DuckDB read %q, written %q", i, r.URL, r.Agent, col, g, want[c])
			}
		}
	}

	// The headline figure, as docs/corpus.md computes it.
	hosts, blocked := map[string]bool{}, map[string]bool{}
	for _, r := range all {
		if r.Agent == "GPTBot" && r.Effect != "" {
			hosts[r.Host] = true
			if r.Access == "blocked" {
				blocked[r.Host] = true
			}
		}
	}
	q := strings.ReplaceAll(docQuery(t), "'out/*.parquet'", "'"+glob+"'")
	share := duckQuery(t, dd, q)
	want := fmt.Sprintf("%.4f", float64(len(blocked))/float64(len(hosts)))
	if len(share) != 1 || fmt.Sprintf("%.4f", share[0]["share"]) != want {
		t.Errorf("DuckDB share of hosts blocking GPTBot %v, want %s (%d of %d hosts)", share, want, len(blocked), len(hosts))
	}
}

// docQuery returns the SQL block of docs/corpus.md: the query users copy.
func docQuery(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile("../docs/corpus.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(doc), "```sql\n")
	q, _, ok2 := strings.Cut(after, "```")
	if !ok || !ok2 || !strings.Contains(q, "'out/*.parquet'") {
		t.Fatal("docs/corpus.md has no sql block reading 'out/*.parquet'")
	}
	return q
}

// TestUnboundedColumns checks that unboundedColumns names every column of Row
// but warc_offset: the columns whose page statistics the Parquet writer leaves
// out.
func TestUnboundedColumns(t *testing.T) {
	var want []string
	for _, f := range parquet.SchemaOf(Row{}).Fields() {
		if f.Name() != "warc_offset" {
			want = append(want, f.Name())
		}
	}
	if !slices.Equal(unboundedColumns, want) {
		t.Errorf("unboundedColumns = %v, want every column but warc_offset %v", unboundedColumns, want)
	}
}
