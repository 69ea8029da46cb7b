package crawlers_test

import (
	"fmt"

	"github.com/gorobots/robots/crawlers"
)

// Whether a Crawl-delay line slows a crawler down, as its operator documents it.
func ExampleLookup() {
	for _, name := range []string{"Googlebot", "yandex", "bingbot", "FooBot"} {
		c, ok := crawlers.Lookup(name)
		if !ok {
			fmt.Printf("%s: not in the registry\n", name)
			continue
		}
		fmt.Printf("%s (%s, %s): crawl-delay %s\n", c.Name, c.Operator, c.Purposes[0], c.CrawlDelay)
	}
	// Output:
	// Googlebot (Google, search): crawl-delay ignored
	// Yandex (Yandex, search): crawl-delay ignored
	// bingbot (Microsoft, search): crawl-delay honoured
	// FooBot: not in the registry
}

// The crawlers that fetch a page because a person asked an assistant for it.
func ExampleWithPurpose() {
	for _, c := range crawlers.WithPurpose(crawlers.AIUser) {
		if c.Major {
			fmt.Println(c.Name, c.Operator)
		}
	}
	// Output:
	// ChatGPT-User OpenAI
	// cohere-ai Cohere
}

func ExampleParsePurpose() {
	p, err := crawlers.ParsePurpose("ai-train")
	fmt.Println(p, p.IsAI(), err)
	_, err = crawlers.ParsePurpose("ai")
	fmt.Println(err)
	// Output:
	// ai-train true <nil>
	// unknown crawler purpose "ai" (want one of search, ai-train, ai-search, ai-user, seo, social, archive, ads, other)
}
