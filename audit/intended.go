package audit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gorobots/robots"
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
// allow-blocked does. A crawler that allow-blocked names only by a purpose is
// intended to be blocked only by a group of the file that names it: CCBot blocked
// by the "*" group's ordinary rules is not a training crawler kept out on purpose
// (see NamedOnly).

// Intended returns the crawlers among agents whose blocks are intended, in the
// order of agents, from the must-allow and allow-blocked lists (each entry a
// purpose or a product token; commas separate several in one entry). With both
// lists empty, none is. An entry that is neither a purpose nor one of agents is an
// error naming it: a typo must not make a guard pass.
func Intended(agents, mustAllow, allowBlocked []string) ([]string, error) {
	out, _, err := Intent(agents, mustAllow, allowBlocked)
	return out, err
}

// Intent is Intended with, second, those of the intended crawlers that only a
// purpose of allow-blocked names (not their token, nor the absence from
// must-allow): their blocks are intended only where a group names them
// (Config.NamedOnly).
func Intent(agents, mustAllow, allowBlocked []string) (intended, namedOnly []string, err error) {
	must, _, err := matchAll(agents, mustAllow, "must-allow")
	if err != nil {
		return nil, nil, err
	}
	blocked, byToken, err := matchAll(agents, allowBlocked, "allow-blocked")
	if err != nil {
		return nil, nil, err
	}
	for _, a := range agents {
		other := len(mustAllow) > 0 && !must[a]
		if !(other || blocked[a]) || slices.Contains(intended, a) {
			continue
		}
		intended = append(intended, a)
		if !other && !byToken[a] {
			namedOnly = append(namedOnly, a)
		}
	}
	return intended, namedOnly, nil
}

// matchAll returns the agents that the entries of list name, by purpose or token,
// and those it names by token.
func matchAll(agents, list []string, flag string) (map[string]bool, map[string]bool, error) {
	out, byToken := map[string]bool{}, map[string]bool{}
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
					out[a], byToken[a], found = true, true, true
				}
			}
			if !found {
				return nil, nil, fmt.Errorf("%s: %q is neither a crawler asked about nor a purpose (%s)", flag, e, purposeNames())
			}
		}
	}
	return out, byToken, nil
}

func purposeNames() string {
	var names []string
	for _, p := range crawlers.Purposes() {
		names = append(names, string(p))
	}
	return strings.Join(names, ", ")
}

// aimedAt keeps the crawlers of intended whose blocks the file aims at them: all
// but those of namedOnly that no group of rb names (the "*" group decides for
// them), or all of namedOnly when no file was read.
func aimedAt(rb *robots.Robots, intended, namedOnly []string) []string {
	out := []string{}
	for _, a := range intended {
		if slices.Contains(namedOnly, a) {
			if rb == nil {
				continue
			}
			if gs, global := rb.GroupsFor(a); global || len(gs) == 0 {
				continue
			}
		}
		out = append(out, a)
	}
	return out
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
