package serve

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/netguard"
)

// From a URL a caller names to its origin's robots.txt: the URL's limit, and the
// fetch client's lookup under the request's deadline. Refused addresses, literal or
// dialled, are the fetch client's to refuse (fetch.Config.AddrCheck and the
// guarded dialer set up in New).

// MaxURLBytes bounds one URL in a request: far above any URL a crawler keeps
// (Google's reference parser and most browsers stop near 2 KiB), low enough that a
// batch of DefaultMaxURLs of them stays within memory a server can spare.
const MaxURLBytes = 16 << 10

// lookup returns the robots.txt state of rawURL's origin. Bad URLs are the caller's
// fault (400); a refused address (403) is refused by the client, a literal one
// before any dial. ctx should carry the request's deadline (see withCheckTimeout).
func (s *Server) lookup(ctx context.Context, rawURL string) (*fetch.Result, error) {
	if len(rawURL) > MaxURLBytes {
		return nil, errorf(http.StatusBadRequest, "URL of %d bytes, more than the limit of %d", len(rawURL), MaxURLBytes)
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
// A refused address is never held: the client keeps no refusal.
func (s *Server) peek(rawURL string) (*fetch.Result, bool) {
	if len(rawURL) > MaxURLBytes {
		return nil, false
	}
	return s.client.Peek(rawURL)
}

// withCheckTimeout bounds a request's wait for robots.txt files, all of them.
func (s *Server) withCheckTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.cfg.CheckTimeout)
}
