// Package readahead lets the server of this module ask the root package to read
// parsed files ahead of the decisions it is about to make on them, without that
// being part of the root package's API.
//
// A decision on a file no other recent decision read waits for memory several
// times, each read depending on the one before (the file's header, then its rule
// set, then the groups). A server answering a batch of URLs of many origins makes
// such decisions one after the other; reading the parts of all of a chunk's files
// first, in steps over all of them, lets the waits of different files overlap.
// Reading ahead changes nothing: it only brings memory into the CPU's caches.
package readahead

// Files, set by the root package (github.com/gorobots/robots) when it is
// initialised, reads ahead what a decision for the product token agent first reads
// of each of files, whose elements are *robots.Robots (nil ones are skipped). files
// holds at most MaxFiles elements; the rest are not read ahead.
var Files func(files []any, agent string)

// MaxFiles is how many files Files reads ahead at once.
const MaxFiles = 64
