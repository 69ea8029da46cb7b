//go:build !unix

package testenv

import "time"

// CPUTime returns false: this system does not report the process's CPU time.
func CPUTime() (time.Duration, bool) { return 0, false }
