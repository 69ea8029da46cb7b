package audit

import (
	"cmp"
	"container/heap"
	"slices"
	"strings"

	"github.com/gorobots/robots"
)

// The bounds of Report.Tree, so that its JSON stays small (well under a megabyte for
// eighty crawlers) whatever the number of URLs.
const (
	// MaxTreeDepth is how many path segments deep the tree goes; URLs with longer
	// paths count in the node of their first MaxTreeDepth segments.
	MaxTreeDepth = 4
	// MaxTreeChildren bounds the children of a node kept while reading: the
	// segments seen after that many count in the node's "…" child.
	MaxTreeChildren = 64
	// MaxTreeBuild bounds the nodes kept while reading, in all.
	MaxTreeBuild = 20000
	// MaxTreeNodes bounds the nodes of the report's tree (the largest branches are
	// kept; each node's others are folded into one "…" node, not counted here).
	MaxTreeNodes = 300
	// MaxTreeSamples is how many sample URLs a node keeps, with their verdicts: URLs
	// whose verdicts differ are preferred.
	MaxTreeSamples = 3
)

type node struct {
	name     string
	path     string
	other    bool
	urls     int
	blocked  []int // per class
	children map[string]*node
	order    []*node // children in the order first seen
	fold     *node   // the "…" child
	samples  []sample
}

type sample struct {
	url  string
	sig  uint64 // which classes are blocked
	decs []robots.Decision
}

type tree struct {
	d      *decider
	origin string
	root   *node
	nodes  int
}

func newTree(d *decider, origin string) *tree {
	t := &tree{d: d, origin: origin}
	t.root = t.newNode("/", "/", false)
	return t
}

func (t *tree) newNode(name, path string, other bool) *node {
	t.nodes++
	return &node{name: name, path: path, other: other, blocked: make([]int, len(t.d.rep))}
}

// add counts u, a URL of the origin, by the decisions of t.d.cur.
func (t *tree) add(u string) {
	p := u[len(t.origin):]
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	var sig uint64
	for c, dec := range t.d.cur {
		if !dec.Allowed {
			sig |= 1 << (c & 63)
		}
	}
	n := t.root
	t.count(n, sig, u)
	rest := strings.TrimPrefix(p, "/")
	for depth := 0; depth < MaxTreeDepth && rest != ""; depth++ {
		seg, tail, dir := strings.Cut(rest, "/")
		key := seg
		if dir {
			key = rest[:len(seg)+1] // "seg/", without allocating
		}
		child := n.children[key]
		if child == nil {
			if len(n.children) >= MaxTreeChildren || t.nodes >= MaxTreeBuild {
				child = t.folded(n)
			} else {
				path := n.path + key
				child = t.newNode(strings.Clone(seg), strings.Clone(path), false)
				if n.children == nil {
					n.children = map[string]*node{}
				}
				n.children[child.path[len(n.path):]] = child
				n.order = append(n.order, child)
			}
		}
		t.count(child, sig, u)
		if child.other {
			return
		}
		n, rest = child, tail
		if !dir {
			return
		}
	}
}

// folded returns n's "…" child.
func (t *tree) folded(n *node) *node {
	if n.fold == nil {
		n.fold = t.newNode("…", "", true)
	}
	return n.fold
}

func (t *tree) count(n *node, sig uint64, u string) {
	n.urls++
	for c, dec := range t.d.cur {
		if !dec.Allowed {
			n.blocked[c]++
		}
	}
	if len(n.samples) >= MaxTreeSamples {
		return
	}
	// A verdict already shown fills the slots but the last, kept for a URL decided
	// differently.
	if len(n.samples) >= MaxTreeSamples-1 && slices.ContainsFunc(n.samples, func(s sample) bool { return s.sig == sig }) {
		return
	}
	for _, dec := range t.d.cur {
		t.d.note(dec.Rule)
	}
	n.samples = append(n.samples, sample{url: u, sig: sig, decs: slices.Clone(t.d.cur)})
}

// output returns the report's tree: the MaxTreeNodes largest branches, each node's
// other children folded into one "…" node.
func (t *tree) output() *Node {
	kept := map[*node]bool{t.root: true}
	h := &nodeHeap{}
	push := func(n *node) {
		for _, c := range n.order {
			heap.Push(h, c)
		}
	}
	push(t.root)
	for len(kept) < MaxTreeNodes && h.Len() > 0 {
		n := heap.Pop(h).(*node)
		kept[n] = true
		push(n)
	}
	return t.emit(t.root, kept)
}

func (t *tree) emit(n *node, kept map[*node]bool) *Node {
	out := &Node{
		Name: n.name, Path: n.path, Other: n.other, URLs: n.urls,
		Blocked: t.d.perAgent(n.blocked), Samples: []Sample{}, Children: []*Node{},
	}
	for _, s := range n.samples {
		smp := Sample{URL: s.url, Allowed: make([]bool, len(t.d.agents)), Lines: make([]int, len(t.d.agents))}
		for i, c := range t.d.classOf {
			smp.Allowed[i] = s.decs[c].Allowed
			smp.Lines[i] = s.decs[c].Rule.Line
		}
		out.Samples = append(out.Samples, smp)
	}
	// The children not kept, and the "…" child, fold into one node.
	var rest *node
	addRest := func(c *node) {
		if rest == nil {
			rest = &node{name: "…", other: true, blocked: make([]int, len(t.d.rep))}
		}
		rest.urls += c.urls
		for i, b := range c.blocked {
			rest.blocked[i] += b
		}
		for _, s := range c.samples {
			if len(rest.samples) < MaxTreeSamples {
				rest.samples = append(rest.samples, s)
			}
		}
	}
	children := slices.Clone(n.order)
	slices.SortStableFunc(children, func(a, b *node) int { return cmp.Compare(b.urls, a.urls) })
	for _, c := range children {
		if kept[c] {
			out.Children = append(out.Children, t.emit(c, kept))
		} else {
			addRest(c)
		}
	}
	if n.fold != nil {
		addRest(n.fold)
	}
	if rest != nil {
		out.Children = append(out.Children, t.emit(rest, nil))
	}
	return out
}

// nodeHeap orders nodes by URL count, largest first.
type nodeHeap []*node

func (h nodeHeap) Len() int           { return len(h) }
func (h nodeHeap) Less(i, j int) bool { return h[i].urls > h[j].urls }
func (h nodeHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *nodeHeap) Push(x any)        { *h = append(*h, x.(*node)) }
func (h *nodeHeap) Pop() any {
	old := *h
	n := old[len(old)-1]
	*h = old[:len(old)-1]
	return n
}
