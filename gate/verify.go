package gate

import (
	"context"

	"github.com/gorobots/robots/verify"
)

// FromVerify returns the Verifier that asks v (package verify: the operators'
// range lists, forward-confirmed reverse DNS, Web Bot Auth signatures). A
// User-Agent that names no crawler of the registry names none (the gate then
// tries its product token against the crawlers Policy.Crawlers adds to the
// registry; those are never verified).
func FromVerify(v *verify.Verifier) Verifier { return verifyAdapter{v} }

type verifyAdapter struct{ v *verify.Verifier }

func (a verifyAdapter) Verify(ctx context.Context, r *Request) Identity {
	res := a.v.Verify(ctx, verify.Request{Addr: r.Addr, UserAgent: r.UserAgent, Header: r.Header,
		Method: r.Method, Scheme: r.Scheme, Authority: r.Host, Path: r.URI})
	id := Identity{Crawler: res.Crawler, Method: res.Method, Detail: res.Detail}
	switch res.Status {
	case verify.Verified:
		id.Status = Verified
	case verify.Impostor:
		id.Status = Spoofed
	}
	return id
}
