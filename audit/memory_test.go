//go:build !race

package audit

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"
)

// TestMemoryFlat: an audit's memory does not grow with the number of URLs, and its
// report stays small. Ten times the URLs of the benchmark's site (20,000 then
// 200,000, for every major crawler) may not raise the peak heap by more than
// 16 MiB, nor the JSON report past 2 MB. (Not under the race detector, whose own
// memory would be measured.)
func TestMemoryFlat(t *testing.T) {
	base := serveBenchSite(t)
	peakFor := func(urls int) (uint64, int) {
		runtime.GC()
		stop := make(chan struct{})
		peak := peakHeap(stop)
		rep, err := Run(context.Background(), base, Config{Limits: Limits{URLs: urls}})
		close(stop)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Totals.URLs != urls {
			t.Fatalf("%d URLs read, want %d", rep.Totals.URLs, urls)
		}
		b, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		return <-peak, len(b)
	}
	small, smallJSON := peakFor(20000)
	large, largeJSON := peakFor(200000)
	t.Logf("peak heap %.1f MiB for 20,000 URLs, %.1f MiB for 200,000; JSON %d and %d bytes", float64(small)/(1<<20), float64(large)/(1<<20), smallJSON, largeJSON)
	if large > small+16<<20 {
		t.Errorf("peak heap grew from %d to %d bytes for ten times the URLs", small, large)
	}
	if largeJSON > 2e6 {
		t.Errorf("the report of 200,000 URLs is %d bytes of JSON, want at most 2 MB", largeJSON)
	}
}
