package serve

import (
	"slices"
	"strings"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/internal/groupdiff"
)

// diffGroups lists the groups and sitemaps that differ between two versions, as
// "robots diff" reports them.
func diffGroups(old, new *robots.Robots) ([]groupChangeView, []sitemapChange) {
	og, ng := old.Groups(), new.Groups()
	var out []groupChangeView
	for _, c := range groupdiff.Groups(og, ng) {
		v := groupChangeView{Kind: string(c.Kind)}
		switch c.Kind {
		case groupdiff.Removed:
			g := og[c.Old]
			v.Agents, v.OldLine = agentList(g), g.Line
		case groupdiff.Added:
			g := ng[c.New]
			v.Agents, v.NewLine = agentList(g), g.Line
		case groupdiff.Changed:
			a, b := og[c.Old], ng[c.New]
			v.Agents, v.OldLine, v.NewLine = agentList(b), a.Line, b.Line
			for _, x := range groupdiff.Minus(agentNames(a), agentNames(b)) {
				v.Lines = append(v.Lines, "- User-agent: "+x)
			}
			for _, x := range groupdiff.Minus(agentNames(b), agentNames(a)) {
				v.Lines = append(v.Lines, "+ User-agent: "+x)
			}
			ar, br := append(groupdiff.RuleTexts(a), groupdiff.FieldTexts(a)...), append(groupdiff.RuleTexts(b), groupdiff.FieldTexts(b)...)
			for _, x := range groupdiff.Minus(ar, br) {
				v.Lines = append(v.Lines, "- "+x)
			}
			for _, x := range groupdiff.Minus(br, ar) {
				v.Lines = append(v.Lines, "+ "+x)
			}
		}
		out = append(out, v)
	}
	var sm []sitemapChange
	os, ns := old.Sitemaps(), new.Sitemaps()
	for _, u := range os {
		if !slices.Contains(ns, u) {
			sm = append(sm, sitemapChange{Kind: "removed", URL: u})
		}
	}
	for _, u := range ns {
		if !slices.Contains(os, u) {
			sm = append(sm, sitemapChange{Kind: "added", URL: u})
		}
	}
	return out, sm
}

func agentNames(g robots.Group) []string {
	var out []string
	for _, a := range g.Agents {
		out = append(out, a.Name)
	}
	return out
}

func agentList(g robots.Group) string { return strings.Join(agentNames(g), ", ") }

// markDiff marks the lines the new file adds and the old file loses.
func markDiff(old, new *fileView) {
	texts := func(v *fileView) []string {
		out := make([]string, len(v.Lines))
		for i, l := range v.Lines {
			out[i] = l.Text
		}
		return out
	}
	del, add := lineDiff(texts(old), texts(new))
	for i, d := range del {
		if d {
			old.Lines[i].Mark = "del"
			old.Removed++
		}
	}
	for i, a := range add {
		if a {
			new.Lines[i].Mark = "add"
			new.Added++
		}
	}
}
