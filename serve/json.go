package serve

import (
	"strconv"
	"time"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/verdictjson"
)

// The check answers are encoded by hand: they are the hot path (a batch holds
// thousands), their shape is fixed, and the per-origin part is encoded once per
// origin rather than once per URL. Verdicts are internal/verdictjson's, the shape the
// robots command writes too. BenchmarkBatchCodec measures what this buys a whole
// batch through HTTP against encoding/json.

// batchCodec reads a batch request and writes the verdicts and origin objects of its
// answer. The server's is handCodec; BenchmarkBatchCodec measures it against
// encoding/json's (stdCodec) on whole batches through HTTP. The answer's encoder is
// kept because it pays on the task users run: with encoding/json's, a crawler's
// batch (1,000 URLs of 5 origins, client included) costs 2.0x the instructions
// (batch=crawler, codec=std-answer: 9,341 a decision against 4,622) and 1.7x the
// CPU time, and a batch of a new origin per URL 2.8x the CPU; see BENCHMARKS.md.
type batchCodec struct {
	decode  func(body string) (batchRequest, error)
	verdict func(v verdictjson.Verdict, b []byte) []byte
	origin  func(b []byte, res *fetch.Result, c crawlerSet, days *[2]dayText) []byte
}

var handCodec = batchCodec{decode: decodeBatch, verdict: verdictjson.Verdict.AppendFields, origin: appendOrigin}

// appendOrigin appends the origin object: how its robots.txt was fetched, and the
// crawl-delay of each crawler asked about. days holds the dates of its two times'
// last days (see dayText); an answer's origin objects share one.
func appendOrigin(b []byte, res *fetch.Result, c crawlerSet, days *[2]dayText) []byte {
	b = append(b, `{"origin":`...)
	if n := len(res.Origin); n <= len(res.RobotsURL) && res.RobotsURL[:n] == res.Origin &&
		verdictjson.PlainPrefix(res.RobotsURL) == len(res.RobotsURL) {
		// The robots.txt URL starts with the origin (in a result the client holds they
		// are one string) and needs no escaping: neither does the origin.
		b = append(b, '"')
		b = append(b, res.Origin...)
		b = append(b, `","robots_url":"`...)
		b = append(b, res.RobotsURL...)
		b = append(b, `","outcome":"`...)
	} else {
		b = verdictjson.AppendString(b, res.Origin)
		b = append(b, `,"robots_url":`...)
		b = verdictjson.AppendString(b, res.RobotsURL)
		b = append(b, `,"outcome":"`...)
	}
	b = append(b, res.Outcome.String()...)
	b = append(b, `","effect":"`...)
	b = append(b, res.Effect.String()...)
	b = append(b, `","status":`...)
	if st := res.Status; 100 <= st && st <= 999 { // every HTTP status, and FTP's replies
		b = append(b, byte('0'+st/100), digitPairs[st%100*2], digitPairs[st%100*2+1])
	} else {
		b = strconv.AppendInt(b, int64(st), 10)
	}
	if res.Stale {
		b = append(b, `,"stale":true,"fetched_at":`...)
	} else {
		b = append(b, `,"stale":false,"fetched_at":`...)
	}
	b = appendTime(b, res.FetchedAt, &days[0])
	b = append(b, `,"expires_at":`...)
	b = appendTime(b, res.ExpiresAt, &days[1])
	b = append(b, `,"crawl_delay":{`...)
	for i, tokens := range c.tokens {
		if i > 0 {
			b = append(b, ',')
		}
		b = verdictjson.AppendString(b, c.names[i])
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

// dayText is the date of a day, as appendTime writes it ("2026-11-24"): the times
// of an answer's origin objects fall on few days (the origins' files were fetched
// within a day or so of each other, and expire a day or so later), and finding a
// date in the calendar costs more than the rest of a time.
type dayText struct {
	day  int64 // days since 1970-01-01, plus one; 0 when text holds no date yet
	text [10]byte
}

// appendTime appends t as a JSON string in RFC 3339, in UTC and whole seconds, or
// null for the zero time. m holds the date of the last day it wrote with m, which it
// writes again without working it out when t falls on the same day.
func appendTime(b []byte, t time.Time, m *dayText) []byte {
	if t.IsZero() {
		return append(b, "null"...)
	}
	// By hand from the Unix time: time.AppendFormat interprets its layout on every
	// call, and Date and Clock each work out the calendar again; this runs for every
	// origin of every answer.
	secs := t.Unix()
	if secs < 0 || secs > maxRFC3339Unix {
		b = append(b, '"')
		b = t.UTC().AppendFormat(b, time.RFC3339)
		return append(b, '"')
	}
	day := secs / 86400
	if m.day != day+1 {
		y, mo, d := civil(day)
		m.text = [10]byte{0, 0, 0, 0, '-', 0, 0, '-', 0, 0}
		put4(m.text[0:4], y)
		put2(m.text[5:7], mo)
		put2(m.text[8:10], d)
		m.day = day + 1
	}
	sod := int(secs - day*86400)
	h, ms := sod/3600, sod%3600
	mi, s := ms/60, ms%60
	// Written into an array, then appended once: a byte at a time, each append's
	// check of the capacity cost more than the digits (two times per origin object).
	a := [22]byte{'"', 10: 0, 'T', 0, 0, ':', 0, 0, ':', 0, 0, 'Z', '"'}
	copy(a[1:11], m.text[:])
	a[12], a[13] = digitPairs[2*h], digitPairs[2*h+1]
	a[15], a[16] = digitPairs[2*mi], digitPairs[2*mi+1]
	a[18], a[19] = digitPairs[2*s], digitPairs[2*s+1]
	return append(b, a[:]...)
}

// digitPairs holds the two decimal digits of each number below 100, in order.
const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879" +
	"8081828384858687888990919293949596979899"

// maxRFC3339Unix is 9999-12-31T23:59:59Z: appendTime writes years of four digits.
const maxRFC3339Unix = 253402300799

// civil returns the proleptic Gregorian date of a day counted from 1970-01-01 (not
// negative), by the usual arithmetic on 400-year eras starting on March 1.
func civil(days int64) (year, month, day int) {
	z := days + 719468 // days from 0000-03-01
	era := z / 146097
	doe := z - era*146097                                  // [0, 146096]
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365 // [0, 399]
	doy := doe - (365*yoe + yoe/4 - yoe/100)               // [0, 365], from March 1
	mp := (5*doy + 2) / 153                                // [0, 11], March is 0
	day = int(doy - (153*mp+2)/5 + 1)
	month = int(mp + 3)
	if month > 12 {
		month -= 12
	}
	year = int(yoe + era*400)
	if month <= 2 {
		year++
	}
	return year, month, day
}

// appendError appends the error body {"error": msg}.
func appendError(b []byte, msg string) []byte {
	b = append(b, `{"error":`...)
	b = verdictjson.AppendString(b, msg)
	return append(b, '}')
}

// appendURLError appends a batch result for a URL that could not be decided.
func appendURLError(b []byte, url string, status int, msg string) []byte {
	b = append(b, `{"url":`...)
	b = verdictjson.AppendString(b, url)
	b = append(b, `,"error":`...)
	b = verdictjson.AppendString(b, msg)
	b = append(b, `,"error_status":`...)
	b = strconv.AppendInt(b, int64(status), 10)
	return append(b, '}')
}

// put2 and put4 write n in decimal into a digit pair and quadruple.
func put2(a []byte, n int) {
	a[0], a[1] = byte('0'+n/10), byte('0'+n%10)
}

func put4(a []byte, n int) {
	a[0], a[1], a[2], a[3] = byte('0'+n/1000), byte('0'+n/100%10), byte('0'+n/10%10), byte('0'+n%10)
}
