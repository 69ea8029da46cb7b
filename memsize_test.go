package robots_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/gorobots/robots"
)

// TestMemSize: the heap that parsed files hold, measured after collection, is
// within a quarter of what MemSize says, for files of every shape (a cache bounded
// by MemSize holds about its bound). Each file is decided on first, so that parts a
// Robots builds on first use are counted.
func TestMemSize(t *testing.T) {
	shapes := []struct {
		name  string
		files int
		body  func(i int) string
	}{
		{"rules", 20, func(i int) string {
			var b strings.Builder
			for b.Len() < 500<<10 {
				fmt.Fprintf(&b, "User-agent: bot%d\n", b.Len())
				for j := range 50 {
					fmt.Fprintf(&b, "Disallow: /p%d/*/q%d$\nAllow: /a%d/%d\n", j, i, j, i)
				}
			}
			return b.String()
		}},
		{"comments", 5000, func(i int) string {
			return strings.Repeat(fmt.Sprintf("# comment %d\n", i), 1000) + "User-agent: *\nDisallow: /x\n"
		}},
		{"small", 5000, func(i int) string {
			var b strings.Builder
			b.WriteString("User-agent: *\nDisallow: /admin/\nDisallow: /search?\nAllow: /search/about\n")
			for j := range 20 {
				fmt.Fprintf(&b, "User-agent: Bot%d\nDisallow: /x%d/\nCrawl-delay: 5\nnoindex: /y\n", j, i)
			}
			b.WriteString("Sitemap: https://example.com/sitemap.xml\n")
			return b.String()
		}},
	}
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			bodies := make([][]byte, sh.files)
			for i := range bodies {
				bodies[i] = []byte(sh.body(i))
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			kept := make([]*robots.Robots, len(bodies))
			for i, b := range bodies {
				kept[i] = robots.Parse(b)
				kept[i].Check("Bot3", "https://example.com/x1/a")
				kept[i].Check("Other", "https://example.com/admin/")
			}
			runtime.GC()
			runtime.GC() // the second frees Parse's pooled scratch
			runtime.ReadMemStats(&after)
			heap := int64(after.HeapAlloc) - int64(before.HeapAlloc) - int64(8*len(kept))
			var est int64
			for _, r := range kept {
				est += int64(r.MemSize())
			}
			runtime.KeepAlive(kept)
			runtime.KeepAlive(bodies)
			ratio := float64(heap) / float64(est)
			t.Logf("%d files: MemSize %d bytes, heap %d bytes (%.2f×)", len(kept), est, heap, ratio)
			if ratio < 0.75 || ratio > 1.25 {
				t.Errorf("%d files hold %d bytes of heap; MemSize says %d (%.2f×); want within a quarter", len(kept), heap, est, ratio)
			}
		})
	}
}
