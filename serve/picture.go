package serve

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The audit's picture: the site's URL space as an icicle drawn left to right, the
// site in the first column, the first path segments (/search, /blog) in the second,
// and so on. Each branch's height is its share of the sitemap URLs; its colour is the
// share of them blocked for the crawler chosen in the switch. The layout is computed
// here, so that the picture is in the page as sent (SVG, with the page's own CSS):
// app.js only recolours it when another crawler is chosen, and shows a branch's
// verdicts when it is clicked.

// branch is one node of the URL-space tree as the picture reads it: the audit's
// tree, converted (auditpage.go).
type branch struct {
	Name     string // the path segment ("search"); the site for the root
	Path     string // the path prefix ("/search/")
	URLs     int    // sitemap URLs under Path
	Blocked  []int  // per crawler asked about (in the audit's order): URLs blocked
	Other    bool   // small siblings folded into one node
	Pages    int    // when not 0: this many pages (leaves) of the parent, drawn as one
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
	labelMinHeight   = 15 // a name fits
	urlsMinHeight    = 30 // and a line with the URL count
	shareMinHeight   = 44 // and one with the share blocked
	charWidth        = 7  // of the 12-unit label font, on average, to shorten names that do not fit
	minDrawnHeight   = 1  // thinner branches are not drawn (they are in the table)
	maxLeaves        = 3  // pages of a branch drawn one by one; more are drawn as one
	maxMergedSamples = 5  // sample URLs kept for pages drawn as one
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

// layoutPicture lays out the tree under root for the crawlers asked about,
// coloured for agents[current].
func layoutPicture(root *branch, agents []string, current int) *picture {
	root = mergeLeaves(root)
	p := &picture{Width: pictureWidth, Agents: agents, Current: current}
	for _, s := range blockedSteps {
		p.Steps = append(p.Steps, legendStep(s))
	}
	depth := min(pictureMaxDepth, treeDepth(root))
	p.Height = min(pictureMaxHeight, max(pictureMinHeight, pictureRowHeight*fullestColumn(root, depth)))
	colWidth := float64(pictureWidth - pictureRootWidth)
	if depth > 0 {
		colWidth /= float64(depth)
	}
	p.Branches = map[string]branchData{}
	id := 0
	var walk func(b *branch, parent string, d int, y, h float64)
	walk = func(b *branch, parent string, d int, y, h float64) {
		nodeID := "n" + strconv.Itoa(id)
		id++
		p.Rows = append(p.Rows, p.row(nodeID, b, d))
		p.Branches[nodeID] = branchData{Path: branchTitle(b, d), URLs: b.URLs, Blocked: b.Blocked, Samples: b.Samples, Other: b.Other}
		if d > depth || h < minDrawnHeight {
			// Too deep or too thin to draw: the table has it, and its children.
			for _, c := range b.Children {
				walk(c, "", d+1, y, 0)
			}
			return
		}
		x, w := 0.0, float64(pictureRootWidth)
		if d > 0 {
			x = pictureRootWidth + float64(d-1)*colWidth
			w = colWidth
		}
		n := p.node(nodeID, b, d, x, y, w, h)
		n.Parent = parent
		p.Nodes = append(p.Nodes, n)
		cy := y
		for _, c := range b.Children {
			ch := 0.0
			if b.URLs > 0 {
				ch = h * float64(c.URLs) / float64(b.URLs)
			}
			walk(c, nodeID, d+1, cy, ch)
			cy += ch
		}
	}
	walk(root, "", 0, 0, float64(p.Height))
	return p
}

// mergeLeaves returns the tree with the pages of each branch (children without
// children of their own: /blog/post-1, /blog/post-2 …) drawn as one when there are
// more than maxLeaves of them, so that a blog of 3,000 posts is one block, not 3,000
// hairlines. Sections (/blog/, /tag/) stay apart.
func mergeLeaves(b *branch) *branch {
	out := *b
	out.Children = nil
	var pages *branch
	leaves := 0
	for _, c := range b.Children {
		if isPage(c) {
			leaves++
		}
	}
	for _, c := range b.Children {
		if leaves <= maxLeaves || !isPage(c) {
			out.Children = append(out.Children, mergeLeaves(c))
			continue
		}
		if pages == nil {
			pages = &branch{Name: "pages", Path: b.Path, Blocked: make([]int, len(b.Blocked))}
			out.Children = append(out.Children, pages)
		}
		pages.Pages++
		pages.URLs += c.URLs
		for i := range min(len(c.Blocked), len(pages.Blocked)) {
			pages.Blocked[i] += c.Blocked[i]
		}
		for _, s := range c.Samples {
			if len(pages.Samples) < maxMergedSamples {
				pages.Samples = append(pages.Samples, s)
			}
		}
	}
	if pages != nil {
		pages.Name = plural(pages.Pages, "page", "pages")
	}
	return &out
}

// isPage reports whether c is one page of its parent rather than a section: one URL
// and no children. (A path with many URLs and no children, such as /search with its
// queries, is a section of its own.)
func isPage(c *branch) bool {
	return len(c.Children) == 0 && !c.Other && c.Pages == 0 && c.URLs <= 1
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

func (p *picture) node(id string, b *branch, depth int, x, y, w, h float64) pictureNode {
	n := pictureNode{ID: id, X: round1(x), Y: round1(y), W: round1(w), H: round1(h), Path: b.Path, URLs: b.URLs, Depth: depth}
	counts := make([]string, len(b.Blocked))
	for i, c := range b.Blocked {
		counts[i] = strconv.Itoa(c)
	}
	n.Blocked = strings.Join(counts, " ")
	blocked := p.blockedFor(b)
	n.Class = blockedSteps[stepOf(blocked, b.URLs)].Class
	name := displayName(b, depth)
	n.Name = name
	if h >= labelMinHeight {
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
// "other (12)" for folded siblings.
func displayName(b *branch, depth int) string {
	switch {
	case depth == 0:
		return b.Name
	case b.Other, b.Pages > 0:
		return b.Name
	}
	return "/" + b.Name
}

// branchTitle names a branch in the table and the detail panel: its path, the site
// for the root, "/blog/: 40 pages" for pages drawn as one.
func branchTitle(b *branch, depth int) string {
	switch {
	case depth == 0:
		return b.Name
	case b.Pages > 0:
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
	return thousands(n) + " URLs"
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
