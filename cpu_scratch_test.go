package robots

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestScratchCPU(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "robots", "*.txt"))
	var bodies [][]byte
	total := 0
	for _, f := range files {
		b, _ := os.ReadFile(f)
		bodies = append(bodies, b)
		total += len(b)
	}
	for round := 0; round < 5; round++ {
		c0 := cpuNow()
		for _, b := range bodies {
			Parse(b)
		}
		c := cpuNow() - c0
		t.Logf("parse: %v cpu, %.0f MB/s cpu", c, float64(total)/c.Seconds()/1e6)
	}
}
