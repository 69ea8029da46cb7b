// Package rsl reads RSL 1.0 licences (Really Simple Licensing, rslstandard.org): the
// XML documents (media type application/rsl+xml) that a robots.txt License line points
// to, which say, for the assets whose URLs their <content> elements match, which uses
// (all, ai-all, ai-train, ai-input, ai-index, search), users and places a licence
// permits or prohibits, and on what payment terms.
//
// [Parse] reads a document within explicit limits ([MaxBytes], [MaxDepth],
// [MaxContents], [MaxLicenses]) and returns an error naming what is wrong with one it
// cannot read at all: not XML, too large, nested too deep, not an RSL document. A
// licence that it reads but cannot fully understand (an unknown usage, user, place,
// payment type or element) keeps its error ([License.Err]) and answers Unknown: never
// Permitted. [Document.Check] answers for one URL and one use. Content URL patterns
// match as robots.txt Allow and Disallow values do (RFC 9309 with Google's reading:
// '*', '$', percent-encoding), by the project's own matcher, the longest pattern
// winning.
//
// Package fetch fetches licences by robots.txt's access method and caches them
// (fetch.Client.License, fetch.Transport.License).
package rsl

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Namespace is the XML namespace of RSL elements; MediaType is the licence file's.
const (
	Namespace = "https://rslstandard.org/rsl"
	MediaType = "application/rsl+xml"
)

// Limits of Parse. A licence names the sections of a site and a few licences for each:
// real ones are a few kilobytes. The limits keep a hostile or broken file (a 50 MB
// download, elements nested without end) from costing more than a small, fixed budget.
const (
	MaxBytes    = 1 << 20 // bytes of a document; past it Parse fails with ErrTooLarge
	MaxDepth    = 32      // nesting of elements; the RSL elements need 5
	MaxContents = 10000   // <content> elements of a document
	MaxLicenses = 100     // <license> elements of one <content>
	maxValues   = 1000    // values of one <permits> or <prohibits>
)

// The errors of a document Parse cannot read; the error it returns wraps one.
var (
	ErrTooLarge = errors.New("rsl: document larger than 1 MiB")
	ErrTooDeep  = errors.New("rsl: elements nested deeper than 32")
	ErrNotXML   = errors.New("rsl: not well-formed XML")
	ErrNotRSL   = errors.New("rsl: not an RSL document")
)

// Usage is a use of an asset, RSL 1.0's usage vocabulary.
type Usage string

// The usages of RSL 1.0. All covers every use, AIAll every AI use (AITrain, AIInput,
// AIIndex); Search is building a search index and providing search results.
const (
	All     Usage = "all"
	AIAll   Usage = "ai-all"
	AITrain Usage = "ai-train" // training or fine-tuning AI models
	AIInput Usage = "ai-input" // input to AI models: retrieval-augmented generation, grounding, generated answers
	AIIndex Usage = "ai-index" // building an index for AI-powered search and answers
	Search  Usage = "search"   // a search index and search results (links, short excerpts)
)

var usages = []Usage{All, AIAll, AITrain, AIInput, AIIndex, Search}

// ParseUsage reads a usage word; any other word is an error that lists them.
// "train-ai", the AI Preferences label, reads as AITrain: RSL's own guide writes it
// so in its templates (rslstandard.org/guide/getting-started, /guide/ai-preferences)
// and the RSL Collective's licences (rslcollective.org/license).
func ParseUsage(s string) (Usage, error) {
	if u := Usage(s); slices.Contains(usages, u) {
		return u, nil
	}
	if s == "train-ai" {
		return AITrain, nil
	}
	return "", fmt.Errorf("rsl: unknown usage %q (RSL 1.0 has all, ai-all, ai-train, ai-input, ai-index, search)", s)
}

// covers reports whether a licence value v speaks to the use u: v is u, or a usage
// that includes it.
func (v Usage) covers(u Usage) bool {
	switch v {
	case u, All:
		return true
	case AIAll:
		return u == AITrain || u == AIInput || u == AIIndex
	}
	return false
}

// users are RSL 1.0's user vocabulary.
var users = []string{"commercial", "non-commercial", "education", "government", "personal"}

// paymentTypes are RSL 1.0's payment types ("inference" is the draft's word for use).
// "royalty" is the RSL Collective's (rslcollective.org/license).
var paymentTypes = []string{"purchase", "subscription", "training", "crawl", "use", "inference", "contribution", "attribution", "royalty", "free"}

// Answer is what a licence says of a use.
type Answer uint8

const (
	Unknown    Answer = iota // nothing applies, or what applies cannot be read
	Permitted                // a licence permits the use (on its payment terms)
	Prohibited               // every licence that applies prohibits it, or permits only other uses
)

var answerNames = [...]string{"unknown", "permitted", "prohibited"}

func (a Answer) String() string {
	if int(a) < len(answerNames) {
		return answerNames[a]
	}
	return fmt.Sprintf("Answer(%d)", uint8(a))
}

// MarshalText writes the answer's name.
func (a Answer) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// Document is a parsed RSL document. It is safe for concurrent use.
type Document struct {
	Contents []Content `json:"contents"`
	m        matcher
}

// Content is one <content> element: the assets its URL pattern matches and their
// licences, which are alternatives (a client may take any of them).
type Content struct {
	URL       string    `json:"url"`                 // the pattern, as written: a path or a full URL, robots.txt matching
	Server    string    `json:"server,omitempty"`    // an RSL licence server
	Encrypted bool      `json:"encrypted,omitempty"` // the assets are encrypted
	LastMod   string    `json:"lastmod,omitempty"`
	Licenses  []License `json:"licenses"`
	Line      int       `json:"line"`
	// Err says why the content's URL cannot be matched; it then matches nothing.
	Err string `json:"error,omitempty"`
}

// License is one <license> element.
type License struct {
	Permits   Terms     `json:"permits"`
	Prohibits Terms     `json:"prohibits"`
	Payments  []Payment `json:"payments"`
	Line      int       `json:"line"`
	// Err says what in the licence could not be understood (an unknown usage, user,
	// place or element): the licence then answers Unknown.
	Err string `json:"error,omitempty"`
	// Warnings say what in its payment terms is not RSL 1.0's (an unknown payment
	// type): the permission stands, on terms to read by hand.
	Warnings []string `json:"warnings,omitempty"`
}

// Terms are the values of the <permits> (or <prohibits>) elements of a licence, by
// type; a type with no element is nil, and says nothing.
type Terms struct {
	Usage []Usage  `json:"usage"`
	User  []string `json:"user"`
	Geo   []string `json:"geo"` // ISO 3166-1 alpha-2 codes, upper case
}

// Payment is one <payment> element: its type (free when absent), the URLs of its
// standard and custom terms, and its amounts.
type Payment struct {
	Type     string   `json:"type"`
	Standard []string `json:"standard,omitempty"`
	Custom   []string `json:"custom,omitempty"`
	Amounts  []Amount `json:"amounts,omitempty"`
}

// Amount is a price: "0.01" in "USD".
type Amount struct {
	Value    string `json:"value"`
	Currency string `json:"currency"`
}

func (p Payment) String() string {
	s := p.Type
	for _, a := range p.Amounts {
		s += " " + a.Value + " " + a.Currency
	}
	for _, u := range append(slices.Clone(p.Standard), p.Custom...) {
		s += " " + u
	}
	return s
}

// Parse reads an RSL document: a licence file whose root is <rsl> in the RSL
// namespace. It reads at most MaxBytes; see the package doc for what is an error of
// the document and what an error of one licence.
func Parse(r io.Reader) (*Document, error) {
	lr := &io.LimitedReader{R: r, N: MaxBytes + 1}
	d := xml.NewDecoder(lr)
	d.Strict = true
	d.CharsetReader = nil // UTF-8 (and US-ASCII) only: an encoding="…" that is not is an error
	p := parser{d: d}
	doc, err := p.document()
	if lr.N <= 0 {
		return nil, ErrTooLarge
	}
	if err != nil {
		return nil, err
	}
	if err := doc.m.compile(doc.Contents); err != nil {
		return nil, err
	}
	return doc, nil
}

type parser struct {
	d     *xml.Decoder
	depth int
}

// token returns the next token, counting depth, with errors as the package's.
func (p *parser) token() (xml.Token, error) {
	t, err := p.d.Token()
	if err != nil {
		if err == io.EOF {
			return nil, err
		}
		var se *xml.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("%w: line %d: %s", ErrNotXML, se.Line, se.Msg)
		}
		return nil, fmt.Errorf("%w: %v", ErrNotXML, err)
	}
	switch t.(type) {
	case xml.StartElement:
		if p.depth++; p.depth > MaxDepth {
			return nil, fmt.Errorf("%w (line %d)", ErrTooDeep, p.line())
		}
	case xml.EndElement:
		p.depth--
	}
	return t, nil
}

func (p *parser) line() int { l, _ := p.d.InputPos(); return l }

// skip reads to the end of the element just started.
func (p *parser) skip() error {
	for depth := 1; depth > 0; {
		t, err := p.token()
		if err != nil {
			return unexpectedEOF(err)
		}
		switch t.(type) {
		case xml.StartElement:
			depth++
		case xml.EndElement:
			depth--
		}
	}
	return nil
}

func unexpectedEOF(err error) error {
	if err == io.EOF {
		return fmt.Errorf("%w: the document ends inside an element", ErrNotXML)
	}
	return err
}

// text reads the character data of the element just started, to its end; an element
// inside it is an error.
func (p *parser) text() (string, error) {
	var b strings.Builder
	for {
		t, err := p.token()
		if err != nil {
			return "", unexpectedEOF(err)
		}
		switch t := t.(type) {
		case xml.CharData:
			if b.Len()+len(t) > MaxBytes {
				return "", ErrTooLarge
			}
			b.Write(t)
		case xml.StartElement:
			return "", fmt.Errorf("line %d: <%s> inside a value", p.line(), t.Name.Local)
		case xml.EndElement:
			return strings.TrimSpace(b.String()), nil
		}
	}
}

func (p *parser) document() (*Document, error) {
	for {
		t, err := p.token()
		if err == io.EOF {
			return nil, fmt.Errorf("%w: no root element", ErrNotXML)
		}
		if err != nil {
			return nil, err
		}
		if cd, ok := t.(xml.CharData); ok && len(bytes.TrimSpace(cd)) > 0 {
			return nil, fmt.Errorf("%w: line %d: text before the root element", ErrNotXML, p.line())
		}
		se, ok := t.(xml.StartElement)
		if !ok {
			continue // prolog: declaration, comments, white space
		}
		if se.Name.Local != "rsl" || se.Name.Space != Namespace {
			what := "<" + se.Name.Local + ">"
			if se.Name.Space != "" {
				what += " in namespace " + se.Name.Space
			}
			if se.Name.Local == "rsl" {
				what = "<rsl> not in the namespace " + Namespace
			}
			if se.Name.Local == "rss" {
				what += " (an RSS licence feed: only licence files are read)"
			}
			return nil, fmt.Errorf("%w: the root element is %s", ErrNotRSL, what)
		}
		doc := &Document{Contents: []Content{}}
		if err := p.rsl(doc); err != nil {
			return nil, err
		}
		// Nothing but comments and white space may follow the root.
		for {
			t, err := p.token()
			if err == io.EOF {
				return doc, nil
			}
			if err != nil {
				return nil, err
			}
			if _, ok := t.(xml.StartElement); ok {
				return nil, fmt.Errorf("%w: line %d: a second root element", ErrNotXML, p.line())
			}
		}
	}
}

func (p *parser) rsl(doc *Document) error {
	for {
		t, err := p.token()
		if err != nil {
			return unexpectedEOF(err)
		}
		switch t := t.(type) {
		case xml.EndElement:
			return nil
		case xml.StartElement:
			if t.Name.Space != Namespace || t.Name.Local != "content" {
				if err := p.skip(); err != nil {
					return err
				}
				continue
			}
			if len(doc.Contents) == MaxContents {
				return fmt.Errorf("rsl: line %d: more than %d <content> elements", p.line(), MaxContents)
			}
			c, err := p.content(t)
			if err != nil {
				return err
			}
			doc.Contents = append(doc.Contents, c)
		}
	}
}

func attr(se xml.StartElement, name string) (string, bool) {
	for _, a := range se.Attr {
		if a.Name.Local == name && (a.Name.Space == "" || a.Name.Space == Namespace) {
			return a.Value, true
		}
	}
	return "", false
}

func (p *parser) content(se xml.StartElement) (Content, error) {
	c := Content{Line: p.line(), Licenses: []License{}}
	url, ok := attr(se, "url")
	c.URL = strings.TrimSpace(url)
	switch {
	case !ok || c.URL == "":
		c.Err = "<content> without a url attribute"
	case strings.ContainsAny(c.URL, " \t\r\n#"):
		c.Err = fmt.Sprintf("content url %q has white space or '#': no URL path can match it", c.URL)
	}
	c.Server, _ = attr(se, "server")
	c.LastMod, _ = attr(se, "lastmod")
	if v, ok := attr(se, "encrypted"); ok {
		c.Encrypted = strings.EqualFold(strings.TrimSpace(v), "true")
	}
	for {
		t, err := p.token()
		if err != nil {
			return c, unexpectedEOF(err)
		}
		switch t := t.(type) {
		case xml.EndElement:
			return c, nil
		case xml.StartElement:
			if t.Name.Space != Namespace || t.Name.Local != "license" {
				if err := p.skip(); err != nil { // schema, copyright, terms, alternate, …
					return c, err
				}
				continue
			}
			if len(c.Licenses) == MaxLicenses {
				return c, fmt.Errorf("rsl: line %d: more than %d <license> elements in one <content>", p.line(), MaxLicenses)
			}
			l, err := p.license()
			if err != nil {
				return c, err
			}
			c.Licenses = append(c.Licenses, l)
		}
	}
}

func (p *parser) license() (License, error) {
	l := License{Line: p.line(), Payments: []Payment{}}
	var problems []string
	for {
		t, err := p.token()
		if err != nil {
			return l, unexpectedEOF(err)
		}
		switch t := t.(type) {
		case xml.EndElement:
			l.Err = strings.Join(problems, "; ")
			return l, nil
		case xml.StartElement:
			line := p.line()
			if t.Name.Space != Namespace {
				if err := p.skip(); err != nil {
					return l, err
				}
				continue
			}
			switch t.Name.Local {
			case "permits", "prohibits":
				typ, _ := attr(t, "type")
				v, err := p.text()
				if err != nil {
					return l, err
				}
				terms := &l.Permits
				if t.Name.Local == "prohibits" {
					terms = &l.Prohibits
				}
				if err := terms.add(strings.TrimSpace(typ), v); err != nil {
					problems = append(problems, fmt.Sprintf("line %d: <%s>: %v", line, t.Name.Local, err))
				}
			case "payment":
				pay, problem, err := p.payment(t)
				if err != nil {
					return l, err
				}
				if problem != "" {
					l.Warnings = append(l.Warnings, fmt.Sprintf("line %d: %s", line, problem))
				}
				l.Payments = append(l.Payments, pay)
			case "legal":
				if err := p.skip(); err != nil {
					return l, err
				}
			default:
				// A term this reader does not know may restrict the licence: it cannot
				// say "permitted" for it.
				problems = append(problems, fmt.Sprintf("line %d: unknown element <%s> in <license>", line, t.Name.Local))
				if err := p.skip(); err != nil {
					return l, err
				}
			}
		}
	}
}

// add reads the values of one <permits> or <prohibits> element of type typ ("usage"
// when absent): words separated by commas or white space.
func (tm *Terms) add(typ, v string) error {
	words := strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' })
	if len(words) > maxValues {
		return fmt.Errorf("more than %d values", maxValues)
	}
	switch typ {
	case "usage", "":
		tm.Usage = nonNil(tm.Usage)
		for _, w := range words {
			u, err := ParseUsage(w)
			if err != nil {
				return err
			}
			tm.Usage = append(tm.Usage, u)
		}
	case "user":
		tm.User = nonNil(tm.User)
		for _, w := range words {
			if !slices.Contains(users, w) {
				return fmt.Errorf("unknown user %q (RSL 1.0 has %s)", w, strings.Join(users, ", "))
			}
			tm.User = append(tm.User, w)
		}
	case "geo":
		tm.Geo = nonNil(tm.Geo)
		for _, w := range words {
			if len(w) != 2 || !isLetters(w) {
				return fmt.Errorf("place %q is not an ISO 3166-1 alpha-2 country code", w)
			}
			tm.Geo = append(tm.Geo, strings.ToUpper(w))
		}
	default:
		return fmt.Errorf("unknown type %q (RSL 1.0 has usage, user, geo)", typ)
	}
	return nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func isLetters(s string) bool {
	for _, c := range s {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

func (p *parser) payment(se xml.StartElement) (pay Payment, problem string, err error) {
	pay.Type, _ = attr(se, "type")
	if pay.Type = strings.TrimSpace(pay.Type); pay.Type == "" {
		pay.Type = "free"
	}
	if !slices.Contains(paymentTypes, pay.Type) {
		problem = fmt.Sprintf("unknown payment type %q (RSL 1.0 has %s)", pay.Type, strings.Join(paymentTypes, ", "))
	}
	for {
		t, err := p.token()
		if err != nil {
			return pay, problem, unexpectedEOF(err)
		}
		switch t := t.(type) {
		case xml.EndElement:
			return pay, problem, nil
		case xml.StartElement:
			if t.Name.Space != Namespace {
				if err := p.skip(); err != nil {
					return pay, problem, err
				}
				continue
			}
			switch t.Name.Local {
			case "standard", "custom", "amount":
				cur, _ := attr(t, "currency")
				v, err := p.text()
				if err != nil {
					return pay, problem, err
				}
				switch t.Name.Local {
				case "standard":
					pay.Standard = append(pay.Standard, v)
				case "custom":
					pay.Custom = append(pay.Custom, v)
				default:
					pay.Amounts = append(pay.Amounts, Amount{Value: v, Currency: cur})
				}
			default:
				if problem == "" {
					problem = fmt.Sprintf("unknown element <%s> in <payment>", t.Name.Local)
				}
				if err := p.skip(); err != nil {
					return pay, problem, err
				}
			}
		}
	}
}
