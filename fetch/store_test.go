package fetch_test

import (
	"encoding/base64"
	"encoding/json"
	"reflect"
	"testing"
	"unsafe"

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
	raw, got := roundTrip(t, want)
	// The stored form keeps the latest fetch's own effect; the copy holds the body.
	if raw["effect"] != "disallow-all" || raw["body"] != nil || raw["err_kind"] != "timeout" || raw["err"] != "reading body: i/o timeout" {
		t.Errorf("stored form %v; want effect disallow-all, no body, err and err_kind", raw)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip:\ngot  %+v\nwant %+v", got, want)
	}
}

// roundTrip returns the stored form of r, as JSON values, and r read back from it.
func roundTrip(t *testing.T, r *fetch.Result) (map[string]any, *fetch.Result) {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	back := new(fetch.Result)
	if err := json.Unmarshal(b, back); err != nil {
		t.Fatal(err)
	}
	return raw, back
}

// TestResultJSONBody: the stored form of Body is base64 of its bytes, as when Body
// was a []byte, so that entries stored then read back, and a body that is not UTF-8
// (a Latin-1 file) comes back byte for byte.
func TestResultJSONBody(t *testing.T) {
	latin1 := "User-agent: *\nDisallow: /caf\xe9\n" // "café" in Latin-1: 0xE9 alone is not UTF-8
	for _, tc := range []struct{ name, body string }{
		{"ascii", "User-agent: *\nDisallow: /x\n"},
		{"latin-1", latin1},
		{"bom, cr, nul", "\xef\xbb\xbfUser-agent: *\r\nDisallow: /x\x00\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw, got := roundTrip(t, &fetch.Result{Origin: "http://body.test", Outcome: fetch.Success, Effect: fetch.ObeyRules, Body: tc.body})
			if stored, w := raw["body"], base64.StdEncoding.EncodeToString([]byte(tc.body)); stored != w {
				t.Errorf("stored body %q; want base64 of its bytes, %q", stored, w)
			}
			if got.Body != tc.body {
				t.Errorf("read back %q; want %q", got.Body, tc.body)
			}
		})
	}
	// An entry as stored before Body was a string: base64 of the Latin-1 file above
	// (RFC 4648 §4).
	old := `{"origin":"http://latin1.test","outcome":"success","effect":"rules","body":"VXNlci1hZ2VudDogKgpEaXNhbGxvdzogL2NhZukK"}`
	got := new(fetch.Result)
	if err := json.Unmarshal([]byte(old), got); err != nil {
		t.Fatal(err)
	}
	if got.Body != latin1 {
		t.Errorf("entry stored before: Body %q; want %q", got.Body, latin1)
	}
}

// TestResultFirstHop: a result read back from a store holds its first hop's URL, the
// robots.txt URL, once, as the process that fetched did, and its size is estimated
// alike (the rules cache of a process that reads origins from a store counts them
// against its bound).
func TestResultFirstHop(t *testing.T) {
	u := "http://hop.test/robots.txt"
	res := &fetch.Result{Origin: "http://hop.test", RobotsURL: u, Outcome: fetch.Success, Effect: fetch.ObeyRules,
		Hops: []fetch.Hop{{URL: u, Status: 301}, {URL: "http://hop.test/elsewhere.txt", Status: 200}}, Body: "User-agent: *\nDisallow: /x\n"}
	_, got := roundTrip(t, res)
	if unsafe.StringData(got.Hops[0].URL) != unsafe.StringData(got.RobotsURL) {
		t.Errorf("read back: the first hop's URL %q is a string apart from RobotsURL %q; want one", got.Hops[0].URL, got.RobotsURL)
	}
	if a, b := res.MemSize(), got.MemSize(); a != b {
		t.Errorf("MemSize %d before a store, %d read back; want the same", a, b)
	}
}

func TestMemoryStoreHistory(t *testing.T) {
	fetchtest.TestHistory(t, fetch.NewMemoryStore(0))
}
