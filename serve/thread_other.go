//go:build !linux

package serve

import "time"

// cpuClock stands for a thread's CPU clock where none can be read: the wall clock
// since the work began, which the thread's CPU time never exceeds, so that a budget
// measured with it is never passed (and is spent sooner under load).
type cpuClock struct{ start time.Time }

func threadClock() cpuClock { return cpuClock{start: time.Now()} }

func (c cpuClock) cpu() time.Duration { return time.Since(c.start) }
