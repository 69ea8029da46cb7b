// Package groupdiff pairs the groups of two versions of a robots.txt file and says
// which were added, removed or changed. It is the one reading of a group change
// shared by "robots diff" and the web tester of "robots serve", so that both report
// the same changes for the same two files.
package groupdiff

import (
	"slices"
	"strings"

	"github.com/gorobots/robots"
)

// Kind is what happened to a group.
type Kind string

const (
	Added   Kind = "added"
	Removed Kind = "removed"
	Changed Kind = "changed"
)

// Change is one group that differs between the versions.
type Change struct {
	Kind Kind
	Old  int // index in the old version's groups; -1 for Added
	New  int // index in the new version's groups; -1 for Removed
}

// Groups pairs the groups of two versions and reports what was added, removed or
// changed: removed and changed groups in the old file's order, then added ones in
// the new file's order. Groups naming the same tokens pair first (in file order);
// then a group left over pairs with the first left-over group that shares a token
// with it, so that adding or removing a user-agent line reads as a change of that
// group. Paired groups with the same tokens, rules and fields in any order are not
// changes: comments, blank lines and the order of lines within a group do not
// change what a crawler does.
func Groups(old, new []robots.Group) []Change {
	pair := make([]int, len(old)) // old group → new group, or -1
	used := make([]bool, len(new))
	byKey := map[string][]int{}
	for i, g := range new {
		k := key(g)
		byKey[k] = append(byKey[k], i)
	}
	for i, g := range old {
		pair[i] = -1
		k := key(g)
		if len(byKey[k]) > 0 {
			pair[i] = byKey[k][0]
			used[pair[i]] = true
			byKey[k] = byKey[k][1:]
		}
	}
	for i, g := range old {
		if pair[i] >= 0 {
			continue
		}
		toks := Tokens(g)
		for j, h := range new {
			if !used[j] && slices.ContainsFunc(Tokens(h), func(t string) bool { return slices.Contains(toks, t) }) {
				pair[i], used[j] = j, true
				break
			}
		}
	}
	var out []Change
	for i, g := range old {
		switch {
		case pair[i] < 0:
			out = append(out, Change{Kind: Removed, Old: i, New: -1})
		case !Same(g, new[pair[i]]):
			out = append(out, Change{Kind: Changed, Old: i, New: pair[i]})
		}
	}
	for j := range new {
		if !used[j] {
			out = append(out, Change{Kind: Added, Old: -1, New: j})
		}
	}
	return out
}

// Tokens returns the lower-cased product tokens a group names, each once, sorted.
func Tokens(g robots.Group) []string {
	var toks []string
	for _, a := range g.Agents {
		t := strings.ToLower(a.Token())
		if !slices.Contains(toks, t) {
			toks = append(toks, t)
		}
	}
	slices.Sort(toks)
	return toks
}

// key identifies a group across versions by the product tokens it names.
func key(g robots.Group) string { return strings.Join(Tokens(g), " ") }

// Same reports whether two groups name the same tokens and hold the same rules and
// fields, in any order.
func Same(a, b robots.Group) bool {
	return slices.Equal(Tokens(a), Tokens(b)) && sameSet(RuleTexts(a), RuleTexts(b)) && sameSet(FieldTexts(a), FieldTexts(b))
}

// RuleTexts returns a group's rules as written ("Disallow: /x"), in file order.
func RuleTexts(g robots.Group) []string {
	out := []string{}
	for _, r := range g.Rules {
		out = append(out, r.String())
	}
	return out
}

// FieldTexts returns a group's other fields as "Name: value", in file order.
func FieldTexts(g robots.Group) []string {
	var out []string
	for _, f := range g.Fields {
		out = append(out, f.Name+": "+f.Value)
	}
	return out
}

// Minus returns the elements of a not in b, in a's order, counting repeats.
func Minus(a, b []string) []string {
	left := slices.Clone(b)
	var out []string
	for _, x := range a {
		if i := slices.Index(left, x); i >= 0 {
			left = slices.Delete(left, i, i+1)
			continue
		}
		out = append(out, x)
	}
	return out
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
