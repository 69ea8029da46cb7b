// Package verdictjson writes the one JSON shape of a decision, which the robots command
// (check, explain) and the HTTP service (GET and POST /v1/check) answer with:
//
//	{"url": …, "input": …, "agent": …, "allowed": …, "rule": …, "line": …, "usage": …,
//	 "readings": …}
//
// "url" is the URL decided; "input" the URL as given, only when encoding changed it;
// "agent" the crawler (left out where the answer names one crawler for all its
// verdicts); "rule" the deciding rule as written in the file ("Disallow: /a") with
// its "line", or null and 0 when no rule matched; "usage" the usage preferences, only
// when a line states any, with the lines that apply by number ([Usage]); "readings"
// only when Google's reading of the file and RFC 9309's with draft-ietf-aipref-attach
// give the crawler other usage preferences ([Readings]).
//
// To add a field, add it to [Verdict], [Verdict.AppendFields] and to the test shapes
// that encoding/json writes (shape in verdict_test.go, held to the encoder by TestShape;
// serve's verdictShape, by TestStdCodec).
//
// The encoder writes by hand rather than through encoding/json: a batch of the
// service holds thousands of verdicts, and serve's answer encoder, of which this is
// part, is kept for what it buys whole batches through HTTP (serve's
// BenchmarkBatchCodec).
package verdictjson

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/gorobots/robots"
)

// Verdict is one decision on one URL for one crawler.
type Verdict struct {
	URL   string // as decided
	Input string // as given, when encoding changed it; "" otherwise
	Agent string // the crawler's name; "" leaves "agent" out
	robots.Decision
	Usage *robots.Usage // nil leaves "usage" out
	// Readings says that the other reading of the file gives the crawler other usage
	// preferences at the URL (Readings); "" leaves "readings" out.
	Readings string
}

// Readings says what other, the file in the other reading (RFC 9309's with
// draft-ietf-aipref-attach for Google's, and back), gives the crawler with tokens
// agents at url when that is not pref, what the file as read gives it: "readings
// differ: rfc9309 reads no preference". "" when they agree or other is nil.
//
// In Google's reading a Content-Usage line does not end a group's user-agent lines,
// as in Google's parser; in the attach draft's grammar it is a rule that does, so
// "User-Agent: *", "Content-Usage: train-ai=n", "User-Agent: ExampleBot" tells
// ExampleBot train-ai=n in one and nothing in the other.
func Readings(other *robots.Robots, agents []string, url string, pref robots.Usage) string {
	if other == nil {
		return ""
	}
	alt := other.UsageAgents(agents, url)
	said := alt.String()
	if said == pref.String() {
		return ""
	}
	if said == "" {
		said = "no preference"
	}
	return "readings differ: " + other.Dialect().String() + " reads " + said
}

// AppendFields appends v as a JSON object without its closing brace, so that the
// caller can add fields of its own ("robots", "origin") before closing it.
func (v Verdict) AppendFields(b []byte) []byte {
	b = append(b, `{"url":`...)
	b = AppendString(b, v.URL)
	if v.Input != "" {
		b = append(b, `,"input":`...)
		b = AppendString(b, v.Input)
	}
	if v.Agent != "" {
		b = append(b, `,"agent":`...)
		b = AppendString(b, v.Agent)
	}
	if v.Allowed {
		b = append(b, `,"allowed":true,"rule":`...)
	} else {
		b = append(b, `,"allowed":false,"rule":`...)
	}
	if v.Rule.Line == 0 {
		b = append(b, "null"...)
	} else {
		if v.Rule.Allow {
			b = append(b, `"Allow: `...)
		} else {
			b = append(b, `"Disallow: `...)
		}
		b = appendStringBody(b, v.Rule.Value)
	}
	b = append(b, `,"line":`...)
	b = strconv.AppendInt(b, int64(v.Rule.Line), 10)
	if v.Usage != nil {
		// Rare (a file with a Content-Usage or Content-Signal line that applies), and
		// nested: encoding/json writes it.
		u, err := json.Marshal(usageOf(v.Usage))
		if err == nil {
			b = append(b, `,"usage":`...)
			b = append(b, u...)
		}
	}
	if v.Readings != "" {
		b = append(b, `,"readings":`...)
		b = AppendString(b, v.Readings)
	}
	return b
}

// Usage is a verdict's "usage": robots.Usage with the lines that apply named by
// their numbers. A file may have thousands of lines that apply to every URL, and a
// verdict that wrote each out made an answer grow with the file rather than with
// what was asked (issue 34: 7 URLs, 7.4 MB); an answer states each line once
// (serve's "usage_lines"), and the file itself is the reference for the rest.
type Usage struct {
	Fetchable     bool            `json:"fetchable"`
	ContentUsage  []robots.Stated `json:"content_usage"`
	ContentSignal []robots.Stated `json:"content_signal"`
	Lines         []int           `json:"lines"` // the lines that apply, in file order
}

func usageOf(u *robots.Usage) Usage {
	lines := make([]int, len(u.Lines))
	for i, l := range u.Lines {
		lines[i] = l.Line
	}
	return Usage{Fetchable: u.Fetchable, ContentUsage: u.ContentUsage, ContentSignal: u.ContentSignal, Lines: lines}
}

// MarshalJSON returns v as a JSON object.
func (v Verdict) MarshalJSON() ([]byte, error) {
	return append(v.AppendFields(nil), '}'), nil
}

// AppendString appends s as a JSON string, as encoding/json writes it without
// escaping HTML: invalid UTF-8 becomes U+FFFD, U+2028 and U+2029 are escaped.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	return appendStringBody(b, s)
}

const hexDigits = "0123456789abcdef"

// appendStringBody appends s escaped for a JSON string, then the closing quote.
func appendStringBody(b []byte, s string) []byte {
	n := PlainPrefix(s)
	if n == len(s) {
		b = append(b, s...)
		return append(b, '"')
	}
	start := 0
	for i := n; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		// U+2028 and U+2029 are valid JSON but end lines in JavaScript source.
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, `\u202`...)
			b = append(b, hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// PlainPrefix returns the length of the longest prefix of s whose bytes a JSON
// string holds as they are: ASCII from 0x20, except '"' and '\\'. It looks at eight
// bytes at a time (URLs are long runs of such bytes), with the usual bit tricks: a
// byte below 0x20, a '"', a '\\' or a byte with the high bit set makes a chunk's
// test non-zero, and the byte loop then finds which.
func PlainPrefix(s string) int {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := s[i : i+8] // one bounds check, and the compiler loads the eight bytes at once
		v := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		quote := v ^ (ones * '"')
		backslash := v ^ (ones * '\\')
		special := (v - ones*0x20) | (quote-ones)&^quote | (backslash-ones)&^backslash
		if (special|v)&highs != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			return i
		}
	}
	return i
}
