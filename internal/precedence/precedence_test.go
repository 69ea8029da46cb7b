package precedence

import "testing"

// The cases are the examples of Google's page (SPEC.md §5) and RFC 9309 §2.2.2, plus the
// full tie that Google's matcher settles by the first line.
func TestOutranks(t *testing.T) {
	type rule struct {
		value string
		allow bool
		line  int
	}
	tests := []struct {
		name string
		a, b rule
		want bool // a decides over b
	}{
		{"longer allow over shorter disallow", rule{"/p", true, 1}, rule{"/", false, 2}, true},
		{"shorter allow under longer disallow", rule{"/page", true, 1}, rule{"/*.htm", false, 2}, false},
		{"allow wins a tie of length", rule{"/folder", true, 2}, rule{"/folder", false, 1}, true},
		{"disallow loses a tie of length", rule{"/*.ph", false, 1}, rule{"/page", true, 2}, false},
		{"equal rules: the first line", rule{"/a", false, 3}, rule{"/b", false, 5}, true},
		{"equal rules: not the later line", rule{"/a", true, 5}, rule{"/b", true, 3}, false},
		{"a rule does not outrank itself", rule{"/a", true, 3}, rule{"/a", true, 3}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := tt.a, tt.b
			if got := Outranks(len(a.value), a.allow, a.line, len(b.value), b.allow, b.line); got != tt.want {
				t.Errorf("Outranks(%+v, %+v) = %v, want %v", a, b, got, tt.want)
			}
			c := Compare(len(a.value), a.allow, len(b.value), b.allow)
			if r := Compare(len(b.value), b.allow, len(a.value), a.allow); c != -r {
				t.Errorf("Compare is not antisymmetric: %d, %d", c, r)
			}
		})
	}
}
