package fetch

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// fetched is the raw story of one fetch, before the policy and the cache read it.
type fetched struct {
	status    int // of the last response; 0 if none came
	hops      []Hop
	body      string
	bytesRead int64
	wireBytes int64
	truncated bool
	encoding  string
	header    http.Header // of the last response, for Cache-Control and Retry-After

	// failed: a network failure or invalid response (always Unreachable).
	failed bool
	// classifyAs is the status the policy reads: status itself, or 404 for a
	// redirect chain that cannot be followed.
	classifyAs int
	err        error
	// kind classifies err; KindNone leaves it to kindOf.
	kind ErrorKind
	// addrs are the remote addresses the fetch's requests went to, in order.
	addrs []string
}

// protocolKind classifies an error of an HTTP exchange or a body read: network
// failures by their type, anything else as an invalid response.
func protocolKind(err error) ErrorKind {
	if k := kindOf(err); k != KindOther {
		return k
	}
	return KindResponse
}

// maxHeaderBytes bounds the response headers of a robots.txt request: far more than
// any real server sends, small enough that a hostile one cannot use memory with them.
const maxHeaderBytes = 64 << 10

// maxRedirectBody bounds what is read from a redirect's body so that its connection
// can be reused; past it the connection is closed instead.
const maxRedirectBody = 4 << 10

func (c *Client) newHTTPClient() *http.Client {
	tr := &http.Transport{
		Proxy:                  c.cfg.Proxy,
		DialContext:            c.dialContext,
		TLSClientConfig:        c.cfg.TLSConfig,
		TLSHandshakeTimeout:    c.cfg.ConnectTimeout,
		DisableCompression:     true, // decompressed here, with the size limit
		MaxResponseHeaderBytes: maxHeaderBytes,
		MaxIdleConns:           256,
		MaxIdleConnsPerHost:    2,
		IdleConnTimeout:        30 * time.Second,
		ForceAttemptHTTP2:      true,
	}
	var rt http.RoundTripper = tr
	if c.cfg.HTTP != nil {
		rt = c.cfg.HTTP
	}
	return &http.Client{
		Transport: rt,
		// Redirects are followed by fetchHTTP, which records each hop.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

func (c *Client) fetchHTTP(ctx context.Context, robotsURL string) *fetched {
	return c.getHTTP(ctx, robotsURL, c.cfg.MaxBytes)
}

// getHTTP is the access method for any document the client reads (robots.txt, an RSL
// licence): a GET by the client's transport and dialer, redirects followed one hop at
// a time up to the policy's limit, the body decoded and read up to limit bytes.
func (c *Client) getHTTP(ctx context.Context, robotsURL string, limit int) *fetched {
	f := &fetched{}
	// Every connection a request goes out on, new or reused, is recorded: the
	// stores keep the addresses so that a client with WithAddrCheck can tell what
	// another process fetched from where. GotConn runs within Do; the lock is for
	// transports that might call it elsewhere.
	var mu sync.Mutex
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
		mu.Lock()
		defer mu.Unlock()
		f.addrs = append(f.addrs, info.Conn.RemoteAddr().String())
	}})
	c.follow(f, robotsURL, limit, func(next string) (reply, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, next, nil)
		if err != nil {
			return reply{}, &requestError{err}
		}
		req.Header.Set("User-Agent", c.userAgentOf(ctx))
		req.Header.Set("Accept-Encoding", "gzip, deflate")
		resp, err := c.http.Do(req)
		if err != nil {
			return reply{}, err
		}
		return reply{status: resp.StatusCode, header: resp.Header, body: resp.Body, size: resp.ContentLength, reqURL: req.URL}, nil
	})
	return f
}

// requestError is a request that could not be made (an invalid URL): no hop.
type requestError struct{ err error }

func (e *requestError) Error() string { return e.err.Error() }

// A reply is one response as follow reads it: from the network, its body a
// stream (body), or as an archive recorded it (Recorded, body nil).
type reply struct {
	status   int
	header   http.Header
	body     io.ReadCloser
	size     int64    // body's Content-Length, -1 when unknown
	recorded string   // the recorded body, when body is nil
	reqURL   *url.URL // the URL asked for, parsed; nil: follow parses it when a redirect needs it
}

// follow is the access method's reading of the responses of one fetch, wherever
// they come from (the web through getHTTP, an archive through Replay): do answers
// the GET of each URL, from robotsURL on. A 3xx is followed to its Location up to
// the policy's MaxRedirects, a loop or a redirect that cannot be followed read as
// 404; a 2xx body is decoded and read up to limit bytes.
func (c *Client) follow(f *fetched, robotsURL string, limit int, do func(next string) (reply, error)) {
	next := robotsURL
	for hop := 0; ; hop++ {
		resp, err := do(next)
		if re, ok := err.(*requestError); ok {
			f.failed, f.err = true, re.err
			return
		}
		if err != nil {
			f.hops = append(f.hops, Hop{URL: next})
			f.failed, f.err, f.kind = true, err, protocolKind(err)
			return
		}
		f.hops = append(f.hops, Hop{URL: next, Status: resp.status})
		f.status, f.header = resp.status, resp.header
		if resp.status < 300 || resp.status > 399 {
			if resp.body != nil {
				defer resp.body.Close()
			}
			f.classifyAs = resp.status
			if resp.status >= 200 && resp.status <= 299 {
				f.encoding = headerValue(resp.header, "Content-Encoding")
				if resp.body != nil {
					f.body, f.bytesRead, f.wireBytes, f.truncated, err = readBody(resp.body, f.encoding, limit, resp.size)
				} else {
					f.body, f.bytesRead, f.wireBytes, f.truncated, err = readRecorded(resp.recorded, f.encoding, limit)
				}
				if err != nil {
					f.failed, f.err, f.kind = true, fmt.Errorf("reading body of %s: %w", next, err), protocolKind(err)
				}
			}
			return
		}
		if resp.body != nil {
			io.Copy(io.Discard, io.LimitReader(resp.body, maxRedirectBody))
			resp.body.Close()
		}
		if limit := c.cfg.Policy.MaxRedirects; hop == limit {
			f.classifyAs, f.err, f.kind = http.StatusNotFound, fmt.Errorf("%w: more than %d", ErrTooManyRedirects, limit), KindTooManyRedirects
			return
		}
		reqURL := resp.reqURL
		if reqURL == nil {
			// Parsed as http.NewRequest parses it, so that Location resolves as
			// against a request's URL.
			req, err := http.NewRequest(http.MethodGet, next, nil)
			if err != nil {
				f.classifyAs, f.err, f.kind = http.StatusNotFound, err, KindBadRedirect
				return
			}
			reqURL = req.URL
		}
		target, err := redirectTarget(resp, reqURL)
		if err != nil {
			f.classifyAs, f.err, f.kind = http.StatusNotFound, err, KindBadRedirect
			return
		}
		if slices.ContainsFunc(f.hops, func(h Hop) bool { return h.URL == target }) {
			f.classifyAs, f.err, f.kind = http.StatusNotFound, fmt.Errorf("%w: a loop, back to %s", ErrTooManyRedirects, target), KindTooManyRedirects
			return
		}
		next = target
	}
}

// headerValue is h.Get(key) for a key in canonical form, as every key here is: the
// map read without canonicalizing the key again, which cost 0.5% of robots corpus's
// instructions through the three fields every fetch reads.
func headerValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// redirectTarget resolves a redirect's Location against the URL that answered it.
func redirectTarget(resp reply, from *url.URL) (string, error) {
	loc := headerValue(resp.header, "Location")
	if loc == "" {
		return "", fmt.Errorf("redirect %d from %s without Location", resp.status, from)
	}
	u, err := from.Parse(loc)
	if err != nil {
		return "", fmt.Errorf("redirect from %s: invalid Location %q", from, loc)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("redirect from %s to %q: only http and https are followed", from, loc)
	}
	u.Fragment = ""
	return u.String(), nil
}

// readRecorded is readBody for a body an archive recorded, held in memory: sent as
// is, it is the text itself up to limit bytes (the string shared, not copied); an
// encoded one is decoded by readBody.
func readRecorded(body, encoding string, limit int) (text string, decoded, wire int64, truncated bool, err error) {
	if e := strings.ToLower(strings.TrimSpace(encoding)); e != "" && e != "identity" {
		return readBody(strings.NewReader(body), encoding, limit, int64(len(body)))
	}
	wire = int64(min(len(body), limit+1))
	if len(body) > limit {
		return body[:limit], int64(limit), wire, true, nil
	}
	return body, int64(len(body)), wire, false, nil
}

// readBody reads at most limit bytes of body, decoded. It reads at most limit+1
// bytes from the wire and keeps at most limit+1 decoded bytes: the one extra byte
// only tells whether the body went on (truncated), so that a gzip bomb or an endless
// body costs no more than the limit. size is the body's Content-Length (-1 when
// unknown): a body sent as is is read into one buffer of that size (at most
// limit+1 bytes), not grown by doubling.
func readBody(body io.Reader, encoding string, limit int, size int64) (text string, decoded, wire int64, truncated bool, err error) {
	cr := &countingReader{r: io.LimitReader(body, int64(limit)+1)}
	var r io.Reader = cr
	capacity := 0
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "", "identity":
		if size >= 0 {
			capacity = int(min(size, int64(limit))) + 1 // room for the EOF read
		}
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(cr)
		if err != nil {
			return "", 0, cr.n, false, fmt.Errorf("gzip: %w", err)
		}
		defer zr.Close()
		r = zr
	case "deflate":
		// HTTP's deflate is zlib-wrapped, but some servers send raw deflate.
		br := bufio.NewReader(cr)
		if h, err := br.Peek(2); err == nil && h[0]&0x0f == 8 && (uint16(h[0])<<8|uint16(h[1]))%31 == 0 {
			zr, err := zlib.NewReader(br)
			if err != nil {
				return "", 0, cr.n, false, fmt.Errorf("deflate: %w", err)
			}
			defer zr.Close()
			r = zr
		} else {
			fr := flate.NewReader(br)
			defer fr.Close()
			r = fr
		}
	default:
		return "", 0, 0, false, fmt.Errorf("unsupported Content-Encoding %q", encoding)
	}
	data, err := readAll(io.LimitReader(r, int64(limit)+1), capacity)
	wireCut := cr.n > int64(limit)
	if len(data) > limit || wireCut {
		// Cut at the limit: a decoder stopped mid-stream by the wire limit reports
		// an unexpected EOF, which only means the body went on.
		data, truncated, err = data[:min(len(data), limit)], true, nil
	}
	if err != nil {
		return "", int64(len(data)), cr.n, false, err
	}
	// A string, which no one can write into: the result and the rules parsed from it
	// share it (robots.ParseString). The copy is also the one the body needs anyway to
	// be kept (cached) at its size, as ReadAll's buffer grows by doubling.
	return string(data), int64(len(data)), cr.n, truncated, nil
}

// readAll is io.ReadAll into a buffer of n bytes to start with (io.ReadAll's
// own when n is 0).
func readAll(r io.Reader, n int) ([]byte, error) {
	if n <= 0 {
		return io.ReadAll(r)
	}
	b := make([]byte, 0, n)
	for {
		m, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+m]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
