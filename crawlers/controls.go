package crawlers

import "strings"

// controls are the tokens that name no crawler of their own: their operators say
// that no request carries them, and that the rules of their groups decide what the
// pages fetched by the operator's other crawlers may be used for.
//   - Google-Extended: "Google-Extended doesn't have a separate HTTP request user
//     agent string. Crawling is done with existing Google user agent strings"
//     (developers.google.com/search/docs/crawling-indexing/google-common-crawlers).
//   - Applebot-Extended: "Applebot-Extended does not crawl webpages"
//     (support.apple.com/en-us/119829).
var controls = map[string]bool{"google-extended": true, "applebot-extended": true}

// Fetches reports whether the crawler makes requests of its own: false for a token
// that only controls the use of what other crawlers fetch (Google-Extended,
// Applebot-Extended), which may be blocked from the site but has nothing to
// fetch, a sitemap included.
func (c Crawler) Fetches() bool { return !controls[strings.ToLower(c.Name)] }

// Fetches reports whether the crawler named name makes requests of its own (see
// Crawler.Fetches); true for a name the registry does not know.
func Fetches(name string) bool { return !controls[strings.ToLower(name)] }
