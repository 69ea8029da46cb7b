package serve

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestBatchOnePass: a batch whose origins are all held is answered in one pass over
// its URLs (each origin encoded and each URL decided as it is grouped); one with an
// origin to look up is answered in passes (answerSlow). Both must give the same
// bytes. The first answer to each body below is made in passes, as its origins are
// new; the second in one pass, as every origin is held by then.
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
	for _, tc := range []struct {
		name string
		req  map[string]any
	}{
		{"one crawler", map[string]any{"agent": "Googlebot", "urls": urls}},
		{"several crawlers", map[string]any{"agents": []string{"Googlebot", "Bingbot", "Unknownbot"}, "urls": urls}},
		{"merged crawlers", map[string]any{"agents": []string{"Bingbot", "Googlebot"}, "merge_agents": true, "urls": urls}},
		{"another dialect", map[string]any{"agent": "Googlebot", "dialect": "rfc9309", "urls": urls}},
		{"one URL", map[string]any{"agent": "Googlebot", "urls": urls[:1]}},
		{"only bad URLs", map[string]any{"agent": "Googlebot", "urls": []string{"not a url", ""}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := start(t, Config{AllowPrivate: true})
			body, _ := json.Marshal(tc.req)
			post := func() []byte {
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
			inPasses, inOnePass := post(), post()
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
