package gate

import (
	"context"
	"strings"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/crawlers"
)

// Status is what verification says of the crawler a request claims to be.
type Status uint8

const (
	CannotTell Status = iota // no evidence either way: never treated as an impostor
	Verified                 // the client is the crawler it claims to be
	Spoofed                  // the client is not the crawler it claims to be
)

var statusNames = [...]string{CannotTell: "cannot-tell", Verified: "verified", Spoofed: "impostor"}

func (s Status) String() string { return statusNames[s] }

// Identity is who a request says it comes from and what verification found.
type Identity struct {
	// Crawler is the crawler the request names (a name of the crawlers registry,
	// or the product token of its User-Agent); "" when it names none.
	Crawler string
	Status  Status
	Method  string // how it was verified (range list, reverse DNS, signature), "" when it was not
	Detail  string // what verification found, for the log
}

// Verifier names the crawler of a request and verifies it. Its methods are
// called for every request judged, concurrently: they must answer from what is
// cached (range lists, DNS answers) as far as possible.
type Verifier interface {
	// Verify names the crawler of r and says whether r's client is that crawler.
	Verify(ctx context.Context, r *Request) Identity
}

// RegistryNamer is the Verifier that names a crawler by the product token of the
// User-Agent (robots.ProductToken) and verifies nothing: every crawler is
// CannotTell.
type RegistryNamer struct{}

// Verify names r's crawler; it cannot tell who the client is.
func (RegistryNamer) Verify(_ context.Context, r *Request) Identity {
	return Identity{Crawler: robots.ProductToken(r.UserAgent)}
}

// crawlerInfo is what a decision needs of a crawler, read once from the registry.
type crawlerInfo struct {
	name         string
	purpose      crawlers.Purpose
	enforced     bool
	search       bool // one of its purposes is search
	honoursDelay bool // its operator documents that it honours Crawl-delay
}

// enforced maps the names a request may give (lower case) to the crawlers they name.
type enforced struct {
	byName map[string]*crawlerInfo
	extra  bool // the policy names crawlers the registry does not know
}

// maxNameBytes bounds a crawler name looked up without an allocation.
const maxNameBytes = 64

func newEnforced(p Policy) (*enforced, error) {
	e := &enforced{byName: map[string]*crawlerInfo{}}
	listed := map[string]bool{}
	for _, n := range p.Crawlers {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		listed[strings.ToLower(n)] = true
	}
	all := len(listed) == 0 && len(p.Purposes) == 0
	for _, c := range crawlers.All() {
		ci := &crawlerInfo{name: c.Name, purpose: c.Purposes[0], search: c.Has(crawlers.Search),
			honoursDelay: c.CrawlDelay == crawlers.Honoured}
		k := strings.ToLower(c.Name)
		ci.enforced = all || listed[k]
		for _, pp := range p.Purposes {
			ci.enforced = ci.enforced || c.Has(pp)
		}
		delete(listed, k)
		e.byName[k] = ci
	}
	// Tokens the registry does not know: enforced by their product token.
	for _, n := range p.Crawlers {
		n = strings.TrimSpace(n)
		if k := strings.ToLower(n); listed[k] {
			if len(k) > maxNameBytes {
				return nil, errorf("crawler name %q is longer than %d bytes", n, maxNameBytes)
			}
			e.byName[k] = &crawlerInfo{name: n, enforced: true}
			e.extra = true
			delete(listed, k)
		}
	}
	return e, nil
}

// lookup returns the crawler a name names, or nil; it allocates nothing.
func (e *enforced) lookup(name string) *crawlerInfo {
	if name == "" || len(name) > maxNameBytes {
		return nil
	}
	var buf [maxNameBytes]byte
	for i := 0; i < len(name); i++ {
		c := name[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return e.byName[string(buf[:len(name)])]
}
