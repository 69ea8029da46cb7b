package serve

import (
	"time"

	"golang.org/x/sys/unix"
)

// cpuClock reads the CPU time of one thread.
type cpuClock struct{ id int32 }

// threadClock returns the clock of the calling thread, which the caller holds
// (runtime.LockOSThread). Another goroutine may read it: Linux names a thread's CPU
// clock by its id (the clock id clock_getcpuclockid gives: MAKE_THREAD_CPUCLOCK, the
// thread id complemented and shifted, CPUCLOCK_SCHED and the per-thread bit).
func threadClock() cpuClock {
	return cpuClock{id: int32(^unix.Gettid()<<3 | 6)}
}

// cpu returns the thread's CPU time so far; 0 when the clock cannot be read (the
// thread is gone: its work is over).
func (c cpuClock) cpu() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(c.id, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
