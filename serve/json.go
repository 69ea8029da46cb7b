package serve

import (
	"hash/maphash"
	"slices"
	"strconv"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
)

// The check answers are encoded by hand: they are the hot path (a batch holds
// thousands), their shape is fixed, and the per-origin part is encoded once per
// origin rather than once per URL.

// appendVerdict appends a verdict's fields without the closing brace, for the
// caller to add "origin" (batch) or "robots" (single check).
func appendVerdict(b []byte, url, input, agent string, d robots.Decision) []byte {
	b = append(b, `{"url":`...)
	b = appendString(b, url)
	if input != "" {
		b = append(b, `,"input":`...)
		b = appendString(b, input)
	}
	if agent != "" { // "" in a batch about one crawler, named at the top of the answer
		b = append(b, `,"agent":`...)
		b = appendString(b, agent)
	}
	if d.Allowed {
		b = append(b, `,"allowed":true,"rule":`...)
	} else {
		b = append(b, `,"allowed":false,"rule":`...)
	}
	if d.Rule.Line == 0 {
		b = append(b, "null"...)
	} else {
		b = appendRule(b, d.Rule)
	}
	b = append(b, `,"line":`...)
	return strconv.AppendInt(b, int64(d.Rule.Line), 10)
}

// appendRule writes the rule as written in a file, as the robots command does:
// "Disallow: /x".
func appendRule(b []byte, r robots.Rule) []byte {
	if r.Allow {
		b = append(b, `"Allow: `...)
	} else {
		b = append(b, `"Disallow: `...)
	}
	return appendStringBody(b, r.Value, '"')
}

// appendOrigin appends the origin object: how its robots.txt was fetched, and the
// crawl-delay of each crawler asked about.
func appendOrigin(b []byte, res *fetch.Result, c crawlerSet) []byte {
	b = append(b, `{"origin":`...)
	b = appendString(b, res.Origin)
	b = append(b, `,"robots_url":`...)
	b = appendString(b, res.RobotsURL)
	b = append(b, `,"outcome":"`...)
	b = append(b, res.Outcome.String()...)
	b = append(b, `","effect":"`...)
	b = append(b, res.Effect.String()...)
	b = append(b, `","status":`...)
	b = strconv.AppendInt(b, int64(res.Status), 10)
	b = append(b, `,"stale":`...)
	b = strconv.AppendBool(b, res.Stale)
	b = append(b, `,"fetched_at":`...)
	b = appendTime(b, res.FetchedAt)
	b = append(b, `,"expires_at":`...)
	b = appendTime(b, res.ExpiresAt)
	b = append(b, `,"crawl_delay":{`...)
	for i, tokens := range c.tokens {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, c.names[i])
		b = append(b, ':')
		d, ok := time.Duration(0), false
		if res.Effect == fetch.ObeyRules && res.Robots != nil {
			d, ok = res.Robots.CrawlDelay(tokens...)
		}
		if ok {
			b = strconv.AppendFloat(b, d.Seconds(), 'f', -1, 64)
		} else {
			b = append(b, "null"...)
		}
	}
	return append(b, "}}"...)
}

func appendTime(b []byte, t time.Time) []byte {
	if t.IsZero() {
		return append(b, "null"...)
	}
	// RFC 3339 in UTC, whole seconds, by hand: time.AppendFormat interprets its
	// layout on every call, and this runs for every origin of every answer.
	t = t.UTC()
	y, mo, d := t.Date()
	h, mi, sec := t.Clock()
	if y < 0 || y > 9999 {
		b = append(b, '"')
		b = t.AppendFormat(b, time.RFC3339)
		return append(b, '"')
	}
	b = append(b, '"')
	b = append4(b, y)
	b = append(b, '-')
	b = append2(b, int(mo))
	b = append(b, '-')
	b = append2(b, d)
	b = append(b, 'T')
	b = append2(b, h)
	b = append(b, ':')
	b = append2(b, mi)
	b = append(b, ':')
	b = append2(b, sec)
	return append(b, 'Z', '"')
}

// appendError appends the error body {"error": msg}.
func appendError(b []byte, msg string) []byte {
	b = append(b, `{"error":`...)
	b = appendString(b, msg)
	return append(b, '}')
}

// appendURLError appends a batch result for a URL that could not be decided.
func appendURLError(b []byte, url string, status int, msg string) []byte {
	b = append(b, `{"url":`...)
	b = appendString(b, url)
	b = append(b, `,"error":`...)
	b = appendString(b, msg)
	b = append(b, `,"error_status":`...)
	b = strconv.AppendInt(b, int64(status), 10)
	return append(b, '}')
}

// appendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD, as with
// encoding/json.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	return appendStringBody(b, s, '"')
}

const hexDigits = "0123456789abcdef"

// appendStringBody appends s escaped for a JSON string, then end.
func appendStringBody(b []byte, s string, end byte) []byte {
	n := plainPrefix(s)
	if n == len(s) {
		b = append(b, s...)
		return append(b, end)
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
	return append(b, end)
}

func append2(b []byte, n int) []byte { return append(b, byte('0'+n/10), byte('0'+n%10)) }

func append4(b []byte, n int) []byte {
	return append(b, byte('0'+n/1000), byte('0'+n/100%10), byte('0'+n/10%10), byte('0'+n%10))
}

// plainPrefix returns the length of the longest prefix of s whose bytes a JSON
// string holds as they are: ASCII from 0x20, except '"' and '\\'. It looks at eight
// bytes at a time (URLs are long runs of such bytes), with the usual bit tricks: a
// byte below 0x20, a '"', a '\\' or a byte with the high bit set makes a chunk's
// test non-zero, and the byte loop then finds which.
func plainPrefix(s string) int {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	i := 0
	for ; i+8 <= len(s); i += 8 {
		v := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
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

// originMemos keeps the encoded per-origin fields of recent answers (appendOrigin),
// so that a request naming an origin other requests named lately does not encode
// them again: in a batch whose URLs are all of different origins that encoding was a
// quarter of the work. A fixed array of slots, indexed by a hash of the origin, bounds
// the memory (originMemoSlots entries) without any eviction bookkeeping; a
// slot holds no pointer to the result, so it keeps no parsed rules alive.
type originMemos struct {
	seed  maphash.Seed
	slots [originMemoSlots]atomic.Pointer[originMemo]
}

// originMemoSlots is a power of two: the fields of some ten thousand origins, about
// 15 MiB of heap once every slot is used (measured with serve/loadtest).
const originMemoSlots = 16384

type originMemo struct {
	origin               string
	fetchedAt, expiresAt time.Time
	outcome              fetch.Outcome
	effect               fetch.Effect
	status               int
	stale                bool
	crawlers             []string
	json                 []byte
}

func newOriginMemos() *originMemos { return &originMemos{seed: maphash.MakeSeed()} }

// get returns appendOrigin(nil, res, c), from the memo when it holds the same fetch
// of the same origin for the same crawlers. The result is shared: do not modify.
func (m *originMemos) get(res *fetch.Result, c crawlerSet) []byte {
	slot := &m.slots[maphash.String(m.seed, res.Origin)&(originMemoSlots-1)]
	if p := slot.Load(); p != nil && p.origin == res.Origin && p.fetchedAt.Equal(res.FetchedAt) &&
		p.expiresAt.Equal(res.ExpiresAt) && p.outcome == res.Outcome && p.effect == res.Effect &&
		p.status == res.Status && p.stale == res.Stale && slices.Equal(p.crawlers, c.names) {
		return p.json
	}
	j := appendOrigin(nil, res, c)
	slot.Store(&originMemo{
		origin: res.Origin, fetchedAt: res.FetchedAt, expiresAt: res.ExpiresAt, outcome: res.Outcome,
		effect: res.Effect, status: res.Status, stale: res.Stale, crawlers: slices.Clone(c.names), json: j,
	})
	return j
}
