package signals

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/crawlers"
)

// Stance is what a site wants for one purpose.
type Stance string

const (
	Block Stance = "block" // the purpose's crawlers may fetch nothing
	NoUse Stance = "no"    // crawlers may fetch, but the use is disallowed (n, no)
	Allow Stance = "allow" // the use is allowed (y, yes)
)

// ParseStance reads "ai-train=block,search=allow,ai-user=allow".
func ParseStance(s string) (map[Purpose]Stance, error) {
	out := map[Purpose]Stance{}
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		p, st := Purpose(strings.TrimSpace(k)), Stance(strings.TrimSpace(v))
		if !ok || !slices.Contains(Purposes(), p) {
			return nil, fmt.Errorf("stance %q: want purpose=block|no|allow, purposes %v", part, Purposes())
		}
		if st != Block && st != NoUse && st != Allow {
			return nil, fmt.Errorf("stance %q: %q is not block, no or allow", part, v)
		}
		out[p] = st
	}
	return out, nil
}

// crawlerPurposes maps the registry's purposes onto these.
var crawlerPurposes = map[crawlers.Purpose]Purpose{
	crawlers.Search: Search, crawlers.AITrain: AITrain, crawlers.AISearch: AISearch, crawlers.AIUser: AIUser,
}

// usageWords are the Content-Usage category and Content-Signal signal of a purpose.
func usageWords(p Purpose) (cat, sig string) {
	switch p {
	case Search:
		return "search", "search"
	case AITrain:
		return "train-ai", "ai-train"
	case AIInput, AISearch:
		return "ai-use", "ai-input"
	case AIUser:
		return "", "ai-input" // ai-use leaves out what the user provides (aipref issue 249)
	}
	return "", ""
}

// Generate writes the stance into an existing robots.txt body (Google's reading): a
// group with "Disallow: /" for the registry's crawlers whose every purpose is blocked
// (a crawler that also serves a purpose kept is not blocked, and a note says so; a
// crawler a group already names gets the rule in that group), and, in every group, a
// Content-Usage and a Content-Signal line stating the other purposes. It checks that
// no crawler's verdict changes but those blocked, on "/" and every path the file's
// rules name, and returns the new body with notes on what it could not do.
func Generate(body string, stance map[Purpose]Stance) (string, []string, error) {
	return GenerateContext(context.Background(), body, stance)
}

// GenerateContext is Generate, stopped with ctx's error once ctx is done: the check
// decides every crawler of the registry on every path the rules name, twice, which
// for a file of thousands of rules is some million decisions.
//
// A file that would be longer than crawlers read (robots.DefaultMaxBytes, RFC 9309
// §2.5) is refused: the lines added at its end would not be read.
func GenerateContext(ctx context.Context, body string, stance map[Purpose]Stance) (string, []string, error) {
	old := robots.ParseString(body)
	var notes []string
	// Crawlers to block: every purpose of theirs blocked.
	var block []string
	for _, c := range crawlers.All() {
		all, any := true, false
		for _, cp := range c.Purposes {
			p, ok := crawlerPurposes[cp]
			if ok && stance[p] == Block {
				any = true
			} else {
				all = false
			}
		}
		switch {
		case any && all:
			block = append(block, c.Name)
		case any:
			notes = append(notes, fmt.Sprintf("%s also fetches for %v: not blocked, told by the usage lines instead", c.Name, c.Purposes))
		}
	}
	// The usage statements, most restrictive where two purposes share a word.
	cu, cs := map[string]string{}, map[string]string{}
	for _, p := range Purposes() {
		st, ok := stance[p]
		if !ok {
			continue
		}
		cat, sig := usageWords(p)
		set := func(m map[string]string, k, yes, no string) {
			if k == "" {
				return
			}
			v := yes
			if st != Allow {
				v = no
			}
			if m[k] == no {
				return
			}
			if prev, ok := m[k]; ok && prev != v {
				notes = append(notes, fmt.Sprintf("%s: purposes disagree; the stricter %s=%s stays", k, k, no))
			}
			m[k] = v
		}
		set(cu, cat, "y", "n")
		set(cs, sig, "yes", "no")
	}
	stmt := func(m map[string]string, order []string) string {
		var w []string
		for _, k := range order {
			if v, ok := m[k]; ok {
				w = append(w, k+"="+v)
			}
		}
		return strings.Join(w, ", ")
	}
	usageLines := []string{}
	if s := stmt(cu, []string{"train-ai", "ai-use", "search"}); s != "" {
		usageLines = append(usageLines, "Content-Usage: "+s)
	}
	if s := stmt(cs, []string{"search", "ai-input", "ai-train"}); s != "" {
		usageLines = append(usageLines, "Content-Signal: "+s)
	}

	lines := strings.Split(strings.TrimRight(body, "\n"), "\n")
	if body == "" {
		lines = nil
	}
	insert := map[int][]string{} // after line n (1-based), these lines
	named := map[string]bool{}
	groups := old.Groups()
	for _, g := range groups {
		end := g.Line
		for _, a := range g.Agents {
			end = max(end, a.Line)
			named[strings.ToLower(a.Token())] = true
		}
		for _, r := range g.Rules {
			end = max(end, r.Line)
		}
		for _, f := range g.Fields {
			end = max(end, f.Line)
		}
		add := slices.Clone(usageLines)
		for _, a := range g.Agents {
			if slices.ContainsFunc(block, func(b string) bool { return strings.EqualFold(robots.Agent{Name: b}.Token(), a.Token()) }) {
				add = append([]string{"Disallow: /"}, add...)
				notes = append(notes, fmt.Sprintf("%s is named by the group of line %d: \"Disallow: /\" added there (an Allow of that group as long or longer still wins)", a.Name, g.Line))
				break
			}
		}
		insert[end] = append(insert[end], add...)
	}
	var out []string
	for i, l := range lines {
		out = append(out, l)
		out = append(out, insert[i+1]...)
	}
	var newGroup []string
	for _, b := range block {
		if !named[strings.ToLower(robots.Agent{Name: b}.Token())] {
			newGroup = append(newGroup, "User-agent: "+b)
		}
	}
	if len(newGroup) > 0 {
		out = append(out, "", "# Generated by robots generate: these crawlers' purposes are all blocked.")
		out = append(out, newGroup...)
		// No usage lines: preferences apply only to what a crawler may fetch, and this
		// group may fetch nothing (lint's usage-no-effect).
		out = append(out, "Disallow: /")
	}
	if len(groups) == 0 && len(usageLines) > 0 {
		out = append(out, "", "User-agent: *", "Allow: /")
		out = append(out, usageLines...)
	}
	nb := strings.Join(out, "\n") + "\n"
	if len(nb) > robots.DefaultMaxBytes {
		return "", notes, fmt.Errorf("generate: the file would be %d bytes, past the %d crawlers read (RFC 9309 §2.5): the lines added would not all be read: not written", len(nb), robots.DefaultMaxBytes)
	}
	// No crawler but those blocked may get another verdict.
	for _, d := range []robots.Dialect{robots.Google, robots.RFC9309} {
		if err := sameVerdicts(ctx, robots.ParseString(body, robots.WithDialect(d)), robots.ParseString(nb, robots.WithDialect(d)), groups, block); err != nil {
			return "", notes, fmt.Errorf("generate: %s reading: %w: not written", d, err)
		}
	}
	return nb, notes, nil
}

// Added returns the lines Generate added to old to make generated, by their numbers
// in generated (1-based), in order: Generate only inserts lines, so every line of old
// is in generated, in order, and the others are the added ones.
func Added(old, generated string) []int {
	split := func(s string) []string {
		if s = strings.TrimRight(s, "\n"); s == "" {
			return nil
		}
		return strings.Split(s, "\n")
	}
	o, g := split(old), split(generated)
	var out []int
	i := 0
	for j, l := range g {
		if i < len(o) && o[i] == l {
			i++
			continue
		}
		out = append(out, j+1)
	}
	return out
}

// sameVerdicts checks that no crawler of the registry but those blocked (nor one it
// does not know) gets another verdict on "/" or a path the rules name.
func sameVerdicts(ctx context.Context, old, now *robots.Robots, groups []robots.Group, block []string) error {
	paths := []string{"/"}
	for _, g := range groups {
		for _, r := range g.Rules {
			p := strings.TrimSuffix(strings.ReplaceAll(r.Value, "*", "x"), "$")
			if strings.HasPrefix(p, "/") {
				paths = append(paths, p)
			}
		}
	}
	agents := []string{"SomeOtherBot"}
	for _, c := range crawlers.All() {
		agents = append(agents, c.Name)
	}
	for _, a := range agents {
		if slices.Contains(block, a) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("checking the verdicts: %w", context.Cause(ctx))
		}
		for _, p := range paths {
			u := "https://example.com" + p
			if old.Allowed(a, u) != now.Allowed(a, u) {
				return fmt.Errorf("the verdict of %s on %s would change", a, p)
			}
		}
	}
	return nil
}
