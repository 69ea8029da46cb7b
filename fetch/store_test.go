package fetch_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/fetch/internal/fetchtest"
)

func TestMemoryStoreContract(t *testing.T) {
	fetchtest.TestStore(t, fetch.NewMemoryStore(0))
}

func TestMemoryStoreSharedErrors(t *testing.T) {
	fetchtest.TestSharedErrors(t, fetch.NewMemoryStore(0))
}

// TestResultJSON: a result survives encoding/json, as the stores out of process keep
// it: a stale result's effect and body come back from its copy, the error with its
// kind and text.
func TestResultJSON(t *testing.T) {
	want := fetchtest.SampleResult("http://json.test", t0)
	b, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	// The stored form keeps the latest fetch's own effect; the copy holds the body.
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	if raw["effect"] != "disallow-all" || raw["body"] != nil || raw["err_kind"] != "timeout" || raw["err"] != "reading body: i/o timeout" {
		t.Errorf("stored form %s; want effect disallow-all, no body, err and err_kind", b)
	}
	got := new(fetch.Result)
	if err := json.Unmarshal(b, got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip:\ngot  %+v\nwant %+v", got, want)
	}
}
