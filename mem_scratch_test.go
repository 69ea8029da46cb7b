package robots

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestScratchMemory(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "robots", "*.txt"))
	var bodies [][]byte
	total := 0
	for _, f := range files {
		b, _ := os.ReadFile(f)
		bodies = append(bodies, b)
		total += len(b)
	}
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	keep := make([]*Robots, len(bodies))
	for i, b := range bodies {
		keep[i] = Parse(b)
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	t.Logf("raw %d, parsed %d, ratio %.2f", total, m1.HeapAlloc-m0.HeapAlloc, float64(m1.HeapAlloc-m0.HeapAlloc)/float64(total))
	runtime.KeepAlive(keep)
}
