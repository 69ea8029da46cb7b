package accesslog

import (
	"strings"
	"sync"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/crawlers"
)

// crawlerInfo is what judging a crawler's requests needs from the registry.
type crawlerInfo struct {
	name, operator string
	// agents are the tokens whose groups it obeys: its own, and Googlebot's for the
	// Googlebot crawlers of images, news and video, which Google documents fall back
	// to Googlebot's rules.
	agents  []string
	honours bool // documents that it obeys Crawl-delay
	// ignoresGlobal: Google documents that AdsBot ignores the "*" group, so a rule
	// of that group is no violation for it.
	ignoresGlobal bool
}

type crawlerTable struct {
	all     []crawlerInfo
	byLower map[string]int
}

var table = sync.OnceValue(func() *crawlerTable {
	t := &crawlerTable{byLower: map[string]int{}}
	for _, c := range crawlers.All() {
		info := crawlerInfo{name: c.Name, operator: c.Operator, agents: []string{c.Name}, honours: c.CrawlDelay == crawlers.Honoured}
		switch c.Name {
		case "Googlebot-Image", "Googlebot-News", "Googlebot-Video":
			info.agents = append(info.agents, "Googlebot")
		case "AdsBot-Google", "AdsBot-Google-Mobile":
			info.ignoresGlobal = true
		}
		t.byLower[strings.ToLower(c.Name)] = len(t.all)
		t.all = append(t.all, info)
	}
	return t
})

// classify returns the index of the crawler a User-Agent header names, or -1. The
// product token robots.ProductToken picks wins when the registry has it; otherwise
// the first product of the header that the registry has ("Mozilla/5.0 (compatible;
// Foo/1.0)" names Foo). URLs in the header ("+https://openai.com/gptbot") name
// nothing.
func (t *crawlerTable) classify(ua string) int {
	if pt := robots.ProductToken(ua); pt != "" {
		if i, ok := t.byLower[strings.ToLower(pt)]; ok {
			return i
		}
	}
	for _, w := range strings.FieldsFunc(ua, func(r rune) bool {
		return r == ' ' || r == '\t' || r == ';' || r == '(' || r == ')' || r == ','
	}) {
		w = strings.TrimLeft(w, "+")
		if strings.Contains(w, "://") {
			continue
		}
		if slash := strings.IndexByte(w, '/'); slash >= 0 {
			w = w[:slash]
		}
		if i, ok := t.byLower[strings.ToLower(w)]; ok {
			return i
		}
	}
	return -1
}
