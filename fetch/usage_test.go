package fetch_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
)

// usageSite is a site that states usage preferences both ways: in robots.txt and in
// the Content-Usage and Content-Signal headers of some pages.
const usageSiteRobots = `User-agent: *
Disallow: /private/
Content-Usage: train-ai=n, search=y
Content-Usage: /blog/ train-ai=y
Content-Signal: search=yes, ai-train=no

User-agent: OtherBot
Content-Usage: train-ai=y
`

func usageSite(t *testing.T) string {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, usageSiteRobots)
			return
		case "/blog/no-training":
			w.Header().Add("Content-Usage", "train-ai=n")
		case "/blog/also-search":
			w.Header().Add("Content-Usage", "search=y")
			w.Header().Add("Content-Signal", "ai-input=no")
		case "/moved":
			http.Redirect(w, r, "/blog/no-training", http.StatusFound)
			return
		}
		io.WriteString(w, "page")
	})
	return srv.URL
}

// TestTransportUsage: a crawler using Transport gets, for each response, the
// robots.txt lines that apply combined most restrictively with the response's own
// header, in one call.
func TestTransportUsage(t *testing.T) {
	base := usageSite(t)
	tests := []struct {
		agent, path string
		usage       string // train-ai and search, each with what stated it
		signal      string // search, ai-input and ai-train
	}{
		{agent, "/about", "train-ai=disallowed@3 ai-use=unknown search=allowed@3", "search=allowed@5 ai-input=unknown ai-train=disallowed@5"},
		{agent, "/blog/post", "train-ai=allowed@4 ai-use=unknown search=unknown", "search=allowed@5 ai-input=unknown ai-train=disallowed@5"},
		// The header disallows what robots.txt allows: the header decides.
		{agent, "/blog/no-training", "train-ai=disallowed+header ai-use=unknown search=unknown", "search=allowed@5 ai-input=unknown ai-train=disallowed@5"},
		{agent, "/moved", "train-ai=disallowed+header ai-use=unknown search=unknown", "search=allowed@5 ai-input=unknown ai-train=disallowed@5"},
		{agent, "/blog/also-search", "train-ai=allowed@4 ai-use=unknown search=allowed+header", "search=allowed@5 ai-input=disallowed+header ai-train=disallowed@5"},
		{"OtherBot", "/about", "train-ai=allowed@8 ai-use=unknown search=unknown", "search=unknown ai-input=unknown ai-train=unknown"},
		{"OtherBot", "/blog/no-training", "train-ai=disallowed+header ai-use=unknown search=unknown", "search=unknown ai-input=unknown ai-train=unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.agent+" "+tt.path, func(t *testing.T) {
			tr := &fetch.Transport{Client: newClient(t, fetch.Config{}), Agent: tt.agent + "/1.0"}
			resp, err := (&http.Client{Transport: tr}).Get(base + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			u, err := tr.Usage(resp)
			if err != nil {
				t.Fatal(err)
			}
			if got := describe(u.ContentUsage); got != tt.usage || !u.Fetchable {
				t.Errorf("Content-Usage %s (fetchable %v), want %s", got, u.Fetchable, tt.usage)
			}
			if got := describe(u.ContentSignal); got != tt.signal {
				t.Errorf("Content-Signal %s, want %s", got, tt.signal)
			}
		})
	}
}

// TestResultUsage: a result whose effect is not its rules states no preference, and
// under DisallowAll the crawler may fetch nothing.
func TestResultUsage(t *testing.T) {
	for _, tt := range []struct {
		effect    fetch.Effect
		fetchable bool
	}{{fetch.AllowAll, true}, {fetch.DisallowAll, false}} {
		u := (&fetch.Result{Effect: tt.effect}).Usage(agent, "https://example.com/")
		if u.Fetchable != tt.fetchable || describe(u.ContentUsage) != "train-ai=unknown ai-use=unknown search=unknown" {
			t.Errorf("%v: %+v", tt.effect, u)
		}
	}
	body := "User-agent: *\nContent-Usage: train-ai=n\n"
	u := (&fetch.Result{Effect: fetch.ObeyRules, Body: body}).Usage(agent, "https://example.com/")
	if got := describe(u.ContentUsage); got != "train-ai=disallowed@2 ai-use=unknown search=unknown" {
		t.Errorf("from a stored body: %s", got)
	}
}

func describe(st []robots.Stated) string {
	var w []string
	for _, s := range st {
		v := s.Label + "=" + s.Preference.String()
		if s.Line > 0 {
			v += fmt.Sprintf("@%d", s.Line)
		}
		if s.Header {
			v += "+header"
		}
		w = append(w, v)
	}
	return strings.Join(w, " ")
}
