package accesslog

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Limits of the reader.
const (
	// MaxLineBytes is the longest line read. A request line is at most a few KiB
	// (nginx refuses more than 8 KiB by default, Apache 8,190 bytes), so a longer line
	// is not a log line: it is skipped and reported, and reading goes on after it.
	MaxLineBytes = 64 << 10

	// bufferBytes is the read buffer: a line must fit in it (it holds MaxLineBytes and
	// a line end), and a larger one costs fewer reads.
	bufferBytes = 256 << 10

	// sniffBytes is how much of a file's start is looked at to tell a binary file.
	sniffBytes = 512
)

// Errors. A *LineError wraps one of the first three; ErrBinary and the errors of
// reading (a broken gzip stream) end a file.
var (
	// ErrFormat is a line in none of the formats read (see the package doc).
	ErrFormat = errors.New("not a line of a known log format")
	// ErrLineTooLong is a line over MaxLineBytes.
	ErrLineTooLong = fmt.Errorf("line longer than %d KiB", MaxLineBytes>>10)
	// ErrBinaryLine is a line holding NUL bytes.
	ErrBinaryLine = errors.New("binary data (NUL bytes) in the line")
	// ErrBinary is a file whose first bytes hold NUL bytes: not a text log.
	ErrBinary = errors.New("binary file, not a text log")
	// ErrTooLarge is a log longer than the Reader's limit (see NewReaderLimit).
	ErrTooLarge = errors.New("log longer than the limit")
)

// LineError is a line that was skipped. Reading goes on after it.
type LineError struct {
	Line int64 // 1-based
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// Record is one request of a log. Its byte slices point into the Reader's buffer and
// are valid until the next call to Next.
type Record struct {
	Time time.Time
	// Resolution is the precision of Time as logged: a second for the Common Log
	// Format, less for JSON logs with fractions of seconds.
	Resolution time.Duration
	Addr       []byte // the client address, as logged
	Method     []byte
	Target     []byte // the request target as sent: "/a?b", or an absolute URL
	Host       []byte // the Host of the request when the log has it (JSON logs)
	UserAgent  []byte
	Status     int // 0 when not logged
	// Header holds the request headers of a JSON log that records them (Caddy's
	// request.headers, Cloudflare's RequestHeaders), nil otherwise.
	Header http.Header
}

// Reader reads the records of one access log: Common or Combined Log Format lines,
// or JSON lines in the shape of Caddy's access log or Cloudflare Logpush, mixed
// freely, from a plain or gzip-compressed stream (told by its first bytes). It holds
// one buffer of a few hundred KiB whatever the log's size.
type Reader struct {
	src   io.Reader
	limit int64 // bytes read at most, after decompression; 0 for no limit
	br    *bufio.Reader
	gz    *gzip.Reader
	line  int64
	err   error // sticky: the error that ended the stream
	init  bool
	rec   Record
	tc    timeCache
}

// NewReader returns a Reader of the log r.
func NewReader(r io.Reader) *Reader {
	return &Reader{src: r}
}

// NewReaderLimit returns a Reader of the log r that reads at most limit bytes of
// it, counted after decompression (a small gzip stream can hold a great deal), and
// ends with ErrTooLarge past them.
func NewReaderLimit(r io.Reader, limit int64) *Reader {
	return &Reader{src: r, limit: limit}
}

// limited ends a stream with ErrTooLarge past n bytes.
type limited struct {
	r io.Reader
	n int64
}

func (l *limited) Read(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, ErrTooLarge
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.r.Read(p)
	l.n -= int64(n)
	return n, err
}

// Line returns the number of the last line read.
func (r *Reader) Line() int64 { return r.line }

// Compressed reports whether the stream is gzip-compressed; it is known after the
// first call to Next.
func (r *Reader) Compressed() bool { return r.gz != nil }

func (r *Reader) start() error {
	r.init = true
	br := bufio.NewReaderSize(r.src, bufferBytes)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return fmt.Errorf("gzip: %w", err)
		}
		r.gz = gz
		br = bufio.NewReaderSize(gz, bufferBytes)
	}
	if r.limit > 0 {
		br = bufio.NewReaderSize(&limited{r: br, n: r.limit}, bufferBytes)
	}
	r.br = br
	head, err := br.Peek(sniffBytes)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return r.readError(err)
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return ErrBinary
	}
	return nil
}

// readError names what went wrong reading the stream.
func (r *Reader) readError(err error) error {
	if errors.Is(err, ErrTooLarge) {
		return fmt.Errorf("%w of %d bytes after line %d: the rest is not read", ErrTooLarge, r.limit, r.line)
	}
	if r.gz != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("gzip stream truncated after line %d", r.line)
		}
		return fmt.Errorf("gzip stream broken after line %d: %w", r.line, err)
	}
	return fmt.Errorf("after line %d: %w", r.line, err)
}

// Next returns the next record. At the end of the stream it returns io.EOF. A line
// that cannot be read gives a *LineError, and the next call goes on after it; any
// other error ends the stream (a broken gzip stream, a binary file, a failed read)
// and is returned again by every later call. Blank lines are passed over.
func (r *Reader) Next() (*Record, error) {
	if r.err != nil {
		return nil, r.err
	}
	if !r.init {
		if err := r.start(); err != nil {
			r.err = err
			return nil, err
		}
	}
	for {
		line, err := r.br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			r.line++
			n := r.line
			if err := r.discardLine(); err != nil {
				r.err = err
			}
			return nil, &LineError{Line: n, Err: ErrLineTooLong}
		}
		if err != nil {
			if err != io.EOF {
				// The partial line before a broken stream is not read: it may be cut.
				r.err = r.readError(err)
				return nil, r.err
			}
			if len(line) == 0 {
				r.err = io.EOF
				return nil, io.EOF
			}
		}
		r.line++
		line = trimEOL(line)
		if len(line) == 0 {
			if err == io.EOF {
				r.err = io.EOF
				return nil, io.EOF
			}
			continue
		}
		if len(line) > MaxLineBytes {
			return nil, &LineError{Line: r.line, Err: ErrLineTooLong}
		}
		if bytes.IndexByte(line, 0) >= 0 {
			return nil, &LineError{Line: r.line, Err: ErrBinaryLine}
		}
		r.rec = Record{}
		var perr error
		// A JSON object; a Common Log Format line ends in a quote or a digit.
		if line[0] == '{' && line[len(line)-1] == '}' {
			perr = r.parseJSON(line)
		} else {
			perr = r.parseCLF(line)
		}
		if perr != nil {
			return nil, &LineError{Line: r.line, Err: perr}
		}
		return &r.rec, nil
	}
}

// discardLine reads up to the end of an overlong line.
func (r *Reader) discardLine() error {
	for {
		_, err := r.br.ReadSlice('\n')
		switch {
		case err == nil || err == io.EOF:
			return nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return r.readError(err)
		}
	}
}

func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}
