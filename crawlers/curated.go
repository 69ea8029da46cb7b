package crawlers

// The operators' documentation pages the entries below cite. Each crawler's
// Crawl-delay fact comes from the page in its URL unless its comment names another.
const (
	googleCommon  = "https://developers.google.com/search/docs/crawling-indexing/google-common-crawlers"
	googleSpecial = "https://developers.google.com/search/docs/crawling-indexing/google-special-case-crawlers"
	googleUser    = "https://developers.google.com/search/docs/crawling-indexing/google-user-triggered-fetchers"
	bingCrawlers  = "https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0"
	yandexRobots  = "https://yandex.com/support/webmaster/robot-workings/check-yandex-robots.html"
	baiduSpider   = "https://www.baidu.com/search/spider_english.html"
	appleBot      = "https://support.apple.com/en-us/119829"
	metaCrawlers  = "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers"
	openAIBots    = "https://platform.openai.com/docs/bots"
	anthropicBots = "https://support.anthropic.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler"
	perplexity    = "https://docs.perplexity.ai/guides/bots"
	mozDotBot     = "https://moz.com/help/moz-procedures/crawlers/dotbot"
	mozRogerbot   = "https://moz.com/help/moz-procedures/crawlers/rogerbot"
	semrushBots   = "https://www.semrush.com/bot/"
	ahrefsBots    = "https://ahrefs.com/robot"
)

// Crawl-delay facts, as the operators document them:
//
//   - Google: "Google doesn't support the crawl-delay rule" (robots.txt
//     specification, developers.google.com/search/docs/crawling-indexing/robots/robots_txt);
//     it holds for all Google crawlers, which share one robots.txt parser.
//   - Yandex: "From February 22, 2018, Yandex doesn't take into account the
//     Crawl-delay directive"; the crawl rate is set in Yandex Webmaster instead
//     (yandex.com/support/webmaster/en/robot-workings/crawl-delay.html).
//   - Bing: bingbot honours Crawl-delay, read as the length of a time window in
//     which it fetches at most one page (Bing Webmaster blog, "To crawl or not to
//     crawl, that is BingBot's question", 2012); MSN's help said the same of msnbot.
//   - Yahoo: Slurp honours Crawl-delay (Yahoo's Slurp help pages).
//   - Amazon: "Amazonbot does not support the crawl-delay directive"
//     (developer.amazon.com/amazonbot).
//   - Anthropic: its bots honour "the non-standard Crawl-delay extension"
//     (anthropicBots); Claude-User fetches on a person's request and is left Unknown.
//   - Common Crawl ("We obey the crawl-delay"), Ahrefs (AhrefsBot and
//     AhrefsSiteAudit), Majestic ("Obeys Crawl Delay: Yes"), Moz (DotBot, rogerbot)
//     and BLEXBot ("less frequently, if another crawl delay is specified") say so on
//     the pages linked below.
//
// Where an operator says nothing, CrawlDelay stays Unknown.

// curated lists the crawlers written by hand: first the major ones, ordered by
// operator, then by how often Common Crawl saw the name in robots.txt files
// (shared/corpus/agents.tsv, source "major"); then the others, by operator.
var curated = []entry{
	{"Googlebot", "Google", p(Search), googleCommon, Ignored, true},
	{"Googlebot-Image", "Google", p(Search), googleCommon, Ignored, true},
	{"Googlebot-News", "Google", p(Search), googleCommon, Ignored, true},
	{"Googlebot-Video", "Google", p(Search), googleCommon, Ignored, true},
	// Retired in 2020 with the mobile crawler of feature phones; still common in files.
	{"Googlebot-Mobile", "Google", p(Search), "", Ignored, true},
	{"Storebot-Google", "Google", p(Search), googleCommon, Ignored, true},
	{"Google-InspectionTool", "Google", p(SEO), googleCommon, Ignored, true},
	{"GoogleOther", "Google", p(Other), googleCommon, Ignored, true},
	{"GoogleOther-Image", "Google", p(Other), googleCommon, Ignored, true},
	{"GoogleOther-Video", "Google", p(Other), googleCommon, Ignored, true},
	// A control token, never in a User-Agent header: whether what Google's crawlers
	// fetch may train Gemini models and ground Gemini's answers.
	{"Google-Extended", "Google", p(AITrain, AISearch), googleCommon, Ignored, true},
	// Crawls sites at their owners' request for Vertex AI Agent Builder.
	{"Google-CloudVertexBot", "Google", p(AISearch), googleCommon, Ignored, true},
	{"APIs-Google", "Google", p(Other), googleSpecial, Ignored, true},
	{"AdsBot-Google", "Google", p(Ads), googleSpecial, Ignored, true},
	{"AdsBot-Google-Mobile", "Google", p(Ads), googleSpecial, Ignored, true},
	{"Mediapartners-Google", "Google", p(Ads), googleSpecial, Ignored, true},
	{"FeedFetcher-Google", "Google", p(Other), googleUser, Ignored, true},
	{"Google-Read-Aloud", "Google", p(Other), googleUser, Ignored, true},
	{"Google-Safety", "Google", p(Other), googleSpecial, Ignored, true},
	{"bingbot", "Microsoft", p(Search), bingCrawlers, Honoured, true},
	{"BingPreview", "Microsoft", p(Search), bingCrawlers, Unknown, true},
	// Bing's crawler before bingbot; Bing still reads its group when none names bingbot.
	{"msnbot", "Microsoft", p(Search), bingCrawlers, Honoured, true},
	{"msnbot-media", "Microsoft", p(Search), bingCrawlers, Unknown, true},
	{"adidxbot", "Microsoft", p(Ads), bingCrawlers, Unknown, true},
	{"Slurp", "Yahoo", p(Search), "https://help.yahoo.com/kb/SLN22600.html", Honoured, true},
	{"DuckDuckBot", "DuckDuckGo", p(Search), "https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot/", Unknown, true},
	{"Baiduspider", "Baidu", p(Search), baiduSpider, Unknown, true},
	{"Baiduspider-image", "Baidu", p(Search), baiduSpider, Unknown, true},
	{"YandexBot", "Yandex", p(Search), yandexRobots, Ignored, true},
	// Every Yandex robot reads a group that names "Yandex".
	{"Yandex", "Yandex", p(Search), yandexRobots, Ignored, true},
	{"YandexImages", "Yandex", p(Search), yandexRobots, Ignored, true},
	{"Applebot", "Apple", p(Search, AISearch), appleBot, Unknown, true},
	// A control token: whether what Applebot fetches may train Apple's models.
	{"Applebot-Extended", "Apple", p(AITrain), appleBot, Unknown, true},
	{"Sogou", "Sogou", p(Search), "http://www.sogou.com/docs/help/webmasters.htm#07", Unknown, true},
	{"360Spider", "Qihoo 360", p(Search), "", Unknown, true},
	{"Yeti", "Naver", p(Search), "https://naver.me/spd", Unknown, true},
	{"SeznamBot", "Seznam", p(Search), "https://o-seznam.cz/napoveda/vyhledavani/en/crawling-control/", Unknown, true},
	{"Qwantify", "Qwant", p(Search), "https://help.qwant.com/bot/", Unknown, true},
	{"PetalBot", "Huawei", p(Search, AISearch), "https://aspiegel.com/petalbot", Unknown, true},
	{"MojeekBot", "Mojeek", p(Search), "https://www.mojeek.com/bot.html", Unknown, true},
	{"Exabot", "Exalead", p(Search), "", Unknown, true},
	{"YisouSpider", "Shenma", p(Search), "", Unknown, true},
	{"coccocbot", "Cốc Cốc", p(Search), "https://help.coccoc.com/searchengine", Unknown, true},
	{"Naverbot", "Naver", p(Search), "", Unknown, true},
	{"Daum", "Kakao", p(Search), "", Unknown, true},
	{"facebookexternalhit", "Meta", p(Social), metaCrawlers, Unknown, true},
	{"Twitterbot", "X", p(Social), "https://developer.x.com/en/docs/x-for-websites/cards/guides/getting-started", Unknown, true},
	{"LinkedInBot", "LinkedIn", p(Social), "", Unknown, true},
	{"Pinterestbot", "Pinterest", p(Social), "https://help.pinterest.com/en/business/article/pinterest-crawler", Unknown, true},
	{"Pinterest", "Pinterest", p(Social), "https://help.pinterest.com/en/business/article/pinterest-crawler", Unknown, true},
	{"ia_archiver", "Alexa", p(Archive), "", Unknown, true},
	{"archive.org_bot", "Internet Archive", p(Archive), "http://archive.org/details/archive.org_bot", Unknown, true},
	{"AhrefsBot", "Ahrefs", p(SEO), ahrefsBots, Honoured, true},
	{"SemrushBot", "Semrush", p(SEO), semrushBots, Unknown, true},
	{"MJ12bot", "Majestic", p(SEO), "https://mj12bot.com/", Honoured, true},
	{"DotBot", "Moz", p(SEO), mozDotBot, Honoured, true},
	{"rogerbot", "Moz", p(SEO), mozRogerbot, Honoured, true},
	{"BLEXBot", "SE Ranking", p(SEO), "https://help.seranking.com/en/blex-crawler", Honoured, true},
	{"Amazonbot", "Amazon", p(AITrain, AISearch), "https://developer.amazon.com/amazonbot", Ignored, true},
	{"CCBot", "Common Crawl", p(AITrain, Archive), "https://commoncrawl.org/ccbot", Honoured, true},
	{"GPTBot", "OpenAI", p(AITrain), openAIBots, Unknown, true},
	{"ChatGPT-User", "OpenAI", p(AIUser), openAIBots, Unknown, true},
	{"OAI-SearchBot", "OpenAI", p(AISearch), openAIBots, Unknown, true},
	{"ClaudeBot", "Anthropic", p(AITrain), anthropicBots, Honoured, true},
	// Named in many files; Anthropic documents no such crawler today.
	{"Claude-Web", "Anthropic", p(Other), "", Unknown, true},
	{"anthropic-ai", "Anthropic", p(AITrain), "", Unknown, true},
	{"PerplexityBot", "Perplexity", p(AISearch), perplexity, Unknown, true},
	{"Bytespider", "ByteDance", p(AITrain, Search), "", Unknown, true},
	{"Meta-ExternalAgent", "Meta", p(AITrain), metaCrawlers, Unknown, true},
	{"Diffbot", "Diffbot", p(AITrain, AISearch), "", Unknown, true},
	{"cohere-ai", "Cohere", p(AIUser), "", Unknown, true},
	// Software anyone runs; the token names whoever runs it unchanged.
	{"Nutch", "Apache Nutch", p(Other), "https://nutch.apache.org/", Unknown, true},
	{"Screaming", "Screaming Frog", p(SEO), "https://www.screamingfrog.co.uk/seo-spider/user-guide/", Unknown, true},
	{"Mail.RU_Bot", "Mail.Ru", p(Search), "http://go.mail.ru/help/robots", Unknown, true},
	{"Seekport", "Seekport", p(Search), "https://bot.seekport.com/", Unknown, true},

	// The others. Google's: every one reads robots.txt with Google's parser.
	{"Google-Site-Verification", "Google", p(Other), googleUser, Ignored, false},
	{"GoogleProducer", "Google", p(Other), googleUser, Ignored, false},
	{"Google-NotebookLM", "Google", p(AIUser), googleUser, Ignored, false},
	{"Google-Agent", "Google", p(AIUser), googleCommon, Ignored, false},
	{"MicrosoftPreview", "Microsoft", p(Search), bingCrawlers, Unknown, false},
	{"Baiduspider-mobile", "Baidu", p(Search), baiduSpider, Unknown, false},
	{"Baiduspider-video", "Baidu", p(Search), baiduSpider, Unknown, false},
	{"Baiduspider-news", "Baidu", p(Search), baiduSpider, Unknown, false},
	{"Baiduspider-favo", "Baidu", p(Other), baiduSpider, Unknown, false},
	{"Baiduspider-cpro", "Baidu", p(Ads), baiduSpider, Unknown, false},
	{"Baiduspider-ads", "Baidu", p(Ads), baiduSpider, Unknown, false},
	{"YandexMobileBot", "Yandex", p(Search), yandexRobots, Ignored, false},
	{"YandexNews", "Yandex", p(Search), yandexRobots, Ignored, false},
	{"YandexVideo", "Yandex", p(Search), yandexRobots, Ignored, false},
	{"YandexVideoParser", "Yandex", p(Search), yandexRobots, Ignored, false},
	{"YandexMedia", "Yandex", p(Search), yandexRobots, Ignored, false},
	{"YandexMarket", "Yandex", p(Search), yandexRobots, Ignored, false},
	{"YandexFavicons", "Yandex", p(Search), yandexRobots, Ignored, false},
	{"YandexBlogs", "Yandex", p(Search), yandexRobots, Ignored, false},
	{"YandexRenderResourcesBot", "Yandex", p(Search), yandexRobots, Ignored, false},
	{"YandexOntoDB", "Yandex", p(Search), yandexRobots, Ignored, false},
	{"YandexDirect", "Yandex", p(Ads), yandexRobots, Ignored, false},
	{"YandexDirectDyn", "Yandex", p(Ads), yandexRobots, Ignored, false},
	{"YandexAdNet", "Yandex", p(Ads), yandexRobots, Ignored, false},
	{"YandexMetrika", "Yandex", p(Other), yandexRobots, Ignored, false},
	{"YandexAccessibilityBot", "Yandex", p(Other), yandexRobots, Ignored, false},
	{"YandexScreenshotBot", "Yandex", p(Other), yandexRobots, Ignored, false},
	{"YandexCalendar", "Yandex", p(Other), yandexRobots, Ignored, false},
	{"YandexPagechecker", "Yandex", p(SEO), yandexRobots, Ignored, false},
	{"YandexWebmaster", "Yandex", p(SEO), yandexRobots, Ignored, false},
	// Yandex's generative answers in search (YandexGPT).
	{"YandexAdditional", "Yandex", p(AISearch), yandexRobots, Ignored, false},
	{"YandexAdditionalBot", "Yandex", p(AISearch), yandexRobots, Ignored, false},
	{"DuckAssistBot", "DuckDuckGo", p(AISearch), "https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot/", Unknown, false},
	{"Bravebot", "Brave", p(Search, AISearch), "https://safe.search.brave.com/help/brave-search-crawler", Unknown, false},
	{"Daumoa", "Kakao", p(Search), "", Unknown, false},
	{"Teoma", "Ask.com", p(Search), "", Unknown, false},
	{"PanguBot", "Huawei", p(AITrain), "", Unknown, false},
	{"Claude-SearchBot", "Anthropic", p(AISearch), anthropicBots, Honoured, false},
	{"Claude-User", "Anthropic", p(AIUser), anthropicBots, Unknown, false},
	{"Perplexity-User", "Perplexity", p(AIUser), perplexity, Unknown, false},
	{"FacebookBot", "Meta", p(AITrain), "https://developers.facebook.com/docs/sharing/bot/", Unknown, false},
	{"Meta-ExternalFetcher", "Meta", p(AIUser), metaCrawlers, Unknown, false},
	{"meta-webindexer", "Meta", p(AISearch), metaCrawlers, Unknown, false},
	{"facebookcatalog", "Meta", p(Ads), metaCrawlers, Unknown, false},
	{"Slackbot", "Slack", p(Social), "https://api.slack.com/robots", Unknown, false},
	{"Slackbot-LinkExpanding", "Slack", p(Social), "https://api.slack.com/robots", Unknown, false},
	{"Discordbot", "Discord", p(Social), "", Unknown, false},
	{"TelegramBot", "Telegram", p(Social), "", Unknown, false},
	{"WhatsApp", "Meta", p(Social), "", Unknown, false},
	{"redditbot", "Reddit", p(Social), "", Unknown, false},
	{"SkypeUriPreview", "Microsoft", p(Social), "", Unknown, false},
	{"vkShare", "VK", p(Social), "", Unknown, false},
	{"Embedly", "Embedly", p(Social), "", Unknown, false},
	{"AhrefsSiteAudit", "Ahrefs", p(SEO), ahrefsBots, Honoured, false},
	{"SiteAuditBot", "Semrush", p(SEO), semrushBots, Unknown, false},
	{"SemrushBot-BA", "Semrush", p(SEO), semrushBots, Unknown, false},
	{"SemrushBot-SI", "Semrush", p(SEO), semrushBots, Unknown, false},
	{"SemrushBot-CT", "Semrush", p(SEO), semrushBots, Unknown, false},
	{"SplitSignalBot", "Semrush", p(SEO), semrushBots, Unknown, false},
	{"DataForSeoBot", "DataForSEO", p(SEO), "https://dataforseo.com/dataforseo-bot", Unknown, false},
	{"serpstatbot", "Serpstat", p(SEO), "https://serpstatbot.com/", Unknown, false},
	{"Barkrowler", "Babbar", p(SEO), "https://www.babbar.tech/crawler", Unknown, false},
	{"SEOkicks", "SEOkicks", p(SEO), "https://www.seokicks.de/robot.html", Unknown, false},
	{"MegaIndex.ru", "MegaIndex", p(SEO), "", Unknown, false},
	{"SeobilityBot", "Seobility", p(SEO), "", Unknown, false},
	{"SERankingBacklinksBot", "SE Ranking", p(SEO), "", Unknown, false},
	{"linkdexbot", "Linkdex", p(SEO), "", Unknown, false},
	{"spbot", "OpenLinkProfiler", p(SEO), "", Unknown, false},
	{"Xenu", "Tilman Hausherr", p(SEO), "", Unknown, false},
	{"special_archiver", "Internet Archive", p(Archive), "", Unknown, false},
	// Heritrix is the Internet Archive's crawler software; national libraries run it too.
	{"heritrix", "Internet Archive", p(Archive), "", Unknown, false},
	{"Arquivo-web-crawler", "Arquivo.pt", p(Archive), "https://arquivo.pt/faq-crawling", Unknown, false},
	{"AmazonAdBot", "Amazon", p(Ads), "https://adbot.amazon.com/", Unknown, false},
	{"GrapeshotCrawler", "Oracle", p(Ads), "", Unknown, false},
	{"proximic", "Comscore", p(Ads), "", Unknown, false},
	{"W3C-checklink", "W3C", p(Other), "https://validator.w3.org/checklink/docs/checklink.html", Unknown, false},
	{"UptimeRobot", "UptimeRobot", p(Other), "", Unknown, false},
}

// p keeps the table above on one line per crawler.
func p(ps ...Purpose) []Purpose { return ps }

// userAgents are the User-Agent patterns of the curated crawlers whose documented
// name is more than a product token: Name is the token RFC 9309 and Google's parser
// read of it (the part before the first space).
var userAgents = map[string]string{
	"Sogou":     "Sogou web spider",
	"Screaming": "Screaming Frog SEO Spider",
	"Seekport":  "Seekport Crawler",
	"Xenu":      "Xenu Link Sleuth",
}
