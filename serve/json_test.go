package serve

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
)

// The hand-written encoders must give what encoding/json reads back unchanged.
func TestAppendString(t *testing.T) {
	for _, s := range []string{"", "plain", `quote " and \ backslash`, "tab\tnl\ncr\r", "\x00\x1f", "é ü 日本", "\u2028\u2029", "bad \xff utf-8", "<script>&"} {
		t.Run(fmt.Sprintf("%q", s), func(t *testing.T) {
			var got string
			if err := json.Unmarshal(appendString(nil, s), &got); err != nil {
				t.Fatalf("%q: %v", s, err)
			}
			want := s
			if s == "bad \xff utf-8" {
				want = "bad \ufffd utf-8"
			}
			if got != want {
				t.Errorf("round trip of %q = %q", s, got)
			}
		})
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
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(appendTime(nil, tt.t)); got != tt.want {
				t.Errorf("appendTime(%v) = %s, want %s", tt.t, got, tt.want)
			}
		})
	}
}

// TestPlainPrefix compares the eight-bytes-at-a-time scan with a byte loop, at
// every position of every special byte.
func TestPlainPrefix(t *testing.T) {
	slow := func(s string) int {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
				return i
			}
		}
		return len(s)
	}
	base := "https://example.com/a/b?c=d&e=f~g"
	for _, c := range []byte{0, 0x1f, ' ', '!', '"', '#', '\\', ']', 0x7f, 0x80, 0xc3, 0xff} {
		t.Run(fmt.Sprintf("%#02x", c), func(t *testing.T) {
			for i := 0; i <= len(base); i++ {
				s := base[:i] + string([]byte{c}) + base[i:]
				if got, want := plainPrefix(s), slow(s); got != want {
					t.Errorf("plainPrefix(%q) = %d; want %d", s, got, want)
				}
			}
		})
	}
}

// TestOriginMemos: the memo answers what appendOrigin would, for the same fetch and
// agents only.
func TestOriginMemos(t *testing.T) {
	t0 := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	// A rule after each user-agent line: a user-agent line after a rule starts a new group (SPEC §4).
	rb := robots.Parse([]byte("User-agent: slowbot\nDisallow: /x\nCrawl-delay: 7\n\nUser-agent: *\nDisallow: /y\nCrawl-delay: 1\n"))
	res := &fetch.Result{Origin: "https://example.com", RobotsURL: "https://example.com/robots.txt",
		Outcome: fetch.Success, Effect: fetch.ObeyRules, Status: 200, Robots: rb,
		FetchedAt: t0, ExpiresAt: t0.Add(24 * time.Hour)}
	m := newOriginMemos()
	for _, tc := range []struct {
		name   string
		res    *fetch.Result
		agents []string
		want   string // expected crawl_delay and fetched_at, from the file and the result
	}{
		{"first", res, []string{"SlowBot"}, `"fetched_at":"2026-11-21T12:00:00Z","expires_at":"2026-11-22T12:00:00Z","crawl_delay":{"SlowBot":7}`},
		{"same again", res, []string{"SlowBot"}, `"crawl_delay":{"SlowBot":7}`},
		{"other agent", res, []string{"OtherBot"}, `"crawl_delay":{"OtherBot":1}`},
		{"refetched", &fetch.Result{Origin: res.Origin, RobotsURL: res.RobotsURL, Outcome: fetch.Unavailable,
			Effect: fetch.AllowAll, Status: 404, FetchedAt: t0.Add(time.Hour), ExpiresAt: t0.Add(25 * time.Hour)},
			[]string{"OtherBot"}, `"outcome":"unavailable","effect":"allow-all","status":404,"stale":false,"fetched_at":"2026-11-21T13:00:00Z","expires_at":"2026-11-22T13:00:00Z","crawl_delay":{"OtherBot":null}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := crawlerSet{tokens: [][]string{tc.agents}, names: tc.agents}
			got := string(m.get(tc.res, c))
			if direct := string(appendOrigin(nil, tc.res, c)); got != direct {
				t.Errorf("memo %s; appendOrigin %s", got, direct)
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("%s; want it to contain %s", got, tc.want)
			}
		})
	}
}
