package counttext

import "testing"

func TestThousands(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{
		{0, "0"},
		{7, "7"},
		{999, "999"},
		{1000, "1,000"},
		{1204, "1,204"},
		{50000, "50,000"},
		{512000, "512,000"},
		{1000000, "1,000,000"},
		{1234567, "1,234,567"},
		{-1204, "-1,204"},
	} {
		if got := Thousands(tc.n); got != tc.want {
			t.Errorf("Thousands(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestPlural(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{
		{0, "0 URLs"},
		{1, "1 URL"},
		{2, "2 URLs"},
		{2048, "2,048 URLs"},
	} {
		if got := Plural(tc.n, "URL", "URLs"); got != tc.want {
			t.Errorf("Plural(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
