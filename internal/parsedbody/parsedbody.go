// Package parsedbody gives the packages of this module the text a robots.Robots
// keeps, its own copy of the body it parsed, so that whoever holds both a body and
// the rules parsed from it (fetch's cached results) can keep one copy rather than
// two. The root package sets Of when it is initialised.
package parsedbody

// Of returns the text r, a *robots.Robots, parsed: the body given to Parse, cut at
// its size limit. It is typed any because the root package imports this one.
var Of func(r any) string
