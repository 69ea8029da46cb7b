package accesslog

import (
	"bytes"
	"fmt"
	"time"
)

// The Common Log Format, as Apache's "common" and nginx's and Apache's "combined"
// write it:
//
//	127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /a.gif HTTP/1.0" 200 2326 "http://ref/" "Agent/1.0"
//
// host, identity, user, [time], "request", status, bytes; Combined adds "referer"
// and "user-agent", and fields after those (nginx formats that add
// $http_x_forwarded_for, say) are ignored. Inside quotes Apache escapes '"' as \"
// and nginx as \x22; the fields are kept as logged.

var (
	errCLFTime    = fmt.Errorf(`%w: no "[day/Mon/year:hh:mm:ss zone]" time after the client address`, ErrFormat)
	errCLFRequest = fmt.Errorf(`%w: no quoted request after the time`, ErrFormat)
	errCLFStatus  = fmt.Errorf("%w: no three-digit status after the request", ErrFormat)
)

func (r *Reader) parseCLF(line []byte) error {
	sp := bytes.IndexByte(line, ' ')
	if sp <= 0 {
		return ErrFormat
	}
	r.rec.Addr = line[:sp]
	open := bytes.IndexByte(line[sp:], '[')
	if open < 0 {
		return errCLFTime
	}
	open += sp
	if open+1+clfTimeLen >= len(line) || line[open+1+clfTimeLen] != ']' {
		return errCLFTime
	}
	t, ok := r.tc.parse(line[open+1 : open+1+clfTimeLen])
	if !ok {
		return errCLFTime
	}
	r.rec.Time, r.rec.Resolution = t, time.Second
	rest := line[open+1+clfTimeLen+1:]
	if len(rest) < 2 || rest[0] != ' ' || rest[1] != '"' {
		return errCLFRequest
	}
	req, rest, ok := quoted(rest[1:])
	if !ok {
		return errCLFRequest
	}
	// "GET /a HTTP/1.1"; a line that is not a request ("-", TLS bytes) keeps no target.
	if m := bytes.IndexByte(req, ' '); m > 0 {
		r.rec.Method = req[:m]
		target := req[m+1:]
		if e := bytes.LastIndexByte(target, ' '); e >= 0 {
			target = target[:e]
		}
		r.rec.Target = target
	}
	if len(rest) < 4 || rest[0] != ' ' {
		return errCLFStatus
	}
	st, ok := status3(rest[1:4])
	if !ok || (len(rest) > 4 && rest[4] != ' ') {
		return errCLFStatus
	}
	r.rec.Status = st
	rest = rest[4:]
	// bytes, then Combined's "referer" "user-agent".
	if len(rest) == 0 {
		return nil
	}
	rest = rest[1:]
	sp = bytes.IndexByte(rest, ' ')
	if sp < 0 {
		return nil
	}
	rest = rest[sp+1:]
	if len(rest) == 0 || rest[0] != '"' {
		return nil
	}
	_, rest, ok = quoted(rest)
	if !ok || len(rest) < 2 || rest[0] != ' ' || rest[1] != '"' {
		return nil
	}
	ua, _, ok := quoted(rest[1:])
	if ok {
		r.rec.UserAgent = ua
	}
	return nil
}

// quoted reads a quoted field at the start of b: its contents, what follows the
// closing quote, and whether the field was closed. A backslash escapes the next byte.
func quoted(b []byte) (field, rest []byte, ok bool) {
	if len(b) == 0 || b[0] != '"' {
		return nil, b, false
	}
	i := 1
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return nil, b, false
		}
		j += i
		// Count the backslashes before the quote: an odd number escapes it.
		k := j - 1
		for k >= 1 && b[k] == '\\' {
			k--
		}
		if (j-1-k)%2 == 0 {
			return b[1:j], b[j+1:], true
		}
		i = j + 1
	}
}

func status3(b []byte) (int, bool) {
	if b[0] < '1' || b[0] > '5' || b[1] < '0' || b[1] > '9' || b[2] < '0' || b[2] > '9' {
		return 0, false
	}
	return int(b[0]-'0')*100 + int(b[1]-'0')*10 + int(b[2]-'0'), true
}

// clfTimeLen is the length of "10/Oct/2000:13:55:36 -0700".
const clfTimeLen = 26

// timeCache keeps the last time read: consecutive lines mostly share their second.
type timeCache struct {
	raw [clfTimeLen]byte
	t   time.Time
	ok  bool
}

func (c *timeCache) parse(b []byte) (time.Time, bool) {
	if c.ok && string(b) == string(c.raw[:]) {
		return c.t, true
	}
	t, ok := parseCLFTime(b)
	if ok {
		copy(c.raw[:], b)
		c.t, c.ok = t, true
	}
	return t, ok
}

var months = [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

// parseCLFTime reads "10/Oct/2000:13:55:36 -0700" by hand: time.Parse takes about
// ten times as long, and every line has a time.
func parseCLFTime(b []byte) (time.Time, bool) {
	if len(b) != clfTimeLen || b[2] != '/' || b[6] != '/' || b[11] != ':' || b[14] != ':' || b[17] != ':' || b[20] != ' ' {
		return time.Time{}, false
	}
	num := func(s []byte) (int, bool) {
		n := 0
		for _, c := range s {
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	day, ok1 := num(b[0:2])
	year, ok2 := num(b[7:11])
	hour, ok3 := num(b[12:14])
	minute, ok4 := num(b[15:17])
	sec, ok5 := num(b[18:20])
	zh, ok6 := num(b[22:24])
	zm, ok7 := num(b[24:26])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7) || (b[21] != '+' && b[21] != '-') {
		return time.Time{}, false
	}
	month := 0
	for i, m := range months {
		if string(b[3:6]) == m {
			month = i + 1
			break
		}
	}
	if month == 0 || day < 1 || day > 31 || hour > 23 || minute > 59 || sec > 60 || zh > 23 || zm > 59 {
		return time.Time{}, false
	}
	off := time.Duration(zh)*time.Hour + time.Duration(zm)*time.Minute
	if b[21] == '-' {
		off = -off
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, 0, time.UTC).Add(-off), true
}
