package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/testenv"
)

// TestBatchBudget: a batch of 300 distinct origins, each serving 500 KiB (reached
// through a test dialer: every host is one loopback server), holds at most
// BatchMaxBytes of robots.txt files (issue 14, item 4). Past the budget its other
// origins are not fetched at all, and their URLs answer 413 naming the limit; the
// heap stays bounded (sampled during the batch, loosely), where without the budget
// the batch held every file (a batch of 10,000 such origins peaked at 5.19 GB).
func TestBatchBudget(t *testing.T) {
	const (
		budget  = 8 << 20
		origins = 300
	)
	body := strings.Repeat("# a comment line of some length, as large files often have\n", 500<<10/60)
	var fetched atomic.Int64
	srv := testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		fetched.Add(1)
		w.Write([]byte(body))
	})
	var d net.Dialer
	dial := func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, srv.Listener.Addr().String())
	}
	s, reg := start(t, Config{AllowPrivate: true, BatchMaxBytes: budget, MaxURLs: origins,
		Fetch: fetch.Config{DialContext: dial, Store: fetch.NewMemoryStore(1 << 20), RulesMemory: 8 << 20}})

	urls := make([]string, origins)
	for i := range urls {
		urls[i] = fmt.Sprintf("http://o%d.test/page", i)
	}
	req, _ := json.Marshal(map[string]any{"agent": "TestBot", "urls": urls})

	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var ms runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
		}
	}()
	resp, err := http.Post("http://"+s.Addr()+"/v1/check", "application/json", strings.NewReader(string(req)))
	if err != nil {
		t.Fatal(err)
	}
	var ans budgetAnswer
	code := decode(t, resp, &ans)
	close(stop)
	<-sampled

	if code != http.StatusOK || len(ans.Results) != origins {
		t.Fatalf("batch: %d with %d results; want 200 and %d", code, len(ans.Results), origins)
	}
	decided, over := 0, 0
	for _, r := range ans.Results {
		switch {
		case r.Allowed != nil:
			decided++
		case r.ErrorStatus == http.StatusRequestEntityTooLarge && strings.Contains(r.Error, "-batch-max-bytes"):
			over++
		default:
			t.Errorf("%s: %+v; want a verdict, or 413 naming -batch-max-bytes", r.URL, r)
		}
	}
	// Each result holds its 500 KiB body and a little more: the budget holds
	// sixteen, and each of the BatchFetches workers may finish one more.
	perFile := int64(len(body))
	most := int(budget/perFile) + DefaultBatchFetches
	if n := int(fetched.Load()); n > most || decided != n || over != origins-n {
		t.Errorf("%d origins fetched, %d decided, %d over the budget; want at most %d fetched (8 MiB of 500 KiB files "+
			"and one per worker), each decided, and the other %d answered 413", n, decided, over, most, origins-n)
	}
	if n := counter(t, reg, "robots_batch_origins_over_budget_total"); int(n) != over {
		t.Errorf("robots_batch_origins_over_budget_total = %v; want %d", n, over)
	}
	// Loosely: the files held (budget), the rules cache's 8 MiB, the answer, and
	// garbage not yet collected; without the budget the heap peaked 216 MiB higher.
	grew := int64(peak.Load()) - int64(base)
	t.Logf("%d origins fetched of %d; heap peaked %d MiB above its start", fetched.Load(), origins, grew>>20)
	if grew > 100<<20 {
		t.Errorf("heap grew by %d MiB during the batch; want well under the 216 MiB it reached holding every file", grew>>20)
	}
}
