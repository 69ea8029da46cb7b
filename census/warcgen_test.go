package census

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strconv"
	"time"
)

// warcFile builds WARC files for the tests and benchmarks, as Common Crawl's
// robots.txt WARC files lay them out: for each capture a request, a response and a
// metadata record, each record its own gzip member when gz is set.
type warcFile struct {
	buf  bytes.Buffer
	gz   bool
	n    int       // records written, for the record IDs
	date time.Time // WARC-Date of every record
}

func newWARC(gz bool) *warcFile {
	return &warcFile{gz: gz, date: time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)}
}

// record writes one record with the WARC headers fields (in order, name then value)
// and the block; it returns the offset the record starts at.
func (w *warcFile) record(typ, uri, contentType string, block []byte, extra ...string) int64 {
	w.n++
	var h bytes.Buffer
	fmt.Fprintf(&h, "WARC/1.0\r\nWARC-Type: %s\r\n", typ)
	if uri != "" {
		fmt.Fprintf(&h, "WARC-Target-URI: %s\r\n", uri)
	}
	fmt.Fprintf(&h, "WARC-Date: %s\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-%012d>\r\n", w.date.Format(time.RFC3339), w.n)
	for i := 0; i+1 < len(extra); i += 2 {
		fmt.Fprintf(&h, "%s: %s\r\n", extra[i], extra[i+1])
	}
	fmt.Fprintf(&h, "Content-Type: %s\r\nContent-Length: %d\r\n\r\n", contentType, len(block))
	h.Write(block)
	h.WriteString("\r\n\r\n")
	return w.raw(h.Bytes())
}

// raw writes b as one record, compressed as a member of its own when w.gz.
func (w *warcFile) raw(b []byte) int64 {
	off := int64(w.buf.Len())
	if !w.gz {
		w.buf.Write(b)
		return off
	}
	zw, _ := gzip.NewWriterLevel(&w.buf, gzip.DefaultCompression)
	zw.Write(b)
	zw.Close()
	return off
}

// capture writes a fetch of uri answered with status, the header lines (name then
// value) and body: request, response and metadata records. It returns the offset
// of the response record.
func (w *warcFile) capture(uri string, status int, body []byte, header ...string) int64 {
	req := fmt.Sprintf("GET %s HTTP/1.1\r\nUser-Agent: CCBot/2.0 (https://commoncrawl.org/faq/)\r\nAccept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\nAccept-Encoding: br,gzip\r\nConnection: Keep-Alive\r\n\r\n", pathOf(uri))
	w.record("request", uri, "application/http; msgtype=request", []byte(req))
	var resp bytes.Buffer
	fmt.Fprintf(&resp, "HTTP/1.1 %d %s\r\n", status, statusText(status))
	for i := 0; i+1 < len(header); i += 2 {
		fmt.Fprintf(&resp, "%s: %s\r\n", header[i], header[i+1])
	}
	resp.WriteString("Date: Thu, 01 Oct 2026 12:00:00 GMT\r\nServer: nginx\r\n")
	fmt.Fprintf(&resp, "X-Crawler-Content-Length: %d\r\nContent-Length: %d\r\n\r\n", len(body), len(body))
	resp.Write(body)
	off := w.record("response", uri, "application/http; msgtype=response", resp.Bytes(),
		"WARC-IP-Address", "192.0.2.1")
	w.record("metadata", uri, "application/warc-fields", []byte("fetchTimeMs: 112\r\n"))
	return off
}

func pathOf(uri string) string {
	if i := bytes.IndexByte([]byte(uri), '/'); i >= 0 && len(uri) > i+2 {
		if j := bytes.IndexByte([]byte(uri[i+2:]), '/'); j >= 0 {
			return uri[i+2+j:]
		}
	}
	return "/"
}

func statusText(code int) string {
	switch code {
	case 200:
		return "OK"
	case 301:
		return "Moved Permanently"
	case 404:
		return "Not Found"
	}
	return "Status " + strconv.Itoa(code)
}

func (w *warcFile) bytes() []byte { return w.buf.Bytes() }

var _ = io.EOF
