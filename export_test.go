package robots

// Internals for the external tests (package robots_test).

// ScanSum reads the lines of s with the scanner in a loop, as CheckOnce does (the
// Line stays on the stack), and returns the number of lines and of rule value bytes.
func ScanSum(s string) (lines, ruleBytes int) {
	var sc scanner
	sc.init(s)
	var l Line
	for sc.next(&l) {
		lines++
		if l.Kind == KindDisallow || l.Kind == KindAllow {
			ruleBytes += len(l.Value)
		}
	}
	return lines, ruleBytes
}

// ScanSumCallback is ScanSum through scanLines's callback, as Parse calls it.
func ScanSumCallback(s string) (lines, ruleBytes int) {
	scanLines(s, func(l *Line) bool {
		lines++
		if l.Kind == KindDisallow || l.Kind == KindAllow {
			ruleBytes += len(l.Value)
		}
		return true
	})
	return lines, ruleBytes
}
