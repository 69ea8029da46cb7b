package sitemap

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// The scanner is kept rather than encoding/xml's decoder for speed: reading a
// 50,000-URL sitemap takes a quarter of the time and one allocation per URL against
// fifteen (BenchmarkReader, scanner against encoding-xml; BENCHMARKS.md, "Audit").

// scanner reads XML from src through a buffer that holds at least the token being
// read (a tag, an entity); text, comments and CDATA are consumed as they are read.
// Indexes into the token being read are relative to r.
type scanner struct {
	src     io.Reader
	buf     []byte
	r, w    int
	err     error // of src, io.EOF included, once seen
	line    int   // line of buf[r], 1-based
	off     int64 // offset of buf[r]
	tokLine int   // where the token being read starts
	tokOff  int64
	ent     [8]byte // the text of an entity
}

// errTokenTooLong is where the buffer would grow past MaxTokenBytes.
var errTokenTooLong = fmt.Errorf("a tag or entity longer than %d bytes", MaxTokenBytes)

// more reads more input into the buffer, growing it when it is full. It reports
// whether there is more to read.
func (s *scanner) more() bool {
	for {
		if s.err != nil {
			return false
		}
		if s.r > 0 {
			n := copy(s.buf, s.buf[s.r:s.w])
			s.r, s.w = 0, n
		}
		if s.w == len(s.buf) {
			if len(s.buf) >= MaxTokenBytes+16 {
				s.err = errTokenTooLong
				return false
			}
			nb := make([]byte, 2*len(s.buf))
			copy(nb, s.buf[:s.w])
			s.buf = nb
		}
		n, err := s.src.Read(s.buf[s.w:])
		s.w += n
		if err != nil {
			s.err = err
		}
		if n > 0 {
			return true
		}
	}
}

// ensure reports whether n bytes are buffered from r, reading as needed.
func (s *scanner) ensure(n int) bool {
	for s.w-s.r < n {
		if !s.more() {
			return false
		}
	}
	return true
}

// at returns the byte p bytes past r, and false at the end of the input.
func (s *scanner) at(p int) (byte, bool) {
	if !s.ensure(p + 1) {
		return 0, false
	}
	return s.buf[s.r+p], true
}

// advance consumes n bytes.
func (s *scanner) advance(n int) {
	s.line += bytes.Count(s.buf[s.r:s.r+n], []byte{'\n'})
	s.off += int64(n)
	s.r += n
}

// mark notes that a token starts at r.
func (s *scanner) mark() { s.tokLine, s.tokOff = s.line, s.off }

// syntaxAt is a syntax error at r.
func (s *scanner) syntaxAt(msg string) error {
	return &SyntaxError{Line: s.line, Offset: s.off, Err: errors.New(msg)}
}

// eofError is the error for input that ends inside a token: the input's own error
// when it has one.
func (s *scanner) eofError() error {
	switch {
	case s.err == errTokenTooLong:
		return s.syntaxAt(errTokenTooLong.Error())
	case s.err != nil && s.err != io.EOF:
		return s.err
	}
	return &SyntaxError{Line: s.line, Offset: s.off, Err: errors.New("unexpected end of file")}
}

func isSpace(c byte) bool { return c == ' ' || c == '\r' || c == '\n' || c == '\t' }

// nameByte: the bytes a name is made of, as encoding/xml reads names (every byte of a
// multi-byte character; the name is checked as a whole afterwards).
func nameByte(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' ||
		c == '_' || c == ':' || c == '.' || c == '-' || c >= utf8.RuneSelf
}

// validName reports whether b is an XML name (the Name production of XML 1.0).
// Names of ASCII letters, digits and _:.- are checked here; a name with other
// characters is checked by encoding/xml itself, which knows the tables.
func validName(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	ascii := true
	for _, c := range b {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		c := b[0]
		return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || c == '_' || c == ':'
	}
	d := xml.NewDecoder(bytes.NewReader(append(append([]byte("<?"), b...), "?>"...)))
	_, err := d.RawToken()
	return err == nil
}

// name reads the name at p: its end, or p when there is none.
func (s *scanner) name(p int) (int, error) {
	for {
		c, ok := s.at(p)
		if !ok {
			return p, s.eofError()
		}
		if !nameByte(c) {
			return p, nil
		}
		p++
	}
}

// qname reads an element or attribute name at p, as encoding/xml's nsname does: an
// error with msg when there is none or it has more than one colon.
func (s *scanner) qname(p int, msg string) (int, error) {
	end, err := s.name(p)
	if err != nil {
		return end, err
	}
	if end == p {
		return end, s.syntaxAt(msg)
	}
	name := s.buf[s.r+p : s.r+end]
	if !validName(name) {
		return end, s.syntaxAt("invalid XML name: " + string(name))
	}
	if bytes.Count(name, []byte{':'}) > 1 {
		return end, s.syntaxAt(msg)
	}
	return end, nil
}

// space skips white space at p.
func (s *scanner) space(p int) int {
	for {
		c, ok := s.at(p)
		if !ok || !isSpace(c) {
			return p
		}
		p++
	}
}

// inRange reports whether r is a character XML allows (the Char production).
func inRange(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// char checks the character at p, a control character or the first byte of a
// multi-byte one, and returns its size.
func (s *scanner) char(p int) (int, error) {
	c := s.buf[s.r+p]
	if c < utf8.RuneSelf {
		if !inRange(rune(c)) {
			return 0, s.syntaxAt(fmt.Sprintf("illegal character code %U", rune(c)))
		}
		return 1, nil
	}
	s.ensure(p + utf8.UTFMax)
	r, size := utf8.DecodeRune(s.buf[s.r+p : s.w])
	if r == utf8.RuneError && size == 1 {
		return 0, s.syntaxAt("invalid UTF-8")
	}
	if !inRange(r) {
		return 0, s.syntaxAt(fmt.Sprintf("illegal character code %U", r))
	}
	return size, nil
}

var entities = map[string]string{"lt": "<", "gt": ">", "amp": "&", "apos": "'", "quot": `"`}

// entity reads the character reference or entity at p (an '&') and returns its
// end and the text it stands for. Only the five entities XML predefines are known,
// as in encoding/xml's strict mode.
func (s *scanner) entity(p int) (int, []byte, error) {
	scratch := s.ent[:0]
	start := p
	p++
	c, ok := s.at(p)
	if !ok {
		return p, nil, s.eofError()
	}
	invalid := func(end int, semi bool) error {
		ent := string(s.buf[s.r+start : s.r+end])
		if !semi {
			ent += " (no semicolon)"
		}
		return s.syntaxAt("invalid character entity " + ent)
	}
	if c == '#' {
		p++
		base := 10
		if c, ok = s.at(p); ok && c == 'x' {
			base = 16
			p++
		}
		digits := p
		for {
			c, ok = s.at(p)
			if !ok {
				return p, nil, s.eofError()
			}
			if '0' <= c && c <= '9' || base == 16 && ('a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				p++
				continue
			}
			break
		}
		if c != ';' {
			return p, nil, invalid(p, false)
		}
		n, err := strconv.ParseUint(string(s.buf[s.r+digits:s.r+p]), base, 64)
		if err != nil || n > unicode.MaxRune {
			return p + 1, nil, invalid(p+1, true)
		}
		r := rune(n)
		if utf8.ValidRune(r) && !inRange(r) {
			return p + 1, nil, s.syntaxAt(fmt.Sprintf("illegal character code %U", r))
		}
		return p + 1, utf8.AppendRune(scratch[:0], r), nil
	}
	end, err := s.name(p)
	if err != nil {
		return end, nil, err
	}
	c, ok = s.at(end)
	if !ok {
		return end, nil, s.eofError()
	}
	if c != ';' {
		return end, nil, invalid(end, false)
	}
	text, known := entities[string(s.buf[s.r+p:s.r+end])]
	if !known {
		return end + 1, nil, invalid(end+1, true)
	}
	return end + 1, append(scratch[:0], text...), nil
}

// charData reads text up to the next '<' (or, for a CDATA section, up to and
// including "]]>"), checks it as encoding/xml does (characters XML allows, valid
// UTF-8, known entities, no "]]>" outside CDATA), and passes it to emit in pieces,
// entities decoded and line ends normalised to "\n".
func (s *scanner) charData(cdata bool, sink *Reader) error {
	emit := sink.piece
	brackets := 0 // "]" held back: in CDATA they may start the "]]>" that ends it
	flush := func() {
		for ; brackets > 0; brackets-- {
			emit(bracket)
		}
	}
	for {
		if s.r == s.w && !s.more() {
			if cdata {
				if s.err == io.EOF {
					return s.syntaxAt("unexpected end of file in CDATA section")
				}
				return s.eofError()
			}
			flush()
			if s.err != io.EOF {
				return s.eofError()
			}
			return nil
		}
		// A run of plain bytes.
		i := s.r
		for i < s.w {
			c := s.buf[i]
			if c >= 0x20 && c < utf8.RuneSelf && c != '<' && c != '&' && c != ']' && c != '>' || c == '\n' || c == '\t' {
				i++
				continue
			}
			break
		}
		if i > s.r {
			flush()
			emit(s.buf[s.r:i])
			s.advance(i - s.r)
			continue
		}
		switch c := s.buf[s.r]; {
		case c == '<' && !cdata:
			flush()
			return nil
		case c == ']':
			if brackets == 2 {
				emit(bracket)
				brackets--
			}
			brackets++
			s.advance(1)
		case c == '>':
			if brackets == 2 {
				if !cdata {
					return s.syntaxAt("unescaped ]]> not in CDATA section")
				}
				s.advance(1)
				return nil
			}
			flush()
			emit(s.buf[s.r : s.r+1])
			s.advance(1)
		case c == '&' && !cdata:
			flush()
			end, text, err := s.entity(0)
			if err != nil {
				return err
			}
			emit(text)
			s.advance(end)
		case c == '<' || c == '&':
			flush()
			emit(s.buf[s.r : s.r+1])
			s.advance(1)
		case c == '\r':
			flush()
			emit(newline)
			n := 1
			if c, ok := s.at(1); ok && c == '\n' {
				n = 2
			}
			s.advance(n)
		default:
			flush()
			size, err := s.char(0)
			if err != nil {
				return err
			}
			emit(s.buf[s.r : s.r+size])
			s.advance(size)
		}
	}
}

// startTag reads a start tag at r ("<name attr='v'>" or "<name/>") and returns
// where the element's name ends and the tag ends, and whether the tag closes the
// element too. The caller consumes the tag.
func (s *scanner) startTag() (nameEnd, end int, empty bool, err error) {
	if nameEnd, err = s.qname(1, "expected element name after <"); err != nil {
		return
	}
	p := nameEnd
	for {
		p = s.space(p)
		c, ok := s.at(p)
		if !ok {
			return 0, 0, false, s.eofError()
		}
		if c == '/' {
			if c, ok = s.at(p + 1); !ok {
				return 0, 0, false, s.eofError()
			}
			if c != '>' {
				return 0, 0, false, s.syntaxAt("expected /> in element")
			}
			return nameEnd, p + 2, true, nil
		}
		if c == '>' {
			return nameEnd, p + 1, false, nil
		}
		if p, err = s.qname(p, "expected attribute name in element"); err != nil {
			return 0, 0, false, err
		}
		p = s.space(p)
		if c, ok = s.at(p); !ok {
			return 0, 0, false, s.eofError()
		}
		if c != '=' {
			return 0, 0, false, s.syntaxAt("attribute name without = in element")
		}
		p = s.space(p + 1)
		quote, ok := s.at(p)
		if !ok {
			return 0, 0, false, s.eofError()
		}
		if quote != '"' && quote != '\'' {
			return 0, 0, false, s.syntaxAt("unquoted or missing attribute value in element")
		}
		p++
		for {
			c, ok := s.at(p)
			if !ok {
				return 0, 0, false, s.eofError()
			}
			switch {
			case c == quote:
			case c == '<':
				return 0, 0, false, s.syntaxAt("unescaped < inside quoted string")
			case c == '&':
				end, _, err := s.entity(p)
				if err != nil {
					return 0, 0, false, err
				}
				p = end
				continue
			case c >= 0x20 && c < utf8.RuneSelf || c == '\n' || c == '\t' || c == '\r':
				p++
				continue
			default:
				size, err := s.char(p)
				if err != nil {
					return 0, 0, false, err
				}
				p += size
				continue
			}
			break
		}
		p++ // the closing quote
	}
}

// endTag reads an end tag at r ("</name>") and returns where the name and the tag
// end. The caller consumes the tag.
func (s *scanner) endTag() (nameEnd, end int, err error) {
	if nameEnd, err = s.qname(2, "expected element name after </"); err != nil {
		return
	}
	p := s.space(nameEnd)
	c, ok := s.at(p)
	if !ok {
		return 0, 0, s.eofError()
	}
	if c != '>' {
		return 0, 0, s.syntaxAt("invalid characters between </" + string(s.buf[s.r+2:s.r+nameEnd]) + " and >")
	}
	return nameEnd, p + 1, nil
}

var (
	bracket = []byte{']'}
	newline = []byte{'\n'}
)

// comment skips a comment at r ("<!-- … -->"); "--" may not appear in it.
func (s *scanner) comment() error {
	c, ok := s.at(3)
	if !ok {
		return s.eofError()
	}
	if c != '-' {
		return s.syntaxAt("invalid sequence <!- not part of <!--")
	}
	s.advance(4)
	for {
		if i := bytes.Index(s.buf[s.r:s.w], []byte("--")); i >= 0 {
			c, ok := s.at(i + 2)
			if !ok {
				return s.eofError()
			}
			if c != '>' {
				s.advance(i)
				return s.syntaxAt(`invalid sequence "--" not allowed in comments`)
			}
			s.advance(i + 3)
			return nil
		}
		if n := s.w - s.r - 1; n > 0 {
			s.advance(n) // the last byte may be the first '-' of "--"
		}
		if !s.more() {
			return s.eofError()
		}
	}
}

// procInst reads a processing instruction at r ("<?target …?>"). The XML
// declaration ("<?xml version='1.0' encoding='UTF-8'?>") may name version 1.0 and
// the encodings UTF-8 and ASCII only.
func (s *scanner) procInst() error {
	end, err := s.name(2)
	if err != nil {
		return err
	}
	if end == 2 {
		return s.syntaxAt("expected target name after <?")
	}
	target := s.buf[s.r+2 : s.r+end]
	if !validName(target) {
		return s.syntaxAt("invalid XML name: " + string(target))
	}
	p := s.space(end)
	for {
		if i := bytes.Index(s.buf[s.r+p:s.w], []byte("?>")); i >= 0 {
			content := string(s.buf[s.r+p : s.r+p+i])
			if string(s.buf[s.r+2:s.r+end]) == "xml" {
				if v := declParam("version", content); v != "" && v != "1.0" {
					return s.syntaxAt(fmt.Sprintf("unsupported XML version %q; only version 1.0 is supported", v))
				}
				if enc := declParam("encoding", content); enc != "" && !utf8Label(enc) {
					return s.syntaxAt(fmt.Sprintf("encoding %q: sitemaps must be UTF-8", enc))
				}
			}
			s.advance(p + i + 2)
			return nil
		}
		if !s.more() {
			return s.eofError()
		}
	}
}

// declParam returns the value of name="value" (or 'value') in the content of an
// XML declaration: the first occurrence of name= followed by a quote, up to the same
// quote; "" when there is none.
func declParam(name, content string) string {
	key := name + "="
	for i := 0; ; {
		k := bytes.Index([]byte(content[i:]), []byte(key))
		if k < 0 || i+k+len(key) >= len(content) {
			return ""
		}
		i += k + len(key)
		if q := content[i]; q == '"' || q == '\'' {
			j := bytes.IndexByte([]byte(content[i+1:]), q)
			if j < 0 {
				return ""
			}
			return content[i+1 : i+1+j]
		}
	}
}

// directive skips a directive at r ("<!DOCTYPE …>"), as encoding/xml reads one: up
// to the '>' that is outside quotes and nested angle brackets, comments inside
// skipped. The byte after "<!" is taken as part of the directive whatever it is.
func (s *scanner) directive() error {
	p := 3
	var quote byte
	depth := 0
	for {
		c, ok := s.at(p)
		if !ok {
			return s.eofError()
		}
		p++
		if quote == 0 && c == '>' && depth == 0 {
			s.advance(p)
			return nil
		}
	again:
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
		case c == '\'' || c == '"':
			quote = c
		case c == '>':
			depth--
		case c == '<':
			matched := true
			for i := 0; i < 3; i++ {
				if c, ok = s.at(p); !ok {
					return s.eofError()
				}
				p++
				if c != "!--"[i] {
					depth++
					matched = false
					goto again
				}
			}
			if matched {
				// A comment: skip to "-->".
				var b0, b1 byte
				for {
					if c, ok = s.at(p); !ok {
						return s.eofError()
					}
					p++
					if b0 == '-' && b1 == '-' && c == '>' {
						break
					}
					b0, b1 = b1, c
				}
			}
		}
	}
}
