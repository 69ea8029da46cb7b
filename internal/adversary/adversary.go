// Package adversary writes the adversarial robots.txt files that the root package's
// BenchmarkAdversarial decides against and bench/cmd/worstpeer measures Google's C++
// parser on: files within the size limit written to make a decision expensive, each
// with the paths to decide. The same seed gives the same files in every program.
package adversary

import (
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/gorobots/robots"
)

// File is one adversarial file and the paths decided against it.
type File struct {
	Name    string
	Body    string
	Dialect robots.Dialect
	Usage   bool              // decided with Usage (the Content-Usage lines) rather than Check
	Once    bool              // decided with CheckOnce, from the body
	Paths   map[string]string // by size: "40B", "1000B", "16KB"
}

// PathNames are the keys of File.Paths, shortest first.
var PathNames = []string{"40B", "1000B", "16KB"}

// randWord is n bytes drawn from [a-z0-9].
func randWord(rng *rand.Rand, n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
}

// fill writes User-agent: * and then lines made by line until the file would pass
// the size limit.
func fill(line func() string) string {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for {
		l := line() + "\n"
		if b.Len()+len(l) > robots.DefaultMaxBytes {
			return b.String()
		}
		b.WriteString(l)
	}
}

// Files returns the adversarial shapes, built once: many wildcard rules "/*xxxxx" (in
// Google's and RFC 9309's reading, and decided from the body by CheckOnce), many "$"
// rules, many rules sharing their first bytes (also in the 1996 draft's reading), deep
// chains of '*', and many Content-Usage lines. The caller must not change them.
var Files = sync.OnceValue(func() []File {
	rng := rand.New(rand.NewPCG(33, 1))
	paths := map[string]string{
		"40B":   "/" + randWord(rng, 39),
		"1000B": "/" + randWord(rng, 999),
		"16KB":  "/" + randWord(rng, 16<<10-1),
	}
	// A path of the shape "/aaaaaaa…" that shares the first bytes of the "$" and
	// long-prefix rules below.
	shared := map[string]string{
		"40B":   "/aaaaaaa" + randWord(rng, 32),
		"1000B": "/aaaaaaa" + randWord(rng, 992),
	}
	star := func() string { return "Disallow: /*" + randWord(rng, 5) } // issue 33's file: 28,442 lines
	deep := func() string {                                            // ten pieces of two bytes after "*"
		var b strings.Builder
		b.WriteString("Disallow: /")
		for range 10 {
			b.WriteString("*" + randWord(rng, 2))
		}
		return b.String()
	}
	return []File{
		{Name: "wild", Body: fill(star), Paths: paths},
		{Name: "wild-once", Body: fill(star), Once: true, Paths: paths},
		{Name: "wild-rfc9309", Body: fill(star), Dialect: robots.RFC9309, Paths: paths},
		{Name: "wild-dollar", Body: fill(func() string { return "Disallow: /*" + randWord(rng, 5) + "$" }), Paths: paths},
		{Name: "dollar", Body: fill(func() string { return "Disallow: /aaaaaaa" + randWord(rng, 5) + "$" }), Paths: shared},
		{Name: "prefix", Body: fill(func() string { return "Disallow: /aaaaaaa" + randWord(rng, 5) }), Paths: shared},
		{Name: "prefix-legacy1996", Body: fill(func() string { return "Disallow: /aaaaaaa" + randWord(rng, 5) }), Dialect: robots.Legacy1996, Paths: shared},
		{Name: "deep", Body: fill(deep), Paths: paths},
		{Name: "usage", Body: fill(func() string { return "Content-Usage: /*" + randWord(rng, 5) + " train-ai=y" }), Usage: true, Paths: paths},
	}
})
