package robots

// RaceEnabled tells the external tests (package robots_test) whether the race detector
// runs: budget_test.go counts allocations only without it.
const RaceEnabled = raceEnabled
