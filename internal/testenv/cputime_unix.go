//go:build unix

package testenv

import (
	"syscall"
	"time"
)

// CPUTime returns the CPU time (user and system) used so far by the whole process,
// garbage collector included, and whether the system reports it.
func CPUTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
