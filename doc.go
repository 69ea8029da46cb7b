// Package robots reads robots.txt files and decides, exactly as Google does, whether
// a crawler may fetch a URL.
//
// # The protocol
//
// A site publishes /robots.txt at the top of an origin (scheme, host and port). The
// file is a list of groups: one or more user-agent lines naming crawlers by product
// token, then allow and disallow rules whose values are URL path prefixes, where '*'
// matches any run of characters and a final '$' anchors the end. A crawler obeys the
// groups that name its token (merged when there are several) or else the "*" groups.
// Among the rules that match a URL's path and query, the longest value wins; on a tie
// allow wins; when none matches, the URL is allowed. This is RFC 9309 with Google's
// reading of it: misspellings such as "dissallow" and a missing colon are accepted, a
// user-agent value counts up to its first character outside [A-Za-z_-], and rules
// before any user-agent line are ignored.
//
// # Use
//
// [Parse] a body once into an immutable [Robots], then ask it many times with
// [Robots.Allowed], or [Robots.Check] for the deciding [Rule] and group. Every
// decision method takes the agent first, then the URL:
//
//	r := robots.Parse(body)
//	if r.Allowed("Googlebot", "https://example.com/private/x") { ... }
//
// Parse never fails: like Google's parser it skips what it cannot read and reports
// it in [Robots.Diagnostics]. Only the first [DefaultMaxBytes] are read (see
// [WithMaxBytes]). [ParseString] reads a body held as a string and keeps that string
// rather than a copy. A [Robots] is safe for concurrent use, and a decision on an ASCII
// URL does not allocate. [ProductToken] turns a whole User-Agent header into the token
// to pass. [CheckOnce] decides a single URL straight from a body in one pass, for a
// crawler that fetches robots.txt for one URL. [Lines] shows how each line was read,
// for tools that lint or explain files.
//
// # Interpretations
//
// Google's reading is the default. [WithDialect] selects another: [RFC9309], or the
// older [Legacy1996] and [Legacy1994] documents, which some crawlers still follow
// (first match wins, no wildcards). The same file can mean different things to each.
//
// # Usage preferences
//
// A file may also say what the content it lets crawlers fetch may be used for.
// [Robots.Usage] reads, for a crawler and a URL it may fetch, the Content-Usage lines
// of the IETF AI Preferences drafts ("Content-Usage: /blog/ train-ai=y", the
// categories of [Categories]) and the Content-Signal lines of Cloudflare's Content
// Signals Policy ("Content-Signal: search=yes, ai-train=no", the signals of
// [Signals]), each category allowed, disallowed or unknown with the line that said
// so; [Usage.WithHeader] combines them with a response's own Content-Usage header.
// Google ignores both lines; the Google and RFC9309 dialects read them, the legacy
// ones do not. In RFC9309 a Content-Usage line is a rule of its group, which ends the
// group's user-agent lines, as draft-ietf-aipref-attach makes it.
//
// Fetching robots.txt (status codes, redirects, caching) is the job of the fetch
// package; the robots command checks, lints, explains and compares files.
package robots
