package serve

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/testenv"
)

// TestBatchHeld: what -batch-max-bytes counts for a file a batch looked up is the
// heap the file holds once the batch has decided and encoded its URLs (issue 29,
// item 4), within 0.75–1.25×, for files of many groups, of rules and of comments,
// in Google's reading and in another (parsed again).
func TestBatchHeld(t *testing.T) {
	var groups strings.Builder
	for i := 0; groups.Len() < 500<<10; i++ {
		fmt.Fprintf(&groups, "User-agent: bot%d\n", i)
		for j := range 50 {
			fmt.Fprintf(&groups, "Disallow: /p%d/*/q%d$\nAllow: /a%d/%d\n", j, i, j, i)
		}
	}
	files := map[string]string{
		"groups":   groups.String(),
		"star":     "User-agent: *\n" + strings.Repeat("Disallow: /a*b$\nAllow: /c/d\n", 500<<10/28),
		"comments": strings.Repeat("# a comment line of some length, as large files often have\n", 500<<10/60),
	}
	for name, body := range files {
		for _, dialect := range []robots.Dialect{robots.Google, robots.RFC9309} {
			t.Run(name+"/"+dialect.String(), func(t *testing.T) {
				srv := testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) })
				var d net.Dialer
				dial := func(ctx context.Context, network, _ string) (net.Conn, error) {
					return d.DialContext(ctx, network, srv.Listener.Addr().String())
				}
				s, err := New(Config{AllowPrivate: true, Fetch: fetch.Config{DialContext: dial, Store: fetch.NewMemoryStore(1), RulesMemory: 1 << 30}})
				if err != nil {
					t.Fatal(err)
				}
				c, err := s.crawlersOf([]string{"bot7", "Googlebot", "TestBot"}, false)
				if err != nil {
					t.Fatal(err)
				}
				// Sixteen origins, so that what one file holds stands out of the noise.
				const n = 16
				var kept []decider
				var counted int64
				before := heapNow()
				for i := range n {
					u := fmt.Sprintf("http://o%d.test/p1/x/q7", i)
					res, err := s.lookup(context.Background(), u)
					if err != nil {
						t.Fatal(err)
					}
					// What the batch does with it: decide, encode its origin object.
					dc := s.newDecider(res, dialect)
					for _, tokens := range c.tokens {
						dc.decide(tokens, u)
					}
					appendOrigin(nil, res, c, &[2]dayText{})
					kept = append(kept, dc)
					counted += batchHeld(res, u, c, dialect)
				}
				held := heapNow() - before
				runtime.KeepAlive(kept)
				ratio := float64(held) / float64(counted)
				t.Logf("heap %d KiB, counted %d KiB (%.2fx)", held>>10, counted>>10, ratio)
				if ratio < 0.75 || ratio > 1.25 {
					t.Errorf("the heap holds %.2fx what -batch-max-bytes counts; want within 0.75-1.25x", ratio)
				}
			})
		}
	}
}

func heapNow() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
