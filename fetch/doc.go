// Package fetch is the access method of the Robots Exclusion Protocol: it fetches an
// origin's robots.txt as a crawler must, reads the response with a status policy,
// and caches what it learns per origin.
//
// A [Client] is made from a [Config], whose zero value is usable: every field
// documents the default it stands for.
//
// # Fetching
//
// A Client finds the origin of a URL with [Origin] (scheme, host lower case and in
// punycode, default port left out) and fetches /robots.txt there: an unconditional
// GET for http and https, an anonymous login and RETR robots.txt for ftp. It follows
// up to [MaxRedirects] redirects ([Legacy1996MaxRedirects] under the 1996 draft), to
// any host, and stops at a redirect back to a URL of the chain; the rules found apply
// to the original origin only. At most the first 500 KiB of the body are read ([Config].MaxBytes),
// gzip and deflate bodies included, and the whole fetch has a time limit
// ([Config].Timeout and ConnectTimeout).
//
// # Outcomes
//
// [GooglePolicy] reads the response as Google's crawlers and RFC 9309 do:
//
//	2xx                          Success      obey the rules of the body
//	4xx except 429, >5 redirects Unavailable  allow everything
//	429, 5xx, network failure    Unreachable  disallow everything, retry with backoff
//
// While an origin is unreachable, what its last fetch that was not Unreachable found
// keeps applying ([Result].Copy, [Result].Stale); with no such fetch, everything is
// disallowed until the origin has been unreachable for [Policy].MaxUnreachable (30
// days), then everything is allowed.
//
// [Legacy1996Policy] reads responses as the 1996 draft did: 401 and 403 disallow
// everything, and results live 7 days without cache headers (Expires counts too).
// It is chosen by itself when [Config].Dialect is robots.Legacy1996; Config.Policy
// sets any other.
//
// A fetch that failed carries an [*Error] in [Result].Err: its [ErrorKind] (timeout,
// DNS, connection, TLS, invalid response, redirects, FTP) survives the stores, and in
// the process that made the fetch it wraps the original error. A dial refused on
// purpose by the dialer (a guard against private addresses, see
// [Config].DialContext) is reported but never cached or stored. Results record the
// addresses they were fetched from, and [Config].AddrCheck makes a guarded client
// ignore store entries that another process, allowed to connect there, fetched.
//
// # Caching
//
// Results live for the policy's TTL (24 hours), or for Cache-Control max-age within
// Config.MinTTL and MaxTTL; under [RFC9309Policy] (Config.Dialect robots.RFC9309) a
// file that was fetched or found unavailable lives at most 24 hours whatever max-age
// says (RFC 9309 §2.4), while the last copy keeps applying when the origin is
// unreachable; unreachable origins are retried after a backoff
// (Config.RetryMin and RetryMax). Concurrent requests for one origin share one
// fetch. Results (bodies and metadata) are kept in a [Store]: a [MemoryStore] by
// default, or the disk and Redis stores of the sub-packages boltstore and
// redisstore; parsed rules are kept in process, where a lookup of a fresh origin
// takes no lock and, for common URLs, allocates nothing ([Client.Peek]). Every
// decision about expiry is made by the client's one clock, [Config].Now, so that it
// can be tested without waiting.
//
// # Crawling politely
//
// [Transport] wraps any http.RoundTripper so that requests to disallowed URLs fail
// with a [*DisallowedError] before they are sent, and crawl-delay is honoured per
// origin if asked. [Transport.Usage] tells, for each response, what the site prefers
// about the use of its content (AI training, search): the robots.txt lines that apply
// combined with the response's own Content-Usage header.
package fetch
