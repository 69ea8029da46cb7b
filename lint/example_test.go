package lint_test

import (
	"fmt"

	"github.com/gorobots/robots/lint"
)

func ExampleCheck() {
	body := []byte(`User-agent: *
Crawl-delay: 10
User-agent: Googlebot
Disallow /private/
Disallow: /tmp/
`)
	for _, f := range lint.Check("robots.txt", body) {
		fmt.Println(f.Line, f.Severity, f.Code)
	}
	// Output:
	// 3 warning group-merge
	// 4 warning missing-colon
}
