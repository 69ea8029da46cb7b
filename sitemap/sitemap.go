// Package sitemap reads sitemap files as sitemaps.org defines them: a <urlset> that
// lists a site's URLs, or a <sitemapindex> that lists other sitemaps.
//
// A [Reader] streams a file: it returns one <loc> at a time, so that memory stays
// flat however many URLs a file lists, and it enforces the protocol's limits per
// file ([MaxURLs] URLs, [MaxBytes] bytes uncompressed). A gzip-compressed file is
// recognised by its magic bytes, whatever its name or Content-Type. An error in the
// XML is a [*SyntaxError] naming the line and the byte offset (in the uncompressed
// text) where the file breaks.
//
// Only the <loc> of each <url> (or <sitemap>) is read: lastmod, changefreq,
// priority and the extensions' elements (image:loc, video:…) are skipped. The
// namespace is not enforced, as search engines do not enforce it either.
package sitemap

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// The limits of sitemaps.org for one file: "no more than 50,000 URLs and must be no
// larger than 50MB (52,428,800 bytes)" uncompressed. Search engines ignore what is
// past them, and so does a Reader with the default limits.
const (
	MaxURLs  = 50000
	MaxBytes = 50 << 20
)

// MaxLocBytes is the longest <loc> sitemaps.org allows ("less than 2,048
// characters"); a longer one is returned with [ErrLongLoc].
const MaxLocBytes = 2048

// Kind is the root element of a sitemap file.
type Kind string

const (
	URLSet Kind = "urlset"       // lists URLs of the site
	Index  Kind = "sitemapindex" // lists sitemaps
)

// Limits bounds one file. A zero field takes the sitemaps.org value.
type Limits struct {
	URLs  int   // <loc> entries read (MaxURLs)
	Bytes int64 // bytes of XML read, after decompression (MaxBytes)
}

// Errors a Reader returns; match them with errors.Is.
var (
	// ErrTooManyURLs: the file lists more entries than Limits.URLs. The entries up to
	// the limit were returned.
	ErrTooManyURLs = errors.New("more URLs than the limit")
	// ErrTooLarge: the file is longer than Limits.Bytes uncompressed. The entries
	// before the limit were returned.
	ErrTooLarge = errors.New("larger than the limit")
	// ErrNotSitemap: the root element is neither <urlset> nor <sitemapindex> (an HTML
	// page, an RSS feed, a text file).
	ErrNotSitemap = errors.New("not a sitemap (root element is not urlset or sitemapindex)")
	// ErrLongLoc marks an entry longer than MaxLocBytes (Loc is cut there); Entry.Err holds it and
	// reading goes on.
	ErrLongLoc = errors.New("longer than 2,048 characters")
	// ErrNoLoc marks an entry without <loc>; Entry.Err holds it and reading goes on.
	ErrNoLoc = errors.New("no <loc>")
)

// SyntaxError is where a file stops being well-formed XML (or a sitemap): the line
// (1-based) and the byte offset, in the uncompressed text, that the XML decoder had
// reached.
type SyntaxError struct {
	Line   int
	Offset int64
	Err    error
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, byte %d: %v", e.Line, e.Offset, e.Err)
}

func (e *SyntaxError) Unwrap() error { return e.Err }

// Entry is one <loc> of a file: a page's URL in a urlset, a sitemap's URL in an
// index. Loc is the text with surrounding white space removed and XML entities
// decoded; it is not checked to be a URL. Line is the line of its <loc> (of its
// <url> or <sitemap> when it has none). An entry is returned once its <url> (or
// <sitemap>) element closes.
type Entry struct {
	Loc  string
	Line int
	Err  error // ErrLongLoc, or nil
}

// Reader reads the entries of one sitemap file. It is not safe for concurrent use.
type Reader struct {
	dec     *xml.Decoder
	count   *countingReader
	lim     Limits
	kind    Kind
	gzip    bool
	n       int
	depth   int    // element nesting; the root is 1
	parent  string // local name of the element at depth 2 ("url", "sitemap"), while inside it
	inLoc   bool
	haveLoc bool // the current entry's <loc> was read
	loc     bytes.Buffer
	locAt   int
	tokLine int // where the token being read starts
	tokOff  int64
	err     error // sticky
}

// NewReader returns a Reader of r. It reads the first bytes to tell gzip from plain
// XML; the root element is read by the first call to Next (see Kind).
func NewReader(r io.Reader, lim Limits) (*Reader, error) {
	if lim.URLs <= 0 {
		lim.URLs = MaxURLs
	}
	if lim.Bytes <= 0 {
		lim.Bytes = MaxBytes
	}
	br := bufio.NewReaderSize(r, 32<<10)
	rd := &Reader{lim: lim}
	magic, _ := br.Peek(2)
	var src io.Reader = br
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, &SyntaxError{Line: 1, Offset: 0, Err: fmt.Errorf("gzip: %w", err)}
		}
		zr.Multistream(true)
		rd.gzip = true
		src = bufio.NewReaderSize(zr, 32<<10)
	}
	rd.count = &countingReader{r: src, limit: lim.Bytes}
	rd.dec = xml.NewDecoder(rd.count)
	rd.dec.Strict = true
	// Sitemaps must be UTF-8; a declaration naming another encoding is read as such
	// only for the spellings of UTF-8 and ASCII, which need no conversion.
	rd.dec.CharsetReader = func(label string, in io.Reader) (io.Reader, error) {
		switch strings.ToLower(label) {
		case "utf-8", "utf8", "us-ascii", "ascii":
			return in, nil
		}
		return nil, fmt.Errorf("encoding %q: sitemaps must be UTF-8", label)
	}
	return rd, nil
}

// Kind returns the root element, once Next has read it ("" before, or when the
// file is not a sitemap).
func (r *Reader) Kind() Kind { return r.kind }

// Gzip reports whether the file was gzip-compressed.
func (r *Reader) Gzip() bool { return r.gzip }

// Bytes returns the bytes of XML read so far, after decompression.
func (r *Reader) Bytes() int64 { return r.count.n }

// Count returns the entries returned so far.
func (r *Reader) Count() int { return r.n }

// Next returns the next entry, io.EOF after the last one, or an error: a
// [*SyntaxError] (wrapping [ErrNotSitemap] for a root that is not a sitemap's),
// [ErrTooManyURLs], [ErrTooLarge], or the error of the underlying reader. Errors are
// sticky.
func (r *Reader) Next() (Entry, error) {
	if r.err != nil {
		return Entry{}, r.err
	}
	e, err := r.next()
	if err != nil {
		r.err = err
	}
	return e, err
}

func (r *Reader) next() (Entry, error) {
	for {
		r.tokLine, _ = r.dec.InputPos()
		r.tokOff = r.dec.InputOffset()
		tok, err := r.dec.Token()
		if err != nil {
			return Entry{}, r.fail(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			r.depth++
			switch r.depth {
			case 1:
				switch t.Name.Local {
				case string(URLSet):
					r.kind = URLSet
				case string(Index):
					r.kind = Index
				default:
					return Entry{}, r.syntax(fmt.Errorf("%w: <%s>", ErrNotSitemap, t.Name.Local))
				}
			case 2:
				r.parent = t.Name.Local
				r.haveLoc = false
				r.locAt, _ = r.dec.InputPos()
			case 3:
				if t.Name.Local == "loc" && (r.kind == URLSet && r.parent == "url" || r.kind == Index && r.parent == "sitemap") {
					r.inLoc = true
					r.loc.Reset()
					r.locAt, _ = r.dec.InputPos()
				}
			}
		case xml.CharData:
			if r.depth == 0 && len(bytes.TrimSpace(t)) > 0 {
				return Entry{}, r.syntax(errors.New("text before the root element: not an XML file"))
			}
			if r.inLoc {
				if r.loc.Len() <= MaxLocBytes+64 { // leading and trailing space may follow
					r.loc.Write(t)
				}
			}
		case xml.EndElement:
			r.depth--
			if r.inLoc && r.depth == 2 {
				r.inLoc, r.haveLoc = false, true
				continue
			}
			if r.depth == 1 && (r.kind == URLSet && r.parent == "url" || r.kind == Index && r.parent == "sitemap") {
				// An entry is a whole <url> (<sitemap>): one whose XML breaks before
				// it closes is not returned.
				if r.n >= r.lim.URLs {
					return Entry{}, fmt.Errorf("%w (%d)", ErrTooManyURLs, r.lim.URLs)
				}
				r.n++
				e := Entry{Line: r.locAt}
				if r.haveLoc {
					e.Loc = strings.TrimSpace(r.loc.String())
				} else {
					e.Err = ErrNoLoc
				}
				r.haveLoc = false
				if len(e.Loc) > MaxLocBytes {
					e.Loc = e.Loc[:MaxLocBytes]
					e.Err = ErrLongLoc
				}
				return e, nil
			}
			if r.depth == 0 {
				// The root is closed: anything after it but space and comments is an
				// error, which the decoder reports on the next token.
				if err := r.trailer(); err != nil {
					return Entry{}, err
				}
				return Entry{}, io.EOF
			}
		}
	}
}

// trailer reads what follows the root element.
func (r *Reader) trailer() error {
	for {
		r.tokLine, _ = r.dec.InputPos()
		r.tokOff = r.dec.InputOffset()
		tok, err := r.dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return r.fail(err)
		}
		switch t := tok.(type) {
		case xml.CharData:
			if len(bytes.TrimSpace(t)) == 0 {
				continue
			}
		case xml.Comment, xml.ProcInst:
			continue
		}
		return r.syntax(errors.New("content after the root element"))
	}
}

// fail turns a decoding error into the Reader's error.
func (r *Reader) fail(err error) error {
	if errors.Is(err, errLimit) {
		return fmt.Errorf("%w (%d bytes uncompressed)", ErrTooLarge, r.lim.Bytes)
	}
	if err == io.EOF {
		line, _ := r.dec.InputPos()
		msg := "unexpected end of file"
		if r.kind == "" {
			msg = "no XML element: empty file"
		}
		return &SyntaxError{Line: line, Offset: r.dec.InputOffset(), Err: errors.New(msg)}
	}
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		msg := se.Msg
		if r.kind == "" && r.dec.InputOffset() < 64 && r.n == 0 {
			// The decoder's words for a file that is not XML at all.
			msg = "not XML: " + msg
		}
		return &SyntaxError{Line: se.Line, Offset: r.dec.InputOffset(), Err: errors.New(msg)}
	}
	var ce flate.CorruptInputError
	if errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || errors.As(err, &ce) || r.gzip && errors.Is(err, io.ErrUnexpectedEOF) {
		line, _ := r.dec.InputPos()
		return &SyntaxError{Line: line, Offset: r.dec.InputOffset(), Err: fmt.Errorf("gzip: %w", err)}
	}
	if strings.HasPrefix(err.Error(), "xml: ") { // the decoder's other errors: a charset it cannot read
		line, _ := r.dec.InputPos()
		return &SyntaxError{Line: line, Offset: r.dec.InputOffset(), Err: errors.New(strings.TrimPrefix(err.Error(), "xml: "))}
	}
	return err
}

// syntax returns err at the start of the token just read.
func (r *Reader) syntax(err error) error {
	return &SyntaxError{Line: r.tokLine, Offset: r.tokOff, Err: err}
}

// errLimit is what countingReader returns past the limit.
var errLimit = errors.New("byte limit")

// countingReader counts bytes and fails past limit.
type countingReader struct {
	r     io.Reader
	n     int64
	limit int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.n >= c.limit {
		// One byte past the limit tells a file of exactly the limit from a longer one.
		var one [1]byte
		n, err := c.r.Read(one[:])
		if n > 0 {
			return 0, errLimit
		}
		return 0, err
	}
	if rem := c.limit - c.n; int64(len(p)) > rem {
		p = p[:rem]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
