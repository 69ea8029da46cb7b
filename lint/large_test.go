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

// BenchmarkWildPrefixes lints the two files of wildcard rules that the comparison
// of rules by prefix (wildRules) meets at its worst, each near robots.txt's 500 KiB:
// 28,000 rules "/xxxxx*" of distinct texts before the "*" (each rule read all the
// others before), and 1,000 rules "/aaa…*" whose texts before the "*" have 1,000
// different lengths (each rule looks up every length up to its own).
//
//	go test -run '^$' -bench WildPrefixes ./lint
func BenchmarkWildPrefixes(b *testing.B) {
	rng := rand.New(rand.NewPCG(39, 1))
	var distinct strings.Builder
	distinct.WriteString("User-agent: *\n")
	for range 28000 {
		v := make([]byte, 5)
		for i := range v {
			v[i] = "abcdefghijklmnopqrstuvwxyz0123456789"[rng.IntN(36)]
		}
		fmt.Fprintf(&distinct, "Disallow: /%s*\n", v)
	}
	var lengths strings.Builder
	lengths.WriteString("User-agent: *\n")
	for k := range 1000 {
		fmt.Fprintf(&lengths, "Disallow: /%s*\n", strings.Repeat("a", k))
	}
	for _, c := range []struct {
		name  string
		body  string
		rules int
	}{{"distinct", distinct.String(), 28000}, {"lengths", lengths.String(), 1000}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.body)))
			for b.Loop() {
				Check("robots.txt", []byte(c.body))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(c.rules), "ns/rule")
		})
	}
}

// BenchmarkMergedGroups lints a file of 500 KB of groups that merge ("User-agent: A",
// a crawl-delay line, "User-agent: B", a rule), each merge a group-merge finding:
// ns/group staying flat is group-merge finding each user-agent line's group by a
// search (it walked every group's agents for each before issue 39, 0.26 s here).
//
//	go test -run '^$' -bench MergedGroups ./lint
func BenchmarkMergedGroups(b *testing.B) {
	var body strings.Builder
	groups := 0
	for i := 0; body.Len() < 500<<10-64; i++ {
		name := []byte{'a', 'a', 'a', 'a'}
		for k, n := 0, i; k < len(name); k, n = k+1, n/26 {
			name[k] += byte(n % 26) // letters only: each user-agent line a token of its own
		}
		fmt.Fprintf(&body, "User-agent: a%s\nCrawl-delay: 1\nUser-agent: b%s\nDisallow: /x\n", name, name)
		groups++
	}
	data := []byte(body.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		Check("robots.txt", data)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(groups), "ns/group")
}
