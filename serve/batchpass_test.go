package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestBatchOnePass: a batch whose origins are all held is answered in one pass over
// its URLs, a chunk at a time (each origin encoded and each URL decided as it is
// grouped); at an origin to look up, the origins left are looked up together and the
// rest answered (lookupRest). Both must give the same bytes. The first answer to
// each body below stops at its first origin not held (the first URL's, or one after
// the first chunk when warm holds the others); the second is made in one pass, as
// every origin is held by then.
func TestBatchOnePass(t *testing.T) {
	rules := newOrigin(t, 200, "User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n\nUser-agent: Bingbot\nAllow: /\nDisallow: /b/\n")
	other := newOrigin(t, 200, "User-agent: googlebot\nDisallow: /x\nUser-agent: *\nDisallow: /\n")
	missing := newOrigin(t, 404, "not found")
	down := newOrigin(t, 503, "down")
	urls := []string{
		rules.URL + "/a", down.URL + "/a", missing.URL + "/private/a", rules.URL + "/private/b",
		"not a url", other.URL + "/x/y", down.URL + "/b", missing.URL + "/c", rules.URL + "/b/c",
		rules.URL + "/private/a b", // encoded: answered with its "input"
		other.URL + "/y", "", rules.URL + "/b/",
	}
	var long []string // two chunks and more of held origins, then new ones
	for i := range 40 {
		long = append(long, fmt.Sprintf("%s/p%d", []string{rules.URL, other.URL}[i%2], i))
	}
	long = append(long, missing.URL+"/a", rules.URL+"/b/x", down.URL+"/a", other.URL+"/z")
	for _, tc := range []struct {
		name string
		req  map[string]any
		warm []string // URLs asked about first, so that their origins are held
	}{
		{"one crawler", map[string]any{"agent": "Googlebot", "urls": urls}, nil},
		{"several crawlers", map[string]any{"agents": []string{"Googlebot", "Bingbot", "Unknownbot"}, "urls": urls}, nil},
		{"merged crawlers", map[string]any{"agents": []string{"Bingbot", "Googlebot"}, "merge_agents": true, "urls": urls}, nil},
		{"another dialect", map[string]any{"agent": "Googlebot", "dialect": "rfc9309", "urls": urls}, nil},
		{"one URL", map[string]any{"agent": "Googlebot", "urls": urls[:1]}, nil},
		{"only bad URLs", map[string]any{"agent": "Googlebot", "urls": []string{"not a url", ""}}, nil},
		{"new origins after the first chunk", map[string]any{"agent": "Googlebot", "urls": long}, []string{rules.URL, other.URL}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := start(t, Config{AllowPrivate: true})
			post := func(body []byte) []byte {
				t.Helper()
				resp, err := http.Post("http://"+s.Addr()+"/v1/check", "application/json", bytes.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				b, err := io.ReadAll(resp.Body)
				if err != nil || resp.StatusCode != 200 {
					t.Fatalf("status %d, %v: %s", resp.StatusCode, err, b)
				}
				return b
			}
			if tc.warm != nil {
				warm, _ := json.Marshal(map[string]any{"agent": "Googlebot", "urls": tc.warm})
				post(warm)
			}
			body, _ := json.Marshal(tc.req)
			inPasses, inOnePass := post(body), post(body)
			if !bytes.Equal(inPasses, inOnePass) {
				t.Errorf("answers differ:\nin passes   %s\nin one pass %s", inPasses, inOnePass)
			}
			var ans batchAnswer
			if err := json.Unmarshal(inOnePass, &ans); err != nil {
				t.Fatal(err)
			}
			ans.resolve(t)
			agents := 1
			if a, ok := tc.req["agents"].([]string); ok && tc.req["merge_agents"] == nil {
				agents = len(a)
			}
			var want int
			for _, u := range tc.req["urls"].([]string) {
				if strings.HasPrefix(u, "http") {
					want += agents
				} else {
					want++ // one error, whatever the crawlers
				}
			}
			if len(ans.Results) != want {
				t.Errorf("%d results, want %d", len(ans.Results), want)
			}
		})
	}
}
