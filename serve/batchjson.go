package serve

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gorobots/robots/internal/verdictjson"
)

// The body of POST /v1/check is decoded by hand: a batch holds up to DefaultMaxURLs
// URLs, and encoding/json spends more time on them than deciding them does. Kept for
// that: a crawler's batch through HTTP is answered with 1.6x fewer CPU-seconds than
// with encoding/json's decoder (BenchmarkBatchCodec/batch=crawler, codec=hand against
// codec=std-request; BENCHMARKS.md). The body
// is converted to a string once and every string without escapes is a substring of
// it, costing nothing; a string with an escape is decoded into new memory (two
// allocations: the bytes, then the string). So a batch costs a few allocations plus
// two per escaped URL — and that may be every URL with a query: Go's encoding/json
// writes '&' as \u0026 by default.
// It reads what encoding/json reads into batchRequest: member names matched without
// regard to case, other members skipped (after checking their syntax), null meaning
// "not given", invalid UTF-8 replaced by U+FFFD; only whitespace may follow the
// object.

// jsonError is a syntax or type error in a request body, at a byte offset.
type jsonError struct {
	off int
	msg string
}

func (e *jsonError) Error() string { return fmt.Sprintf("%s (at byte %d)", e.msg, e.off) }

type jsonReader struct {
	s string
	i int
}

func (r *jsonReader) fail(format string, args ...any) error {
	return &jsonError{off: r.i, msg: fmt.Sprintf(format, args...)}
}

func (r *jsonReader) space() {
	for r.i < len(r.s) {
		switch r.s[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// peek returns the next byte after whitespace, or 0 at the end.
func (r *jsonReader) peek() byte {
	r.space()
	if r.i >= len(r.s) {
		return 0
	}
	return r.s[r.i]
}

func (r *jsonReader) expect(c byte) error {
	if r.peek() != c {
		return r.unexpected(fmt.Sprintf("%q", c))
	}
	r.i++
	return nil
}

func (r *jsonReader) unexpected(want string) error {
	if r.i >= len(r.s) {
		return r.fail("unexpected end of JSON input, want %s", want)
	}
	return r.fail("invalid character %q, want %s", r.s[r.i], want)
}

// literal consumes null, true or false.
func (r *jsonReader) literal(word string) bool {
	if strings.HasPrefix(r.s[r.i:], word) {
		r.i += len(word)
		return true
	}
	return false
}

// str reads a JSON string; the cursor is on its opening quote.
func (r *jsonReader) str() (string, error) {
	r.i++ // the quote
	start := r.i
	r.i += verdictjson.PlainPrefix(r.s[r.i:])
	for r.i < len(r.s) {
		c := r.s[r.i]
		switch {
		case c == '"':
			v := r.s[start:r.i]
			r.i++
			return v, nil
		case c == '\\':
			return r.strSlow(start)
		case c < 0x20:
			return "", r.fail("control character %#02x in string", c)
		case c >= utf8.RuneSelf:
			// Valid UTF-8 stays as it is; invalid bytes need replacing.
			rn, size := utf8.DecodeRuneInString(r.s[r.i:])
			if rn == utf8.RuneError && size == 1 {
				return r.strSlow(start)
			}
			r.i += size
			r.i += verdictjson.PlainPrefix(r.s[r.i:])
		default:
			r.i++
		}
	}
	return "", r.fail("unexpected end of JSON input in string")
}

// strSlow decodes a string with escapes or invalid UTF-8 from start (just past the
// opening quote), into a new string.
func (r *jsonReader) strSlow(start int) (string, error) {
	b := make([]byte, 0, r.i-start+16)
	b = append(b, r.s[start:r.i]...)
	for r.i < len(r.s) {
		c := r.s[r.i]
		switch {
		case c == '"':
			r.i++
			return string(b), nil
		case c < 0x20:
			return "", r.fail("control character %#02x in string", c)
		case c == '\\':
			if r.i+1 >= len(r.s) {
				return "", r.fail("unexpected end of JSON input in string")
			}
			e := r.s[r.i+1]
			r.i += 2
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				rn, ok := r.hex4()
				if !ok {
					return "", r.fail("invalid \\u escape in string")
				}
				if utf16.IsSurrogate(rn) {
					// A pair makes one rune; a lone half is U+FFFD, as encoding/json has it.
					save := r.i
					if strings.HasPrefix(r.s[r.i:], `\u`) {
						r.i += 2
						if lo, ok := r.hex4(); ok {
							if d := utf16.DecodeRune(rn, lo); d != utf8.RuneError {
								b = utf8.AppendRune(b, d)
								continue
							}
						}
					}
					r.i = save
					rn = utf8.RuneError
				}
				b = utf8.AppendRune(b, rn)
			default:
				r.i -= 2
				return "", r.fail("invalid escape %q in string", r.s[r.i:r.i+2])
			}
		case c >= utf8.RuneSelf:
			rn, size := utf8.DecodeRuneInString(r.s[r.i:])
			if rn == utf8.RuneError && size == 1 {
				b = append(b, "\uFFFD"...)
			} else {
				b = append(b, r.s[r.i:r.i+size]...)
			}
			r.i += size
		default:
			b = append(b, c)
			r.i++
		}
	}
	return "", r.fail("unexpected end of JSON input in string")
}

func (r *jsonReader) hex4() (rune, bool) {
	if r.i+4 > len(r.s) {
		return 0, false
	}
	n, err := strconv.ParseUint(r.s[r.i:r.i+4], 16, 16)
	if err != nil {
		return 0, false
	}
	r.i += 4
	return rune(n), true
}

// member reads a member's name and the colon after it.
func (r *jsonReader) member() (string, error) {
	if r.peek() != '"' {
		return "", r.unexpected("a member name")
	}
	name, err := r.str()
	if err != nil {
		return "", err
	}
	return name, r.expect(':')
}

// next reads what follows a member or an element: a ',' (more follow) or end, the
// closing '}' or ']' (done).
func (r *jsonReader) next(end byte) (done bool, err error) {
	switch r.peek() {
	case ',':
		r.i++
		return false, nil
	case end:
		r.i++
		return true, nil
	}
	return false, r.unexpected(`"," or "` + string(end) + `"`)
}

// skip consumes any JSON value, checking its syntax. depth bounds nesting, as a
// hostile body could otherwise nest arrays a few million deep.
func (r *jsonReader) skip(depth int) error {
	if depth > maxJSONDepth {
		return r.fail("JSON nested more than %d deep", maxJSONDepth)
	}
	switch c := r.peek(); {
	case c == '"':
		_, err := r.str()
		return err
	case c == '{' || c == '[':
		// An object's members are a name and a value, an array's a value.
		end := byte(']')
		if c == '{' {
			end = '}'
		}
		r.i++
		if r.peek() == end {
			r.i++
			return nil
		}
		for {
			if c == '{' {
				if _, err := r.member(); err != nil {
					return err
				}
			}
			if err := r.skip(depth + 1); err != nil {
				return err
			}
			if done, err := r.next(end); done || err != nil {
				return err
			}
		}
	case c == 'n' && r.literal("null"), c == 't' && r.literal("true"), c == 'f' && r.literal("false"):
		return nil
	case c == '-' || '0' <= c && c <= '9':
		return r.number()
	}
	return r.unexpected("a value")
}

// number consumes a JSON number (RFC 8259 grammar).
func (r *jsonReader) number() error {
	if r.s[r.i] == '-' {
		r.i++
	}
	digits := func() int {
		n := 0
		for r.i < len(r.s) && '0' <= r.s[r.i] && r.s[r.i] <= '9' {
			r.i++
			n++
		}
		return n
	}
	if r.i < len(r.s) && r.s[r.i] == '0' {
		r.i++
	} else if digits() == 0 {
		return r.unexpected("a digit")
	}
	if r.i < len(r.s) && r.s[r.i] == '.' {
		r.i++
		if digits() == 0 {
			return r.unexpected("a digit")
		}
	}
	if r.i < len(r.s) && (r.s[r.i] == 'e' || r.s[r.i] == 'E') {
		r.i++
		if r.i < len(r.s) && (r.s[r.i] == '+' || r.s[r.i] == '-') {
			r.i++
		}
		if digits() == 0 {
			return r.unexpected("a digit")
		}
	}
	return nil
}

// maxJSONDepth bounds the nesting of skipped members: far more than any request needs.
const maxJSONDepth = 64

// stringOrNull reads a string member; null leaves it as it was.
func (r *jsonReader) stringOrNull(name string, into *string) error {
	switch r.peek() {
	case '"':
		v, err := r.str()
		*into = v
		return err
	case 'n':
		if r.literal("null") {
			return nil
		}
	}
	return r.typeError(name, "a string")
}

// boolOrNull reads true, false or null (which leaves into unchanged) for member name.
func (r *jsonReader) boolOrNull(name string, into *bool) error {
	switch r.peek() {
	case 't':
		if r.literal("true") {
			*into = true
			return nil
		}
	case 'f':
		if r.literal("false") {
			*into = false
			return nil
		}
	case 'n':
		if r.literal("null") {
			return nil
		}
	}
	return r.typeError(name, "true or false")
}

func (r *jsonReader) typeError(name, want string) error {
	if err := r.skip(0); err != nil {
		return err
	}
	return r.fail("field %q must be %s", name, want)
}

// stringsOrNull reads an array of strings (null elements read as ""); null means
// no array.
func (r *jsonReader) stringsOrNull(name string, into *[]string) error {
	switch r.peek() {
	case 'n':
		if r.literal("null") {
			*into = nil
			return nil
		}
		return r.typeError(name, "an array of strings")
	case '[':
	default:
		return r.typeError(name, "an array of strings")
	}
	r.i++
	if r.peek() == ']' {
		r.i++
		*into = []string{}
		return nil
	}
	out := (*into)[:0]
	for {
		switch r.peek() {
		case '"':
			v, err := r.str()
			if err != nil {
				return err
			}
			out = append(out, v)
		case 'n':
			if !r.literal("null") {
				return r.unexpected("a value")
			}
			out = append(out, "")
		default:
			return r.typeError(name, "an array of strings")
		}
		done, err := r.next(']')
		if err != nil {
			return err
		}
		if done {
			*into = out
			return nil
		}
	}
}

// decodeBatch reads a batch request from body.
func decodeBatch(body string) (batchRequest, error) {
	var req batchRequest
	r := &jsonReader{s: body}
	if r.peek() == 'n' && r.literal("null") {
		return req, r.trailing()
	}
	if err := r.expect('{'); err != nil {
		return req, err
	}
	if r.peek() == '}' {
		r.i++
		return req, r.trailing()
	}
	for {
		name, err := r.member()
		if err != nil {
			return req, err
		}
		switch {
		case strings.EqualFold(name, "agent"):
			err = r.stringOrNull("agent", &req.Agent)
		case strings.EqualFold(name, "agents"):
			err = r.stringsOrNull("agents", &req.Agents)
		case strings.EqualFold(name, "urls"):
			err = r.stringsOrNull("urls", &req.URLs)
		case strings.EqualFold(name, "dialect"):
			err = r.stringOrNull("dialect", &req.Dialect)
		case strings.EqualFold(name, "merge_agents"):
			err = r.boolOrNull("merge_agents", &req.Merge)
		case strings.EqualFold(name, "purposes"):
			// Not a batch's: each answer may fetch the site's RSL licences and
			// tdmrep.json; said plainly rather than as an unknown field.
			err = fmt.Errorf(`json: "purposes" is not a batch's: ask GET /v1/check?purposes=true for a URL and crawler, or POST /v1/audit for a site`)
		default:
			// As POST /v1/audit: a misspelt field ("agnet") must not pass unseen.
			err = fmt.Errorf("json: unknown field %q (want agent, agents, urls, dialect, merge_agents)", name)
		}
		if err != nil {
			return req, err
		}
		done, err := r.next('}')
		if err != nil {
			return req, err
		}
		if done {
			return req, r.trailing()
		}
	}
}

func (r *jsonReader) trailing() error {
	if r.space(); r.i < len(r.s) {
		return r.fail("invalid character %q after the JSON object", r.s[r.i])
	}
	return nil
}
