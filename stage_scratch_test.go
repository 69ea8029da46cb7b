package robots

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

var sinkStr string

func TestScratchStages(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "robots", "*.txt"))
	var bodies [][]byte
	total := 0
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if len(b) > DefaultMaxBytes {
			b = b[:DefaultMaxBytes]
		}
		bodies = append(bodies, b)
		total += len(b)
	}
	strs := make([]string, len(bodies))
	for i, b := range bodies {
		strs[i] = string(b)
	}
	measure := func(name string, f func()) {
		best := time.Hour
		for round := 0; round < 5; round++ {
			c0 := cpuNow()
			f()
			if c := cpuNow() - c0; c < best {
				best = c
			}
		}
		t.Logf("%-12s %8v  %5.0f MB/s", name, best, float64(total)/best.Seconds()/1e6)
	}
	measure("copy", func() {
		for _, b := range bodies {
			sinkStr = string(b)
		}
	})
	n := 0
	measure("scan-nop", func() {
		for _, s := range strs {
			scanLines(s, func(l *Line) bool { n++; return true })
		}
	})
	measure("parse", func() {
		for _, b := range bodies {
			Parse(b)
		}
	})
}
