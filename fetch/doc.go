// Package fetch is the access method of the Robots Exclusion Protocol: it fetches an
// origin's robots.txt as a crawler must, reads the response with a status policy,
// and caches what it learns per origin.
//
// # Fetching
//
// A [Client] finds the origin of a URL with [Origin] (scheme, host lower case and in
// punycode, default port left out) and fetches /robots.txt there: an unconditional
// GET for http and https, an anonymous login and RETR robots.txt for ftp. It follows
// up to [MaxRedirects] redirects, to any host; the rules found apply to the original
// origin only. At most the first 500 KiB of the body are read ([WithMaxBytes]),
// gzip and deflate bodies included, and the whole fetch has a time limit
// ([WithTimeout], [WithConnectTimeout]).
//
// # Outcomes
//
// [GooglePolicy] reads the response as Google's crawlers and RFC 9309 do:
//
//	2xx                          Success      obey the rules of the body
//	4xx except 429, >5 redirects Unavailable  allow everything
//	429, 5xx, network failure    Unreachable  disallow everything, retry with backoff
//
// While an origin is unreachable, the last copy that was not keeps applying
// ([Result.Stale]); with none, everything is disallowed until the origin has been
// unreachable for [Policy.MaxUnreachable] (30 days), then everything is allowed.
// Another interpretation is another [Policy] given to [WithPolicy].
//
// # Caching
//
// Results live for the policy's TTL (24 hours), or for Cache-Control max-age within
// [WithTTLBounds]; unreachable origins are retried after a backoff
// ([WithRetryBackoff]). Concurrent requests for one origin share one fetch. Entries
// (bodies and metadata) are kept in a [Store]: a [MemoryStore] by default, or the
// disk and Redis stores of the sub-packages boltstore and redisstore; parsed rules
// are kept in process. Decisions about expiry take the time as an argument
// ([Client.GetAt]) so that they can be tested without waiting.
//
// # Crawling politely
//
// [Transport] wraps any http.RoundTripper so that requests to disallowed URLs fail
// with a [*DisallowedError] before they are sent, and crawl-delay is honoured per
// origin if asked.
package fetch
