package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/gorobots/robots/internal/testenv"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestShapesMatchTheAPI: the command's JSON is checked against the one written
// description of the shapes, the service's OpenAPI document (serve/openapi.json):
// every verdict that check, check -jsonl and explain print is a valid Decision, and
// the fetch that robots check prints under "robots" a valid RobotsState, as the API's
// are (serve's TestOpenAPI); the report of robots audit -format json is a valid
// AuditReport, the answer of POST /v1/audit.
func TestShapesMatchTheAPI(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromFile(filepath.Join("..", "..", "serve", "openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	schema := func(name string) *openapi3.Schema {
		ref, ok := doc.Components.Schemas[name]
		if !ok || ref.Value == nil {
			t.Fatalf("serve/openapi.json has no schema %s", name)
		}
		return ref.Value
	}
	decision := schema("Decision")
	// The schema tells shapes apart: a verdict without "rule", or with a string for
	// "allowed", is refused.
	for _, bad := range []map[string]any{
		{"url": "/a", "agent": "a", "allowed": "yes", "rule": nil, "line": 0},
		{"url": "/a", "agent": "a", "allowed": true, "line": 0},
	} {
		if decision.VisitJSON(bad) == nil {
			t.Fatalf("the Decision schema accepts %v", bad)
		}
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(file, []byte("User-agent: *\nDisallow: /caf%C3%A9/\n\nUser-agent: GPTBot\nDisallow: /\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runJSON := func(stdin string, args ...string) []byte {
		t.Helper()
		var out, errOut bytes.Buffer
		run(context.Background(), args, bytes.NewBufferString(stdin), &out, &errOut)
		if out.Len() == 0 {
			t.Fatalf("robots %v printed nothing (stderr %s)", args, errOut.String())
		}
		return out.Bytes()
	}
	validate := func(what string, s *openapi3.Schema, v any) {
		t.Helper()
		if err := s.VisitJSON(v); err != nil {
			t.Errorf("%s: %v does not match the API's schema: %v", what, v, err)
		}
	}
	count := 0

	// check -format json: {"results": [verdict...], "warnings": [...]}
	var doc1 struct {
		Results []map[string]any `json:"results"`
	}
	if err := json.Unmarshal(runJSON("", "check", "-robots", file, "-agent", "Googlebot", "-agent", "GPTBot", "-format", "json",
		"https://example.com/café/x", "/open"), &doc1); err != nil {
		t.Fatal(err)
	}
	for _, v := range doc1.Results {
		validate("check -format json", decision, v)
		count++
	}

	// check -jsonl: one verdict per line.
	cases := `{"robots_file": "` + file + `", "agent": "FooBot", "url": "/caf%C3%A9/menu"}` + "\n" +
		`{"robots_file": "` + file + `", "agents": ["GPTBot", "FooBot"], "url": "https://example.com/"}` + "\n"
	for _, line := range bytes.Split(bytes.TrimSpace(runJSON(cases, "check", "-jsonl")), []byte("\n")) {
		var v map[string]any
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatal(err)
		}
		validate("check -jsonl", decision, v)
		count++
	}

	// explain -format json: the verdicts under each crawler's "urls".
	var ex []struct {
		URLs []map[string]any `json:"urls"`
	}
	if err := json.Unmarshal(runJSON("", "explain", "-robots", file, "-agent", "GPTBot", "-format", "json", "/a", "https://example.com/café/"), &ex); err != nil {
		t.Fatal(err)
	}
	for _, e := range ex {
		for _, v := range e.URLs {
			validate("explain -format json", decision, v)
			count++
		}
	}
	if count < 8 {
		t.Errorf("checked %d verdicts, want every one printed (8)", count)
	}

	// audit -format json: the report of POST /v1/audit (AuditReport), for a site with
	// blocked URLs, a broken and a cross-host sitemap, lint findings and a tree.
	other := testenv.Serve(t, 404, "")
	var base string
	site := testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nDisallow: /search\nDisallow /x\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: %s/s.xml\nSitemap: %s/broken.xml\nSitemap: %s/s.xml\n", base, base, other.URL)
		case "/s.xml":
			fmt.Fprintf(w, "<urlset><url><loc>%s/search?q=1</loc></url><url><loc>%s/blog/a</loc></url><url><loc>%s/café</loc></url></urlset>", base, base, base)
		case "/broken.xml":
			fmt.Fprintf(w, "<urlset><url><loc>%s/a</loc></urll></urlset>", base)
		default:
			http.NotFound(w, r)
		}
	})
	base = site.URL
	var report map[string]any
	if err := json.Unmarshal(runJSON("", "audit", "-format", "json", "-agent", "Googlebot", "-agent", "GPTBot", base), &report); err != nil {
		t.Fatal(err)
	}
	validate("audit -format json", schema("AuditReport"), report)
	if len(report["blocked"].([]any)) == 0 || len(report["lint"].([]any)) == 0 {
		t.Errorf("the audit report checked has no blocked rules or no lint findings: %v", report)
	}
}
