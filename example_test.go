package robots_test

import (
	"fmt"
	"net/http"

	"github.com/gorobots/robots"
)

const exampleFile = `# example.com
User-agent: *
Disallow: /private/
Allow: /private/press/
Crawl-delay: 2

User-agent: Googlebot-Image
Disallow: /photos/

Sitemap: https://example.com/sitemap.xml
`

func Example() {
	r := robots.Parse([]byte(exampleFile))
	fmt.Println(r.Allowed("Googlebot", "https://example.com/private/a.html"))
	fmt.Println(r.Allowed("Googlebot", "https://example.com/private/press/b.html"))
	fmt.Println(r.Allowed("Googlebot-Image", "https://example.com/private/a.html"))
	// Output:
	// false
	// true
	// true
}

func ExampleRobots_Check() {
	r := robots.Parse([]byte(exampleFile))
	d := r.Check("Googlebot", "https://example.com/private/a.html")
	fmt.Println(d.Allowed, d.Rule.Line, d.Rule, d.Global)
	// Output:
	// false 3 Disallow: /private/ true
}

// A crawler that obeys two product tokens gets the groups naming either of them;
// the "*" group applies only when neither is named.
func ExampleRobots_CheckAgents() {
	r := robots.Parse([]byte(exampleFile))
	d := r.CheckAgents([]string{"Googlebot-Image", "Googlebot"}, "https://example.com/photos/cat.jpg")
	fmt.Println(d.Allowed, d.Rule)
	// Output:
	// false Disallow: /photos/
}

func ExampleRobots_CrawlDelay() {
	r := robots.Parse([]byte(exampleFile))
	delay, ok := r.CrawlDelay("bingbot")
	fmt.Println(delay, ok)
	fmt.Println(r.Sitemaps())
	// Output:
	// 2s true
	// [https://example.com/sitemap.xml]
}

func ExampleRobots_Diagnostics() {
	r := robots.Parse([]byte("Disallow: /nope\nUser-agent: *\nDissallow: /tmp/\nDisallow /private/\nunicorns: /x\n"))
	for _, d := range r.Diagnostics() {
		fmt.Println(d)
	}
	// Output:
	// line 1: disallow before any user-agent line: ignored [rule-outside-group]
	// line 3: "Dissallow" is not a field name; Google reads it as disallow, other crawlers skip the line [misspelled-field]
	// line 4: no colon after "Disallow"; Google reads "Disallow: /private/", other crawlers skip the line [missing-colon]
	// line 5: unknown field "unicorns": ignored [unknown-field]
}

// A crawler that fetched a page asks what the site prefers about its use: the
// robots.txt lines that apply, then the response's own Content-Usage header, combined
// most restrictively.
func ExampleRobots_Usage() {
	r := robots.Parse([]byte(`User-agent: *
Disallow: /private/
Content-Usage: train-ai=n
Content-Usage: /blog/ train-ai=y, search=y
Content-Signal: search=yes, ai-train=no
`))
	u := r.Usage("ExampleBot", "https://example.com/blog/post")
	fmt.Println(u.Fetchable, u.Category(robots.TrainAI).Preference, "by line", u.Category(robots.TrainAI).Line)
	fmt.Println("Content-Signal ai-train:", u.Signal(robots.SignalAITrain).Preference)

	header := http.Header{"Content-Usage": {"train-ai=n"}} // resp.Header
	fmt.Println("with the header:", u.WithHeader(header).Category(robots.TrainAI).Preference)

	fmt.Println(r.Usage("ExampleBot", "https://example.com/private/x").Fetchable)
	// Output:
	// true allowed by line 4
	// Content-Signal ai-train: disallowed
	// with the header: disallowed
	// false
}

func ExampleProductToken() {
	fmt.Println(robots.ProductToken("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"))
	fmt.Println(robots.ProductToken("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"))
	fmt.Println(robots.ProductToken("curl/8.5.0"))
	// Output:
	// Googlebot
	// GPTBot
	// curl
}

func ExampleParseCrawlDelay() {
	for _, v := range []string{"2.5", "soon", "-1"} {
		d, err := robots.ParseCrawlDelay(v)
		fmt.Println(d, err)
	}
	// Output:
	// 2.5s <nil>
	// 0s crawl-delay "soon" is not a number of seconds
	// 0s crawl-delay "-1" is negative
}

// The rules that apply to a crawler, without building every group: a tool asking
// about many crawlers reuses one slice for their groups.
func ExampleRobots_Rules() {
	r := robots.Parse([]byte(exampleFile))
	var gs []int
	for _, agent := range []string{"Googlebot-Image", "bingbot"} {
		gs, _ = r.AppendGroupsFor(gs[:0], agent)
		for rule := range r.Rules(gs) {
			fmt.Println(agent, rule.Line, rule)
		}
	}
	// Output:
	// Googlebot-Image 8 Disallow: /photos/
	// bingbot 3 Disallow: /private/
	// bingbot 4 Allow: /private/press/
}

// A tool that shows a file line by line, with its groups and diagnostics, reads the
// body once: the loop over Lines makes the reading behind Groups and Diagnostics.
func ExampleRobots_Lines() {
	r := robots.Parse([]byte("User-agent: *\nDisalow: /tmp/ # old\nunicorns: /x\n"))
	for l := range r.Lines() {
		fmt.Printf("%d %s %q %q\n", l.Num, l.Kind, l.Key, l.Value)
	}
	fmt.Println(len(r.Groups()), "group,", len(r.Diagnostics()), "diagnostics")
	// Output:
	// 1 user-agent "User-agent" "*"
	// 2 disallow "Disalow" "/tmp/"
	// 3 unknown "unicorns" "/x"
	// 4 blank "" ""
	// 1 group, 2 diagnostics
}
