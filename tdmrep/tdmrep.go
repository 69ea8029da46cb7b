// Package tdmrep reads the TDM Reservation Protocol (TDMRep, W3C Community Group final
// report): a site's /.well-known/tdmrep.json, a response's tdm-reservation and
// tdm-policy header fields, and an HTML page's <meta name="tdm-reservation"> and
// <meta name="tdm-policy">. tdm-reservation 1 reserves text-and-data-mining rights (the
// machine-readable opt-out of Article 4 of the EU CDSM Directive); 0 says they are not
// reserved; any other value is a protocol error, read as unset.
//
// Later techniques supersede earlier ones (the report's "Processing priority"): the
// file, then the header, then the page's meta tags; a technique that says nothing does
// not reset what an earlier one said.
package tdmrep

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/internal/htmlmeta"
)

// Path is where the file is, on every origin.
const Path = "/.well-known/tdmrep.json"

// Limits of ParseFile: real files hold a handful of rules.
const (
	MaxBytes = 1 << 20
	MaxRules = 10000
)

// Reservation is what TDMRep says of one resource.
type Reservation struct {
	// Reserved is nil when nothing says (no rule matches, no header, no meta, or only
	// protocol errors); else whether TDM rights are reserved.
	Reserved *bool  `json:"reserved"`
	Policy   string `json:"policy,omitempty"` // the TDM Policy URL; only meaningful when reserved
	Source   string `json:"source,omitempty"` // "tdmrep.json rule 2 (/directory-b/html/)", "header", "meta"
	// Errors are the protocol errors met (values other than 0 and 1), each read as unset.
	Errors []string `json:"errors,omitempty"`
}

// String says it in words: "reserved (policy https://…) by header", "not reserved by …",
// "unset".
func (r Reservation) String() string {
	switch {
	case r.Reserved == nil:
		return "unset"
	case *r.Reserved && r.Policy != "":
		return fmt.Sprintf("reserved, policy %s (%s)", r.Policy, r.Source)
	case *r.Reserved:
		return "reserved (" + r.Source + ")"
	}
	return "not reserved (" + r.Source + ")"
}

// File is a parsed tdmrep.json: its rules in order.
type File struct {
	Rules []Rule `json:"rules"`
	m     []*robots.Robots
}

// Rule is one object of the file.
type Rule struct {
	Location    string `json:"location"`
	Reservation *int   `json:"tdm-reservation"`
	Policy      string `json:"tdm-policy,omitempty"`
}

// ErrNotTDMRep wraps the error of a file ParseFile cannot read.
var ErrNotTDMRep = errors.New("tdmrep: not a tdmrep.json file")

// ParseFile reads a tdmrep.json file: a JSON array of rules, each with a location and
// a tdm-reservation (an optional tdm-policy). At most MaxBytes are read.
func ParseFile(r io.Reader) (*File, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxBytes {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrNotTDMRep, MaxBytes)
	}
	var raw []map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("%w: %v (the file is a JSON array of objects, even for one rule)", ErrNotTDMRep, err)
	}
	if len(raw) > MaxRules {
		return nil, fmt.Errorf("%w: more than %d rules", ErrNotTDMRep, MaxRules)
	}
	f := &File{Rules: []Rule{}}
	for i, o := range raw {
		var rule Rule
		if err := json.Unmarshal(o["location"], &rule.Location); err != nil || rule.Location == "" {
			return nil, fmt.Errorf("%w: rule %d has no location", ErrNotTDMRep, i+1)
		}
		if v, ok := o["tdm-reservation"]; ok {
			var n int
			if json.Unmarshal(v, &n) == nil {
				rule.Reservation = &n
			} else {
				bad := -1 // a value that is not a number: a protocol error, as 2 is
				rule.Reservation = &bad
			}
		}
		if v, ok := o["tdm-policy"]; ok {
			json.Unmarshal(v, &rule.Policy)
		}
		f.Rules = append(f.Rules, rule)
		loc := strings.ReplaceAll(rule.Location, "\n", "")
		f.m = append(f.m, robots.ParseString("user-agent: tdm\ndisallow: "+loc+"\n"))
	}
	return f, nil
}

// Lookup returns what the file says of rawURL: the first rule in the file's order
// whose location matches the URL's path ("The most specific match is the first in
// sequence"), its location matched as a robots.txt path (the report re-uses
// draft-koster-rep's '*' and '$' and points to Google's reading). A rule without a
// tdm-reservation, or with a value other than 0 and 1, is a protocol error: unset.
func (f *File) Lookup(rawURL string) Reservation {
	if f == nil {
		return Reservation{}
	}
	for i, r := range f.m {
		if r.Allowed("tdm", rawURL) {
			continue
		}
		rule := f.Rules[i]
		src := fmt.Sprintf("tdmrep.json rule %d (%s)", i+1, rule.Location)
		return reservation(rule.Reservation, rule.Policy, src)
	}
	return Reservation{}
}

func reservation(v *int, policy, src string) Reservation {
	res := Reservation{Source: src}
	switch {
	case v == nil:
		res.Errors = []string{src + ": no tdm-reservation"}
	case *v == 0 || *v == 1:
		b := *v == 1
		res.Reserved = &b
		if b {
			res.Policy = policy
		}
	default:
		res.Errors = []string{fmt.Sprintf("%s: tdm-reservation %d is neither 0 nor 1", src, *v)}
	}
	if res.Reserved == nil {
		res.Source = ""
	}
	return res
}

// fromPair reads a tdm-reservation value and a tdm-policy as text (a header or meta).
func fromPair(value, policy, src string) Reservation {
	value = strings.TrimSpace(value)
	switch value {
	case "":
		return Reservation{}
	case "0", "1":
		n := int(value[0] - '0')
		return reservation(&n, strings.TrimSpace(policy), src)
	}
	return Reservation{Errors: []string{fmt.Sprintf("%s: tdm-reservation %q is neither 0 nor 1", src, value)}}
}

// FromHeader reads a response's tdm-reservation and tdm-policy fields.
func FromHeader(h http.Header) Reservation {
	return fromPair(h.Get("Tdm-Reservation"), h.Get("Tdm-Policy"), "header")
}

// FromHTML reads an HTML page's tdm-reservation and tdm-policy meta tags.
func FromHTML(body io.Reader) (Reservation, error) {
	metas, err := htmlmeta.Read(body)
	var v, p string
	for _, m := range metas {
		switch m.Name {
		case "tdm-reservation":
			v = m.Content
		case "tdm-policy":
			p = m.Content
		}
	}
	return fromPair(v, p, "meta"), err
}

// Resolve combines the techniques in the report's priority: each later one that says
// something supersedes the ones before; protocol errors are kept.
func Resolve(steps ...Reservation) Reservation {
	var out Reservation
	for _, s := range steps {
		out.Errors = append(out.Errors, s.Errors...)
		if s.Reserved != nil {
			errs := out.Errors
			out = s
			out.Errors = errs
		}
	}
	return out
}
