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
// are CannotTell. A signature is checked against the time of verification, not of
// the request: a log read after the signatures expired (minutes, by default)
// cannot verify them, and they count as CannotTell.
func Verifier(v *verify.Verifier) VerifyFunc {
	return func(ctx context.Context, req Request) Identity {
		addr, err := netip.ParseAddr(req.Addr)
		if err != nil {
			return Identity{Status: CannotTell, Detail: fmt.Sprintf("the log holds %q, not an IP address", req.Addr)}
		}
		// Signatures cover @authority, @method and @path: the Host as sent and the
		// request target, which JSON logs can hold (nginx's $http_host, Caddy's host).
		res := v.Verify(ctx, verify.Request{Addr: addr, UserAgent: req.UserAgent, Header: req.Header,
			Method: req.Method, Authority: req.Host, Path: req.Target})
		if res.Crawler != req.Crawler {
			return Identity{Status: CannotTell, Detail: fmt.Sprintf("verification reads the User-Agent as %q", res.Crawler)}
		}
		return Identity{Status: res.Status.String(), Method: res.Method, Detail: res.Detail}
	}
}
