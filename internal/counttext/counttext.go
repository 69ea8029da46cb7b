// Package counttext writes counts for people, as the command's text reports and the
// service's pages show them: "1,204", "1 URL", "2,048 URLs". It is the one home of
// that wording, so that "robots audit" and the tester say the same numbers alike.
package counttext

import "strconv"

// Thousands writes n with a comma between each group of three digits: 1,204.
func Thousands(n int) string {
	if n < 0 {
		return "-" + Thousands(-n)
	}
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Plural writes n (Thousands) and the word for that many: one for 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Thousands(n) + " " + many
}
