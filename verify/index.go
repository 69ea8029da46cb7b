package verify

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/webbotauth"
)

// crawler is what Verify needs of a registry entry.
type crawler struct {
	name   string
	ranges []*source
	dns    []string // lower case, no trailing dot
	keyDir string   // the Signature-Agent origin (webbotauth.AgentOrigin's form)
	keys   *source  // its key directory
}

type phrase struct {
	text string // lower case
	c    *crawler
}

// source is one range list: name is the URL the registry gives, loc where it is
// read from (the same URL, or what Options.Lists puts in its place).
type source struct {
	name string
	loc  string
	file bool // loc is a local path
}

// index finds the crawler a User-Agent names.
type index struct {
	// byWord holds, by a lower-cased word, the crawler whose product token it is
	// and the names and User-Agent patterns of several words ("Sogou web spider")
	// that start with it: one lookup a word of a User-Agent.
	byWord  map[string]*word
	byAgent map[string]*crawler // Signature-Agent origin → the crawler whose key directory it is
	all     []*source
}

// word is what a lower-cased word of a User-Agent may name.
type word struct {
	c       *crawler  // the crawler whose product token it is, if any
	phrases []*phrase // the several-word names and patterns it starts, the longest first
}

func newIndex(cs []crawlers.Crawler, lists map[string]string) (*index, error) {
	ix := &index{byWord: make(map[string]*word, len(cs)), byAgent: map[string]*crawler{}}
	wordOf := func(w string) *word {
		e := ix.byWord[w]
		if e == nil {
			e = &word{}
			ix.byWord[w] = e
		}
		return e
	}
	addPhrase := func(text string, c *crawler) {
		first := text
		if i := strings.IndexFunc(text, func(r rune) bool { return r > 127 || !isTokenByte(byte(r)) }); i > 0 {
			first = text[:i]
		}
		w := wordOf(first)
		w.phrases = append(w.phrases, &phrase{text, c})
		slices.SortStableFunc(w.phrases, func(a, b *phrase) int { return len(b.text) - len(a.text) })
	}
	srcs := map[string]*source{}
	keySrcs := map[string]*source{}
	newSrc := func(name, loc string) (*source, error) {
		s := &source{name: name, loc: loc}
		u, err := url.Parse(loc)
		switch {
		case err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "":
		case err == nil && u.Scheme == "file":
			s.loc, s.file = u.Path, true
		case err == nil && u.Scheme == "" || len(u.Scheme) == 1: // a path (or a Windows drive)
			s.file = true
		default:
			return nil, fmt.Errorf("verify: %q: neither an http(s) URL nor a file", loc)
		}
		return s, nil
	}
	srcOf := func(name, loc string) (*source, error) {
		key := name + "\x00" + loc
		if s, ok := srcs[key]; ok {
			return s, nil
		}
		s, err := newSrc(name, loc)
		if err != nil {
			return nil, err
		}
		srcs[key] = s
		ix.all = append(ix.all, s)
		return s, nil
	}
	keySrcOf := func(name, loc string) (*source, error) {
		key := name + "\x00" + loc
		if s, ok := keySrcs[key]; ok {
			return s, nil
		}
		s, err := newSrc(name, loc)
		if err != nil {
			return nil, err
		}
		keySrcs[key] = s
		return s, nil
	}
	for _, c := range cs {
		k := strings.ToLower(c.Name)
		if k == "" || ix.byWord[k] != nil && ix.byWord[k].c != nil {
			continue
		}
		e := &crawler{name: c.Name}
		if kd := c.Verify.KeyDirectory; kd != "" {
			origin, err := webbotauth.AgentOrigin(kd)
			if err != nil {
				return nil, fmt.Errorf("verify: crawler %s: key directory: %w", c.Name, err)
			}
			dir := origin + webbotauth.WellKnownPath
			loc := dir
			if l, ok := lists[kd]; ok {
				loc = l
			} else if l, ok := lists[dir]; ok {
				loc = l
			}
			if e.keys, err = keySrcOf(dir, loc); err != nil {
				return nil, fmt.Errorf("%w (crawler %s)", err, c.Name)
			}
			e.keyDir = origin
			if ix.byAgent[origin] == nil {
				ix.byAgent[origin] = e
			}
		}
		for _, d := range c.Verify.DNS {
			e.dns = append(e.dns, strings.TrimSuffix(strings.ToLower(d), "."))
		}
		urls := c.Verify.Ranges
		if loc, ok := lists[c.Name]; ok {
			urls = []string{loc}
		}
		for _, u := range urls {
			loc := u
			if l, ok := lists[u]; ok {
				loc = l
			}
			s, err := srcOf(u, loc)
			if err != nil {
				return nil, fmt.Errorf("%w (crawler %s)", err, c.Name)
			}
			e.ranges = append(e.ranges, s)
		}
		wordOf(k).c = e
		if !isToken(c.Name) {
			addPhrase(strings.ToLower(c.Name), e)
		}
		// A pattern of several words ("Sogou web spider/4.0"): its words before a '/'.
		if pat, _, _ := strings.Cut(c.UserAgent, "/"); strings.Contains(pat, " ") {
			addPhrase(strings.ToLower(pat), e)
		}
	}
	return ix, nil
}

func (ix *index) sources() []*source { return ix.all }

// tokenBytes marks the bytes of a product token's word: letters, digits, '-', '_', '.'.
var tokenBytes = func() (t [256]bool) {
	for b := range 256 {
		t[b] = b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-' || b == '_' || b == '.'
	}
	return t
}()

func isTokenByte(b byte) bool { return tokenBytes[b] }

func isToken(s string) bool {
	for i := range len(s) {
		if !isTokenByte(s[i]) {
			return false
		}
	}
	return s != ""
}

// match returns the crawler ua names: a registry name or User-Agent pattern of
// several words found in ua ("Sogou web spider/4.0", whose "spider/4.0" is not
// the Spider crawler); else a product ("Googlebot/2.1"), the first in ua; else a
// word of ua that is a registry token ("Googlebot" in "compatible; Googlebot; …").
// Words inside a URL ("+http://www.google.com/bot.html") are not read. One pass,
// no allocation: it runs for every request.
func (ix *index) match(ua string) (*crawler, bool) {
	var product, named *crawler
	for i := 0; i < len(ua); {
		if !isTokenByte(ua[i]) {
			i++
			continue
		}
		j := i
		for j < len(ua) && isTokenByte(ua[j]) {
			j++
		}
		if j+2 < len(ua) && ua[j] == ':' && ua[j+1] == '/' && ua[j+2] == '/' {
			// a URL: skip to its end
			for j < len(ua) && ua[j] != ' ' && ua[j] != ';' && ua[j] != ')' {
				j++
			}
			i = j
			continue
		}
		w := ix.lookup(ua[i:j])
		if w == nil {
			i = j
			continue
		}
		for _, p := range w.phrases {
			if i+len(p.text) <= len(ua) && strings.EqualFold(ua[i:i+len(p.text)], p.text) {
				return p.c, true
			}
		}
		if c := w.c; c != nil {
			if j < len(ua) && ua[j] == '/' {
				if product == nil {
					product = c
				}
			} else if named == nil {
				named = c
			}
		}
		i = j
	}
	if product != nil {
		return product, true
	}
	return named, named != nil
}

// maxToken bounds the words looked up: no registry name is longer.
const maxToken = 64

// lower writes tok lower-cased into buf, and reports whether it fit.
func lower(buf *[maxToken]byte, tok string) ([]byte, bool) {
	if len(tok) > maxToken {
		return nil, false
	}
	b := buf[:len(tok)]
	for i := range len(tok) {
		c := tok[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	return b, true
}

// lookup returns what the word tok may name, in any case; nil for nothing.
func (ix *index) lookup(tok string) *word {
	var buf [maxToken]byte
	b, ok := lower(&buf, tok)
	if !ok {
		return nil
	}
	return ix.byWord[string(b)]
}
