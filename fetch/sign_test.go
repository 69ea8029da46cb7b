package fetch_test

import (
	"context"
	"crypto/ed25519"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/verify"
	"github.com/gorobots/robots/webbotauth"
)

// TestTransportSigns: a crawler signs with Transport.Signer and serves its key
// directory; a site verifies every request with package verify, fetching the
// directory over HTTPS on loopback. A request signed with another key, and one
// not signed, are not verified.
func TestTransportSigns(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := httptest.NewTLSServer(webbotauth.DirectoryHandler(pub))
	defer dir.Close()

	v, err := verify.New(verify.Options{
		Crawlers:   []crawlers.Crawler{{Name: agent, Verify: crawlers.Verification{KeyDirectory: dir.URL}}},
		HTTPClient: dir.Client(), // trusts the directory's test certificate
	})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	got := map[string]verify.Result{}
	site := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nDisallow: /private\n"))
			return
		}
		res := v.Verify(r.Context(), verify.FromHTTP(r))
		mu.Lock()
		got[r.URL.Path] = res
		mu.Unlock()
		w.Write([]byte("ok"))
	})

	get := func(signer *webbotauth.Signer, path string) {
		t.Helper()
		hc := &http.Client{Transport: &fetch.Transport{Client: newClient(t, fetch.Config{}), Agent: agent + "/1.0", Signer: signer}}
		resp, err := hc.Get(site.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	get(&webbotauth.Signer{Key: priv, Agent: dir.URL}, "/signed")
	_, otherKey, _ := ed25519.GenerateKey(nil)
	get(&webbotauth.Signer{Key: otherKey, Agent: dir.URL}, "/other-key")
	get(nil, "/unsigned")

	mu.Lock()
	defer mu.Unlock()
	if r := got["/signed"]; r.Crawler != agent || r.Status != verify.Verified || r.Method != verify.MethodSignature {
		t.Errorf("signed request: %+v", r)
	}
	// The key is not in the directory: cannot tell (a rotated key looks the same).
	if r := got["/other-key"]; r.Status != verify.CannotTell {
		t.Errorf("request signed with another key: %+v", r)
	}
	if r := got["/unsigned"]; r.Status != verify.CannotTell {
		t.Errorf("unsigned request: %+v", r)
	}

	// A signature by the directory's key over another request does not verify:
	// the crawler's key, a forged signature: an impostor.
	req := httptest.NewRequest("GET", "http://site.example/a", nil)
	req.Header.Set("User-Agent", agent+"/1.0")
	if err := (&webbotauth.Signer{Key: priv, Agent: dir.URL}).Sign(req); err != nil {
		t.Fatal(err)
	}
	r := verify.FromHTTP(req)
	r.Path = "/b"
	if res := v.Verify(context.Background(), r); res.Status != verify.Impostor || res.Method != verify.MethodSignature {
		t.Errorf("replayed on another path: %+v", res)
	}
}
