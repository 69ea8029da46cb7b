// Package precedence holds the rule that decides between the rules of a group that all
// match a URL (RFC 9309 §2.2.2 and Google's matcher): the rule with the longest value
// wins; of equally long ones, an allow rule wins; of equal ones, the first in the file.
// The root package's decisions and lint's analysis both use it, so the rule is written
// once.
package precedence

// Compare orders two rules that match the same URL, the first of value length n and
// allow, the second of m and allowM: positive when the first decides over the second,
// negative when the second does, and zero when neither does by length or kind, when the
// one on the earlier line decides.
func Compare(n int, allow bool, m int, allowM bool) int {
	switch {
	case n != m:
		return n - m
	case allow != allowM:
		if allow {
			return 1
		}
		return -1
	}
	return 0
}

// Outranks reports whether a rule of value length n, allow and line decides over one of
// m, allowM and lineM when both match.
func Outranks(n int, allow bool, line int, m int, allowM bool, lineM int) bool {
	if c := Compare(n, allow, m, allowM); c != 0 {
		return c > 0
	}
	return line < lineM
}
