package accesslog_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gorobots/robots/accesslog"
)

// An Analyzer reads logs and judges each known crawler's requests against the
// robots.txt in effect.
func Example() {
	robotsTxt := []byte("User-agent: *\nDisallow: /private/\n")
	log := `66.249.66.1 - - [20/Nov/2026:10:00:00 +0000] "GET /robots.txt HTTP/1.1" 200 35 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
66.249.66.1 - - [20/Nov/2026:10:00:05 +0000] "GET /private/a HTTP/1.1" 200 512 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
203.0.113.9 - - [20/Nov/2026:10:00:06 +0000] "GET /private/b HTTP/1.1" 200 512 "-" "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
`
	a := accesslog.NewAnalyzer(accesslog.Config{
		Robots: accesslog.Timeline{accesslog.NewVersion("robots.txt", time.Time{}, robotsTxt)},
	})
	if err := a.Read(context.Background(), "access.log", strings.NewReader(log)); err != nil {
		fmt.Println(err)
	}
	rep := a.Report()
	fmt.Println(rep.Records, "requests,", rep.Crawler, "by crawlers,", rep.Violations, "violation")
	for _, r := range rep.Ordered() {
		fmt.Println(r.Crawler, r.RobotsFetches, r.Disallowed)
		for _, rule := range r.Rules {
			fmt.Printf("line %d %s: %s\n", rule.Line, rule.Rule, rule.Examples[0].Value)
		}
	}
	// Output:
	// 3 requests, 2 by crawlers, 1 violation
	// Googlebot 1 1
	// line 2 Disallow: /private/: /private/a
}
