package sitemap

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
)

// slowReader is the reference Reader: encoding/xml's decoder reads the XML, token by
// token, and the sitemap rules are applied to its tokens as Reader applies them to
// its own scanner's. FuzzFastSlow checks that both read the same entries and fail on
// the same files.
type slowReader struct {
	progress
	dec     *xml.Decoder
	depth   int    // element nesting; the root is 1
	parent  string // local name of the element at depth 2 ("url", "sitemap"), while inside it
	inLoc   bool
	loc     bytes.Buffer
	tokLine int // where the token being read starts
	tokOff  int64
}

func newSlowReader(in io.Reader, lim Limits) (*slowReader, error) {
	src, gz, count, lim, err := open(in, lim)
	if err != nil {
		return nil, err
	}
	rd := &slowReader{progress: progress{lim: lim, gzip: gz, count: count}}
	rd.dec = xml.NewDecoder(src)
	rd.dec.Strict = true
	rd.dec.CharsetReader = func(label string, in io.Reader) (io.Reader, error) {
		if utf8Label(label) {
			return in, nil
		}
		return nil, fmt.Errorf("encoding %q: sitemaps must be UTF-8", label)
	}
	return rd, nil
}

// Next is Reader.Next.
func (r *slowReader) Next() (Entry, error) {
	if r.err != nil {
		return Entry{}, r.err
	}
	return r.stick(r.next())
}

func (r *slowReader) next() (Entry, error) {
	for {
		r.tokLine, _ = r.dec.InputPos()
		r.tokOff = r.dec.InputOffset()
		tok, err := r.dec.Token()
		if err != nil {
			return Entry{}, r.fail(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if r.depth >= r.lim.Nesting {
				return Entry{}, r.syntax(fmt.Errorf("<%s>: %w of %d", t.Name.Local, ErrTooDeep, r.lim.Nesting))
			}
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
				if r.loc.Len() == 0 {
					t = bytes.TrimLeftFunc(t, unicode.IsSpace)
				}
				r.loc.Write(t[:min(len(t), maxLocKept-r.loc.Len())])
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
				return r.entry(r.loc.Bytes())
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
func (r *slowReader) trailer() error {
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
func (r *slowReader) fail(err error) error {
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
func (r *slowReader) syntax(err error) error {
	return &SyntaxError{Line: r.tokLine, Offset: r.tokOff, Err: err}
}
