package testenv

import (
	"testing"
	"time"
)

// WaitTimeout bounds WaitFor: long enough for a loaded machine, short enough that a
// broken test ends by itself.
const WaitTimeout = 5 * time.Second

// WaitFor polls cond until it holds, failing tb after WaitTimeout. It waits for a
// state (a request arrived, a fetch queued), never asserts how long that took.
func WaitFor(tb testing.TB, cond func() bool) {
	tb.Helper()
	for deadline := time.Now().Add(WaitTimeout); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	tb.Fatalf("condition not met within %v", WaitTimeout)
}
