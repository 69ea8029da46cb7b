package tdmrep

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

// The examples of the TDMRep report (W3C Community Group final report, "TDM
// Reservation Protocol (TDMRep)", github.com/w3c/tdm-reservation-protocol spec/index.html
// as of 2025-12-07), copied with the report's wording of what they mean.

// "a rightsholder wants to "opt-out" for every file present on a Web server"
const optOutAll = `[
  {
  "location": "/",
  "tdm-reservation": 1
  }
]`

// "The rightsholder of the first group of files (PDF documents) wants to express that
// TDM rights are reserved on these files with no way to acquire a TDM License. The
// rightsholder of the second group of files (html pages) wants to express that TDM
// rights are reserved with a TDM Policy. TDM rights are not reserved for all JPEG
// images contained in the third group."
const threeGroups = `[
  {
  "location": "/directory-a/",
  "tdm-reservation": 1
  },
  {
  "location": "/directory-b/html/",
  "tdm-reservation": 1,
  "tdm-policy":"https://provider.com/policies/policy.json"
  },
  {
  "location": "/directory-b/images/*.jpg",
  "tdm-reservation": 0
  }
]`

func TestFileExamples(t *testing.T) {
	tests := []struct {
		file, url, want string
	}{
		{optOutAll, "https://provider.com/any/thing.html", "reserved (tdmrep.json rule 1 (/))"},
		{threeGroups, "https://provider.com/directory-a/paper.pdf", "reserved (tdmrep.json rule 1 (/directory-a/))"},
		{threeGroups, "https://provider.com/directory-b/html/page.html", "reserved, policy https://provider.com/policies/policy.json (tdmrep.json rule 2 (/directory-b/html/))"},
		{threeGroups, "https://provider.com/directory-b/images/photo.jpg", "not reserved (tdmrep.json rule 3 (/directory-b/images/*.jpg))"},
		// "If no match is found, a TDM Agent MUST consider that tdm-reservation is unset".
		{threeGroups, "https://provider.com/directory-b/images/photo.png", "unset"},
		{threeGroups, "https://provider.com/", "unset"},
	}
	for _, tt := range tests {
		f, err := ParseFile(strings.NewReader(tt.file))
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Lookup(tt.url).String(); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.url, got, tt.want)
		}
	}
}

// TestFirstInSequence: "The most specific match is the first in sequence"; a value
// other than 0 and 1 is a protocol error, read as unset.
func TestFirstInSequence(t *testing.T) {
	f, err := ParseFile(strings.NewReader(`[{"location":"/a/","tdm-reservation":0},{"location":"/a/b/","tdm-reservation":1},
		{"location":"/c/","tdm-reservation":2,"tdm-policy":"https://p.example/x"},{"location":"/d/","tdm-reservation":"1"},{"location":"/e/"}]`))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Lookup("https://example.com/a/b/c").String(); got != "not reserved (tdmrep.json rule 1 (/a/))" {
		t.Errorf("first in sequence: %s", got)
	}
	for _, u := range []string{"https://example.com/c/x", "https://example.com/d/x", "https://example.com/e/x"} {
		r := f.Lookup(u)
		if r.Reserved != nil || len(r.Errors) != 1 {
			t.Errorf("%s: %+v, want unset with a protocol error", u, r)
		}
	}
}

// TestHeaderAndMeta: the report's header examples and its HTML example, and the
// processing priority: header over file, meta over header; absence resets nothing.
func TestHeaderAndMeta(t *testing.T) {
	h := http.Header{}
	h.Set("tdm-reservation", "1")
	if got := FromHeader(h).String(); got != "reserved (header)" {
		t.Errorf("header: %s", got)
	}
	h.Set("tdm-policy", "https://provider.com/policies/policy.json")
	if got := FromHeader(h).String(); got != "reserved, policy https://provider.com/policies/policy.json (header)" {
		t.Errorf("header with policy: %s", got)
	}
	html := `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="tdm-reservation" content="1">
    <meta name="tdm-policy" content="https://provider.com/policies/policy.json">
    <title>Document title</title>
  </head>
  <body>
  </body>
</html>`
	meta, err := FromHTML(strings.NewReader(html))
	if err != nil || meta.String() != "reserved, policy https://provider.com/policies/policy.json (meta)" {
		t.Errorf("meta: %s, %v", meta, err)
	}
	f, _ := ParseFile(strings.NewReader(threeGroups))
	file := f.Lookup("https://provider.com/directory-b/images/photo.jpg") // not reserved
	open := http.Header{"Tdm-Reservation": {"0"}}
	tests := []struct {
		steps []Reservation
		want  string
	}{
		{[]Reservation{file, FromHeader(h)}, "reserved, policy https://provider.com/policies/policy.json (header)"},
		{[]Reservation{file, {}, {}}, "not reserved (tdmrep.json rule 3 (/directory-b/images/*.jpg))"},
		{[]Reservation{FromHeader(h), FromHeader(open)}, "not reserved (header)"},
		{[]Reservation{file, FromHeader(open), meta}, "reserved, policy https://provider.com/policies/policy.json (meta)"},
		{[]Reservation{file, FromHeader(http.Header{"Tdm-Reservation": {"yes"}})}, "not reserved (tdmrep.json rule 3 (/directory-b/images/*.jpg))"},
	}
	for i, tt := range tests {
		if got := Resolve(tt.steps...).String(); got != tt.want {
			t.Errorf("%d: %s, want %s", i, got, tt.want)
		}
	}
	if r := Resolve(FromHeader(http.Header{"Tdm-Reservation": {"yes"}})); r.Reserved != nil || len(r.Errors) != 1 {
		t.Errorf("protocol error: %+v", r)
	}
}

func TestBadFiles(t *testing.T) {
	for _, in := range []string{`{"location":"/","tdm-reservation":1}`, `not json`, `[{"tdm-reservation":1}]`, "[" + strings.Repeat(" ", MaxBytes) + "]"} {
		if _, err := ParseFile(strings.NewReader(in)); !errors.Is(err, ErrNotTDMRep) {
			t.Errorf("%.40q: %v, want ErrNotTDMRep", in, err)
		}
	}
}
