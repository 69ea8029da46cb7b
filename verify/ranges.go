package verify

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// rangeSet is a range list ready for lookups: disjoint address intervals sorted
// by their first address, each with the prefix it came from.
type rangeSet struct {
	spans []span
}

type span struct {
	first, last netip.Addr
	prefix      netip.Prefix
}

func newRangeSet(ps []netip.Prefix) *rangeSet {
	spans := make([]span, 0, len(ps))
	for _, p := range ps {
		p = p.Masked()
		spans = append(spans, span{p.Addr(), lastAddr(p), p})
	}
	slices.SortFunc(spans, func(a, b span) int {
		return cmp.Or(a.first.Compare(b.first), b.last.Compare(a.last))
	})
	// Drop a span inside the one before (prefixes nest or are disjoint).
	out := spans[:0]
	for _, s := range spans {
		if n := len(out); n > 0 && out[n-1].first.BitLen() == s.first.BitLen() && out[n-1].last.Compare(s.first) >= 0 {
			continue
		}
		out = append(out, s)
	}
	return &rangeSet{spans: out}
}

func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Addr().AsSlice()
	bits := p.Bits()
	for i := range b {
		switch {
		case bits >= 8:
			bits -= 8
		case bits > 0:
			b[i] |= 0xff >> bits
			bits = 0
		default:
			b[i] = 0xff
		}
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

// lookup returns the prefix holding a, if any.
func (s *rangeSet) lookup(a netip.Addr) (netip.Prefix, bool) {
	i, _ := slices.BinarySearchFunc(s.spans, a, func(sp span, a netip.Addr) int { return sp.first.Compare(a) })
	// spans[i-1] is the last span starting at or before a, or i the one starting at a.
	if i < len(s.spans) && s.spans[i].first == a {
		return s.spans[i].prefix, true
	}
	if i > 0 {
		sp := s.spans[i-1]
		if sp.first.BitLen() == a.BitLen() && sp.last.Compare(a) >= 0 {
			return sp.prefix, true
		}
	}
	return netip.Prefix{}, false
}

// parseRanges reads a range list: the JSON the operators publish
// ({"creationTime": …, "prefixes": [{"ipv4Prefix": "66.249.64.0/27"},
// {"ipv6Prefix": "2001:4860:4801:10::/64"}]}), or plain text with one prefix or
// address per line ('#' starts a comment). A prefix that does not parse is an
// error naming it; a list with no prefix at all is an error too, since an empty
// list would make every claim an impostor.
func parseRanges(b []byte) ([]netip.Prefix, error) {
	t := bytes.TrimSpace(b)
	if len(t) > 0 && t[0] == '{' {
		return parseJSONRanges(t)
	}
	var out []netip.Prefix
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<16)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		p, err := parsePrefix(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("no prefixes")
	}
	return out, nil
}

func parseJSONRanges(b []byte) ([]netip.Prefix, error) {
	var doc struct {
		Prefixes []struct {
			IPv4 string `json:"ipv4Prefix"`
			IPv6 string `json:"ipv6Prefix"`
		} `json:"prefixes"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	var out []netip.Prefix
	for i, e := range doc.Prefixes {
		for _, s := range []string{e.IPv4, e.IPv6} {
			if s == "" {
				continue
			}
			p, err := parsePrefix(s)
			if err != nil {
				return nil, fmt.Errorf("prefixes[%d]: %w", i, err)
			}
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil, errors.New(`no "prefixes" with an ipv4Prefix or ipv6Prefix`)
	}
	return out, nil
}

func parsePrefix(s string) (netip.Prefix, error) {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return netip.Prefix{}, err
		}
		if p.Addr().Is4In6() {
			if p.Bits() < 96 {
				// It would cover every IPv4 address and more: not a crawler's range.
				return netip.Prefix{}, fmt.Errorf("%s: an IPv4-mapped prefix shorter than /96", s)
			}
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		return p, nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, err
	}
	a = a.Unmap()
	return netip.PrefixFrom(a, a.BitLen()), nil
}

// listCache holds documents read from URLs or files (the range lists, the key
// directories), each loaded on first use and refreshed in the background once its
// lifetime is over.
type listCache struct {
	client  *http.Client
	lim     Limits
	now     func() time.Time
	offline bool
	noWait  bool                        // first use loads in the background too (Options.NoWait)
	bg      *sync.WaitGroup             // the background loads, for Verifier.Wait
	what    string                      // "range list", "key directory": for errors
	accept  string                      // the Accept field of a fetch
	parse   func(b []byte) (any, error) // a document's content, kept as the set

	mu    sync.Mutex
	lists map[*source]*list
}

// list is one source's state.
type list struct {
	loading sync.Mutex // held by the one load running; never while mu is wanted by Verify
	mu      sync.Mutex // guards the fields below, held only briefly
	st      state
	busy    bool // a background refresh runs
	tried   bool
}

// state is what a load reads and replaces. set is nil until a load succeeds.
type state struct {
	set     any       // the parsed document
	err     error     // the last load's error
	expires time.Time // when to refresh
	loaded  time.Time // when set was last confirmed (fetched, revalidated or re-read)
	etag    string
	lastMod string
	modTime time.Time // a file's modification time when read
}

func newListCache(c *http.Client, lim Limits, now func() time.Time, offline bool) *listCache {
	return &listCache{client: c, lim: lim, now: now, offline: offline, lists: map[*source]*list{}, bg: &sync.WaitGroup{},
		what: "range list", accept: "application/json, text/plain;q=0.5",
		parse: func(b []byte) (any, error) {
			ps, err := parseRanges(b)
			if err != nil {
				return nil, err
			}
			return newRangeSet(ps), nil
		}}
}

func (c *listCache) entry(s *source) *list {
	c.mu.Lock()
	defer c.mu.Unlock()
	l := c.lists[s]
	if l == nil {
		l = &list{}
		c.lists[s] = l
	}
	return l
}

// get returns s's set: loading it now if it was never tried, else the one held
// (refreshing it in the background when its lifetime is over). It fails when no
// set is held, or the one held is staler than MaxStale.
func (c *listCache) get(ctx context.Context, s *source) (any, error) {
	l := c.entry(s)
	l.mu.Lock()
	tried := l.tried
	l.mu.Unlock()
	if !tried && !c.noWait {
		_ = c.loadOnce(ctx, s, l, true)
	}
	l.mu.Lock()
	st := l.st
	now := c.now()
	if (!l.tried || now.After(st.expires)) && !l.busy {
		l.busy = true
		c.bg.Go(func() { c.background(s, l) })
	}
	tried = l.tried
	l.mu.Unlock()
	if !tried {
		return nil, fmt.Errorf("%s %s is being loaded", c.what, s.name)
	}
	switch {
	case st.set == nil:
		return nil, fmt.Errorf("%s %s unavailable: %v", c.what, s.name, st.err)
	case now.Sub(st.loaded) > c.lim.MaxStale:
		return nil, fmt.Errorf("%s %s unavailable: last loaded %s, staler than %v: %v", c.what, s.name, st.loaded.Format(time.RFC3339), c.lim.MaxStale, st.err)
	}
	return st.set, nil
}

func (c *listCache) background(s *source, l *list) {
	ctx, cancel := context.WithTimeout(context.Background(), c.lim.FetchTimeout)
	defer cancel()
	_ = c.loadOnce(ctx, s, l, false)
	l.mu.Lock()
	l.busy = false
	l.mu.Unlock()
}

// load reads s now, keeping the set held when it fails.
func (c *listCache) load(ctx context.Context, s *source) error {
	return c.loadOnce(ctx, s, c.entry(s), false)
}

// loadOnce runs one load of s at a time; with first, it returns at once when
// another load has tried s meanwhile.
func (c *listCache) loadOnce(ctx context.Context, s *source, l *list, first bool) error {
	l.loading.Lock()
	defer l.loading.Unlock()
	l.mu.Lock()
	st, tried := l.st, l.tried
	l.mu.Unlock()
	if first && tried {
		return st.err
	}
	now := c.now()
	var err error
	switch {
	case s.file:
		err = c.readFile(&st, s, now)
	case c.offline:
		err = errors.New("offline, and not a local file")
		st.expires = now.Add(c.lim.MaxTTL)
	default:
		err = c.fetch(ctx, &st, s, now)
	}
	st.err = nil
	if err != nil {
		st.err = fmt.Errorf("%s: %w", s.loc, err)
		err = fmt.Errorf("%s %s: %w", c.what, s.name, st.err)
	}
	l.mu.Lock()
	l.st, l.tried = st, true
	l.mu.Unlock()
	return err
}

func (c *listCache) readFile(l *state, s *source, now time.Time) error {
	l.expires = now.Add(c.lim.FileRecheck)
	fi, err := os.Stat(s.loc)
	if err != nil {
		return err
	}
	if l.set != nil && fi.ModTime().Equal(l.modTime) {
		l.loaded = now
		return nil
	}
	f, err := os.Open(s.loc)
	if err != nil {
		return err
	}
	defer f.Close()
	b, err := readBounded(f, c.lim.MaxListBytes)
	if err != nil {
		return err
	}
	v, err := c.parse(b)
	if err != nil {
		return err
	}
	l.set, l.loaded, l.modTime = v, now, fi.ModTime()
	return nil
}

func readBounded(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("larger than %d bytes", limit)
	}
	return b, nil
}

// fetch gets s over HTTP, conditionally when a set is held. A failure retries
// after MinTTL, the set held staying in use.
func (c *listCache) fetch(ctx context.Context, l *state, s *source, now time.Time) error {
	l.expires = now.Add(c.lim.MinTTL)
	ctx, cancel := context.WithTimeout(ctx, c.lim.FetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.loc, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", c.accept)
	if l.set != nil {
		if l.etag != "" {
			req.Header.Set("If-None-Match", l.etag)
		}
		if l.lastMod != "" {
			req.Header.Set("If-Modified-Since", l.lastMod)
		}
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotModified && l.set != nil:
		l.loaded, l.expires = now, now.Add(c.lifetime(resp.Header))
		return nil
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("HTTP status %s", resp.Status)
	}
	b, err := readBounded(resp.Body, c.lim.MaxListBytes)
	if err != nil {
		return err
	}
	v, err := c.parse(b)
	if err != nil {
		return err
	}
	l.set, l.loaded, l.expires = v, now, now.Add(c.lifetime(resp.Header))
	l.etag, l.lastMod = resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
	return nil
}

// lifetime is the response's Cache-Control max-age within [MinTTL, MaxTTL], or
// DefaultTTL when it gives none.
func (c *listCache) lifetime(h http.Header) time.Duration {
	ttl := c.lim.DefaultTTL
	for _, v := range h.Values("Cache-Control") {
		for d := range strings.SplitSeq(v, ",") {
			name, val, _ := strings.Cut(strings.TrimSpace(d), "=")
			switch strings.ToLower(name) {
			case "max-age":
				if n, err := strconv.ParseInt(strings.Trim(val, `"`), 10, 64); err == nil && n >= 0 && n < 1<<31 {
					ttl = time.Duration(n) * time.Second
				}
			case "no-cache", "no-store":
				ttl = 0
			}
		}
	}
	return min(max(ttl, c.lim.MinTTL), c.lim.MaxTTL)
}
