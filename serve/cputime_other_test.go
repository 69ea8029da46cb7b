//go:build !unix

package serve

import "time"

func cpuTime() (time.Duration, bool) { return 0, false }
