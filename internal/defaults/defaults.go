// Package defaults holds the one rule by which every Config and Limits of this module
// fills its fields: a number zero or below takes its default.
package defaults

// Or returns v when it is above zero, and def otherwise.
func Or[T ~int | ~int64](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}
