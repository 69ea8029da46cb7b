package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

// FetchAs sends the header it is given, reads the answer for that header, and
// leaves the cache alone: a site that serves GPTBot its own file and refuses the
// rest is seen both ways by one client.
func TestFetchAs(t *testing.T) {
	const gpt = "Mozilla/5.0 (compatible; GPTBot/1.1)"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("User-Agent") == gpt {
			w.Write([]byte("User-agent: GPTBot\nDisallow: /\n"))
			return
		}
		http.Error(w, "no", http.StatusForbidden)
	}))
	defer srv.Close()
	c := NewClient(Config{UserAgent: "own/1"})
	if c.UserAgent() != "own/1" {
		t.Fatalf("UserAgent() = %q", c.UserAgent())
	}
	ctx := context.Background()
	as, err := c.FetchAs(ctx, gpt, srv.URL)
	if err != nil || as.Status != 200 || as.Allowed("GPTBot", srv.URL+"/x") {
		t.Fatalf("as GPTBot: %+v, %v; want 200 and / disallowed", as, err)
	}
	own, err := c.FetchAs(ctx, "", srv.URL)
	if err != nil || own.Status != 403 || !own.Allowed("GPTBot", srv.URL+"/x") {
		t.Fatalf("own header: %+v, %v; want 403, everything allowed", own, err)
	}
	if _, ok := c.Peek(srv.URL); ok {
		t.Error("FetchAs filled the cache")
	}
}
