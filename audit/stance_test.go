package audit

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/gorobots/robots/internal/testenv"
	"github.com/gorobots/robots/signals"
)

// aiSite states its stance on AI use every way there is: robots.txt with
// Content-Usage, Content-Signal and an RSL License line, the licence (ai-train for a
// payment, search free), tdmrep.json (TDM reserved under /blog/), and pages with
// X-Robots-Tag headers and robots meta tags.
func aiSite(t *testing.T) string {
	var base string
	srv := testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte("User-agent: *\nAllow: /\nDisallow: /private/\nContent-Usage: train-ai=n, search=y\nContent-Signal: ai-input=yes\n\nUser-agent: Googlebot\nAllow: /\n\nLicense: " + base + "/license.xml\nSitemap: " + base + "/sitemap.xml\n"))
		case "/license.xml":
			w.Header().Set("Content-Type", "application/rsl+xml")
			w.Write([]byte(`<rsl xmlns="https://rslstandard.org/rsl"><content url="/"><license>
<permits type="usage">ai-train search ai-input</permits><payment type="crawl"><amount currency="USD">0.01</amount></payment>
</license></content></rsl>`))
		case "/.well-known/tdmrep.json":
			w.Write([]byte(`[{"location":"/blog/","tdm-reservation":1}]`))
		case "/sitemap.xml":
			w.Write([]byte(strings.ReplaceAll(set("/blog/post", "/private/draft"), "{A}", base)))
		case "/":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<html><head><title>home</title></head><body>home</body></html>`))
		case "/blog/post":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<html><head><meta name="robots" content="nosnippet"></head><body>post</body></html>`))
		case "/private/draft":
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("X-Robots-Tag", "noindex")
			w.Write([]byte(`<html><head></head><body>draft</body></html>`))
		default:
			http.NotFound(w, r)
		}
	})
	base = srv.URL
	return base
}

func stanceOf(rep *Report, p signals.Purpose, url, agent string) *Stance {
	for i, s := range rep.Stance {
		if s.Purpose == p && s.URL == url {
			for _, a := range s.Agents {
				if a == agent {
					return &rep.Stance[i]
				}
			}
		}
	}
	return nil
}

// TestStance: the loopback site audited into one answer per purpose, with its
// contradictions.
func TestStance(t *testing.T) {
	base := aiSite(t)
	rep, err := Run(context.Background(), base, Config{Agents: []string{"Googlebot", "Bingbot", "GPTBot", "OAI-SearchBot", "ChatGPT-User"}, Pages: 3})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		purpose  signals.Purpose
		path     string
		agent    string
		verdict  signals.Verdict
		contains []string // in the contradictions, in order
	}{
		// GPTBot may fetch /blog/post; Content-Usage says train-ai=n; the licence
		// permits ai-train for payment; TDM is reserved there.
		{signals.AITrain, "/blog/post", "GPTBot", signals.Disallowed, []string{"Content-Usage says train-ai=n (line 4); RSL says the licence " + base + "/license.xml permits ai-train (payment: crawl 0.01 USD)", "TDMRep says text and data mining reserved"}},
		// At the root: no TDM rule, the same tension between Content-Usage and RSL.
		{signals.AITrain, "/", "GPTBot", signals.Disallowed, []string{"Content-Usage says train-ai=n"}},
		// Search: Googlebot's own group has no usage line; the licence permits search for payment.
		{signals.Search, "/", "Googlebot", signals.Licensed, nil},
		// The noindex of /private/draft is never seen by the crawlers robots.txt keeps out.
		{signals.Search, "/private/draft", "Bingbot", signals.Blocked, []string{"Indexed, though blocked by robots.txt"}},
		// AI input at /blog/post: Content-Signal ai-input=yes against the page's nosnippet and the TDM reservation.
		{signals.AIInput, "/blog/post", "OAI-SearchBot", signals.Disallowed, []string{"TDMRep says text and data mining reserved", "the page's robots rule says nosnippet"}},
		{signals.AIUser, "/", "ChatGPT-User", signals.Licensed, nil},
	}
	for _, tt := range tests {
		s := stanceOf(rep, tt.purpose, base+tt.path, tt.agent)
		if s == nil {
			t.Errorf("%s %s %s: no answer in %+v", tt.purpose, tt.path, tt.agent, rep.Stance)
			continue
		}
		if s.Verdict != tt.verdict || !s.Fetched {
			t.Errorf("%s %s %s: %s (fetched %v), want %s; signals %+v", tt.purpose, tt.path, tt.agent, s.Verdict, s.Fetched, tt.verdict, s.Signals)
		}
		all := strings.Join(s.Contradictions, "\n")
		for _, c := range tt.contains {
			if !strings.Contains(all, c) {
				t.Errorf("%s %s %s: contradictions %q lack %q", tt.purpose, tt.path, tt.agent, s.Contradictions, c)
			}
		}
		if len(tt.contains) == 0 && tt.verdict != signals.Blocked && len(s.Contradictions) != 0 {
			t.Errorf("%s %s %s: contradictions %q, want none", tt.purpose, tt.path, tt.agent, s.Contradictions)
		}
	}
	// The classic mistake, for Googlebot, whose group lets it fetch /private/draft: the
	// noindex is seen; for GPTBot, robots.txt hides it.
	if s := stanceOf(rep, signals.Search, base+"/private/draft", "Googlebot"); s == nil || s.Verdict != signals.Disallowed {
		t.Errorf("Googlebot /private/draft: %+v", s)
	}
}
