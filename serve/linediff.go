package serve

// maxDiffEdits bounds the edit distance lineDiff searches for, and with it the work
// and memory of one diff (the trace kept for the way back grows with its square:
// about 8 MB at this bound). Two files further apart than that are marked line by
// line instead (see markUnmatched), which is what a reader needs from so different
// files anyway.
const maxDiffEdits = 1000

// lineDiff marks the lines of a that a shortest edit script from a to b deletes and
// the lines of b that it inserts (Myers' O(ND) algorithm, after trimming the common
// start and end). A changed line is a deletion plus an insertion.
func lineDiff(a, b []string) (del, add []bool) {
	del, add = make([]bool, len(a)), make([]bool, len(b))
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	x, y := a[p:len(a)-s], b[p:len(b)-s]
	if !myers(x, y, del[p:], add[p:]) {
		markUnmatched(x, y, del[p:], add[p:])
	}
	return del, add
}

// myers marks del and add from a shortest edit script of a into b, or returns false
// when that script is longer than maxDiffEdits.
func myers(a, b []string, del, add []bool) bool {
	n, m := len(a), len(b)
	limit := min(n+m, maxDiffEdits)
	// trace[d][k+d] is the furthest x reached on diagonal k (x-y) with d edits.
	var trace [][]int32
	for d := 0; d <= limit; d++ {
		cur := make([]int32, 2*d+1)
		for k := -d; k <= d; k += 2 {
			var x int
			switch {
			case d == 0:
				x = 0
			case k == -d || k != d && trace[d-1][k-1+d-1] < trace[d-1][k+1+d-1]:
				x = int(trace[d-1][k+1+d-1]) // down: an insertion
			default:
				x = int(trace[d-1][k-1+d-1]) + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			cur[k+d] = int32(x)
			if x >= n && y >= m {
				trace = append(trace, cur)
				backtrack(trace, n, m, del, add)
				return true
			}
		}
		trace = append(trace, cur)
	}
	return false
}

// backtrack walks the trace from (n, m) back to the start, marking each edit.
func backtrack(trace [][]int32, x, y int, del, add []bool) {
	for d := len(trace) - 1; d > 0; d-- {
		prev := trace[d-1]
		k := x - y
		var pk int
		if k == -d || k != d && prev[k-1+d-1] < prev[k+1+d-1] {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := int(prev[pk+d-1])
		py := px - pk
		if pk == k+1 {
			add[py] = true
		} else {
			del[px] = true
		}
		x, y = px, py
	}
}

// markUnmatched marks the lines of a that b lacks and those of b that a lacks,
// counting repeats.
func markUnmatched(a, b []string, del, add []bool) {
	markMissing(a, b, del)
	markMissing(b, a, add)
}

// markMissing marks the lines of a that b lacks, counting repeats.
func markMissing(a, b []string, mark []bool) {
	count := map[string]int{}
	for _, l := range b {
		count[l]++
	}
	for i, l := range a {
		if count[l] > 0 {
			count[l]--
		} else {
			mark[i] = true
		}
	}
}
