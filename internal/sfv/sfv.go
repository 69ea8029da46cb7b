// Package sfv parses the Dictionary of RFC 9651, Structured Field Values for HTTP
// (https://www.rfc-editor.org/rfc/rfc9651), as §4.2.2 describes it. It is the syntax of
// the AI usage preferences that Content-Usage lines of robots.txt and Content-Usage
// header fields carry (draft-ietf-aipref-vocab §6): "train-ai=n, search=y".
//
// Only parsing is provided, and only of Dictionaries: that is all the preferences
// need. The standard library is the only dependency, since the root package imports
// this one. Every value kind of RFC 9651 is read (so that a Dictionary parses exactly
// when the RFC says it does), but numbers and dates are kept as written.
//
// The values parsed come from anyone: a robots.txt line, a response's header field. So
// what a parse holds is bounded (RFC 9651 §4.2: "parsers MAY fail when processing a
// field value that exceeds" what they can handle, and §3 names the least a parser must
// handle): a value of more than MaxLength bytes, a Dictionary of more than MaxMembers
// members, an Inner List of more than MaxInnerList items, an item of more than MaxParams
// parameters, or more than MaxValues of these together, fails with a *SyntaxError
// before anything is kept of the excess. A parse then allocates at most a small
// multiple of the value's bytes (each value kept is at least a byte of the input), and
// never more than MaxValues values.
package sfv

import (
	"encoding/base64"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Limits. Each is at least what RFC 9651 §3 asks a parser to handle: Dictionaries of
// 1024 members, Inner Lists of 256 items, 256 parameters.
const (
	MaxLength    = 64 << 10 // bytes of the value parsed (for a field, its lines joined)
	MaxMembers   = 1024     // members of a Dictionary
	MaxInnerList = 256      // items of an Inner List
	MaxParams    = 256      // parameters of an item or Inner List
	MaxValues    = 8192     // members, items of Inner Lists and parameters, together
)

// Kind is the type of a value.
type Kind uint8

// The kinds of RFC 9651 §3.3, and the Inner List of §3.1.1.
const (
	Boolean       Kind = iota + 1 // ?0, ?1, or a member or parameter written without a value
	Integer                       // -999999999999999 to 999999999999999
	Decimal                       // at most 12 digits, a dot, at most 3 digits
	String                        // "..." with \" and \\ escapes; printable ASCII
	Token                         // starts with a letter or '*': y, n, text/html
	ByteSequence                  // :base64:
	Date                          // @ and an integer: seconds since 1970
	DisplayString                 // %"..." with %xx escapes of UTF-8
	InnerList                     // (a b c), each item with parameters of its own
)

var kindNames = [...]string{"", "boolean", "integer", "decimal", "string", "token", "byte sequence", "date", "display string", "inner list"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Item is a value with its parameters.
type Item struct {
	Kind Kind
	// Text is the value: a Token as written; a String or Display String decoded; the
	// bytes of a Byte Sequence; an Integer, Decimal or Date as written, sign included
	// and "@" left out ("-1.50", "1659578233"); "1" or "0" for a Boolean. It is empty
	// for an Inner List.
	Text   string
	Items  []Item  // the items of an Inner List
	Params []Param // in the order their keys first appear; a repeated key keeps its last value
}

// Param is one parameter. Its value has no parameters of its own.
type Param struct {
	Key   string
	Value Item
}

// Member is one key of a Dictionary and its value.
type Member struct {
	Key   string
	Value Item
}

// Dictionary is a parsed Dictionary: its members in the order their keys first
// appear, each key once, with the value it was last given (RFC 9651 §4.2.2: a repeated
// key overwrites the value).
type Dictionary []Member

// Get returns the value of key.
func (d Dictionary) Get(key string) (Item, bool) {
	for _, m := range d {
		if m.Key == key {
			return m.Value, true
		}
	}
	return Item{}, false
}

// SyntaxError is the error for input that is not a Dictionary. RFC 9651 makes the
// whole value invalid then: there is no partial result.
type SyntaxError struct {
	Offset int // byte offset in the input, from 0, of the byte that cannot be read (the input's length at its end)
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("structured field: %s at byte %d", e.Msg, e.Offset)
}

// ParseDictionary parses s as the value of a Dictionary field (RFC 9651 §4.2, with
// §4.2.2): leading and trailing spaces are allowed, members are separated by commas
// with optional spaces and tabs around them, and anything else out of place is a
// *SyntaxError. The empty string is the empty Dictionary. Several field lines of one
// HTTP field combine into one value by joining them with ", " (RFC 9110 §5.3) before
// they are parsed.
//
// A value past a limit (MaxLength, MaxMembers, …) is a *SyntaxError too.
func ParseDictionary(s string) (Dictionary, error) {
	if len(s) > MaxLength {
		return nil, &SyntaxError{Offset: MaxLength, Msg: fmt.Sprintf("the value is longer than %d bytes (sfv.MaxLength)", MaxLength)}
	}
	p := parser{s: s}
	p.skipSP()
	var d Dictionary
	var index map[string]int // key -> position in d, once d is long enough for it to pay
	for !p.end() {
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		var v Item
		if p.peek() == '=' {
			p.i++
			if v, err = p.itemOrInnerList(); err != nil {
				return nil, err
			}
		} else {
			v = Item{Kind: Boolean, Text: "1"}
			if v.Params, err = p.params(); err != nil {
				return nil, err
			}
		}
		if err := p.count(); err != nil {
			return nil, err
		}
		if d, index = put(d, index, Member{key, v}); len(d) > MaxMembers {
			return nil, p.fail(fmt.Sprintf("more than %d members (sfv.MaxMembers)", MaxMembers))
		}
		p.skipOWS()
		if p.end() {
			break
		}
		if p.peek() != ',' {
			return nil, p.unexpected("a comma between members")
		}
		p.i++
		p.skipOWS()
		if p.end() {
			return nil, p.fail("a comma ends the dictionary")
		}
	}
	return d, nil
}

// linearMax is how many keys a list holds before put indexes them in a map, so that
// a long line of distinct keys costs linear time, not quadratic.
const linearMax = 8

// put sets the member or parameter v in list: in place when its key is there
// already, else at the end.
func put[T interface{ keyName() string }](list []T, index map[string]int, v T) ([]T, map[string]int) {
	key := v.keyName()
	if index == nil {
		for i := range list {
			if list[i].keyName() == key {
				list[i] = v
				return list, nil
			}
		}
		list = append(list, v)
		if len(list) > linearMax {
			index = make(map[string]int, 2*len(list))
			for i := range list {
				index[list[i].keyName()] = i
			}
		}
		return list, index
	}
	if i, ok := index[key]; ok {
		list[i] = v
		return list, index
	}
	index[key] = len(list)
	return append(list, v), index
}

func (m Member) keyName() string { return m.Key }
func (p Param) keyName() string  { return p.Key }

type parser struct {
	s      string
	i      int
	values int // members, items of inner lists and parameters read
}

// count counts a value read, and fails past MaxValues.
func (p *parser) count() error {
	if p.values++; p.values > MaxValues {
		return p.fail(fmt.Sprintf("more than %d values (sfv.MaxValues)", MaxValues))
	}
	return nil
}

func (p *parser) end() bool { return p.i >= len(p.s) }

func (p *parser) peek() byte {
	if p.end() {
		return 0
	}
	return p.s[p.i]
}

func (p *parser) skipSP() {
	for !p.end() && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *parser) skipOWS() {
	for !p.end() && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *parser) fail(msg string) error { return &SyntaxError{Offset: p.i, Msg: msg} }

// unexpected fails on the byte at p.i, where want was wanted.
func (p *parser) unexpected(want string) error {
	switch c := p.peek(); {
	case p.end():
		return p.fail("the value ends where it needs " + want)
	case 'A' <= c && c <= 'Z':
		return p.fail(fmt.Sprintf("upper-case letter %q where it needs %s: keys are lower case", c, want))
	case c < ' ' || c > '~':
		return p.fail(fmt.Sprintf("byte %#02x where it needs %s", c, want))
	default:
		return p.fail(fmt.Sprintf("%q where it needs %s", c, want))
	}
}

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isAlpha(c byte) bool { return isLower(c) || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// key reads a key (§4.2.3.3): a lower-case letter or '*', then lower-case letters,
// digits, '_', '-', '.' and '*'.
func (p *parser) key() (string, error) {
	if c := p.peek(); !isLower(c) && c != '*' {
		return "", p.unexpected("a key")
	}
	start := p.i
	for p.i++; !p.end(); p.i++ {
		c := p.s[p.i]
		if !isLower(c) && !isDigit(c) && c != '_' && c != '-' && c != '.' && c != '*' {
			break
		}
	}
	return p.s[start:p.i], nil
}

// itemOrInnerList reads a member's value (§4.2.1.1).
func (p *parser) itemOrInnerList() (Item, error) {
	if p.peek() == '(' {
		return p.innerList()
	}
	return p.item()
}

// innerList reads "(" items separated by spaces ")" and its parameters (§4.2.1.2).
func (p *parser) innerList() (Item, error) {
	p.i++ // (
	v := Item{Kind: InnerList}
	for {
		p.skipSP()
		if p.end() {
			return Item{}, p.unexpected("')' to end the inner list")
		}
		if p.s[p.i] == ')' {
			p.i++
			var err error
			v.Params, err = p.params()
			return v, err
		}
		it, err := p.item()
		if err != nil {
			return Item{}, err
		}
		if err := p.count(); err != nil {
			return Item{}, err
		}
		if v.Items = append(v.Items, it); len(v.Items) > MaxInnerList {
			return Item{}, p.fail(fmt.Sprintf("an inner list of more than %d items (sfv.MaxInnerList)", MaxInnerList))
		}
		if c := p.peek(); c != ' ' && c != ')' {
			return Item{}, p.unexpected("a space or ')' after an item of an inner list")
		}
	}
}

// item reads a bare item and its parameters (§4.2.3).
func (p *parser) item() (Item, error) {
	v, err := p.bareItem()
	if err != nil {
		return Item{}, err
	}
	v.Params, err = p.params()
	return v, err
}

// params reads ";key=value" parameters (§4.2.3.2).
func (p *parser) params() ([]Param, error) {
	var ps []Param
	var index map[string]int
	for p.peek() == ';' {
		p.i++
		p.skipSP()
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		v := Item{Kind: Boolean, Text: "1"}
		if p.peek() == '=' {
			p.i++
			if v, err = p.bareItem(); err != nil {
				return nil, err
			}
		}
		if err := p.count(); err != nil {
			return nil, err
		}
		if ps, index = put(ps, index, Param{key, v}); len(ps) > MaxParams {
			return nil, p.fail(fmt.Sprintf("more than %d parameters (sfv.MaxParams)", MaxParams))
		}
	}
	return ps, nil
}

// bareItem reads a value without parameters (§4.2.3.1).
func (p *parser) bareItem() (Item, error) {
	switch c := p.peek(); {
	case c == '-' || isDigit(c):
		return p.number()
	case c == '"':
		return p.str()
	case c == '*' || isAlpha(c):
		return p.token(), nil
	case c == ':':
		return p.byteSequence()
	case c == '?':
		return p.boolean()
	case c == '@':
		return p.date()
	case c == '%':
		return p.displayString()
	}
	return Item{}, p.unexpected("a value")
}

// number reads an Integer or a Decimal (§4.2.4).
func (p *parser) number() (Item, error) {
	start := p.i
	if p.peek() == '-' {
		p.i++
	}
	if !isDigit(p.peek()) {
		return Item{}, p.unexpected("a digit")
	}
	digits := p.i
	dot := -1
	for ; !p.end(); p.i++ {
		c := p.s[p.i]
		if c == '.' && dot < 0 {
			if p.i-digits > 12 {
				return Item{}, p.fail("a decimal has more than 12 digits before its dot")
			}
			dot = p.i
			continue
		}
		if !isDigit(c) {
			break
		}
		if dot < 0 && p.i+1-digits > 15 {
			return Item{}, p.fail("an integer has more than 15 digits")
		}
		if dot >= 0 && p.i+1-digits > 16 {
			return Item{}, p.fail("a decimal has more than 16 characters")
		}
	}
	if dot < 0 {
		return Item{Kind: Integer, Text: p.s[start:p.i]}, nil
	}
	switch frac := p.i - dot - 1; {
	case frac == 0:
		return Item{}, p.fail("a decimal ends with its dot")
	case frac > 3:
		return Item{}, p.fail("a decimal has more than 3 digits after its dot")
	}
	return Item{Kind: Decimal, Text: p.s[start:p.i]}, nil
}

// str reads a String (§4.2.5).
func (p *parser) str() (Item, error) {
	p.i++ // "
	start := p.i
	var b strings.Builder // the value, once an escape makes it differ from the input
	escaped := false
	for ; !p.end(); p.i++ {
		switch c := p.s[p.i]; {
		case c == '"':
			v := p.s[start:p.i]
			if escaped {
				v = b.String()
			}
			p.i++
			return Item{Kind: String, Text: v}, nil
		case c == '\\':
			if !escaped {
				b.WriteString(p.s[start:p.i])
				escaped = true
			}
			p.i++
			if n := p.peek(); n != '"' && n != '\\' {
				return Item{}, p.unexpected(`'"' or '\' after '\' in a string`)
			}
			b.WriteByte(p.s[p.i])
		case c < ' ' || c > '~':
			return Item{}, p.fail(fmt.Sprintf("byte %#02x in a string (only printable ASCII)", c))
		case escaped:
			b.WriteByte(c)
		}
	}
	return Item{}, p.fail("a string has no closing '\"'")
}

// token reads a Token (§4.2.6); the caller has seen its first character.
func (p *parser) token() Item {
	start := p.i
	for p.i++; !p.end() && isTokenChar(p.s[p.i]); p.i++ {
	}
	return Item{Kind: Token, Text: p.s[start:p.i]}
}

// isTokenChar reports whether c is a tchar of RFC 9110 §5.6.2, ':' or '/'.
func isTokenChar(c byte) bool {
	return isAlpha(c) || isDigit(c) || strings.IndexByte("!#$%&'*+-.^_`|~:/", c) >= 0
}

// byteSequence reads a Byte Sequence (§4.2.7). As the RFC asks, missing '=' padding
// and non-zero pad bits are accepted.
func (p *parser) byteSequence() (Item, error) {
	p.i++ // :
	start := p.i
	for ; !p.end() && p.s[p.i] != ':'; p.i++ {
		c := p.s[p.i]
		if !isAlpha(c) && !isDigit(c) && c != '+' && c != '/' && c != '=' {
			return Item{}, p.unexpected("base64 or ':' in a byte sequence")
		}
	}
	if p.end() {
		return Item{}, p.fail("a byte sequence has no closing ':'")
	}
	b64 := p.s[start:p.i]
	data := strings.TrimRight(b64, "=")
	pad := len(b64) - len(data)
	// Padding, when present, must be what the length needs, or less: "YQ==", "YQ=" and
	// "YQ" are one byte, "YWJj=" is not base64.
	r := len(data) % 4
	if strings.IndexByte(data, '=') >= 0 || r == 1 || pad > 0 && !(r == 2 && pad <= 2 || r == 3 && pad == 1) {
		return Item{}, &SyntaxError{Offset: start, Msg: "a byte sequence is not base64"}
	}
	dec, err := base64.RawStdEncoding.DecodeString(data)
	if err != nil {
		return Item{}, &SyntaxError{Offset: start, Msg: "a byte sequence is not base64"}
	}
	p.i++
	return Item{Kind: ByteSequence, Text: string(dec)}, nil
}

// boolean reads ?0 or ?1 (§4.2.8).
func (p *parser) boolean() (Item, error) {
	p.i++ // ?
	if c := p.peek(); c != '0' && c != '1' {
		return Item{}, p.unexpected("0 or 1 after '?'")
	}
	p.i++
	return Item{Kind: Boolean, Text: p.s[p.i-1 : p.i]}, nil
}

// date reads '@' and an Integer (§4.2.9).
func (p *parser) date() (Item, error) {
	p.i++ // @
	start := p.i
	v, err := p.number()
	if err != nil {
		return Item{}, err
	}
	if v.Kind != Integer {
		return Item{}, &SyntaxError{Offset: start, Msg: "a date is not an integer"}
	}
	v.Kind = Date
	return v, nil
}

// displayString reads %"..." with lower-case %xx escapes of UTF-8 (§4.2.10).
func (p *parser) displayString() (Item, error) {
	p.i++ // %
	if p.peek() != '"' {
		return Item{}, p.unexpected(`'"' after '%'`)
	}
	p.i++
	var b []byte
	for ; !p.end(); p.i++ {
		switch c := p.s[p.i]; {
		case c < ' ' || c > '~':
			return Item{}, p.fail(fmt.Sprintf("byte %#02x in a display string (only printable ASCII)", c))
		case c == '%':
			hi, ok1 := unhex(p.at(p.i + 1))
			lo, ok2 := unhex(p.at(p.i + 2))
			if !ok1 || !ok2 {
				p.i++
				return Item{}, p.fail("'%' not followed by two lower-case hex digits in a display string")
			}
			b = append(b, hi<<4|lo)
			p.i += 2
		case c == '"':
			if !utf8.Valid(b) {
				return Item{}, p.fail("a display string is not UTF-8")
			}
			p.i++
			return Item{Kind: DisplayString, Text: string(b)}, nil
		default:
			b = append(b, c)
		}
	}
	return Item{}, p.fail("a display string has no closing '\"'")
}

func (p *parser) at(i int) byte {
	if i < len(p.s) {
		return p.s[i]
	}
	return 0
}

func unhex(c byte) (byte, bool) {
	switch {
	case isDigit(c):
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}
