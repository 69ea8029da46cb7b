package verify_test

import (
	"context"
	"net/netip"
	"strings"
	"testing"

	"github.com/gorobots/robots/verify"
)

// BenchmarkVerify measures Verify once the lists are loaded and DNS answers
// cached: no request leaves the process (TestFetchedList counts them). Run:
//
//	go test ./verify -run '^$' -bench Verify -benchmem
func BenchmarkVerify(b *testing.B) {
	dns := fakeDNS{ptr: map[string][]string{"66.249.70.1": {"crawl-66-249-70-1.googlebot.com."}},
		host: map[string][]netip.Addr{"crawl-66-249-70-1.googlebot.com": {netip.MustParseAddr("66.249.70.1")}}}
	v, err := verify.New(verify.Options{Lists: map[string]string{"Googlebot": "testdata/googlebot.json"}, Resolver: dns, Offline: true})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	cases := []struct {
		name string
		req  verify.Request
		want verify.Status
	}{
		{"range-hit", verify.Request{Addr: netip.MustParseAddr("66.249.66.1"), UserAgent: googlebotUA}, verify.Verified},
		{"dns-cached", verify.Request{Addr: netip.MustParseAddr("66.249.70.1"), UserAgent: googlebotUA}, verify.Verified},
		{"impostor-cached", verify.Request{Addr: netip.MustParseAddr("203.0.113.9"), UserAgent: googlebotUA}, verify.Impostor},
		{"browser", verify.Request{Addr: netip.MustParseAddr("203.0.113.9"), UserAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"}, verify.CannotTell},
		// Worst case: a User-Agent of the longest length read, all words.
		{"worst-ua", verify.Request{Addr: netip.MustParseAddr("203.0.113.9"), UserAgent: strings.Repeat("Abcdefg hijk/1 ", 300)}, verify.CannotTell},
	}
	for _, c := range cases {
		if got := v.Verify(ctx, c.req); got.Status != c.want {
			b.Fatalf("%s: %+v", c.name, got)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				v.Verify(ctx, c.req)
			}
		})
	}
}
