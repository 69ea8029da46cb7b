//go:build !unix

package robots_test

import "time"

func cpuTime() (time.Duration, bool) { return 0, false }
