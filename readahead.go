package robots

import (
	"sync/atomic"

	"github.com/gorobots/robots/internal/readahead"
)

func init() { readahead.Files = readAhead }

// readAhead reads, in steps over all of files (each a *Robots), what a decision for
// agent reads first of each, so that the memory waits of different files overlap
// (see package internal/readahead): step 1 the header's lines (the first, which
// decisions read, and the last, with the options); step 2 the first line of the rule
// set that applies to agent, where its rule set is compiled, and the line of its
// first group in setGroup; step 3 the set's next lines, up to readAheadProg bytes,
// the groups, which Decision.Group is found in, and the table of crawl-delays when
// the file names one and it is built. It reads and changes nothing else: a set not
// compiled yet is not compiled here, a table not built is not built.
func readAhead(files []any, agent string) {
	var rs [readahead.MaxFiles]*Robots
	n := min(len(files), readahead.MaxFiles)
	var x uintptr
	for i := range n {
		r, _ := files[i].(*Robots)
		rs[i] = r
		if r != nil {
			x += uintptr(r.initials) + uintptr(r.size) // the header's first and last lines
		}
	}
	var progs [readahead.MaxFiles]string
	for i := range n {
		r := rs[i]
		if r == nil || r.opts.dialect != Google {
			continue
		}
		ref := r.lookup(agent)
		if ref == nil || ref.groupN == 0 {
			if r.star.groupN == 0 {
				continue
			}
			ref = &r.star
		}
		prog := ref.prog.load() // the set's first line
		progs[i] = prog
		x += uintptr(len(prog)) + uintptr(r.setGroup[ref.groupLo])
	}
	for i := range n {
		prog := progs[i]
		for o := 64; o < len(prog) && o < readAheadProg; o += 64 {
			x += uintptr(prog[o])
		}
		r := rs[i]
		if r == nil {
			continue
		}
		if len(r.groups) > 0 {
			x += uintptr(r.groups[len(r.groups)/2].line) // groupOf's first step
		}
		if r.delays.Load() == delaysSome { // CrawlDelay's table, when the file has one
			if d := r.detail.Load(); d != nil && len(d.delays) > 0 {
				x += uintptr(d.delays[0].d)
			}
		}
	}
	readAheadSink.Store(x)
}

// readAheadProg is how many bytes of a rule set readAhead reads: most sets are
// shorter.
const readAheadProg = 512

// readAheadSink receives what readAhead reads only to have it in the CPU's caches.
var readAheadSink atomic.Uintptr
