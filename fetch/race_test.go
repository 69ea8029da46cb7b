//go:build race

package fetch_test

// raceEnabled: the race detector slows parsing tenfold; heavy tests do less under it.
const raceEnabled = true
