package serve

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// TestDecodeBatch: the hand decoder reads what encoding/json reads into
// batchRequest, and refuses what it refuses.
func TestDecodeBatch(t *testing.T) {
	for _, body := range []string{
		`{"agent":"Googlebot","urls":["https://example.com/a","http://x.test/b?c=d"]}`,
		` { "AGENT" : "a" , "Agents":["b","c"], "urls":[] } `,
		`{"agents":null,"urls":null,"agent":null}`,
		`{"urls":["a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00\ud800x\udc00"]}`,
		"{\"urls\":[\"\xff\xfe ok \xe2\x82\xac\"]}",
		`{"urls":["a",null,"b"]}`,
		`{"other":{"x":[1,-2.5e+3,true,false,null,{"y":"z"}]},"urls":["u"]}`,
		`{"urls":["first"],"urls":["second"]}`,
		`{}`,
		`null`,
		`{"urls":[1]}`,
		`{"agent":["x"]}`,
		`{"urls":"x"}`,
		`{"urls":["a",]}`,
		`{"urls":["a"]`,
		`{"urls":["a\x"]}`,
		"{\"urls\":[\"a\x01\"]}",
		`{"n":01}`,
		`{"n":-}`,
		`{"n":1.}`,
		`{"n":tru}`,
		`{urls:[]}`,
		`[]`,
		``,
		`{"urls":["a"]} trailing`,
	} {
		t.Run(fmt.Sprintf("%q", body), func(t *testing.T) { compareDecode(t, body) })
	}
}

// compareDecode checks that decodeBatch reads body as encoding/json reads it into
// batchRequest, or refuses it as encoding/json does.
func compareDecode(t *testing.T, body string) {
	t.Helper()
	var want batchRequest
	wantErr := json.Unmarshal([]byte(body), &want)
	got, err := decodeBatch(body)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("decodeBatch(%q): error %v; encoding/json says %v", body, err, wantErr)
	}
	if err == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("decodeBatch(%q) = %#v; encoding/json reads %#v", body, got, want)
	}
}

func FuzzDecodeBatch(f *testing.F) {
	f.Add(`{"agent":"Googlebot","urls":["https://example.com/a"]}`)
	f.Add(`{"agents":["a\u00e9"],"x":[1,{"y":null}],"urls":null}`)
	f.Fuzz(compareDecode)
}

// TestDecodeBatchAllocations: what the comment at the top of batchjson.go says —
// plain strings cost nothing whatever their number, each escaped string costs two
// allocations (a Go client's '&' arrives as \u0026).
func TestDecodeBatchAllocations(t *testing.T) {
	body := func(n int, url string) string {
		b := `{"agent":"Googlebot","urls":[`
		for i := range n {
			if i > 0 {
				b += ","
			}
			b += `"` + url + `"`
		}
		return b + `]}`
	}
	allocs := func(s string) float64 {
		return testing.AllocsPerRun(20, func() {
			if _, err := decodeBatch(s); err != nil {
				t.Fatal(err)
			}
		})
	}
	plain1, plain100 := allocs(body(1, "https://example.com/a?b=c&d=e")), allocs(body(100, "https://example.com/a?b=c&d=e"))
	esc1, esc100 := allocs(body(1, `https://example.com/a?b=c\u0026d=e`)), allocs(body(100, `https://example.com/a?b=c\u0026d=e`))
	// The slice of URLs grows by appending: a handful of allocations between 1 and 100.
	const growth = 10
	if plain100 > plain1+growth {
		t.Errorf("100 plain URLs: %v allocations, 1: %v; want at most %d more", plain100, plain1, growth)
	}
	if got := esc100 - plain100; got != 200 {
		t.Errorf("100 escaped URLs: %v allocations more than 100 plain ones; want two each (200)", got)
	}
	if got := esc1 - plain1; got != 2 {
		t.Errorf("1 escaped URL: %v allocations more than a plain one; want 2", got)
	}
}
