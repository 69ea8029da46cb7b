package crawlers

// stance is a curated crawler's robots.txt stance and the page that says so.
type stance struct {
	stance Stance
	url    string
}

// The operators' words, recorded 2026-11-28 from the pages named:
//
//   - Google's common and special-case crawlers obey robots.txt (googleCommon,
//     googleSpecial); its user-triggered fetchers, "because the fetch was
//     requested by a user, … generally ignore robots.txt rules" (googleUser).
//     Google-Extended and Applebot-Extended are read only in robots.txt.
//   - OpenAI: GPTBot and OAI-SearchBot obey; for ChatGPT-User, "because these
//     actions are initiated by a user, robots.txt rules may not apply" (openAIBots).
//   - Perplexity: PerplexityBot obeys; Perplexity-User "generally ignores
//     robots.txt rules" since a user asked for the page (perplexity).
//   - Anthropic: ClaudeBot, Claude-SearchBot and Claude-User honour robots.txt
//     (anthropicBots).
//   - Bing, Apple, Common Crawl, Amazon, Yandex, Baidu, DuckDuckGo, Ahrefs,
//     Semrush, Majestic, Moz and SE Ranking say their crawlers obey it on the pages
//     in their entries' URL.
//
// A curated crawler not listed here takes the stance ai.robots.txt's "respect"
// field gives, if it names it.
var stances = map[string]stance{
	"Googlebot":             {Obeys, googleCommon},
	"Googlebot-Image":       {Obeys, googleCommon},
	"Googlebot-News":        {Obeys, googleCommon},
	"Googlebot-Video":       {Obeys, googleCommon},
	"Storebot-Google":       {Obeys, googleCommon},
	"Google-InspectionTool": {Obeys, googleCommon},
	"GoogleOther":           {Obeys, googleCommon},
	"GoogleOther-Image":     {Obeys, googleCommon},
	"GoogleOther-Video":     {Obeys, googleCommon},
	"Google-Extended":       {Obeys, googleCommon},
	"Google-CloudVertexBot": {Obeys, googleCommon},
	"APIs-Google":           {Obeys, googleSpecial},
	"AdsBot-Google":         {Obeys, googleSpecial},
	"AdsBot-Google-Mobile":  {Obeys, googleSpecial},
	"Mediapartners-Google":  {Obeys, googleSpecial},
	"Google-Safety":         {Obeys, googleSpecial},

	"FeedFetcher-Google":       {Ignores, googleUser},
	"Google-Read-Aloud":        {Ignores, googleUser},
	"Google-Site-Verification": {Ignores, googleUser},
	"GoogleProducer":           {Ignores, googleUser},
	"Google-NotebookLM":        {Ignores, googleUser},

	"bingbot":           {Obeys, bingCrawlers},
	"msnbot":            {Obeys, bingCrawlers},
	"Applebot":          {Obeys, appleBot},
	"Applebot-Extended": {Obeys, appleBot},
	"CCBot":             {Obeys, "https://commoncrawl.org/ccbot"},
	"Amazonbot":         {Obeys, "https://developer.amazon.com/amazonbot"},
	"YandexBot":         {Obeys, yandexRobots},
	"Baiduspider":       {Obeys, baiduSpider},
	"DuckDuckBot":       {Obeys, "https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot/"},

	"GPTBot":        {Obeys, openAIBots},
	"OAI-SearchBot": {Obeys, openAIBots},
	"ChatGPT-User":  {UserTriggered, openAIBots},

	"PerplexityBot":   {Obeys, perplexity},
	"Perplexity-User": {Ignores, perplexity},

	"ClaudeBot":        {Obeys, anthropicBots},
	"Claude-SearchBot": {Obeys, anthropicBots},
	"Claude-User":      {Obeys, anthropicBots},

	"AhrefsBot":       {Obeys, ahrefsBots},
	"AhrefsSiteAudit": {Obeys, ahrefsBots},
	"SemrushBot":      {Obeys, semrushBots},
	"MJ12bot":         {Obeys, "https://mj12bot.com/"},
	"DotBot":          {Obeys, mozDotBot},
	"rogerbot":        {Obeys, mozRogerbot},
	"BLEXBot":         {Obeys, "https://help.seranking.com/en/blex-crawler"},
}
