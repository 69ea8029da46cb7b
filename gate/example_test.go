package gate_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/gorobots/robots/gate"
)

// A Go server behind the gate: GPTBot's own group disallows everything but
// /robots.txt, which always passes; a browser is not judged.
func ExampleGate_Middleware() {
	dir, _ := os.MkdirTemp("", "gate")
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "robots.txt")
	os.WriteFile(file, []byte("User-agent: GPTBot\nDisallow: /\n"), 0o644)

	g, err := gate.New(gate.Config{
		Sites:  []gate.Site{{Host: "example.com", File: file}},
		Policy: gate.Policy{Disallowed: gate.Refuse},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	site := g.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "a page")
	}))
	for _, c := range []struct{ ua, path string }{
		{"Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)", "/blog/post"},
		{"Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)", "/robots.txt"},
		{"Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0", "/blog/post"},
	} {
		r := httptest.NewRequest("GET", "http://example.com"+c.path, nil)
		r.Header.Set("User-Agent", c.ua)
		w := httptest.NewRecorder()
		site.ServeHTTP(w, r)
		fmt.Println(c.path, w.Code, w.Header().Get(gate.HeaderReason))
	}
	// Output:
	// /blog/post 403 disallowed;crawler="GPTBot";identity=cannot-tell;line=2;rule="Disallow: /"
	// /robots.txt 200 robots-txt;crawler="GPTBot";identity=cannot-tell
	// /blog/post 200 not-a-crawler
}

// The decision alone, for anything that sees requests.
func ExampleGate_Decide() {
	dir, _ := os.MkdirTemp("", "gate")
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "robots.txt")
	os.WriteFile(file, []byte("User-agent: *\nDisallow: /private/\nAllow: /private/press\n"), 0o644)
	g, _ := gate.New(gate.Config{Sites: []gate.Site{{Host: "example.com", File: file}}})

	for _, uri := range []string{"/private/a", "/private/press-kit"} {
		d := g.Decide(context.Background(), &gate.Request{Method: "GET", Host: "example.com", URI: uri,
			UserAgent: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"})
		fmt.Println(uri, d.Action(), d.Reason, d.Crawler, d.Rule)
	}
	// Output:
	// /private/a log disallowed bingbot Disallow: /private/
	// /private/press-kit pass allowed bingbot Allow: /private/press
}
