package serve

import (
	"encoding/json"
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
		var want batchRequest
		wantErr := json.Unmarshal([]byte(body), &want)
		got, err := decodeBatch(body)
		if (err != nil) != (wantErr != nil) {
			t.Errorf("decodeBatch(%q): error %v; encoding/json says %v", body, err, wantErr)
			continue
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("decodeBatch(%q) = %#v; encoding/json reads %#v", body, got, want)
		}
	}
}

func FuzzDecodeBatch(f *testing.F) {
	f.Add(`{"agent":"Googlebot","urls":["https://example.com/a"]}`)
	f.Add(`{"agents":["a\u00e9"],"x":[1,{"y":null}],"urls":null}`)
	f.Fuzz(func(t *testing.T, body string) {
		var want batchRequest
		wantErr := json.Unmarshal([]byte(body), &want)
		got, err := decodeBatch(body)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("decodeBatch(%q): error %v; encoding/json says %v", body, err, wantErr)
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("decodeBatch(%q) = %#v; encoding/json reads %#v", body, got, want)
		}
	})
}
