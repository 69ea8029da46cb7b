package serve

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"strings"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/netguard"
)

// From a URL a caller names to its origin's robots.txt: the URL's limit, the
// refusal of literal private addresses before any fetch, and the fetch client's
// lookup under the request's deadline.

// MaxURLBytes bounds one URL in a request: far above any URL a crawler keeps
// (Google's reference parser and most browsers stop near 2 KiB), low enough that a
// batch of DefaultMaxURLs of them stays within memory a server can spare.
const MaxURLBytes = 16 << 10

// lookup returns the robots.txt state of rawURL's origin. Bad URLs are the caller's
// fault (400); a literal private address is refused here (403) before any fetch,
// while names are refused by the client's guarded dialer. ctx should carry the
// request's deadline (see withCheckTimeout).
func (s *Server) lookup(ctx context.Context, rawURL string) (*fetch.Result, error) {
	if len(rawURL) > MaxURLBytes {
		return nil, errorf(http.StatusBadRequest, "URL of %d bytes, more than the limit of %d", len(rawURL), MaxURLBytes)
	}
	if !s.cfg.AllowPrivate {
		if err := checkLiteral(rawURL); err != nil {
			return nil, err
		}
	}
	res, err := s.client.Get(ctx, rawURL)
	if err != nil {
		switch {
		case errors.Is(err, netguard.ErrRefused):
			return nil, err
		case ctx.Err() != nil:
			return nil, fmt.Errorf("robots.txt for %s not fetched within %v: %w", rawURL, s.cfg.CheckTimeout, context.DeadlineExceeded)
		}
		// Get fails only for URLs that have no robots.txt, or when ctx ends.
		return nil, errorf(http.StatusBadRequest, "%v", err)
	}
	// The fetch client keeps a refused fetch's error value and caches nothing for it,
	// so this holds for every lookup of such an origin, not only the first.
	if errors.Is(res.Err, netguard.ErrRefused) {
		return nil, fmt.Errorf("robots.txt of %s: %w", res.Origin, res.Err)
	}
	return res, nil
}

// peek is lookup for an origin whose fresh result the fetch client holds in
// process: no deadline to set up, no allocation for common URLs. ok is false when
// lookup is needed.
func (s *Server) peek(rawURL string) (res *fetch.Result, err error, ok bool) {
	if len(rawURL) > MaxURLBytes {
		return nil, nil, false
	}
	if !s.cfg.AllowPrivate {
		if err := checkLiteral(rawURL); err != nil {
			return nil, err, true
		}
	}
	res, ok = s.client.Peek(rawURL)
	return res, nil, ok
}

// withCheckTimeout bounds a request's wait for robots.txt files, all of them.
func (s *Server) withCheckTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.cfg.CheckTimeout)
}

// checkLiteral refuses a URL whose host is an IP address the guard refuses, before
// any fetch (so that nothing is cached for it). Names are left to the dialer.
func checkLiteral(rawURL string) error {
	if quickName(rawURL) {
		return nil
	}
	host := authority(rawURL)
	i := strings.Index(host, "://")
	if i < 0 {
		return nil
	}
	host = host[i+3:]
	if j := strings.LastIndexByte(host, '@'); j >= 0 {
		host = host[j+1:]
	}
	if strings.HasPrefix(host, "[") {
		if j := strings.IndexByte(host, ']'); j > 0 {
			host = host[1:j]
		}
	} else if j := strings.LastIndexByte(host, ':'); j >= 0 {
		host = host[:j]
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if err := netguard.Check(a); err != nil {
			return fmt.Errorf("target %s: %w", rawURL, err)
		}
	}
	return nil
}

// quickName reports, cheaply, that rawURL's host is a name and not an IP address:
// its authority (after "://", up to the path) ends in a letter, as a host name's top
// label does and no IPv4 address, IPv6 literal or port does. False means "look closer".
func quickName(rawURL string) bool {
	i := strings.Index(rawURL, "://")
	if i < 0 {
		return false
	}
	rest := rawURL[i+3:]
	end := len(rest)
	if j := strings.IndexAny(rest, "/?#"); j >= 0 {
		end = j
	}
	if end == 0 {
		return false
	}
	c := rest[end-1] | 0x20
	return 'a' <= c && c <= 'z' && strings.IndexAny(rest[:end], "[@%") < 0
}

// authority returns the scheme and authority of a URL as written
// ("https://example.com:8443"), or the whole string when it has no "://".
func authority(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return u
	}
	rest := u[i+3:]
	if j := strings.IndexAny(rest, "/?#"); j >= 0 {
		return u[:i+3+j]
	}
	return u
}
