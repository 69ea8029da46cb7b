package serve

import (
	"encoding/json"
	"regexp"
	"testing"
)

// snakeCase is the spelling of every JSON key of the API.
var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// jsonKeys calls f with the path and name of every object key in v, a decoded JSON
// value.
func jsonKeys(v any, path string, f func(path, key string)) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			f(path, k)
			jsonKeys(x, path+"."+k, f)
		}
	case []any:
		for _, x := range v {
			jsonKeys(x, path+"[]", f)
		}
	}
}

// TestSnakeCaseKeys: the answer of GET /v1/robots for a file with fields and
// diagnostics, and every property the OpenAPI document names, use snake_case keys
// like the rest of the API (it answered "Name", "Line", "Code"… for fields and
// diagnostics: issue 28).
func TestSnakeCaseKeys(t *testing.T) {
	o := newOrigin(t, 200, specFile+"\nFoo: bar\nDisalow: /typo\n")
	s, _ := start(t, Config{AllowPrivate: true})
	var a map[string]any
	if code := get(t, s, "/v1/robots?url="+o.URL+"/", &a); code != 200 {
		t.Fatalf("status %d: %v", code, a)
	}
	for _, k := range []string{"fields", "diagnostics"} {
		if l, _ := a[k].([]any); len(l) == 0 {
			t.Errorf("%s: empty, want the file's", k)
		}
	}
	jsonKeys(a, "", func(path, key string) {
		if !snakeCase.MatchString(key) {
			t.Errorf("/v1/robots: key %q at %s is not snake_case", key, path)
		}
	})

	var doc any
	if err := json.Unmarshal(openAPI, &doc); err != nil {
		t.Fatal(err)
	}
	jsonKeys(doc, "", func(path, key string) {
		if len(path) > len(".properties") && path[len(path)-len(".properties"):] == ".properties" && !snakeCase.MatchString(key) {
			t.Errorf("openapi.json: property %q at %s is not snake_case", key, path)
		}
	})
}
