// Package sitemap reads sitemap files as sitemaps.org defines them: a <urlset> that
// lists a site's URLs, or a <sitemapindex> that lists other sitemaps.
//
// A [Reader] streams a file: it returns one <loc> at a time, so that memory stays
// flat however many URLs a file lists, and it enforces the protocol's limits per
// file ([MaxURLs] URLs, [MaxBytes] bytes uncompressed). A gzip-compressed file is
// recognised by its magic bytes, whatever its name or Content-Type; a UTF-8 byte
// order mark is skipped. An error in the XML is a [*SyntaxError] naming the line
// and the byte offset (in the uncompressed text, after any byte order mark) where
// the file breaks.
//
// The XML is read by a scanner of its own, made for this one shape of file: it
// accepts and refuses the same files as encoding/xml's decoder in strict mode (the
// tests read every fuzzed input with both), several times faster and without an
// allocation per element. A tag is at most [MaxTokenBytes] long, and elements nest
// at most [Limits].Nesting deep ([MaxDepth] by default).
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
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/gorobots/robots/internal/defaults"
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

// Limits bounds one file. A zero field takes the sitemaps.org value (for Nesting,
// MaxDepth).
type Limits struct {
	URLs    int   // <loc> entries read (MaxURLs)
	Bytes   int64 // bytes of XML read, after decompression (MaxBytes)
	Nesting int   // depth of nested elements, the root's being 1 (MaxDepth)
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
	// ErrTooDeep: an element is nested deeper than Limits.Nesting (a *SyntaxError
	// wraps it, naming the limit). The entries before it were returned.
	ErrTooDeep = errors.New("elements nested deeper than the limit")
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
	Err  error // ErrLongLoc or ErrNoLoc, or nil
}

// maxLocKept bounds the text of a <loc> kept while reading it (leading white space
// is not kept): enough to tell a <loc> longer than MaxLocBytes, with trailing
// white space, from one that is not.
const maxLocKept = MaxLocBytes + 1024

// MaxTokenBytes bounds a tag (an element's name and attributes), an entity, and
// the target of a processing instruction: a file with a longer one is refused.
// Text, comments and CDATA sections may be of any length.
const MaxTokenBytes = 1 << 20

// MaxDepth is the default bound on the nesting of elements (Limits.Nesting): a file
// with an element deeper is refused with [ErrTooDeep]. A sitemap's deepest element is an extension's
// (<urlset><url><video:video><video:price>, or <news:news><news:publication>
// <news:name>: depth 4); a reader keeps the name of every open element, so
// without a bound a small gzip file of millions of start tags (<x><x><x>…) held
// gigabytes.
const MaxDepth = 32

// utf8Label reports whether an encoding declared in the XML declaration needs no
// conversion: UTF-8 and its subset ASCII.
func utf8Label(label string) bool {
	switch strings.ToLower(label) {
	case "utf-8", "utf8", "us-ascii", "ascii":
		return true
	}
	return false
}

// open prepares the text of a file: gzip decompressed when its magic bytes say so,
// a byte order mark skipped, every byte counted against the limit.
func open(r io.Reader, lim Limits) (src io.Reader, gzipped bool, count *countingReader, _ Limits, err error) {
	lim.URLs = defaults.Or(lim.URLs, MaxURLs)
	lim.Bytes = defaults.Or(lim.Bytes, MaxBytes)
	lim.Nesting = defaults.Or(lim.Nesting, MaxDepth)
	br := bufio.NewReaderSize(r, 32<<10)
	magic, _ := br.Peek(2)
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, false, nil, lim, &SyntaxError{Line: 1, Offset: 0, Err: fmt.Errorf("gzip: %w", err)}
		}
		zr.Multistream(true)
		gzipped = true
		br = bufio.NewReaderSize(zr, 32<<10)
	}
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte("\xEF\xBB\xBF")) {
		br.Discard(3)
	}
	count = &countingReader{r: br, limit: lim.Bytes}
	return count, gzipped, count, lim, nil
}

// Reader reads the entries of one sitemap file. It is not safe for concurrent use.
type Reader struct {
	progress
	s        scanner
	stack    []string // the open elements' names, as written
	depth    int      // len(stack); the root is 1
	parent   string   // local name of the element at depth 2 ("url", "sitemap"), while inside it
	inLoc    bool
	loc      []byte
	closed   bool // the root element is closed
	nonSpace bool // text read outside the root element that is not white space
	names    map[string]string
}

// NewReader returns a Reader of r. It reads the first bytes to tell gzip from plain
// XML; the root element is read by the first call to Next (see Kind).
func NewReader(r io.Reader, lim Limits) (*Reader, error) {
	src, gz, count, lim, err := open(r, lim)
	if err != nil {
		return nil, err
	}
	rd := &Reader{progress: progress{lim: lim, gzip: gz, count: count}, names: map[string]string{}}
	rd.s.src = src
	rd.s.buf = make([]byte, 32<<10)
	rd.s.line = 1
	return rd, nil
}

// progress is what a reader of one file knows of it so far, whichever way it reads
// the XML: Reader and the tests' reference reader (slow_test.go) share it.
type progress struct {
	count *countingReader
	lim   Limits
	kind  Kind
	gzip  bool
	n     int
	err   error // sticky
	// haveLoc is true once the current entry's <loc> was read, which starts on line
	// locAt.
	haveLoc bool
	locAt   int
}

// Kind returns the root element, once Next has read it ("" before, or when the
// file is not a sitemap).
func (r *progress) Kind() Kind { return r.kind }

// Gzip reports whether the file was gzip-compressed.
func (r *progress) Gzip() bool { return r.gzip }

// Bytes returns the bytes of XML read so far, after decompression.
func (r *progress) Bytes() int64 { return r.count.n }

// Count returns the entries returned so far.
func (r *progress) Count() int { return r.n }

// entry returns the entry whose element has just closed, loc the text of its
// <loc>, or ErrTooManyURLs past the limit.
func (r *progress) entry(loc []byte) (Entry, error) {
	if r.n >= r.lim.URLs {
		return Entry{}, fmt.Errorf("%w (%d)", ErrTooManyURLs, r.lim.URLs)
	}
	r.n++
	e := Entry{Line: r.locAt}
	if r.haveLoc {
		e.Loc = strings.TrimSpace(string(loc))
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

// stick returns e and err, keeping err for every later call of Next.
func (r *progress) stick(e Entry, err error) (Entry, error) {
	if err != nil {
		r.err = err
	}
	return e, err
}

// Next returns the next entry, io.EOF after the last one, or an error: a
// [*SyntaxError] (wrapping [ErrNotSitemap] for a root that is not a sitemap's),
// [ErrTooManyURLs], [ErrTooLarge], or the error of the underlying reader. Errors are
// sticky.
func (r *Reader) Next() (Entry, error) {
	if r.err != nil {
		return Entry{}, r.err
	}
	return r.stick(r.next())
}

// intern returns name as a string, allocated once per distinct name.
func (r *Reader) intern(name []byte) string {
	if s, ok := r.names[string(name)]; ok {
		return s
	}
	s := string(name)
	if len(r.names) < 64 {
		r.names[s] = s
	}
	return s
}

// local is the part of a name after its prefix, as encoding/xml splits it: "b" of
// "a:b", but all of ":a" and "a:".
func local(name string) string {
	if i := strings.IndexByte(name, ':'); i > 0 && i < len(name)-1 {
		return name[i+1:]
	}
	return name
}

func (r *Reader) next() (Entry, error) {
	s := &r.s
	for {
		if !s.ensure(1) {
			return Entry{}, r.end()
		}
		s.mark()
		if s.buf[s.r] != '<' {
			if err := r.text(false); err != nil {
				return Entry{}, err
			}
			continue
		}
		if !s.ensure(2) {
			return Entry{}, r.fail(s.eofError())
		}
		switch s.buf[s.r+1] {
		case '/':
			nameEnd, end, err := s.endTag()
			if err != nil {
				return Entry{}, r.fail(err)
			}
			name := r.intern(s.buf[s.r+2 : s.r+nameEnd])
			s.advance(end)
			if r.depth == 0 {
				return Entry{}, r.fail(s.syntaxAt("unexpected end element </" + local(name) + ">"))
			}
			open := r.stack[r.depth-1]
			if open != name {
				return Entry{}, r.fail(s.syntaxAt("element <" + local(open) + "> closed by </" + local(name) + ">"))
			}
			if e, ok, err := r.closeElement(); ok || err != nil {
				return e, err
			}
		case '?':
			if err := s.procInst(); err != nil {
				return Entry{}, r.fail(err)
			}
		case '!':
			if !s.ensure(3) {
				return Entry{}, r.fail(s.eofError())
			}
			switch s.buf[s.r+2] {
			case '-':
				if err := s.comment(); err != nil {
					return Entry{}, r.fail(err)
				}
			case '[':
				if err := r.cdata(); err != nil {
					return Entry{}, err
				}
			default:
				if err := s.directive(); err != nil {
					return Entry{}, r.fail(err)
				}
				if r.closed {
					return Entry{}, r.syntax(errors.New("content after the root element"))
				}
			}
		default:
			nameEnd, end, empty, err := s.startTag()
			if err != nil {
				return Entry{}, r.fail(err)
			}
			name := r.intern(s.buf[s.r+1 : s.r+nameEnd])
			s.advance(end)
			if err := r.openElement(name); err != nil {
				return Entry{}, err
			}
			if empty {
				if e, ok, err := r.closeElement(); ok || err != nil {
					return e, err
				}
			}
		}
	}
}

// openElement applies the sitemap rules to a start tag.
func (r *Reader) openElement(name string) error {
	if r.closed {
		return r.syntax(errors.New("content after the root element"))
	}
	if r.depth >= r.lim.Nesting {
		return r.syntax(fmt.Errorf("<%s>: %w of %d", local(name), ErrTooDeep, r.lim.Nesting))
	}
	r.stack = append(r.stack, name)
	r.depth++
	loc := local(name)
	switch r.depth {
	case 1:
		switch loc {
		case string(URLSet):
			r.kind = URLSet
		case string(Index):
			r.kind = Index
		default:
			return r.syntax(fmt.Errorf("%w: <%s>", ErrNotSitemap, loc))
		}
	case 2:
		r.parent = loc
		r.haveLoc = false
		r.locAt = r.s.line
	case 3:
		if loc == "loc" && (r.kind == URLSet && r.parent == "url" || r.kind == Index && r.parent == "sitemap") {
			r.inLoc = true
			r.loc = r.loc[:0]
			r.locAt = r.s.line
		}
	}
	return nil
}

// closeElement applies the sitemap rules to an end tag: it returns an entry when a
// <url> (<sitemap>) closes.
func (r *Reader) closeElement() (Entry, bool, error) {
	r.depth--
	r.stack = r.stack[:r.depth]
	if r.inLoc && r.depth == 2 {
		r.inLoc, r.haveLoc = false, true
		return Entry{}, false, nil
	}
	if r.depth == 1 && (r.kind == URLSet && r.parent == "url" || r.kind == Index && r.parent == "sitemap") {
		e, err := r.entry(r.loc)
		return e, err == nil, err
	}
	if r.depth == 0 {
		r.closed = true
	}
	return Entry{}, false, nil
}

// end is the end of the input: the end of the file when the root element is
// closed, else an error.
func (r *Reader) end() error {
	s := &r.s
	if s.err != nil && s.err != io.EOF {
		return r.fail(s.err)
	}
	if r.closed {
		return io.EOF
	}
	msg := "unexpected end of file"
	if r.kind == "" && r.depth == 0 {
		msg = "no XML element: empty file"
	}
	return &SyntaxError{Line: s.line, Offset: s.off, Err: errors.New(msg)}
}

// text reads character data (a text run, or a CDATA section's content) and keeps it
// when it is a <loc>'s. Outside the root element only white space may appear.
func (r *Reader) text(cdata bool) error {
	r.nonSpace = false
	if err := r.s.charData(cdata, r); err != nil {
		return r.fail(err)
	}
	if r.nonSpace && r.depth == 0 {
		if r.closed {
			return r.syntax(errors.New("content after the root element"))
		}
		return r.syntax(errors.New("text before the root element: not an XML file"))
	}
	return nil
}

// piece receives the text read by text, a piece at a time.
func (r *Reader) piece(b []byte) {
	if r.depth == 0 && !r.nonSpace && len(bytes.TrimLeftFunc(b, unicode.IsSpace)) > 0 {
		r.nonSpace = true
	}
	if !r.inLoc {
		return
	}
	if len(r.loc) == 0 {
		b = bytes.TrimLeftFunc(b, unicode.IsSpace)
	}
	r.loc = append(r.loc, b[:min(len(b), maxLocKept-len(r.loc))]...)
}

func (r *Reader) cdata() error {
	s := &r.s
	if !s.ensure(9) {
		return r.fail(s.eofError())
	}
	if string(s.buf[s.r+3:s.r+9]) != "CDATA[" {
		return r.fail(s.syntaxAt("invalid <![ sequence"))
	}
	s.advance(9)
	return r.text(true)
}

// fail turns an error of the scanner or of the input into the Reader's error.
func (r *Reader) fail(err error) error {
	if errors.Is(err, errLimit) {
		return fmt.Errorf("%w (%d bytes uncompressed)", ErrTooLarge, r.lim.Bytes)
	}
	var se *SyntaxError
	if errors.As(err, &se) {
		return err
	}
	var ce flate.CorruptInputError
	if errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || errors.As(err, &ce) || r.gzip && errors.Is(err, io.ErrUnexpectedEOF) {
		return &SyntaxError{Line: r.s.line, Offset: r.s.off, Err: fmt.Errorf("gzip: %w", err)}
	}
	return err
}

// syntax returns err at the start of the token just read.
func (r *Reader) syntax(err error) error {
	return &SyntaxError{Line: r.s.tokLine, Offset: r.s.tokOff, Err: err}
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
