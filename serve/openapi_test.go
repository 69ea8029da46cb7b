package serve

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/fetch/boltstore"
)

// TestOpenAPI: the document served at /openapi.json is valid OpenAPI 3.1, and real
// requests to every operation, with their real answers (success and error
// statuses), validate against it.
func TestOpenAPI(t *testing.T) {
	ok := newOrigin(t, 200, specFile)
	site := auditSite(t)
	vsite, vshop := variantSite(t)
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "cache.bolt"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, _ := start(t, Config{AllowPrivate: true, Fetch: fetch.Config{Store: st}})
	guarded, _ := start(t, Config{})
	tokens, _ := start(t, Config{Tokens: []string{"t0ken"}})

	// The document is the one served.
	resp, err := http.Get("http://" + s.Addr() + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	served, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(served)
	if err != nil {
		t.Fatalf("loading /openapi.json: %v", err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi %q, want 3.1.0", doc.OpenAPI)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("/openapi.json is not valid OpenAPI: %v", err)
	}
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}

	seen := map[string]bool{}
	for _, tc := range []struct {
		name         string
		srv          *Server
		method, path string
		ctype, body  string
		before       func()
		status       int
	}{
		{"check allowed", s, "GET", checkPath([]string{"FooBot"}, ok.URL+"/folder/page"), "", "", nil, 200},
		{"check two agents", s, "GET", checkPath([]string{"FooBot", "FooBot-Image"}, ok.URL+"/images/a.png") + "&merge_agents=true&dialect=rfc9309", "", "", nil, 200},
		{"check purposes", s, "GET", checkPath([]string{"FooBot"}, ok.URL+"/folder/page") + "&purposes=true", "", "", nil, 200},
		{"check no agent", s, "GET", "/v1/check?url=" + ok.URL, "", "", nil, 400},
		{"check refused", guarded, "GET", checkPath([]string{"a"}, "http://127.0.0.1/x"), "", "", nil, 403},
		{"check without token", tokens, "GET", checkPath([]string{"a"}, "https://example.com/"), "", "", nil, 401},
		{"check too long", s, "GET", checkPath([]string{strings.Repeat("a", MaxAgentBytes+1)}, ok.URL+"/"), "", "", nil, 400},
		{"batch", s, "POST", "/v1/check", "application/json",
			`{"agent":"FooBot","urls":["` + ok.URL + `/bar","` + ok.URL + `/page","http://[::1/"]}`, nil, 200},
		{"batch of several crawlers", s, "POST", "/v1/check", "application/json",
			`{"agents":["FooBot","BarBot"],"dialect":"legacy1996","urls":["` + ok.URL + `/bar","` + ok.URL + `/page"]}`, nil, 200},
		{"batch without urls", s, "POST", "/v1/check", "application/json", `{"agent":"FooBot"}`, nil, 400},
		{"batch bad JSON", s, "POST", "/v1/check", "application/json", `{"agent":`, nil, 400},
		{"robots", s, "GET", "/v1/robots?url=" + ok.URL + "/", "", "", nil, 200},
		{"robots of hosts as crawlers", s, "GET", "/v1/robots?url=" + vsite.URL + "/&as=GPTBot,ClaudeBot&hosts=" + vshop.Listener.Addr().String(), "", "", nil, 200},
		{"robots as no crawler", s, "GET", "/v1/robots?url=" + vsite.URL + "/&as=NoSuchBot", "", "", nil, 400},
		{"robots no url", s, "GET", "/v1/robots", "", "", nil, 400},
		{"lint", s, "POST", "/v1/lint?name=site.txt", "text/plain", "User-agent: *\nDisalow: /x\nfoo bar\n", nil, 200},
		{"lint clean", s, "POST", "/v1/lint", "text/plain", "User-agent: *\nDisallow: /x\n", nil, 200},
		{"audit", s, "POST", "/v1/audit", "application/json",
			`{"url":"` + site.URL + `","agents":["Googlebot","GPTBot"],"dialect":"rfc9309","examples":2,"limits":{"urls":1000,"seconds":20},"tree":true,"allow_blocked":["ai-train"]}`, nil, 200},
		{"audit of a site without robots.txt", s, "POST", "/v1/audit", "application/json", `{"url":"` + ok.URL + `","must_allow":["search"]}`, nil, 200},
		{"audit against a version", s, "POST", "/v1/audit", "application/json", `{"url":"` + site.URL + `","agents":["Googlebot"],"version":1}`, nil, 200},
		{"audit against a file", s, "POST", "/v1/audit", "application/json", `{"url":"` + site.URL + `","agents":["Googlebot"],"robots":"User-agent: *\nDisallow: /blog/\n"}`, nil, 200},
		{"audit of hosts as crawlers", s, "POST", "/v1/audit", "application/json",
			`{"url":"` + vsite.URL + `","agents":["GPTBot"],"hosts":["` + vshop.Listener.Addr().String() + `"],"as":["GPTBot","ClaudeBot"]}`, nil, 200},
		{"audit as no crawler", s, "POST", "/v1/audit", "application/json", `{"url":"` + vsite.URL + `","as":["NoSuchBot"]}`, nil, 400},
		{"audit as CSV", s, "POST", "/v1/audit?format=csv", "application/json", `{"url":"` + site.URL + `","agents":["Googlebot","GPTBot"]}`, nil, 200},
		{"audit no url", s, "POST", "/v1/audit", "application/json", `{"agents":["Googlebot"]}`, nil, 400},
		{"audit refused", guarded, "POST", "/v1/audit", "application/json", `{"url":"http://127.0.0.1/"}`, nil, 403},
		{"audit without token", tokens, "POST", "/v1/audit", "application/json", `{"url":"https://example.com/"}`, nil, 401},
		{"audit past a limit", s, "POST", "/v1/audit", "application/json", `{"url":"` + site.URL + `","limits":{"urls":100000000}}`, nil, 413},
		{"logs", s, "POST", "/v1/logs", "application/json", `{"robots":"User-agent: *\nDisallow: /private/\n","examples":2,"log":` + jsonString(logsExample+"not a log line\n") + `}`, nil, 200},
		{"logs gzip", s, "POST", "/v1/logs", "application/json", `{"robots":"","log_base64":"` + gzipBase64(logsExample) + `"}`, nil, 200},
		{"logs without log", s, "POST", "/v1/logs", "application/json", `{"robots":"User-agent: *\n"}`, nil, 400},
		{"logs without token", tokens, "POST", "/v1/logs", "application/json", `{"robots":"","log":"x"}`, nil, 401},
		{"history", s, "GET", "/v1/history?agent=FooBot&agent=BarBot&url=" + ok.URL, "", "", nil, 200},
		{"history of one version", s, "GET", "/v1/history?version=1&url=" + ok.URL, "", "", nil, 200},
		{"history of a version not kept", s, "GET", "/v1/history?version=7&url=" + ok.URL, "", "", nil, 404},
		{"history no url", s, "GET", "/v1/history", "", "", nil, 400},
		{"generate", s, "POST", "/v1/generate", "application/json", `{"robots":"User-agent: *\nDisallow: /private/\n","stance":"ai-train=block,search=allow"}`, nil, 200},
		{"generate refused", s, "POST", "/v1/generate", "application/json", `{"robots":"User-agent: GPTBot\nUser-agent: Googlebot\nDisallow: /tmp/\n","stance":"ai-train=block"}`, nil, 422},
		{"generate without stance", s, "POST", "/v1/generate", "application/json", `{"robots":""}`, nil, 400},
		{"healthz", s, "GET", "/healthz", "", "", nil, 200},
		{"readyz", s, "GET", "/readyz", "", "", nil, 200},
		{"metrics", s, "GET", "/metrics", "", "", nil, 200},
		{"openapi", s, "GET", "/openapi.json", "", "", nil, 200},
		{"readyz store closed", s, "GET", "/readyz", "", "", func() { st.Close() }, 503},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.before != nil {
				tc.before()
			}
			req, err := http.NewRequest(tc.method, "http://"+tc.srv.Addr()+tc.path, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if tc.ctype != "" {
				req.Header.Set("Content-Type", tc.ctype)
			}
			route, params, err := router.FindRoute(req)
			if err != nil {
				t.Fatalf("%s %s is not in the document: %v", tc.method, tc.path, err)
			}
			seen[route.Operation.OperationID] = true
			in := &openapi3filter.RequestValidationInput{
				Request: req, PathParams: params, Route: route,
				Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
			}
			// Only well-formed requests are checked against the document: the error
			// cases send what it forbids on purpose.
			if tc.status < 400 {
				if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
					t.Errorf("request: %v", err)
				}
			}
			req.Body = io.NopCloser(strings.NewReader(tc.body))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			out := &openapi3filter.ResponseValidationInput{
				RequestValidationInput: in, Status: resp.StatusCode, Header: resp.Header,
				Body:    io.NopCloser(bytes.NewReader(body)),
				Options: &openapi3filter.Options{IncludeResponseStatus: true},
			}
			if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
				t.Errorf("answer %d %.300s: %v", resp.StatusCode, body, err)
			}
		})
	}
	gateOpenAPI(t, router, seen) // gate_test.go: the gate's operations, whose requests carry a proxy's headers
	for _, path := range doc.Paths.InMatchingOrder() {
		for _, op := range doc.Paths.Value(path).Operations() {
			if !seen[op.OperationID] {
				t.Errorf("operation %s (%s) has no test", op.OperationID, path)
			}
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func gzipBase64(s string) string {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return base64.StdEncoding.EncodeToString(b.Bytes())
}
