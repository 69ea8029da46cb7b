package accesslog

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

type got struct {
	addr, method, target, host, ua string
	status                         int
	t                              time.Time
	res                            time.Duration
	sig                            string
}

func readAll(t *testing.T, in []byte) (recs []got, skipped []*LineError, err error) {
	t.Helper()
	r := NewReader(bytes.NewReader(in))
	for {
		rec, e := r.Next()
		if e == io.EOF {
			return recs, skipped, nil
		}
		var le *LineError
		if errors.As(e, &le) {
			skipped = append(skipped, le)
			continue
		}
		if e != nil {
			return recs, skipped, e
		}
		recs = append(recs, got{string(rec.Addr), string(rec.Method), string(rec.Target), string(rec.Host),
			string(rec.UserAgent), rec.Status, rec.Time, rec.Resolution, rec.Header.Get("Signature")})
	}
}

func TestReadFormats(t *testing.T) {
	tests := []struct {
		name string
		line string
		want got
	}{
		// The example of Apache's documentation of the Common Log Format.
		{"common", `127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326`,
			got{addr: "127.0.0.1", method: "GET", target: "/apache_pb.gif", status: 200,
				t: time.Date(2000, 10, 10, 20, 55, 36, 0, time.UTC), res: time.Second}},
		// And of the Combined format.
		{"combined", `127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326 "http://www.example.com/start.html" "Mozilla/4.08 [en] (Win98; I ;Nav)"`,
			got{addr: "127.0.0.1", method: "GET", target: "/apache_pb.gif", status: 200, ua: "Mozilla/4.08 [en] (Win98; I ;Nav)",
				t: time.Date(2000, 10, 10, 20, 55, 36, 0, time.UTC), res: time.Second}},
		{"nginx with extra field", `::1 - - [28/Nov/2026:03:00:00 +0000] "HEAD /a?b=1 HTTP/1.1" 404 0 "-" "Googlebot/2.1" "10.0.0.1"`,
			got{addr: "::1", method: "HEAD", target: "/a?b=1", status: 404, ua: "Googlebot/2.1",
				t: time.Date(2026, 11, 28, 3, 0, 0, 0, time.UTC), res: time.Second}},
		{"escaped quotes", `1.2.3.4 - - [28/Nov/2026:03:00:00 +0100] "GET /\"x\" HTTP/1.1" 200 1 "-" "A \"quoted\" bot"`,
			got{addr: "1.2.3.4", method: "GET", target: `/\"x\"`, status: 200, ua: `A \"quoted\" bot`,
				t: time.Date(2026, 11, 28, 2, 0, 0, 0, time.UTC), res: time.Second}},
		{"no request line", `1.2.3.4 - - [28/Nov/2026:03:00:00 +0000] "-" 400 0 "-" "-"`,
			got{addr: "1.2.3.4", status: 400, ua: "-", t: time.Date(2026, 11, 28, 3, 0, 0, 0, time.UTC), res: time.Second}},
		{"caddy", `{"level":"info","ts":1700000000.25,"logger":"http.log.access","msg":"handled request","request":{"remote_ip":"10.0.0.9","remote_port":"5000","client_ip":"10.0.0.1","proto":"HTTP/2.0","method":"GET","host":"example.com","uri":"/x?y","headers":{"User-Agent":["GPTBot/1.1"],"Signature":["sig1=:AA==:"]}},"status":403,"size":12}`,
			got{addr: "10.0.0.1", method: "GET", target: "/x?y", host: "example.com", status: 403, ua: "GPTBot/1.1",
				t: time.Unix(1700000000, 250_000_000).UTC(), res: time.Millisecond, sig: "sig1=:AA==:"}},
		{"cloudflare unixnano", `{"ClientIP":"2001:db8::1","ClientRequestHost":"example.com","ClientRequestMethod":"GET","ClientRequestURI":"/p","ClientRequestUserAgent":"bingbot/2.0","EdgeResponseStatus":200,"EdgeStartTimestamp":1700000000123456789}`,
			got{addr: "2001:db8::1", method: "GET", target: "/p", host: "example.com", status: 200, ua: "bingbot/2.0",
				t: time.Unix(1700000000, 123456789).UTC(), res: time.Nanosecond}},
		{"cloudflare rfc3339", `{"ClientIP":"1.1.1.1","ClientRequestURI":"/","ClientRequestUserAgent":"x","EdgeResponseStatus":301,"EdgeStartTimestamp":"2026-11-28T03:00:00Z"}`,
			got{addr: "1.1.1.1", target: "/", status: 301, ua: "x", t: time.Date(2026, 11, 28, 3, 0, 0, 0, time.UTC), res: time.Second}},
		{"cloudflare unix", `{"ClientIP":"1.1.1.1","ClientRequestURI":"/","EdgeResponseStatus":200,"EdgeStartTimestamp":1700000000}`,
			got{addr: "1.1.1.1", target: "/", status: 200, t: time.Unix(1700000000, 0).UTC(), res: time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, skipped, err := readAll(t, []byte(tt.line+"\n"))
			if err != nil || len(skipped) > 0 || len(recs) != 1 {
				t.Fatalf("got %d records, skipped %v, error %v", len(recs), skipped, err)
			}
			if g := recs[0]; g != tt.want || !g.t.Equal(tt.want.t) {
				t.Errorf("got  %+v\nwant %+v", g, tt.want)
			}
		})
	}
}

func TestReadBadInput(t *testing.T) {
	good := `1.2.3.4 - - [28/Nov/2026:03:00:00 +0000] "GET /a HTTP/1.1" 200 1 "-" "bot"` + "\n"
	long := good[:len(good)-1] + strings.Repeat("x", 1<<20) + "\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	for range 2000 {
		zw.Write([]byte(good))
	}
	zw.Close()
	truncated := gz.Bytes()[:gz.Len()/2]
	tests := []struct {
		name         string
		in           []byte
		records      int
		skipped      []int64 // lines
		skipErr      error
		fatal        string // part of the error that ended the log
		minRecords   int    // for the truncated stream: some records come before the cut
		recordsUpper int
	}{
		{"line in another format", []byte(good + "Nov 28 03:00:00 host sshd[1]: Accepted\n" + good), 2, []int64{2}, ErrFormat, "", 0, 0},
		{"json of another shape", []byte(good + `{"msg":"hello"}` + "\n" + good), 2, []int64{2}, nil, "", 0, 0},
		{"broken time", []byte(`1.2.3.4 - - [28/Foo/2026:03:00:00 +0000] "GET /a HTTP/1.1" 200 1` + "\n" + good), 1, []int64{1}, nil, "", 0, 0},
		{"1 MB line", []byte(good + long + good), 2, []int64{2}, ErrLineTooLong, "", 0, 0},
		{"NUL in a line", []byte(strings.Repeat(good, 10) + "a\x00b\n" + good), 11, []int64{11}, ErrBinaryLine, "", 0, 0},
		{"binary file", append([]byte{0x89, 'P', 'N', 'G', 0, 0, 0, 13}, make([]byte, 600)...), 0, nil, nil, "binary file", 0, 0},
		{"gzip", gz.Bytes(), 2000, nil, nil, "", 0, 0},
		{"truncated gzip", truncated, -1, nil, nil, "gzip stream truncated", 1, 1999},
		{"no final newline", []byte(strings.TrimSuffix(good+good, "\n")), 2, nil, nil, "", 0, 0},
		{"CRLF and blank lines", []byte(strings.ReplaceAll(good, "\n", "\r\n") + "\r\n\n" + good), 2, nil, nil, "", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, skipped, err := readAll(t, tt.in)
			if tt.fatal == "" && err != nil || tt.fatal != "" && (err == nil || !strings.Contains(err.Error(), tt.fatal)) {
				t.Fatalf("error %v, want one saying %q", err, tt.fatal)
			}
			if tt.records >= 0 && len(recs) != tt.records {
				t.Errorf("%d records, want %d", len(recs), tt.records)
			}
			if tt.records < 0 && (len(recs) < tt.minRecords || len(recs) > tt.recordsUpper) {
				t.Errorf("%d records before the cut, want %d to %d", len(recs), tt.minRecords, tt.recordsUpper)
			}
			var lines []int64
			for _, s := range skipped {
				lines = append(lines, s.Line)
				if tt.skipErr != nil && !errors.Is(s, tt.skipErr) {
					t.Errorf("skipped line %d: %v, want %v", s.Line, s.Err, tt.skipErr)
				}
			}
			if len(lines) != len(tt.skipped) || (len(lines) > 0 && lines[0] != tt.skipped[0]) {
				t.Errorf("skipped lines %v, want %v", lines, tt.skipped)
			}
		})
	}
}

func TestReadLimit(t *testing.T) {
	good := `1.2.3.4 - - [28/Nov/2026:03:00:00 +0000] "GET /a HTTP/1.1" 200 1 "-" "bot"` + "\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	for range 1000 {
		zw.Write([]byte(good))
	}
	zw.Close()
	// 10 lines' worth of bytes: the gzip stream is small, what it holds is not.
	limit := int64(10 * len(good))
	for _, in := range [][]byte{gz.Bytes(), []byte(strings.Repeat(good, 1000))} {
		r := NewReaderLimit(bytes.NewReader(in), limit)
		n := 0
		var err error
		for {
			if _, err = r.Next(); err != nil {
				break
			}
			n++
		}
		if n != 10 || !errors.Is(err, ErrTooLarge) {
			t.Errorf("read %d records, then %v; want 10, then ErrTooLarge", n, err)
		}
	}
}

func TestSnapshotTime(t *testing.T) {
	tests := []struct {
		name string
		want time.Time
		bad  bool
	}{
		{"robots-2026-11-20.txt", time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC), false},
		{"20261120.txt", time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC), false},
		{"2026-11-20T10:30:00Z.txt", time.Date(2026, 11, 20, 10, 30, 0, 0, time.UTC), false},
		{"robots-20261120T103015Z", time.Date(2026, 11, 20, 10, 30, 15, 0, time.UTC), false},
		{"2026-11-20T10:30+02:00.txt", time.Date(2026, 11, 20, 8, 30, 0, 0, time.UTC), false},
		{"2026-11-20_10-30.txt", time.Date(2026, 11, 20, 10, 30, 0, 0, time.UTC), false},
		{"robots.txt", time.Time{}, true},
		{"2026-02-30.txt", time.Time{}, true},
	}
	for _, tt := range tests {
		got, err := ParseSnapshotTime(tt.name)
		if (err != nil) != tt.bad || !got.Equal(tt.want) {
			t.Errorf("ParseSnapshotTime(%q) = %v, %v; want %v (error: %v)", tt.name, got, err, tt.want, tt.bad)
		}
	}
}
