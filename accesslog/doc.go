// Package accesslog reads web server access logs and reports what known crawlers
// did: whether each request was one robots.txt allowed, when each crawler fetched
// robots.txt, whether it kept to the Crawl-delay it says it honours, and, with
// verification, whether the client was the crawler its User-Agent names. It is the
// engine of "robots logs".
//
// # Reading logs
//
// A [Reader] reads one log, plain or gzip-compressed (told by its first bytes), line
// by line in a fixed buffer: Common and Combined Log Format lines (Apache's and
// nginx's defaults) and JSON lines with the field names of Caddy's access log or of
// Cloudflare Logpush's HTTP requests, mixed freely. A line it cannot read (another
// format, NUL bytes, over [MaxLineBytes]) is a [*LineError], and reading goes on; a
// binary file ([ErrBinary]) or a broken gzip stream ends the log with an error, after
// what was read before it.
//
// # Judging requests
//
// An [Analyzer] names the crawler of each request from its User-Agent (the tokens
// of package crawlers), and decides its URL against the robots.txt in effect when it
// was made: a [Timeline] of one file, or of dated snapshots ([Snapshots]). After a
// change a crawler may keep the file it had for the cache lifetime (24 hours, RFC
// 9309 §2.4): a request the new file disallows but an older one still in that window
// allows is counted apart ([Row].AllowedByCache), never as a violation. Every
// per-crawler structure is bounded (see the limits), so memory stays flat however
// long the logs.
//
// # Merging
//
// A [Report] is also a partial result: [Merge] adds reports of the same robots.txt
// files into the report of all their logs, the same as one run over them in that
// order, so a week of logs from many servers can be read one task per file and
// combined. Crawl-delay is checked between consecutive requests of one log file (a
// file is one server's view), which is what makes files independent.
package accesslog
