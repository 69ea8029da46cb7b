// Package htmlmeta reads the <meta name content> elements of an HTML page's head, with
// golang.org/x/net/html's tokenizer (the HTML5 tokenization rules: unquoted and
// mixed-case attributes, entities, comments), for the packages that read page-level
// signals (robotstag, tdmrep).
package htmlmeta

import (
	"bytes"
	"io"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// MaxBytes is how much of a page Read reads: the head of real pages is within the
// first few hundred kilobytes; a page that is all head past this is cut, as a crawler
// would cut it.
const MaxBytes = 1 << 20

// Meta is one <meta> element with a name attribute.
type Meta struct {
	Name    string // lower case
	Content string
}

// Read returns the meta elements with a name of the page, in order, up to the first
// element that belongs to the body (or </head>): Google reads robots meta tags in the
// head. It reads at most MaxBytes of r.
func Read(r io.Reader) ([]Meta, error) {
	z := html.NewTokenizer(io.LimitReader(r, MaxBytes))
	z.SetMaxBuf(MaxBytes)
	var out []Meta
	for {
		switch z.Next() {
		case html.ErrorToken:
			if err := z.Err(); err != io.EOF {
				return out, err
			}
			return out, nil
		case html.EndTagToken:
			if name, _ := z.TagName(); atom.Lookup(name) == atom.Head {
				return out, nil
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			switch atom.Lookup(name) {
			case atom.Meta:
				var m Meta
				named := false
				for hasAttr {
					var k, v []byte
					k, v, hasAttr = z.TagAttr()
					switch string(bytes.ToLower(k)) {
					case "name":
						m.Name, named = strings.ToLower(strings.TrimSpace(string(v))), true
					case "content":
						m.Content = string(v)
					}
				}
				if named {
					out = append(out, m)
				}
			case atom.Body, atom.P, atom.Div, atom.H1, atom.Main, atom.Article:
				return out, nil
			}
		}
	}
}

// ReadString is Read of a page held as a string.
func ReadString(s string) ([]Meta, error) { return Read(strings.NewReader(s)) }
