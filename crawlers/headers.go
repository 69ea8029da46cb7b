package crawlers

import "strings"

// Header is the whole User-Agent header a crawler sends, for fetching a site as
// that crawler would ("robots fetch -as GPTBot"): CDNs and firewalls match these
// strings, not the product token alone, to serve crawlers another robots.txt, a
// 403 or a challenge page.
type Header struct {
	Crawler string // the crawler's Name
	Value   string // the User-Agent header
	// Source is the operator's page that documents Value; "" when the operator
	// documents the product token alone and Value is made from it (see HeaderOf).
	Source string
}

// Documented reports whether the operator documents h.Value itself.
func (h Header) Documented() bool { return h.Source != "" }

// headers are the User-Agent strings the operators document, each beside the page
// that gives it. Where a page gives several (Googlebot's desktop and smartphone
// strings, with a Chrome version written W.X.Y.Z), the one without a placeholder
// is kept, since it is sent as written. Crawlers whose operators document only the
// token (Anthropic's ClaudeBot, ByteDance's Bytespider) are left out: HeaderOf
// makes a string from the token for them and says so.
var headers = []Header{
	{"Googlebot", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", googleCommon},
	{"Googlebot-Image", "Googlebot-Image/1.0", googleCommon},
	{"Googlebot-Video", "Googlebot-Video/1.0", googleCommon},
	{"Google-InspectionTool", "Mozilla/5.0 (compatible; Google-InspectionTool/1.0;)", googleCommon},
	{"GoogleOther", "GoogleOther", googleCommon},
	{"APIs-Google", "APIs-Google (+https://developers.google.com/webmasters/APIs-Google.html)", googleSpecial},
	{"AdsBot-Google", "AdsBot-Google (+http://www.google.com/adsbot.html)", googleSpecial},
	{"Mediapartners-Google", "Mediapartners-Google", googleSpecial},
	{"FeedFetcher-Google", "FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)", googleUser},
	{"bingbot", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", bingCrawlers},
	{"DuckDuckBot", "DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)", "https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot/"},
	{"Baiduspider", "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)", baiduSpider},
	{"YandexBot", "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", yandexRobots},
	{"Applebot", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)", appleBot},
	{"facebookexternalhit", "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", metaCrawlers},
	{"Meta-ExternalAgent", "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)", metaCrawlers},
	{"AhrefsBot", "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)", ahrefsBots},
	{"SemrushBot", "Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)", semrushBots},
	{"MJ12bot", "Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)", "https://mj12bot.com/"},
	{"Amazonbot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36", "https://developer.amazon.com/amazonbot"},
	{"CCBot", "CCBot/2.0 (https://commoncrawl.org/faq/)", "https://commoncrawl.org/ccbot"},
	{"GPTBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)", openAIBots},
	{"ChatGPT-User", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot", openAIBots},
	{"OAI-SearchBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot", openAIBots},
	{"PerplexityBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)", perplexity},
	{"Perplexity-User", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)", perplexity},
}

// HeaderOf returns the User-Agent header crawler name sends: the one its operator
// documents (Header.Source names the page), or else, for a crawler of the registry
// whose operator documents only the token, "Mozilla/5.0 (compatible; TOKEN)" with
// its Crawler.UserAgent words when it has them, and an empty Source. Rules that
// match the token anywhere in the header (most CDN and firewall rules) match it as
// they would the crawler's; rules that also check the crawler's addresses do not.
// The second result is false when the registry does not know name.
func HeaderOf(name string) (Header, bool) {
	c, ok := Lookup(name)
	if !ok {
		return Header{}, false
	}
	for _, h := range headers {
		if strings.EqualFold(h.Crawler, c.Name) {
			return h, true
		}
	}
	words := c.Name
	if c.UserAgent != "" {
		words = c.UserAgent
	}
	return Header{Crawler: c.Name, Value: "Mozilla/5.0 (compatible; " + words + ")"}, true
}

// Headers returns the documented headers of the major crawlers, in the order of
// Major: the set "robots fetch -as major" fetches as.
func Headers() []Header {
	var out []Header
	for _, c := range Major() {
		for _, h := range headers {
			if h.Crawler == c.Name {
				out = append(out, h)
			}
		}
	}
	return out
}
