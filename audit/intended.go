package audit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gorobots/robots/crawlers"
)

// A deployment guard says what the site means to block: a site that keeps GPTBot
// out on purpose should not fail its audit for it. Two ways, as one says it:
//   - must-allow: the purposes or crawlers that must be able to fetch the sitemap
//     URLs ("search"); every other crawler asked about may be blocked;
//   - allow-blocked: the purposes or crawlers the site blocks on purpose
//     ("ai-train,CCBot"); every other one must be able to fetch.
// An entry is a purpose of package crawlers (search, ai-train, ai-search, ai-user,
// seo, social, archive, ads, other), which stands for the crawlers asked about that
// have it among their purposes, or a crawler's product token. Given both, a
// crawler is intended to be blocked when must-allow does not name it or
// allow-blocked does.

// Intended returns the crawlers among agents whose blocks are intended, in the
// order of agents, from the must-allow and allow-blocked lists (each entry a
// purpose or a product token; commas separate several in one entry). With both
// lists empty, none is. An entry that is neither a purpose nor one of agents is an
// error naming it: a typo must not make a guard pass.
func Intended(agents, mustAllow, allowBlocked []string) ([]string, error) {
	must, err := matchAll(agents, mustAllow, "must-allow")
	if err != nil {
		return nil, err
	}
	blocked, err := matchAll(agents, allowBlocked, "allow-blocked")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, a := range agents {
		intended := len(mustAllow) > 0 && !must[a] || blocked[a]
		if intended && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out, nil
}

// matchAll returns the agents that the entries of list name, by purpose or token.
func matchAll(agents, list []string, flag string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, entry := range list {
		for _, e := range strings.Split(entry, ",") {
			e = strings.TrimSpace(e)
			if e == "" {
				continue
			}
			found := false
			if p, err := crawlers.ParsePurpose(e); err == nil {
				found = true // a purpose no crawler asked about has names nothing, rightly
				for _, a := range agents {
					if c, ok := crawlers.Lookup(a); ok && c.Has(p) {
						out[a] = true
					}
				}
			}
			for _, a := range agents {
				if strings.EqualFold(a, e) {
					out[a], found = true, true
				}
			}
			if !found {
				return nil, fmt.Errorf("%s: %q is neither a crawler asked about nor a purpose (%s)", flag, e, purposeNames())
			}
		}
	}
	return out, nil
}

func purposeNames() string {
	var names []string
	for _, p := range crawlers.Purposes() {
		names = append(names, string(p))
	}
	return strings.Join(names, ", ")
}

// intendedOf keeps the entries of intended that are among agents, in their order.
func intendedOf(agents, intended []string) []string {
	out := []string{}
	for _, a := range agents {
		if slices.Contains(intended, a) {
			out = append(out, a)
		}
	}
	return out
}
