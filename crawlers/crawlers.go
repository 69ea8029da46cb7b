// Package crawlers lists the major search, AI and SEO crawlers: the names people most
// often write in robots.txt and most want to check a file against.
//
// It is the one list shared by "robots lint" (which warns when a group blocks one of
// them), "robots explain" and "robots diff" (which check them by default) and the
// web tester of "robots serve".
package crawlers

import "slices"

// Purpose says what a crawler's fetches are for.
type Purpose string

const (
	Search  Purpose = "search"  // builds a web search index
	AI      Purpose = "ai"      // collects training data or fetches pages for an AI assistant
	Ads     Purpose = "ads"     // checks ad landing pages or ad-supported pages
	SEO     Purpose = "seo"     // backlink and site-audit tools
	Social  Purpose = "social"  // link previews for social networks
	Archive Purpose = "archive" // web archives
	Other   Purpose = "other"
)

// Crawler is one crawler as robots.txt files name it.
type Crawler struct {
	// Name is the name the operator documents for user-agent lines, as written there.
	// Some are not valid product tokens ("MJ12bot", "archive.org_bot", "Sogou web
	// spider"): a parser that reads tokens as Google does matches them only by their
	// leading letters, which is itself worth telling the user.
	Name     string
	Operator string
	Purpose  Purpose
}

// major is ordered by operator, then by how often Common Crawl saw the name in
// robots.txt files (shared/corpus/agents.tsv, source "major").
var major = []Crawler{
	{"Googlebot", "Google", Search},
	{"Googlebot-Image", "Google", Search},
	{"Googlebot-News", "Google", Search},
	{"Googlebot-Video", "Google", Search},
	{"Googlebot-Mobile", "Google", Search},
	{"Storebot-Google", "Google", Search},
	{"Google-InspectionTool", "Google", Search},
	{"GoogleOther", "Google", Other},
	{"GoogleOther-Image", "Google", Other},
	{"GoogleOther-Video", "Google", Other},
	{"Google-Extended", "Google", AI},
	{"Google-CloudVertexBot", "Google", AI},
	{"APIs-Google", "Google", Other},
	{"AdsBot-Google", "Google", Ads},
	{"AdsBot-Google-Mobile", "Google", Ads},
	{"Mediapartners-Google", "Google", Ads},
	{"FeedFetcher-Google", "Google", Other},
	{"Google-Read-Aloud", "Google", Other},
	{"Google-Safety", "Google", Other},
	{"bingbot", "Microsoft", Search},
	{"BingPreview", "Microsoft", Search},
	{"msnbot", "Microsoft", Search},
	{"msnbot-media", "Microsoft", Search},
	{"adidxbot", "Microsoft", Ads},
	{"Slurp", "Yahoo", Search},
	{"DuckDuckBot", "DuckDuckGo", Search},
	{"Baiduspider", "Baidu", Search},
	{"Baiduspider-image", "Baidu", Search},
	{"YandexBot", "Yandex", Search},
	{"Yandex", "Yandex", Search},
	{"YandexImages", "Yandex", Search},
	{"Applebot", "Apple", Search},
	{"Applebot-Extended", "Apple", AI},
	{"Sogou web spider", "Sogou", Search},
	{"360Spider", "Qihoo 360", Search},
	{"Yeti", "Naver", Search},
	{"SeznamBot", "Seznam", Search},
	{"Qwantify", "Qwant", Search},
	{"PetalBot", "Huawei", Search},
	{"MojeekBot", "Mojeek", Search},
	{"Exabot", "Exalead", Search},
	{"YisouSpider", "Shenma", Search},
	{"coccocbot", "Cốc Cốc", Search},
	{"Naverbot", "Naver", Search},
	{"Daum", "Kakao", Search},
	{"facebookexternalhit", "Meta", Social},
	{"Twitterbot", "X", Social},
	{"LinkedInBot", "LinkedIn", Social},
	{"Pinterestbot", "Pinterest", Social},
	{"Pinterest", "Pinterest", Social},
	{"ia_archiver", "Alexa", Archive},
	{"archive.org_bot", "Internet Archive", Archive},
	{"AhrefsBot", "Ahrefs", SEO},
	{"SemrushBot", "Semrush", SEO},
	{"MJ12bot", "Majestic", SEO},
	{"DotBot", "Moz", SEO},
	{"rogerbot", "Moz", SEO},
	{"BLEXBot", "WebMeUp", SEO},
	{"Amazonbot", "Amazon", AI},
	{"CCBot", "Common Crawl", AI},
	{"GPTBot", "OpenAI", AI},
	{"ChatGPT-User", "OpenAI", AI},
	{"OAI-SearchBot", "OpenAI", AI},
	{"ClaudeBot", "Anthropic", AI},
	{"Claude-Web", "Anthropic", AI},
	{"anthropic-ai", "Anthropic", AI},
	{"PerplexityBot", "Perplexity", AI},
	{"Bytespider", "ByteDance", AI},
	{"Meta-ExternalAgent", "Meta", AI},
	{"Diffbot", "Diffbot", AI},
	{"cohere-ai", "Cohere", AI},
	{"Nutch", "Apache Nutch", Other},
	{"Screaming Frog SEO Spider", "Screaming Frog", SEO},
	{"Mail.RU_Bot", "Mail.Ru", Search},
	{"Seekport Crawler", "Seekport", Search},
}

// Major returns the major crawlers, a fresh copy on each call.
func Major() []Crawler {
	return slices.Clone(major)
}

// Names returns the names of the major crawlers in the order of Major.
func Names() []string {
	out := make([]string, len(major))
	for i, c := range major {
		out[i] = c.Name
	}
	return out
}
