package serve

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gorobots/robots/internal/counttext"
)

// The audit's picture: the site's URL space as an icicle drawn left to right, the
// site in the first column, the first path segments (/search, /blog) in the second,
// and so on. Each branch's height is its share of its parent's sitemap URLs, its
// colour the share of them blocked for the crawler chosen in the switch. One rule at
// every level: siblings are drawn largest first, and those too thin to label are
// drawn together last, as one labelled area ("12 more branches"); a branch with no
// children drawn reaches the right edge. So every area drawn is labelled and the
// picture fills its box. The layout is computed here, so that the picture is in the
// page as sent (SVG, with the page's own CSS): app.js only recolours it when another
// crawler is chosen, and shows a branch's verdicts and its branches when it is
// clicked.

// branch is one node of the URL-space tree as the picture reads it: the audit's
// tree, converted (auditpage.go).
type branch struct {
	Name     string // the path segment ("search"); the site for the root
	Path     string // the path prefix ("/search/")
	URLs     int    // sitemap URLs under Path
	Blocked  []int  // per crawler asked about (in the audit's order): URLs blocked
	Other    bool   // siblings the audit folded into one node (how many it does not say)
	More     int    // when not 0: this many siblings too thin to label, drawn as one
	Children []*branch
	Samples  []sample
}

// sample is one URL of a branch with the verdict of each crawler.
type sample struct {
	URL      string          `json:"url"`
	Verdicts []sampleVerdict `json:"verdicts"` // per crawler, in the audit's order
}

type sampleVerdict struct {
	Allowed bool   `json:"allowed"`
	Rule    string `json:"rule,omitempty"` // as written: "Disallow: /search"
	Line    int    `json:"line,omitempty"`
}

// The picture's geometry, in SVG user units (the SVG scales to its box, and a
// results column is about this wide on a laptop, so text is drawn near its size).
const (
	pictureWidth     = 680
	pictureRootWidth = 120 // the site's column: room for a host name
	pictureMinHeight = 300 // a small site's picture
	pictureMaxHeight = 520
	pictureRowHeight = 18 // per branch of the fullest column, between the two bounds
	pictureMaxDepth  = 4  // columns after the site's; deeper branches are in the table
	labelMinHeight   = 15 // a name fits: thinner siblings are drawn together
	urlsMinHeight    = 30 // and a line with the URL count
	shareMinHeight   = 44 // and one with the share blocked
	charWidth        = 8  // of the 12-unit bold label font, at most on average, to shorten names that do not fit
	maxMergedSamples = 5  // sample URLs kept for siblings drawn together
)

// blockedSteps are the colours of the picture, by share of URLs blocked. Six steps
// rather than a gradient, so that the legend names each one and a reader can tell
// "all" from "most". app.js holds the same bounds (stepOf).
var blockedSteps = []struct{ Class, Title string }{
	{"s0", "none blocked"},
	{"s1", "under 25% blocked"},
	{"s2", "25–50% blocked"},
	{"s3", "50–75% blocked"},
	{"s4", "75% or more blocked"},
	{"s5", "all blocked"},
}

// stepOf is the colour step of blocked URLs out of n: 0 when none, 5 when all, and
// quarters between.
func stepOf(blocked, n int) int {
	switch {
	case n <= 0 || blocked <= 0:
		return 0
	case blocked >= n:
		return 5
	}
	return 1 + min(3, 4*blocked/n)
}

// blockedText says what share of n URLs is blocked, for a label or a table cell.
func blockedText(blocked, n int) string {
	switch {
	case n <= 0 || blocked <= 0:
		return "none blocked"
	case blocked >= n:
		return "all blocked"
	}
	pct := 100 * blocked / n
	if pct == 0 {
		return "<1% blocked"
	}
	return strconv.Itoa(pct) + "% blocked"
}

// picture is what the template draws.
type picture struct {
	Width, Height int
	Agents        []string
	Current       int // the crawler whose colours are drawn first
	Nodes         []pictureNode
	Rows          []pictureRow // the same facts as a table
	Steps         []legendStep
	Branches      map[string]branchData // by node ID: what a click on it shows (app.js)
}

// branchData is what app.js shows of a branch when it is clicked: its figures
// per crawler and its sample URLs with their verdicts.
type branchData struct {
	Path    string   `json:"path"`
	URLs    int      `json:"urls"`
	Blocked []int    `json:"blocked"`
	Samples []sample `json:"samples"`
	Other   bool     `json:"other,omitempty"`
	// Children are the IDs of its branches, largest first, every one of them
	// (app.js lists them, a page at a time); for siblings drawn together, theirs.
	Children []string `json:"children,omitempty"`
	More     int      `json:"more,omitempty"` // siblings drawn together: how many
}

type legendStep struct{ Class, Title string }

// pictureNode is one drawn branch.
type pictureNode struct {
	ID         string
	X, Y, W, H float64
	Name       string // "/search", the site for the root
	Label      string // the name, shortened to fit; "" when it does not
	URLsText   string // "1,204 URLs", when two lines fit
	Share      string // "all blocked", when three lines fit
	Path       string
	URLs       int
	Blocked    string // blocked counts per crawler, space-separated, for app.js
	Class      string // the colour step for the current crawler
	Aria       string
	Depth      int
	Parent     string // the parent's ID, "" for the site
	More       bool   // siblings drawn together
}

// pictureRow is one branch in the table beside the picture.
type pictureRow struct {
	ID      string
	Path    string
	Depth   int
	URLs    int
	Cells   []pictureCell // per crawler
	Other   bool
	Samples int
}

type pictureCell struct {
	Blocked int
	Text    string
	Class   string
}

// area is one rectangle of the picture: a branch, or its siblings too thin to label
// drawn together (a branch made up for them, with More set).
type area struct {
	b        *branch
	id       string
	depth    int
	y, h     float64
	together bool // siblings drawn as one
	children []*area
}

// layoutPicture lays out the tree under root for the crawlers asked about,
// coloured for agents[current].
func layoutPicture(root *branch, agents []string, current int) *picture {
	p := &picture{Width: pictureWidth, Agents: agents, Current: current}
	for _, s := range blockedSteps {
		p.Steps = append(p.Steps, legendStep(s))
	}
	p.Height = min(pictureMaxHeight, max(pictureMinHeight, pictureRowHeight*fullestColumn(root, min(pictureMaxDepth, treeDepth(root)))))
	// Every branch has an ID, a row of the table and what a click on it shows, drawn
	// or not.
	p.Branches = map[string]branchData{}
	ids := map[*branch]string{}
	var number func(b *branch, d int) string
	number = func(b *branch, d int) string {
		id := "n" + strconv.Itoa(len(ids))
		ids[b] = id
		p.Rows = append(p.Rows, p.row(id, b, d))
		data := branchData{Path: branchTitle(b, d), URLs: b.URLs, Blocked: b.Blocked, Samples: b.Samples, Other: b.Other}
		for _, c := range bySize(b.Children) {
			data.Children = append(data.Children, number(c, d+1))
		}
		p.Branches[id] = data
		return id
	}
	number(root, 0)
	top := p.split(root, ids, 0, 0, float64(p.Height))
	p.place(top, "", drawnDepth(top), 0)
	return p
}

// bySize returns bs largest first, of equal sizes those with blocked URLs first,
// the audit's folded siblings last: on a flat site (a news site's pages at the
// root, one URL each) the pages drawn one by one are the blocked ones, not a lump
// of "37 more pages" that hides them (issue 38).
func bySize(bs []*branch) []*branch {
	out := slices.Clone(bs)
	slices.SortStableFunc(out, func(a, b *branch) int {
		if a.Other != b.Other {
			if a.Other {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(b.URLs, a.URLs), cmp.Compare(blockedAny(b), blockedAny(a)))
	})
	return out
}

// blockedAny is the most URLs of b blocked for one crawler.
func blockedAny(b *branch) int {
	n := 0
	for _, x := range b.Blocked {
		n = max(n, x)
	}
	return n
}

// split makes b's area, h high at y, and those of its children: each gets its share
// of h by URLs, largest first; the smallest, as long as one of them would be thinner
// than labelMinHeight, go into one area drawn last ("12 more branches"), which is
// made labelMinHeight high when its share is less (the others share the rest), with
// the audit's folded siblings.
func (p *picture) split(b *branch, ids map[*branch]string, d int, y, h float64) *area {
	a := &area{b: b, id: ids[b], depth: d, y: y, h: h}
	kids := bySize(b.Children)
	total := 0
	for _, c := range kids {
		total += c.URLs
	}
	if d >= pictureMaxDepth || total == 0 {
		return a
	}
	keep := len(kids) // kids[:keep] drawn one by one
	for keep > 0 && kids[keep-1].Other {
		keep--
	}
	for {
		rest := 0
		for _, c := range kids[keep:] {
			rest += c.URLs
		}
		groupH := 0.0
		switch {
		case keep == 0:
			groupH = h
		case keep < len(kids):
			groupH = max(labelMinHeight, h*float64(rest)/float64(total))
		}
		if keep > 0 && (h-groupH)*float64(kids[keep-1].URLs)/float64(total-rest) < labelMinHeight {
			keep--
			continue
		}
		if keep == 0 && len(kids) > 1 {
			// Every child is too thin to draw on its own (a flat site: sixty pages at
			// the root): the blocked ones are drawn one by one all the same, each as
			// thin as a label allows, as many as fit, and the rest together, so that
			// the lump does not hide what the site blocks.
			var blocked, rest []*branch
			for _, c := range kids {
				if !c.Other && blockedAny(c) > 0 && len(blocked) < int(h/labelMinHeight)-1 {
					blocked = append(blocked, c)
				} else {
					rest = append(rest, c)
				}
			}
			if len(blocked) > 0 {
				cy := y
				for _, c := range blocked {
					a.children = append(a.children, p.split(c, ids, d+1, cy, labelMinHeight))
					cy += labelMinHeight
				}
				if len(rest) > 0 {
					a.children = append(a.children, p.together(b, rest, false, ids, d+1, cy, y+h-cy))
				}
				return a
			}
		}
		cy := y
		for _, c := range kids[:keep] {
			ch := (h - groupH) * float64(c.URLs) / float64(total-rest)
			a.children = append(a.children, p.split(c, ids, d+1, cy, ch))
			cy += ch
		}
		switch together := kids[keep:]; {
		case len(together) == 1 && !together[0].Other:
			a.children = append(a.children, p.split(together[0], ids, d+1, cy, groupH))
		case len(together) > 0:
			a.children = append(a.children, p.together(b, together, keep == 0, ids, d+1, cy, groupH))
		}
		return a
	}
}

// together is the area of parent's children bs, drawn as one; all says they are all
// of them.
func (p *picture) together(parent *branch, bs []*branch, all bool, ids map[*branch]string, d int, y, h float64) *area {
	g := &branch{Path: parent.Path, Blocked: make([]int, len(parent.Blocked))}
	data := branchData{}
	pages, folded := true, false
	// The samples shown for the lump: blocked ones first, so that what the site
	// blocks is seen when the lump is opened.
	for _, blocked := range []bool{true, false} {
		for _, c := range bs {
			for _, s := range c.Samples {
				if len(g.Samples) < maxMergedSamples && sampleBlocked(s) == blocked {
					g.Samples = append(g.Samples, s)
				}
			}
		}
	}
	for _, c := range bs {
		g.URLs += c.URLs
		for i := range min(len(c.Blocked), len(g.Blocked)) {
			g.Blocked[i] += c.Blocked[i]
		}
		if c.Other {
			folded = true
			continue
		}
		g.More++
		pages = pages && len(c.Children) == 0 && c.URLs <= 1
		data.Children = append(data.Children, ids[c])
	}
	g.Name = moreText(g.More, folded, pages, all)
	id := ids[parent] + "m"
	data.Path, data.URLs, data.Blocked, data.Samples, data.More = branchTitle(g, d), g.URLs, g.Blocked, g.Samples, g.More
	p.Branches[id] = data
	return &area{b: g, id: id, depth: d, y: y, h: h, together: true}
}

// sampleBlocked reports whether some crawler may not fetch the sample.
func sampleBlocked(s sample) bool {
	for _, v := range s.Verdicts {
		if !v.Allowed {
			return true
		}
	}
	return false
}

// moreText names siblings drawn together: n of them, with the audit's folded ones
// (whose count is not known) when folded; "pages" when each is one URL; all when
// they are all of their parent's ("40 pages", not "40 more pages").
func moreText(n int, folded, pages, all bool) string {
	switch {
	case all && pages && !folded:
		return counttext.Thousands(n) + " pages"
	case all && !folded:
		return counttext.Plural(n, "branch", "branches")
	case folded && n == 0:
		return "more branches"
	case folded:
		return counttext.Thousands(n) + "+ more branches"
	case pages:
		return counttext.Thousands(n) + " more pages"
	case n == 1:
		return "1 more branch"
	}
	return counttext.Thousands(n) + " more branches"
}

// drawnDepth is the deepest column a drew.
func drawnDepth(a *area) int {
	d := a.depth
	for _, c := range a.children {
		d = max(d, drawnDepth(c))
	}
	return d
}

// place draws a and its children in columns: the site's pictureRootWidth wide, the
// others sharing the rest; an area without children drawn reaches the right edge.
func (p *picture) place(a *area, parent string, columns int, x float64) {
	colWidth := float64(pictureWidth - pictureRootWidth)
	if columns > 0 {
		colWidth /= float64(columns)
	}
	w := colWidth
	if a.depth == 0 {
		w = pictureRootWidth
	}
	if len(a.children) == 0 {
		w = pictureWidth - x
	}
	n := p.node(a.id, a.b, a.depth, x, a.y, w, a.h, a.together)
	n.Parent = parent
	p.Nodes = append(p.Nodes, n)
	for _, c := range a.children {
		p.place(c, a.id, columns, x+w)
	}
}

// fullestColumn is the most branches one column of the picture has, down to depth.
func fullestColumn(root *branch, depth int) int {
	most := 1
	level := []*branch{root}
	for d := 1; d <= depth && len(level) > 0; d++ {
		var next []*branch
		for _, b := range level {
			next = append(next, b.Children...)
		}
		most = max(most, len(next))
		level = next
	}
	return most
}

func treeDepth(b *branch) int {
	d := 0
	for _, c := range b.Children {
		d = max(d, 1+treeDepth(c))
	}
	return d
}

// node is a branch drawn at (x, y), w×h; together says it is siblings drawn as one.
func (p *picture) node(id string, b *branch, depth int, x, y, w, h float64, together bool) pictureNode {
	n := pictureNode{ID: id, X: round1(x), Y: round1(y), W: round1(w), H: round1(h), Path: b.Path, URLs: b.URLs, Depth: depth, More: together}
	if together {
		n.Path = "" // the parent's: data-path names one branch
	}
	counts := make([]string, len(b.Blocked))
	for i, c := range b.Blocked {
		counts[i] = strconv.Itoa(c)
	}
	n.Blocked = strings.Join(counts, " ")
	blocked := p.blockedFor(b)
	n.Class = blockedSteps[stepOf(blocked, b.URLs)].Class
	name := displayName(b, depth)
	n.Name = name
	switch {
	case h >= urlsMinHeight:
		n.Label = shorten(name, int(w-10)/charWidth)
	case h >= labelMinHeight && together && b.More == 0: // the audit's folded siblings only: the count first
		n.Label = shorten("more: "+urlsText(b.URLs), int(w-10)/charWidth)
	case h >= labelMinHeight && together && b.URLs != b.More: // (when equal, each is one URL: "6 more pages")
		n.Label = shorten(name+", "+urlsText(b.URLs), int(w-10)/charWidth) // what it is and how big, on one line
	case h >= labelMinHeight:
		n.Label = shorten(name, int(w-10)/charWidth)
	}
	if h >= urlsMinHeight {
		n.URLsText = shorten(urlsText(b.URLs), int(w-10)/charWidth)
	}
	if h >= shareMinHeight {
		n.Share = shorten(blockedText(blocked, b.URLs), int(w-10)/charWidth)
	}
	agent := ""
	if p.Current < len(p.Agents) {
		agent = " for " + p.Agents[p.Current]
	}
	n.Aria = fmt.Sprintf("%s: %s, %s%s", name, urlsText(b.URLs), blockedText(blocked, b.URLs), agent)
	return n
}

func (p *picture) blockedFor(b *branch) int {
	if p.Current < len(b.Blocked) {
		return b.Blocked[p.Current]
	}
	return 0
}

func (p *picture) row(id string, b *branch, depth int) pictureRow {
	r := pictureRow{ID: id, Path: branchTitle(b, depth), Depth: depth, URLs: b.URLs, Other: b.Other, Samples: len(b.Samples)}
	for i := range p.Agents {
		blocked := 0
		if i < len(b.Blocked) {
			blocked = b.Blocked[i]
		}
		r.Cells = append(r.Cells, pictureCell{Blocked: blocked, Text: blockedText(blocked, b.URLs), Class: blockedSteps[stepOf(blocked, b.URLs)].Class})
	}
	return r
}

// displayName is a branch's label: the site for the root, "/search" for a segment,
// "12 more branches" for siblings drawn together, "others" for the audit's folded ones.
func displayName(b *branch, depth int) string {
	switch {
	case depth == 0:
		return b.Name
	case b.Other, b.More > 0, b.Name == "more branches":
		return b.Name
	}
	return "/" + b.Name
}

// branchTitle names a branch in the table and the detail panel: its path, the site
// for the root, "/blog/ · 40 more pages" for siblings drawn together.
func branchTitle(b *branch, depth int) string {
	switch {
	case depth == 0:
		return b.Name
	case b.More > 0, b.Name == "more branches":
		return b.Path + " · " + b.Name
	case b.Other:
		return b.Path + " · smaller branches, together"
	}
	return b.Path
}

func urlsText(n int) string {
	if n == 1 {
		return "1 URL"
	}
	return counttext.Thousands(n) + " URLs"
}

// shorten cuts s to at most n characters, ending in "…" when cut; "" when not even
// two characters fit.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n < 2 {
		return ""
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func round1(f float64) float64 {
	return float64(int(f*10+0.5)) / 10
}
