package serve

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Admission: the requests whose answers are large or costly (checks, GET
// /v1/robots, POST /v1/lint) are answered at most Config.MaxBatches at once, each
// holding its place from the start of its work to its last byte written, so that
// answers whose clients are slow to read (or never read) hold a bounded amount of
// memory. A place is held by work, not by a client slow to send: the body is read
// first, at least MinBodyRate bytes a second after BodyGrace, and only then is a
// place taken. A request past the bound is answered 503 at once, with Retry-After.

// BodyGrace is the time a request body may take before MinBodyRate applies: a client
// that connects over a slow link is not cut while its first bytes are on the way.
const BodyGrace = 5 * time.Second

// DefaultMinBodyRate is the slowest a request body may come, after BodyGrace: a
// client sending the largest body (DefaultMaxBodyBytes) at this rate takes four
// minutes, and is cut at ReadTimeout; one sending a byte every few seconds, to hold
// a connection, is cut at BodyGrace.
const DefaultMinBodyRate = 16 << 10

// preread is a request body read before the request was admitted.
type preread struct {
	b   []byte
	off int
}

func (p *preread) Read(b []byte) (int, error) {
	if p.off >= len(p.b) {
		return 0, io.EOF
	}
	n := copy(b, p.b[p.off:])
	p.off += n
	return n, nil
}

func (p *preread) Close() error { return nil }

// readBodyFirst reads r's body (already bounded by MaxBodyBytes) whole, at least
// MinBodyRate bytes a second after BodyGrace and within ReadTimeout, and puts it back
// in r as a preread. A body that comes slower is answered 408.
func (s *Server) readBodyFirst(w http.ResponseWriter, r *http.Request) error {
	if r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	rc := http.NewResponseController(w)
	start := time.Now()
	end := start.Add(ReadTimeout)
	n := r.ContentLength
	if n < 0 || n > s.cfg.MaxBodyBytes {
		n = 512
	}
	buf := make([]byte, 0, n+1) // room to see EOF without growing
	for {
		due := start.Add(BodyGrace + time.Duration(float64(len(buf))/float64(s.cfg.MinBodyRate)*float64(time.Second)))
		// An error means the writer cannot set deadlines (a test recorder): the
		// server's ReadTimeout still bounds the body.
		_ = rc.SetReadDeadline(earliest(due, end))
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		m, err := r.Body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		if err == io.EOF {
			break
		}
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return err
			}
			if errors.Is(err, os.ErrDeadlineExceeded) {
				s.metrics.slowBodies.Inc()
				return errorf(http.StatusRequestTimeout, "the request body came slower than %d bytes a second after %v (the server's -min-body-rate), or took longer than %v: %d bytes read",
					s.cfg.MinBodyRate, BodyGrace, ReadTimeout, len(buf))
			}
			return errorf(http.StatusBadRequest, "reading the request body: %v", err)
		}
	}
	r.Body = &preread{b: buf}
	return nil
}

// takePlace takes one of MaxBatches places, or says why not (503 with Retry-After).
func (s *Server) takePlace() (release func(), err error) {
	return takeOne(s.batches, s.metrics.rejected, 1, func() string {
		return fmt.Sprintf("%d checks, lints and robots.txt answers are being answered, the server's limit (-max-batches): retry in a second", cap(s.batches))
	})
}

// takeOne takes one of places, or counts the refusal in rejected and says why
// not: 503 with Retry-After retryAfter seconds and the message busy().
func takeOne(places chan struct{}, rejected prometheus.Counter, retryAfter int, busy func() string) (release func(), err error) {
	select {
	case places <- struct{}{}:
		return func() { <-places }, nil
	default:
		rejected.Inc()
		return nil, &httpError{code: http.StatusServiceUnavailable, retryAfter: retryAfter, msg: busy()}
	}
}

func earliest(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// DefaultFileWorkBytes bounds the robots.txt bytes being linted (POST /v1/lint),
// described (GET /v1/robots) or tested (the tester's Test) at once. Either holds
// some hundreds of bytes per byte of the file at worst: one file of 255,000 bad lines
// (510 KB) made 44 MB of findings and 39 MB of diagnostics, and its lint a heap peak
// some 230 MiB higher (cd bench && go run ./cmd/attack -scenarios answers). So one
// file of the largest size crawlers read (500 KiB) at a time, or a hundred of
// common ones; a larger file is 413.
const DefaultFileWorkBytes = 768 << 10

// takeFileWork counts n bytes of file against FileWorkBytes, or says why not: 413
// for a file larger than the whole budget, 503 with Retry-After while others hold it.
func (s *Server) takeFileWork(n int) (release func(), err error) {
	if n > s.cfg.FileWorkBytes {
		return nil, errorf(http.StatusRequestEntityTooLarge, "a robots.txt file of %d bytes, more than the server lints or describes at once (-file-work-bytes %d)", n, s.cfg.FileWorkBytes)
	}
	w := int64(max(n, 1))
	if !s.fileWork.TryAcquire(w) {
		s.metrics.rejected.Inc()
		return nil, &httpError{code: http.StatusServiceUnavailable, retryAfter: 1,
			msg: fmt.Sprintf("%d bytes of robots.txt files are being linted or described, the server's limit (-file-work-bytes): retry in a second", s.cfg.FileWorkBytes)}
	}
	return func() { s.fileWork.Release(w) }, nil
}
