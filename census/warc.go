package census

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/klauspost/compress/gzip"
)

// Limits of the WARC reader.
const (
	// MaxRecordBytes bounds one record as stored (its gzip member, or the record of a
	// plain WARC file) and as decompressed. A robots.txt record is a few kilobytes;
	// Common Crawl cuts payloads long before this. A larger record is reported and
	// skipped, and reading goes on with the next one.
	MaxRecordBytes = 16 << 20
	// readChunk is how much is read from the input at a time.
	readChunk = 1 << 20
	// maxHeaderBytes bounds a record's WARC header block.
	maxHeaderBytes = 64 << 10
)

// A RecordError is a record that could not be read: corrupt or truncated
// compressed data, a header that is not WARC, a block shorter than its
// Content-Length. The reader skips it and goes on with the next record.
type RecordError struct {
	File   string
	Offset int64 // where the record starts in the file (its gzip member's first byte)
	Err    error
}

func (e *RecordError) Error() string {
	return fmt.Sprintf("%s: record at offset %d: %v", e.File, e.Offset, e.Err)
}

func (e *RecordError) Unwrap() error { return e.Err }

// record is one WARC record. Its slices are valid until the reader's next call:
// only the response records census reads are made strings (parseResponse), not
// the request and metadata records around them.
type record struct {
	offset      int64 // of the record (its gzip member) in the file
	typ         []byte
	uri         []byte
	date        []byte
	contentType []byte
	truncated   []byte // the WARC-Truncated field: why the crawler cut the payload
	block       []byte
}

// warcReader reads the records of a WARC file, compressed record by record (one
// gzip member per record, as WARC files are written), as one gzip stream, or not at
// all. It holds the input in a window of its own so that a record that turns out to
// be corrupt can be skipped by looking for the next record from the byte after its
// start, whatever the decompressor had read; and it hands the decompressor each
// member as a *bytes.Reader, which klauspost/compress reads without an interface
// call per byte.
//
// The WARC libraries the module proxy serves (github.com/internetarchive/gowarc,
// github.com/nlnwa/gowarc/v3) cost 2.1 and 4.2 times the instructions of
// decompressing the file alone (BENCHMARKS.md, "robots corpus"), so that no
// reading built on them could reach the 80% of the decompression speed;
// BenchmarkReaders runs them side by side with this one.
type warcReader struct {
	file string
	src  io.Reader
	buf  []byte // the window: buf[pos:end] is unread input
	pos  int
	end  int
	base int64 // file offset of buf[0]
	eof  bool  // src is exhausted
	err  error // src's error other than EOF
	read int64 // bytes read from src

	zr      *gzip.Reader
	br      bytes.Reader
	out     []byte // a decompressed member
	pending []byte // out's records not yet returned (a member holding several)
	rec     record // the record next returns
	pendOff int64
}

func newWARCReader(file string, src io.Reader) *warcReader {
	return &warcReader{file: file, src: src, buf: make([]byte, readChunk)}
}

// fill makes at least n bytes available at buf[pos:], growing the window up to
// 2*MaxRecordBytes, unless the input ends first. It reports whether they are.
func (r *warcReader) fill(n int) bool {
	for r.end-r.pos < n && !r.eof {
		if r.pos > 0 && (r.pos >= len(r.buf)/2 || r.end == len(r.buf)) {
			copy(r.buf, r.buf[r.pos:r.end])
			r.base += int64(r.pos)
			r.end -= r.pos
			r.pos = 0
		}
		if r.end == len(r.buf) {
			if len(r.buf) >= 2*MaxRecordBytes+readChunk {
				return false
			}
			grow := max(readChunk, n-(r.end-r.pos))
			nb := make([]byte, len(r.buf)+grow)
			copy(nb, r.buf[:r.end])
			r.buf = nb
		}
		m, err := r.src.Read(r.buf[r.end:])
		r.end += m
		r.read += int64(m)
		if err == io.EOF {
			r.eof = true
		} else if err != nil {
			r.eof, r.err = true, err
		}
	}
	return r.end-r.pos >= n
}

var (
	gzipMagic = []byte{0x1f, 0x8b, 0x08}
	warcMagic = []byte("WARC/")
)

// next returns the next record, io.EOF at the end of the input, or a *RecordError
// for a record it skipped (call next again to go on). Any other error is the
// input's own (a failed read), and ends the file.
func (r *warcReader) next() (*record, error) {
	if len(r.pending) > 0 {
		return r.fromPending()
	}
	r.fill(len(gzipMagic))
	if r.pos == r.end {
		if r.err != nil {
			return nil, r.err
		}
		return nil, io.EOF
	}
	at := r.buf[r.pos:r.end]
	switch {
	case bytes.HasPrefix(at, gzipMagic):
		return r.member()
	case bytes.HasPrefix(at, warcMagic):
		return r.plain()
	}
	// Neither a member nor a record: a file damaged here, or garbage between records.
	off := r.base + int64(r.pos)
	skipped := r.resync(0)
	if r.pos == r.end && r.err != nil {
		return nil, r.err
	}
	return nil, &RecordError{File: r.file, Offset: off, Err: fmt.Errorf("no WARC record here: %d bytes skipped", skipped)}
}

// resync moves past pos+from to the next byte that may start a record (a gzip
// member or a "WARC/" line), or to the end of the input, and returns how many
// bytes it passed.
func (r *warcReader) resync(from int) int64 {
	start := r.base + int64(r.pos)
	r.pos = min(r.pos+from+1, r.end)
	for {
		i := bytes.IndexAny(r.buf[r.pos:r.end], "\x1fW")
		if i < 0 {
			r.pos = r.end
			if r.eof {
				return r.base + int64(r.pos) - start
			}
			r.fill(readChunk)
			continue
		}
		r.pos += i
		r.fill(len(warcMagic))
		at := r.buf[r.pos:r.end]
		if bytes.HasPrefix(at, gzipMagic) || bytes.HasPrefix(at, warcMagic) {
			return r.base + int64(r.pos) - start
		}
		r.pos++
	}
}

// member reads the gzip member at pos, which holds one record (or several: a
// file compressed as one stream).
func (r *warcReader) member() (*record, error) {
	off := r.base + int64(r.pos)
	for {
		r.br.Reset(r.buf[r.pos:r.end])
		err := r.decode()
		if err == nil {
			r.pos += r.end - r.pos - r.br.Len()
			r.pending, r.pendOff = r.out, off
			return r.fromPending()
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			if have := r.end - r.pos; !r.eof {
				// As much as the window holds, or a chunk more when the member
				// fills it: each decoding again starts the member over.
				r.fill(max(have+1, min(have+readChunk, len(r.buf))))
				if r.end-r.pos > have {
					continue // the member goes on past the window: read more, decode again
				}
			}
			if !r.eof { // larger than the window may grow
				r.resync(0)
				return nil, &RecordError{File: r.file, Offset: off, Err: fmt.Errorf("record larger than %d bytes compressed", 2*MaxRecordBytes)}
			}
			err = fmt.Errorf("gzip member cut short: %w", io.ErrUnexpectedEOF)
		}
		r.resync(0)
		return nil, &RecordError{File: r.file, Offset: off, Err: err}
	}
}

// errTooLarge stops a member's decompression past MaxRecordBytes.
var errTooLarge = fmt.Errorf("record larger than %d bytes decompressed", MaxRecordBytes)

// decode decompresses the member in r.br into r.out.
func (r *warcReader) decode() error {
	var err error
	if r.zr == nil {
		r.zr, err = gzip.NewReader(&r.br)
	} else {
		err = r.zr.Reset(&r.br)
	}
	if err != nil {
		return err
	}
	r.zr.Multistream(false)
	r.out = r.out[:0]
	for {
		if cap(r.out)-len(r.out) < 32<<10 {
			if len(r.out) >= MaxRecordBytes {
				return errTooLarge
			}
			r.out = slices.Grow(r.out, 64<<10)
		}
		// Decompressed in place, past what the member gave so far.
		n, err := r.zr.Read(r.out[len(r.out):cap(r.out)])
		r.out = r.out[:len(r.out)+n]
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// fromPending returns the first record of r.pending, a member's decompressed data.
func (r *warcReader) fromPending() (*record, error) {
	data, off := r.pending, r.pendOff
	rec := &r.rec
	n, err := parseRecord(rec, data)
	if err != nil {
		r.pending = nil
		return nil, &RecordError{File: r.file, Offset: off, Err: err}
	}
	rec.offset = off
	r.pending = data[n:]
	if len(bytes.TrimLeft(r.pending, "\r\n")) == 0 {
		r.pending = nil
	}
	return rec, nil
}

// plain reads the uncompressed record at pos.
func (r *warcReader) plain() (*record, error) {
	off := r.base + int64(r.pos)
	for n := 4 << 10; ; n *= 2 {
		ok := r.fill(n)
		rec := &r.rec
		size, err := parseRecord(rec, r.buf[r.pos:r.end])
		if err == nil {
			rec.offset = off
			r.pos += size
			return rec, nil
		}
		var short *shortError
		if errors.As(err, &short) && !r.eof {
			if short.need > 0 {
				n = max(n, short.need)
			}
			if ok || r.fill(n) {
				continue
			}
		}
		r.resync(0)
		return nil, &RecordError{File: r.file, Offset: off, Err: err}
	}
}

// header is what parseRecord has read of a record's header so far.
type header struct {
	rec    *record
	length int   // Content-Length, -1 until read
	err    error // the first line that is wrong
}

// read reads one line of a record's header (not empty, without its line end), and
// reports whether it is a field or a continuation line.
func (h *header) read(line []byte) bool {
	rec := h.rec
	colon := bytes.IndexByte(line, ':')
	if colon < 0 {
		// A continuation line, of no field read here, or not a field.
		return len(bytes.TrimSpace(line)) == 0 || line[0] == ' ' || line[0] == '\t'
	}
	name, value := line[:colon], line[colon+1:] // value trimmed where read
	// The names by length, then by a byte that tells those of one length apart: a
	// record has a dozen fields, six are read. Each is compared as spelt first, which
	// the compiler does in a few loads (a constant, not equalFold's argument).
	switch len(name) {
	case len("WARC-Type"): // and WARC-Date
		switch name[5] | 0x20 {
		case 't':
			if string(name) == "WARC-Type" || foldEqual(name, "WARC-Type") {
				if len(rec.typ) > 0 {
					h.err = errors.New("two WARC-Type fields: a record cut short, then another")
				}
				rec.typ = trimSpace(value)
			}
		case 'd':
			if string(name) == "WARC-Date" || foldEqual(name, "WARC-Date") {
				rec.date = trimSpace(value)
			}
		}
	case len("WARC-Target-URI"): // and WARC-IP-Address
		if name[5]|0x20 == 't' && (string(name) == "WARC-Target-URI" || foldEqual(name, "WARC-Target-URI")) {
			rec.uri = bytes.TrimSuffix(bytes.TrimPrefix(trimSpace(value), []byte("<")), []byte(">"))
		}
	case len("Content-Type"):
		if name[0]|0x20 == 'c' && (string(name) == "Content-Type" || foldEqual(name, "Content-Type")) {
			rec.contentType = trimSpace(value)
		}
	case len("Content-Length"): // and WARC-Truncated, WARC-Record-ID
		switch name[5] | 0x20 {
		case 'n':
			if string(name) == "Content-Length" || foldEqual(name, "Content-Length") {
				value = trimSpace(value)
				n, err := atoi(value)
				if err != nil || n < 0 {
					h.err = fmt.Errorf("invalid Content-Length %q", value)
					return true
				}
				h.length = n
			}
		case 't':
			if string(name) == "WARC-Truncated" || foldEqual(name, "WARC-Truncated") {
				rec.truncated = trimSpace(value)
			}
		}
	}
	return true
}

// atoi is strconv.Atoi of b, with a number of up to 18 digits (a length, as
// almost always) read without a call.
func atoi(b []byte) (int, error) {
	if len(b) == 0 || len(b) > 18 {
		return strconv.Atoi(string(b))
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return strconv.Atoi(string(b))
		}
		n = n*10 + int(c-'0')
	}
	return n, nil
}

// trimSpace is bytes.TrimSpace, with one space after the colon, as values are
// written, passed over without a call.
func trimSpace(b []byte) []byte {
	if len(b) > 1 && b[0] == ' ' {
		b = b[1:]
	}
	if len(b) == 0 || trimEdge[b[0]] || trimEdge[b[len(b)-1]] {
		return bytes.TrimSpace(b)
	}
	return b
}

// trimEdge holds the bytes that bytes.TrimSpace may trim at an edge of a value:
// ASCII white space, and those of characters beyond ASCII.
var trimEdge = func() (t [256]bool) {
	for _, c := range "\t\n\v\f\r " {
		t[c] = true
	}
	for c := utf8.RuneSelf; c < 256; c++ {
		t[c] = true
	}
	return t
}()

// shortError says that data ends before the record does; need is how many bytes
// the record takes when known.
type shortError struct {
	need int
	what string
}

func (e *shortError) Error() string { return e.what }

// parseRecord reads into rec the record at the start of data: its version line,
// header fields and block. It returns the bytes the record takes, with the
// CRLF CRLF that ends it.
//
// The header ends at the first CRLF CRLF of data or, when there is none, at the
// first LF LF (bare LF, which lenient readers take). Its lines are read in the one
// pass that looks for its end: past an LF LF the pass goes on in case a CRLF CRLF
// follows, and what it read there is dropped if none does.
func parseRecord(rec *record, data []byte) (int, error) {
	if !bytes.HasPrefix(data, warcMagic) {
		return 0, errors.New("not a WARC record: no \"WARC/\" version line")
	}
	*rec = record{}
	h := header{rec: rec, length: -1}
	var atLF header // as it was at the first LF LF
	var atLFRec record
	hdrEnd, sep, lfEnd := -1, 0, -1
	// Each line is read without its line end, LF or CR LF: an empty line may end the
	// header, and no other line needs its CR (white space around a value is trimmed).
	for start := bytes.IndexByte(data, '\n') + 1; start > 0; { // past the version line
		i := bytes.IndexByte(data[start:], '\n')
		if i < 0 {
			break
		}
		nl := start + i
		line := data[start:nl]
		if i > 0 && line[i-1] == '\r' {
			line = line[:i-1]
		}
		if len(line) > 0 {
			if h.err == nil && !h.read(line) {
				// Not a field: the header of a record cut short, then another record's.
				// The line as it is, with its CR but for the header's last line.
				if !(data[nl-1] == '\r' && len(data) >= nl+3 && data[nl+1] == '\r' && data[nl+2] == '\n') {
					line = data[start:nl]
				}
				h.err = fmt.Errorf("WARC header line %q is not a field", truncate(line, 40))
			}
		} else if i == 1 && data[start-2] == '\r' { // the CR LF CR LF that ends the header
			hdrEnd, sep = start-2, 4
			break
		} else if i == 0 && lfEnd < 0 { // the first LF LF
			lfEnd, atLF, atLFRec = start-1, h, *rec
		}
		start = nl + 1
	}
	if hdrEnd < 0 && lfEnd >= 0 {
		hdrEnd, sep, h, *rec = lfEnd, 2, atLF, atLFRec
	}
	if hdrEnd < 0 {
		if len(data) > maxHeaderBytes {
			return 0, fmt.Errorf("WARC header longer than %d bytes", maxHeaderBytes)
		}
		return 0, &shortError{what: "WARC header cut short"}
	}
	if h.err != nil {
		return 0, h.err
	}
	length := h.length
	if length < 0 {
		return 0, errors.New("WARC header without Content-Length")
	}
	if length > MaxRecordBytes {
		return 0, fmt.Errorf("record block of %d bytes, more than %d", length, MaxRecordBytes)
	}
	start := hdrEnd + sep
	if len(data)-start < length {
		return 0, &shortError{need: start + length + 4, what: fmt.Sprintf("record cut short: Content-Length %d, %d bytes", length, len(data)-start)}
	}
	rec.block = data[start : start+length]
	n := start + length
	// The record ends with CRLF CRLF (LF LF in files written by lenient tools):
	// anything else means that the block is not as long as Content-Length says, a
	// record cut short and followed by the next.
	switch rest := data[n:]; {
	case bytes.HasPrefix(rest, []byte("\r\n\r\n")):
		n += 4
	case bytes.HasPrefix(rest, []byte("\n\n")):
		n += 2
	case len(rest) < 4 && (bytes.HasPrefix([]byte("\r\n\r\n"), rest) || bytes.HasPrefix([]byte("\n\n"), rest)):
		return 0, &shortError{need: n + 4, what: "record cut short before its end (CRLF CRLF)"}
	default:
		return 0, fmt.Errorf("no CRLF CRLF after the block of Content-Length %d: the record is cut short or its length is wrong", length)
	}
	return n, nil
}

// equalFold reports whether b is name, ignoring ASCII case.
func equalFold(b []byte, name string) bool {
	return string(b) == name || foldEqual(b, name)
}

// foldEqual is equalFold, byte by byte.
func foldEqual(b []byte, name string) bool {
	if len(b) != len(name) {
		return false
	}
	for i := range len(b) {
		c, d := b[i], name[i]
		if c|0x20 != d|0x20 || (c|0x20 < 'a' || c|0x20 > 'z') && c != d {
			return false
		}
	}
	return true
}

// truncate returns b's first n bytes.
func truncate(b []byte, n int) []byte { return b[:min(len(b), n)] }
