package verify

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorobots/robots/webbotauth"
)

func newKeyDirCache(c *http.Client, lim Limits, now func() time.Time, offline bool) *listCache {
	// The draft: a redirect is a discovery failure, never followed.
	noRedirect := *c
	noRedirect.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &listCache{client: &noRedirect, lim: lim, now: now, offline: offline, lists: map[*source]*list{}, bg: &sync.WaitGroup{},
		what: "key directory", accept: webbotauth.MediaType + ", application/json;q=0.5",
		parse: func(b []byte) (any, error) { return webbotauth.ParseDirectory(b) }}
}

// verifySignature checks r's Web Bot Auth signatures made for c's key directory.
// ok means one verified; otherwise definite says whether what was found speaks
// against the claim (a signature naming c's directory and a key of it that does
// not verify), and why says what was found.
func (v *Verifier) verifySignature(ctx context.Context, c *crawler, r Request) (ok bool, why string, definite bool) {
	// What the caller did not give stays empty: a signature covering it cannot be
	// checked (cannot-tell), where a guess would fail it (impostor).
	m := webbotauth.Message{Method: r.Method, Scheme: r.Scheme, Authority: cmp.Or(r.Authority, r.Header.Get("Host")),
		Path: r.Path, Header: r.Header}
	sigs, err := webbotauth.Parse(m)
	if err != nil {
		return false, "signature: " + err.Error(), false
	}
	now := v.now()
	var notes []string
	for i := range sigs {
		s := &sigs[i]
		switch {
		case s.Agent != c.keyDir && s.Agent != "":
			notes = append(notes, fmt.Sprintf("signature %s is by %s, not %s's %s", s.Label, s.Agent, c.name, c.keyDir))
			continue
		case s.Err != nil:
			notes = append(notes, fmt.Sprintf("signature %s cannot be checked: %v", s.Label, s.Err))
			continue
		case now.Before(s.Created.Add(-v.lim.MaxSkew)):
			notes = append(notes, fmt.Sprintf("signature %s is created in the future (%s)", s.Label, s.Created.UTC().Format(time.RFC3339)))
			continue
		case now.After(s.Expires.Add(v.lim.MaxSkew)):
			notes = append(notes, fmt.Sprintf("signature %s expired at %s", s.Label, s.Expires.UTC().Format(time.RFC3339)))
			continue
		}
		d, err := v.keydirs.get(ctx, c.keys)
		if err != nil {
			notes = append(notes, err.Error())
			continue
		}
		pub, found := d.(*webbotauth.Directory).Keys[s.KeyID]
		if !found {
			notes = append(notes, fmt.Sprintf("signature %s: key %s is not in %s", s.Label, s.KeyID, c.keys.name))
			continue
		}
		if s.Verify(pub) {
			return true, fmt.Sprintf("signature %s by key %s of %s verifies", s.Label, s.KeyID, c.keys.name), true
		}
		return false, fmt.Sprintf("signature %s names key %s of %s but does not verify", s.Label, s.KeyID, c.keys.name), true
	}
	if len(notes) == 0 {
		return false, "no Web Bot Auth signature", false
	}
	return false, strings.Join(notes, "; "), false
}
