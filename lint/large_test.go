package lint

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// BenchmarkLargeFiles lints files of 4,000 and 28,000 rules, literal and "/*xxxxx", the
// larger within robots.txt's 500 KiB: ns/rule staying flat as the rules grow is lint
// being linear in them (before issue 33, 28,000 wildcard rules cost 2.6 s of CPU and
// 36,000 literal ones 1.6 s: the "*" group's rules were each compared with all before).
//
//	go test -run '^$' -bench LargeFiles ./lint
func BenchmarkLargeFiles(b *testing.B) {
	for _, wild := range []bool{false, true} {
		for _, n := range []int{4000, 28000} {
			rng := rand.New(rand.NewPCG(33, uint64(n)))
			var body strings.Builder
			body.WriteString("User-agent: *\n")
			for range n {
				v := make([]byte, 5)
				for i := range v {
					v[i] = "abcdefghijklmnopqrstuvwxyz0123456789"[rng.IntN(36)]
				}
				star := ""
				if wild {
					star = "*"
				}
				fmt.Fprintf(&body, "Disallow: /%s%s\n", star, v)
			}
			data := []byte(body.String())
			b.Run(fmt.Sprintf("wild=%v/rules=%d", wild, n), func(b *testing.B) {
				for range b.N {
					Check("robots.txt", data)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/rule")
			})
		}
	}
}
