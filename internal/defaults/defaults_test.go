package defaults

import (
	"testing"
	"time"
)

func TestOr(t *testing.T) {
	for _, tc := range []struct {
		name         string
		v, def, want int
	}{
		{"set", 3, 7, 3},
		{"zero", 0, 7, 7},
		{"negative", -1, 7, 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Or(tc.v, tc.def); got != tc.want {
				t.Errorf("Or(%d, %d) = %d; want %d", tc.v, tc.def, got, tc.want)
			}
		})
	}
	if got := Or(time.Duration(0), time.Second); got != time.Second {
		t.Errorf("Or(0, 1s) = %v; want 1s", got)
	}
}
