//go:build race

package robots

// raceEnabled: the race detector slows the corpus sweeps tenfold; they sample under it.
const raceEnabled = true
