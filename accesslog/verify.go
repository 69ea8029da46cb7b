package accesslog

import (
	"context"
	"fmt"
	"net/netip"

	"github.com/gorobots/robots/verify"
)

// Verifier returns the VerifyFunc of v: the operators' range lists, reverse DNS and
// signatures, as package verify checks them. An address the log holds as a host
// name, and a User-Agent that v reads as another crawler than the Analyzer does,
// are CannotTell.
func Verifier(v *verify.Verifier) VerifyFunc {
	return func(ctx context.Context, req Request) Identity {
		addr, err := netip.ParseAddr(req.Addr)
		if err != nil {
			return Identity{Status: CannotTell, Detail: fmt.Sprintf("the log holds %q, not an IP address", req.Addr)}
		}
		res := v.Verify(ctx, verify.Request{Addr: addr, UserAgent: req.UserAgent, Header: req.Header})
		if res.Crawler != req.Crawler {
			return Identity{Status: CannotTell, Detail: fmt.Sprintf("verification reads the User-Agent as %q", res.Crawler)}
		}
		return Identity{Status: res.Status.String(), Method: res.Method, Detail: res.Detail}
	}
}
