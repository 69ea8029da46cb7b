// Package census reads every robots.txt of a web crawl, as WARC files hold them, into
// a table: one [Row] per robots.txt fetch and crawler, saying what the fetch's status
// and redirects mean under the access method of package fetch (RFC 9309 and Google:
// 4xx allow everything, 5xx disallow everything, five redirects), whether the file
// was cut at 500 KiB or is an HTML page, how much of the site the crawler may fetch
// (blocked, partly, open), the usage preferences stated for it (Content-Usage,
// Content-Signal) and whether the file has an RSL License line, with the file's lint
// codes.
//
// [Scan] reads one WARC file (gzip-compressed record by record, as one stream, or
// not at all) and calls back with the rows in the file's order, deciding records on
// every core; the same file gives the same rows. A redirect is followed to the
// record of its target further on in the same file, as the crawler recorded it; a
// redirect whose target the file does not hold gives rows with an unknown effect
// and says so. A corrupt or truncated record is reported and skipped. [NewWriter]
// writes rows as Parquet (one schema for every file, so that the outputs of one
// task per WARC file concatenate), CSV or JSON lines.
//
// The robots corpus command runs scans over local files or https:// URLs.
package census
