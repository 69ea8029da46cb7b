package verify_test

import (
	"context"
	"fmt"
	"net/netip"

	"github.com/gorobots/robots/verify"
)

// Verifying offline: Google's range list read from a local copy, reverse DNS off.
// An address in the list is verified; one outside it cannot be told apart from a
// Googlebot the list does not hold yet without DNS, so it is not called an
// impostor.
func Example() {
	v, err := verify.New(verify.Options{
		Lists:   map[string]string{"Googlebot": "testdata/googlebot.json"},
		Offline: true,
		NoDNS:   true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	ua := "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	for _, addr := range []string{"66.249.66.1", "203.0.113.9"} {
		r := v.Verify(context.Background(), verify.Request{Addr: netip.MustParseAddr(addr), UserAgent: ua})
		fmt.Println(addr, r.Crawler, r.Status, r.Method)
	}
	// Output:
	// 66.249.66.1 Googlebot verified ip-range
	// 203.0.113.9 Googlebot cannot-tell
}
