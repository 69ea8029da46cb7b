//go:build !race

package fetch_test

const raceEnabled = false
