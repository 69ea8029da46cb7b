//go:build unix

package serve

import "syscall"

// fileLimit returns the process's limit of open files (its soft RLIMIT_NOFILE, which
// Go raises to the hard limit at start), or 0 when it is not known.
func fileLimit() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur > 1<<30 {
		return 0
	}
	return int(rl.Cur)
}
