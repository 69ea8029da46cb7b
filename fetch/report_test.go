package fetch_test

import (
	"testing"

	"github.com/gorobots/robots/fetch"
)

// TestDescribe covers the rows of SPEC §2's outcome table as people read them: a
// 2xx obeys the file, a 4xx allows every URL, a 5xx or a network failure (no status
// at all) disallows every URL.
func TestDescribe(t *testing.T) {
	tests := []struct {
		name    string
		outcome fetch.Outcome
		status  int
		effect  fetch.Effect
		want    string
	}{
		{"2xx", fetch.Success, 200, fetch.ObeyRules, "success (HTTP 200)"},
		{"4xx", fetch.Unavailable, 404, fetch.AllowAll, "unavailable (HTTP 404): every URL allowed"},
		{"5xx", fetch.Unreachable, 503, fetch.DisallowAll, "unreachable (HTTP 503): every URL disallowed"},
		{"no answer", fetch.Unreachable, 0, fetch.DisallowAll, "unreachable: every URL disallowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fetch.Describe(tt.outcome, tt.status, tt.effect); got != tt.want {
				t.Errorf("Describe(%v, %d, %v) = %q, want %q", tt.outcome, tt.status, tt.effect, got, tt.want)
			}
		})
	}
}
