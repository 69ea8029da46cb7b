package serve

import (
	"encoding/json"
	"testing"
	"time"
)

// The hand-written encoders must give what encoding/json reads back unchanged.
func TestAppendString(t *testing.T) {
	for _, s := range []string{"", "plain", `quote " and \ backslash`, "tab\tnl\ncr\r", "\x00\x1f", "é ü 日本", "\u2028\u2029", "bad \xff utf-8", "<script>&"} {
		var got string
		if err := json.Unmarshal(appendString(nil, s), &got); err != nil {
			t.Errorf("%q: %v", s, err)
			continue
		}
		want := s
		if s == "bad \xff utf-8" {
			want = "bad \ufffd utf-8"
		}
		if got != want {
			t.Errorf("round trip of %q = %q", s, got)
		}
	}
}

func TestAppendTime(t *testing.T) {
	for _, tt := range []struct {
		t    time.Time
		want string
	}{
		{time.Time{}, "null"},
		{time.Date(2026, 11, 21, 9, 5, 7, 999, time.UTC), `"2026-11-21T09:05:07Z"`},
		{time.Date(2026, 1, 2, 23, 59, 59, 0, time.FixedZone("x", 3600)), `"2026-01-02T22:59:59Z"`},
	} {
		if got := string(appendTime(nil, tt.t)); got != tt.want {
			t.Errorf("appendTime(%v) = %s, want %s", tt.t, got, tt.want)
		}
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
		for i := 0; i <= len(base); i++ {
			s := base[:i] + string([]byte{c}) + base[i:]
			if got, want := plainPrefix(s), slow(s); got != want {
				t.Errorf("plainPrefix(%q) = %d; want %d", s, got, want)
			}
		}
	}
}
