package main

import "context"

// checkRemote decides by fetching each URL's robots.txt. The access method lands in
// the fetch package; until then the command asks for a file.
func checkRemote(ctx context.Context, e *env, f *checkFlags, urls []string) error {
	return usagef("check: fetching robots.txt is not available yet; give -robots FILE")
}
