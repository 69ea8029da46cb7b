package accesslog

import (
	"strings"
	"sync"

	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/verify"
)

// crawlerInfo is what judging a crawler's requests needs from the registry.
type crawlerInfo struct {
	name, operator string
	// agents are the tokens whose groups it obeys: its own, and Googlebot's for the
	// Googlebot crawlers of images, news and video, which Google documents fall back
	// to Googlebot's rules.
	agents  []string
	honours bool   // documents that it obeys Crawl-delay
	stance  string // its documented stance on robots.txt (crawlers.Stance)
	// ignoresGlobal: Google documents that AdsBot ignores the "*" group, so a rule
	// of that group is no violation for it.
	ignoresGlobal bool
}

// crawlerTable is the registry as an Analyzer reads it. Which crawler a User-Agent
// names is package verify's reading (Verifier.Crawler), so that a request is named
// the same when it is verified.
type crawlerTable struct {
	all    []crawlerInfo
	byName map[string]int
	names  *verify.Verifier // only its reading of User-Agent headers: it fetches nothing
}

// sharedTable is built once: it is immutable, and verify.Verifier is safe for
// concurrent use.
var sharedTable = sync.OnceValue(newCrawlerTable)

func newCrawlerTable() *crawlerTable {
	t := &crawlerTable{byName: map[string]int{}}
	for _, c := range crawlers.All() {
		info := crawlerInfo{name: c.Name, operator: c.Operator, agents: []string{c.Name},
			honours: c.CrawlDelay == crawlers.Honoured, stance: string(c.Robots)}
		switch c.Name {
		case "Googlebot-Image", "Googlebot-News", "Googlebot-Video":
			info.agents = append(info.agents, "Googlebot")
		case "AdsBot-Google", "AdsBot-Google-Mobile":
			info.ignoresGlobal = true
		}
		t.byName[strings.ToLower(c.Name)] = len(t.all)
		t.all = append(t.all, info)
	}
	// Offline, without DNS: New reads the registry and fetches nothing; it cannot
	// fail on these options.
	t.names, _ = verify.New(verify.Options{Offline: true, NoDNS: true})
	return t
}

// classify returns the index of the crawler a User-Agent header names, or -1.
func (t *crawlerTable) classify(ua string) int {
	if t.names == nil {
		return -1
	}
	if i, ok := t.byName[strings.ToLower(t.names.Crawler(ua))]; ok {
		return i
	}
	return -1
}
