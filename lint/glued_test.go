package lint

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorobots/robots"
)

// slowGluedField is gluedField as written before issue 39: each byte of the line
// after the start of its field name is tried as the start of each name of
// fieldNames. It is the reference gluedField is checked against.
func slowGluedField(l robots.Line) (string, int) {
	if l.Kind != robots.KindUnknown && l.Kind != robots.KindInvalid {
		return "", 0
	}
	s := l.Text
	start := keyCol(l) - 1
	for i := start + 1; i < len(s); i++ {
		for _, name := range fieldNames {
			if len(s)-i < len(name) || !strings.EqualFold(s[i:i+len(name)], name) {
				continue
			}
			end := i + len(name)
			colon := strings.HasPrefix(strings.TrimLeft(s[end:], " \t"), ":")
			if !colon && !(l.MissingColon && s[start:end] == l.Key) {
				continue
			}
			if trimInvisible(s[start:i]) == "" {
				return "", 0
			}
			return s[i:end], i + 1
		}
	}
	return "", 0
}

// TestGluedField checks gluedField against slowGluedField on every line of every 4th
// corpus file, on lines written to hold glued names, and on random lines over an
// alphabet of name fragments, colons, blanks and markup.
func TestGluedField(t *testing.T) {
	bodies := []string{
		"</div>User-agent: *\n<p>Disallow /x\nxdisallow: /\n<b>allow : /a\n:Sitemap:\n\ufeffUser-agent: x\n",
		"<a href=\"http://x\">Crawl-Delay : 3</a>\nfoo Disallow\nfoo disallow bar\nA:Allow:B\nAllowAllow\n",
	}
	rng := rand.New(rand.NewPCG(39, 7))
	parts := []string{"<p>", "User-agent", "allow", "Dis", "disallow", "Sitemap", "crawl-delay", ":", " ", "\t", "x", "/", "ï»¿", "\u200b", "#"}
	for range 3000 {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		b.WriteString("\n")
		bodies = append(bodies, b.String())
	}
	for _, cf := range corpusFiles(t, 4) {
		bodies = append(bodies, string(cf.body))
	}
	found := 0
	for _, body := range bodies {
		for l := range robots.Lines([]byte(body)) {
			name, col := gluedField(l)
			wantName, wantCol := slowGluedField(l)
			if name != wantName || col != wantCol {
				t.Fatalf("gluedField(%q) = %q, %d; want %q, %d", l.Text, name, col, wantName, wantCol)
			}
			if col > 0 {
				found++
			}
		}
	}
	if found < 10 {
		t.Fatalf("only %d glued names found: the test compared too little", found)
	}
}
