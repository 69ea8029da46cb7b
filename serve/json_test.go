package serve

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
)

// The tests of the hand-written JSON of the API: the decoder of batch requests
// (batchjson.go) against encoding/json, then the writers of answers (json.go).

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
// batchRequest, unknown fields refused (as POST /v1/audit refuses them), or
// refuses it as encoding/json does.
func compareDecode(t *testing.T, body string) {
	t.Helper()
	var want batchRequest
	dec := json.NewDecoder(strings.NewReader(body))
	dec.DisallowUnknownFields()
	wantErr := dec.Decode(&want)
	if wantErr == nil {
		if err := dec.Decode(new(json.RawMessage)); err != io.EOF {
			wantErr = fmt.Errorf("trailing data: %v", err) // as json.Unmarshal refuses it
		}
	}
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

func TestAppendTime(t *testing.T) {
	for _, tt := range []struct {
		name string
		t    time.Time
		want string
	}{
		{"zero", time.Time{}, "null"},
		{"UTC, nanoseconds dropped", time.Date(2026, 11, 21, 9, 5, 7, 999, time.UTC), `"2026-11-21T09:05:07Z"`},
		{"other zone, in UTC", time.Date(2026, 1, 2, 23, 59, 59, 0, time.FixedZone("x", 3600)), `"2026-01-02T22:59:59Z"`},
		{"Unix epoch", time.Unix(0, 0), `"1970-01-01T00:00:00Z"`},
		{"before the epoch", time.Date(1969, 12, 31, 23, 59, 59, 0, time.UTC), `"1969-12-31T23:59:59Z"`},
		{"leap day", time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC), `"2024-02-29T12:00:00Z"`},
		{"leap day of a 400th year", time.Date(2000, 2, 29, 0, 0, 0, 0, time.UTC), `"2000-02-29T00:00:00Z"`},
		{"no leap day in 2100", time.Date(2100, 2, 28, 0, 0, 0, 0, time.UTC).Add(24 * time.Hour), `"2100-03-01T00:00:00Z"`},
		{"last day of a year", time.Date(2026, 12, 31, 23, 59, 59, 0, time.UTC), `"2026-12-31T23:59:59Z"`},
		{"last second of four-digit years", time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC), `"9999-12-31T23:59:59Z"`},
		{"year 10000", time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), `"10000-01-01T00:00:00Z"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(appendTime(nil, tt.t, &dayText{})); got != tt.want {
				t.Errorf("appendTime(%v) = %s, want %s", tt.t, got, tt.want)
			}
		})
	}
}

// TestAppendTimeDays compares appendTime with the standard library's RFC 3339 at a
// time of every day from 1970 to 2500, the date worked out afresh and after the day
// before's (as the origin objects of an answer share their dates).
func TestAppendTimeDays(t *testing.T) {
	var last dayText
	for d := time.Date(1970, 1, 1, 13, 14, 15, 0, time.UTC); d.Year() < 2500; d = d.Add(24 * time.Hour) {
		want := `"` + d.Format(time.RFC3339) + `"`
		if got := string(appendTime(nil, d, &dayText{})); got != want {
			t.Fatalf("appendTime(%v) = %s, want %s", d, got, want)
		}
		if got := string(appendTime(nil, d, &last)); got != want {
			t.Fatalf("appendTime(%v) after the day before = %s, want %s", d, got, want)
		}
	}
	// And the time of day: every 7th second of two days, across a year's end, with
	// one date held (written again for each second of a day, worked out at each new
	// day), and going back and forth between the days.
	var held dayText
	for d := time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC); d.Year() < 2027 || d.YearDay() < 2; d = d.Add(7 * time.Second) {
		want := `"` + d.Format(time.RFC3339) + `"`
		if got := string(appendTime(nil, d, &held)); got != want {
			t.Fatalf("appendTime(%v) = %s, want %s", d, got, want)
		}
		other := d.Add(-24 * time.Hour)
		if got, want := string(appendTime(nil, other, &held)), `"`+other.Format(time.RFC3339)+`"`; got != want {
			t.Fatalf("appendTime(%v) after %v = %s, want %s", other, d, got, want)
		}
	}
}

// TestAppendOrigin: an origin object has the fields of the API's origin, the
// crawl-delay of each crawler asked about as its file gives it, and is written
// without allocating (it is written for every origin of every answer).
func TestAppendOrigin(t *testing.T) {
	t0 := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	// A rule after each user-agent line: a user-agent line after a rule starts a new group (SPEC §4).
	rb := robots.Parse([]byte("User-agent: slowbot\nDisallow: /x\nCrawl-delay: 7\n\nUser-agent: *\nDisallow: /y\nCrawl-delay: 1\n"))
	res := &fetch.Result{Origin: "https://example.com", RobotsURL: "https://example.com/robots.txt",
		Outcome: fetch.Success, Effect: fetch.ObeyRules, Status: 200, Robots: rb,
		FetchedAt: t0, ExpiresAt: t0.Add(24 * time.Hour)}
	for _, tc := range []struct {
		name   string
		res    *fetch.Result
		agents []string
		want   string // expected crawl_delay and fetched_at, from the file and the result
	}{
		{"one crawler", res, []string{"SlowBot"}, `{"origin":"https://example.com","robots_url":"https://example.com/robots.txt","outcome":"success","effect":"rules","status":200,"stale":false,"fetched_at":"2026-11-21T12:00:00Z","expires_at":"2026-11-22T12:00:00Z","crawl_delay":{"SlowBot":7}}`},
		{"other agent", res, []string{"OtherBot"}, `"crawl_delay":{"OtherBot":1}`},
		{"refetched", &fetch.Result{Origin: res.Origin, RobotsURL: res.RobotsURL, Outcome: fetch.Unavailable,
			Effect: fetch.AllowAll, Status: 404, FetchedAt: t0.Add(time.Hour), ExpiresAt: t0.Add(25 * time.Hour)},
			[]string{"OtherBot"}, `"outcome":"unavailable","effect":"allow-all","status":404,"stale":false,"fetched_at":"2026-11-21T13:00:00Z","expires_at":"2026-11-22T13:00:00Z","crawl_delay":{"OtherBot":null}`},
		{"two crawlers", res, []string{"slowbot", "xbot"}, `"crawl_delay":{"slowbot":7,"xbot":1}`},
		{"no answer, stale", &fetch.Result{Origin: res.Origin, RobotsURL: res.RobotsURL, Outcome: fetch.Unreachable,
			Effect: fetch.DisallowAll, Stale: true, FetchedAt: t0, ExpiresAt: t0.Add(time.Minute)},
			[]string{"OtherBot"}, `{"origin":"https://example.com","robots_url":"https://example.com/robots.txt","outcome":"unreachable","effect":"disallow-all","status":0,"stale":true,"fetched_at":"2026-11-21T12:00:00Z","expires_at":"2026-11-21T12:01:00Z","crawl_delay":{"OtherBot":null}}`},
		{"strings to escape", &fetch.Result{Origin: "https://ex\"ample.com", RobotsURL: "https://ex\"ample.com/robots.txt",
			Outcome: fetch.Success, Effect: fetch.AllowAll, Status: 1000},
			[]string{"OtherBot"}, `{"origin":"https://ex\"ample.com","robots_url":"https://ex\"ample.com/robots.txt","outcome":"success","effect":"allow-all","status":1000,"stale":false,"fetched_at":null,"expires_at":null,`},
		{"robots_url of another origin", &fetch.Result{Origin: "https://a.example", RobotsURL: "https://b.example/robots.txt",
			Outcome: fetch.Success, Effect: fetch.AllowAll, Status: 99},
			[]string{"OtherBot"}, `{"origin":"https://a.example","robots_url":"https://b.example/robots.txt","outcome":"success","effect":"allow-all","status":99,`},
		{"origin longer than robots_url", &fetch.Result{Origin: "https://a.example", RobotsURL: "https://a.ex",
			Outcome: fetch.Success, Effect: fetch.AllowAll, Status: 100},
			[]string{"OtherBot"}, `{"origin":"https://a.example","robots_url":"https://a.ex","outcome":"success","effect":"allow-all","status":100,`},
		{"names split otherwise", res, []string{"slowbotx", "bot"}, `"crawl_delay":{"slowbotx":1,"bot":1}`},
		{"one of them", res, []string{"slowbot"}, `"crawl_delay":{"slowbot":7}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := crawlerSet{names: tc.agents}
			for i := range tc.agents {
				c.tokens = append(c.tokens, tc.agents[i:i+1])
			}
			got := string(appendOrigin(nil, tc.res, c, &[2]dayText{}))
			if !strings.Contains(got, tc.want) {
				t.Errorf("%s; want it to contain %s", got, tc.want)
			}
			b := make([]byte, 0, 1024)
			var days [2]dayText
			if n := testing.AllocsPerRun(10, func() { appendOrigin(b[:0], tc.res, c, &days) }); n != 0 {
				t.Errorf("appendOrigin allocates %v times; want 0", n)
			}
		})
	}
}
