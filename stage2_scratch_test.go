package robots

import (
	"os"
	"path/filepath"
	"testing"
)

func BenchmarkScratchParseOnly(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "robots", "*.txt"))
	var bodies [][]byte
	for _, f := range files {
		x, _ := os.ReadFile(f)
		bodies = append(bodies, x)
	}
	b.ResetTimer()
	for range b.N {
		for _, x := range bodies {
			Parse(x)
		}
	}
}
