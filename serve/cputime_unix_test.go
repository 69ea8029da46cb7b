//go:build unix

package serve

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user and system) used so far by the whole process,
// garbage collector included.
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
