package crawlers

// How each operator says its crawlers can be verified. The facts were recorded on
// the date in Read from the page in Source; they are the operator's words, not a
// guess: a crawler whose operator publishes nothing has none here.
const (
	googleVerify = "https://developers.google.com/search/docs/crawling-indexing/verifying-googlebot"
	googleRanges = "https://developers.google.com/static/search/apis/ipranges/"
	bingVerify   = "https://www.bing.com/webmasters/help/how-to-verify-bingbot-3905dc26"
	recorded     = "2026-11-28"
)

var (
	// Google's common crawlers: googlebot.json, reverse DNS
	// crawl-….googlebot.com or geo-crawl-….geo.googlebot.com.
	googleCommonVerify = Verification{
		Ranges: []string{googleRanges + "googlebot.json"},
		DNS:    []string{"googlebot.com"},
		Source: googleVerify, Read: recorded,
	}
	// Google's special-case crawlers: special-crawlers.json, reverse DNS
	// rate-limited-proxy-….google.com.
	googleSpecialVerify = Verification{
		Ranges: []string{googleRanges + "special-crawlers.json"},
		DNS:    []string{"google.com"},
		Source: googleVerify, Read: recorded,
	}
	// Google's user-triggered fetchers: two lists, reverse DNS
	// google-proxy-….google.com. Google also names ….gae.googleusercontent.com,
	// which any App Engine customer's requests come from, so it does not prove
	// Google: it is left out.
	googleUserVerify = Verification{
		Ranges: []string{googleRanges + "user-triggered-fetchers.json", googleRanges + "user-triggered-fetchers-google.json"},
		DNS:    []string{"google.com"},
		Source: googleVerify, Read: recorded,
	}
	bingVerification = Verification{
		Ranges: []string{"https://www.bing.com/toolbox/bingbot.json"},
		DNS:    []string{"search.msn.com"},
		Source: bingVerify, Read: recorded,
	}
	yandexVerification = Verification{DNS: []string{"yandex.ru", "yandex.net", "yandex.com"}, Source: yandexRobots, Read: recorded}
	baiduVerification  = Verification{DNS: []string{"baidu.com", "baidu.jp"}, Source: baiduSpider, Read: recorded}
)

// verification maps a crawler's Name to how it can be verified. Control tokens
// that never appear in a request (Google-Extended, Applebot-Extended) have none.
var verification = map[string]Verification{
	"Googlebot":                googleCommonVerify,
	"Googlebot-Image":          googleCommonVerify,
	"Googlebot-News":           googleCommonVerify,
	"Googlebot-Video":          googleCommonVerify,
	"Googlebot-Mobile":         googleCommonVerify,
	"Storebot-Google":          googleCommonVerify,
	"Google-InspectionTool":    googleCommonVerify,
	"GoogleOther":              googleCommonVerify,
	"GoogleOther-Image":        googleCommonVerify,
	"GoogleOther-Video":        googleCommonVerify,
	"Google-CloudVertexBot":    googleCommonVerify,
	"APIs-Google":              googleSpecialVerify,
	"AdsBot-Google":            googleSpecialVerify,
	"AdsBot-Google-Mobile":     googleSpecialVerify,
	"Mediapartners-Google":     googleSpecialVerify,
	"Google-Safety":            googleSpecialVerify,
	"FeedFetcher-Google":       googleUserVerify,
	"Google-Read-Aloud":        googleUserVerify,
	"Google-Site-Verification": googleUserVerify,
	"GoogleProducer":           googleUserVerify,
	"Google-NotebookLM":        googleUserVerify,

	"bingbot":          bingVerification,
	"BingPreview":      bingVerification,
	"msnbot":           bingVerification,
	"msnbot-media":     bingVerification,
	"adidxbot":         bingVerification,
	"MicrosoftPreview": bingVerification,

	"GPTBot":        {Ranges: []string{"https://openai.com/gptbot.json"}, Source: openAIBots, Read: recorded},
	"OAI-SearchBot": {Ranges: []string{"https://openai.com/searchbot.json"}, Source: openAIBots, Read: recorded},
	"ChatGPT-User":  {Ranges: []string{"https://openai.com/chatgpt-user.json"}, Source: openAIBots, Read: recorded},
	// ChatGPT agent (User-Agent pattern "ChatGPT Agent") signs its requests with
	// Web Bot Auth, Signature-Agent "https://chatgpt.com".
	"ChatGPT": {KeyDirectory: "https://chatgpt.com", Source: "https://help.openai.com/en/articles/11845367-chatgpt-agent-allowlisting", Read: recorded},

	"PerplexityBot":   {Ranges: []string{"https://www.perplexity.ai/perplexitybot.json"}, Source: perplexity, Read: recorded},
	"Perplexity-User": {Ranges: []string{"https://www.perplexity.ai/perplexity-user.json"}, Source: perplexity, Read: recorded},

	"Applebot": {Ranges: []string{"https://search.developer.apple.com/applebot.json"}, DNS: []string{"applebot.apple.com"}, Source: appleBot, Read: recorded},

	"CCBot": {Ranges: []string{"https://index.commoncrawl.org/ccbot.json"}, DNS: []string{"crawl.commoncrawl.org"}, Source: "https://commoncrawl.org/faq", Read: recorded},

	"Amazonbot": {DNS: []string{"crawl.amazonbot.amazon"}, Source: "https://developer.amazon.com/amazonbot", Read: recorded},

	"YandexBot":                yandexVerification,
	"Yandex":                   yandexVerification,
	"YandexImages":             yandexVerification,
	"YandexMobileBot":          yandexVerification,
	"YandexNews":               yandexVerification,
	"YandexVideo":              yandexVerification,
	"YandexVideoParser":        yandexVerification,
	"YandexMedia":              yandexVerification,
	"YandexMarket":             yandexVerification,
	"YandexFavicons":           yandexVerification,
	"YandexBlogs":              yandexVerification,
	"YandexRenderResourcesBot": yandexVerification,
	"YandexOntoDB":             yandexVerification,
	"YandexDirect":             yandexVerification,
	"YandexDirectDyn":          yandexVerification,
	"YandexAdNet":              yandexVerification,
	"YandexMetrika":            yandexVerification,
	"YandexAccessibilityBot":   yandexVerification,
	"YandexScreenshotBot":      yandexVerification,
	"YandexCalendar":           yandexVerification,
	"YandexPagechecker":        yandexVerification,
	"YandexWebmaster":          yandexVerification,
	"YandexAdditional":         yandexVerification,
	"YandexAdditionalBot":      yandexVerification,

	"Baiduspider":        baiduVerification,
	"Baiduspider-image":  baiduVerification,
	"Baiduspider-mobile": baiduVerification,
	"Baiduspider-video":  baiduVerification,
	"Baiduspider-news":   baiduVerification,
	"Baiduspider-favo":   baiduVerification,
	"Baiduspider-cpro":   baiduVerification,
	"Baiduspider-ads":    baiduVerification,

	"SeznamBot": {DNS: []string{"search.seznam.cz"}, Source: "https://o-seznam.cz/napoveda/vyhledavani/en/crawling-control/", Read: recorded},
	"PetalBot":  {DNS: []string{"petalsearch.com"}, Source: "https://aspiegel.com/petalbot", Read: recorded},
}
