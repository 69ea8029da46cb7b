package accesslog

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// FuzzReader: any input is read to its end without a panic, every line either a
// record or a *LineError, and a record's fields are parts of its line.
func FuzzReader(f *testing.F) {
	f.Add([]byte(`127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /a.gif HTTP/1.0" 200 2326 "http://r/" "A/1.0"` + "\n"))
	f.Add([]byte(`{"ts":1700000000.5,"status":200,"request":{"client_ip":"::1","method":"GET","host":"h","uri":"/x","headers":{"User-Agent":["b"]}}}` + "\n"))
	f.Add([]byte(`{"ClientIP":"1.1.1.1","ClientRequestURI":"/","EdgeStartTimestamp":"2026-11-28T03:00:00.123Z"}` + "\n"))
	f.Add([]byte("a b c [x] \"\\\"\" 200\n\n\r\n\x00"))
	f.Fuzz(func(t *testing.T, in []byte) {
		r := NewReader(bytes.NewReader(in))
		for range 10000 {
			rec, err := r.Next()
			if err == io.EOF {
				return
			}
			var le *LineError
			if errors.As(err, &le) {
				continue
			}
			if err != nil {
				return
			}
			// Without JSON, every field is a part of the input, and a status has
			// three digits.
			if !bytes.Contains(in, []byte("{")) {
				if rec.Status < 100 || rec.Status > 599 {
					t.Errorf("status %d from a Common Log Format line", rec.Status)
				}
				for _, field := range [][]byte{rec.Addr, rec.Method, rec.Target, rec.UserAgent} {
					if !bytes.Contains(in, field) {
						t.Errorf("%q is not in the input", field)
					}
				}
			}
		}
		t.Fatal("more than 10,000 calls to Next on a short input")
	})
}

// FuzzCombinedRoundTrip: a Combined line written from fields is read back as those
// fields.
func FuzzCombinedRoundTrip(f *testing.F) {
	f.Add("203.0.113.1", "GET", "/a?b=c", 200, "Mozilla/5.0 (compatible; Googlebot/2.1)", int64(1700000000), 60)
	f.Add("::1", "POST", "/", 599, "", int64(0), -720)
	f.Fuzz(func(t *testing.T, addr, method, target string, status int, ua string, unix int64, offMin int) {
		clean := func(s string) bool { return !strings.ContainsAny(s, " \"\\\n\r\x00[]") }
		if addr == "" || method == "" || target == "" || !clean(addr) || !clean(method) || !clean(target) ||
			strings.ContainsAny(ua, "\"\\\n\r\x00") || status < 100 || status > 599 || unix < 0 || unix > 1e11 || offMin < -1439 || offMin > 1439 {
			return
		}
		when := time.Unix(unix, 0).In(time.FixedZone("", offMin*60))
		if when.Year() > 9999 {
			return
		}
		line := fmt.Sprintf("%s - - [%s] \"%s %s HTTP/1.1\" %d 12 \"-\" \"%s\"\n", addr, when.Format("02/Jan/2006:15:04:05 -0700"), method, target, status, ua)
		rec, err := NewReader(strings.NewReader(line)).Next()
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if string(rec.Addr) != addr || string(rec.Method) != method || string(rec.Target) != target ||
			rec.Status != status || string(rec.UserAgent) != ua || !rec.Time.Equal(when) {
			t.Errorf("%q read as %q %q %q %d %q %v", line, rec.Addr, rec.Method, rec.Target, rec.Status, rec.UserAgent, rec.Time)
		}
	})
}
