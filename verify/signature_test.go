package verify_test

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/verify"
	"github.com/gorobots/robots/webbotauth"
)

// The Web Bot Auth test vector that covers its Signature-Agent verifies a request
// claiming a crawler whose registry entry names that agent's key directory, read
// here from a local file; changed, it is an impostor's.
func TestSignatureVectors(t *testing.T) {
	b, err := os.ReadFile("testdata/web_bot_auth_architecture_ed25519.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []struct {
		TargetURL      string `json:"target_url"`
		Signature      string `json:"signature"`
		SignatureInput string `json:"signature_input"`
		SignatureAgent string `json:"signature_agent"`
	}
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	v, err := verify.New(verify.Options{
		Crawlers: []crawlers.Crawler{{Name: "ExampleBot", Verify: crawlers.Verification{KeyDirectory: "https://signature-agent.test"}}},
		Lists:    map[string]string{"https://signature-agent.test": "testdata/signature-agent.test.json"},
		Offline:  true,
		Now:      func() time.Time { return time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC) },
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, vec := range vs {
		h := http.Header{"Signature": {vec.Signature}, "Signature-Input": {vec.SignatureInput}}
		if vec.SignatureAgent != "" {
			h.Set("Signature-Agent", vec.SignatureAgent)
		}
		req := verify.Request{Addr: netip.MustParseAddr("192.0.2.1"), UserAgent: "ExampleBot/1.0", Header: h,
			Method: "GET", Scheme: "https", Authority: "example.com", Path: "/path/to/resource"}
		got := v.Verify(context.Background(), req)
		if vec.SignatureAgent == "" {
			// Covers no Signature-Agent: nothing says whose key it is.
			if got.Status != verify.CannotTell || !strings.Contains(got.Detail, "Signature-Agent") {
				t.Errorf("vector without Signature-Agent: %+v", got)
			}
			continue
		}
		if got.Status != verify.Verified || got.Method != verify.MethodSignature {
			t.Errorf("vector: %+v", got)
		}
		req.Authority = "example.org"
		if got := v.Verify(context.Background(), req); got.Status != verify.Impostor {
			t.Errorf("vector for another authority: %+v", got)
		}
		// The same signature claimed for another agent speaks for that agent only.
		h2 := h.Clone()
		h2.Set("Signature-Agent", `agent2="https://other.example"`)
		req.Header, req.Authority = h2, "example.com"
		if got := v.Verify(context.Background(), req); got.Status != verify.CannotTell {
			t.Errorf("vector with another agent: %+v", got)
		}
	}
}

// A key directory that redirects is a discovery failure (the draft): not
// followed, so the crawler cannot be told.
func TestKeyDirectoryRedirect(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/elsewhere", http.StatusFound)
	}))
	defer srv.Close()
	v, err := verify.New(verify.Options{
		Crawlers:   []crawlers.Crawler{{Name: "ExampleBot", Verify: crawlers.Verification{KeyDirectory: srv.URL}}},
		HTTPClient: srv.Client(),
	})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", "https://site.example/", nil)
	priv := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	if err := (&webbotauth.Signer{Key: priv, Agent: srv.URL}).Sign(req); err != nil {
		t.Fatal(err)
	}
	r := verify.FromHTTP(req)
	r.UserAgent = "ExampleBot/1"
	got := v.Verify(context.Background(), r)
	if got.Status != verify.CannotTell || !strings.Contains(got.Detail, "302") {
		t.Errorf("got %+v, want cannot-tell naming the 302", got)
	}
}

// An agent that sends a browser's User-Agent (as ChatGPT agent does) is named by
// the Signature-Agent its verified signature covers; unverified, it is nobody.
func TestSignedBrowserUserAgent(t *testing.T) {
	b, err := os.ReadFile("testdata/web_bot_auth_architecture_ed25519.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []struct {
		Signature      string `json:"signature"`
		SignatureInput string `json:"signature_input"`
		SignatureAgent string `json:"signature_agent"`
	}
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	vec := vs[1] // the one covering its Signature-Agent
	v, err := verify.New(verify.Options{
		Crawlers: []crawlers.Crawler{{Name: "ExampleAgent", Verify: crawlers.Verification{KeyDirectory: "https://signature-agent.test"}}},
		Lists:    map[string]string{"https://signature-agent.test": "testdata/signature-agent.test.json"},
		Offline:  true,
		Now:      func() time.Time { return time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC) },
	})
	if err != nil {
		t.Fatal(err)
	}
	h := http.Header{"Signature": {vec.Signature}, "Signature-Input": {vec.SignatureInput}, "Signature-Agent": {vec.SignatureAgent}}
	req := verify.Request{Addr: netip.MustParseAddr("192.0.2.1"), Header: h, Method: "GET", Scheme: "https", Authority: "example.com",
		UserAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"}
	if got := v.Verify(context.Background(), req); got.Crawler != "ExampleAgent" || got.Status != verify.Verified || got.Method != verify.MethodSignature {
		t.Errorf("signed browser UA: %+v", got)
	}
	req.Authority = "example.org"
	if got := v.Verify(context.Background(), req); got.Crawler != "" || got.Status != verify.CannotTell {
		t.Errorf("signature that does not verify: %+v", got)
	}
}

// A caller that gives only the header (a log without the request line) cannot
// check a signature over @method, @path or @authority: cannot-tell, never an
// impostor; given them, the same signature verifies.
func TestSignatureWithoutRequestLine(t *testing.T) {
	priv := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	dir := httptest.NewTLSServer(webbotauth.DirectoryHandler(priv.Public().(ed25519.PublicKey)))
	defer dir.Close()
	v, err := verify.New(verify.Options{
		Crawlers:   []crawlers.Crawler{{Name: "ExampleBot", Verify: crawlers.Verification{KeyDirectory: dir.URL}}},
		HTTPClient: dir.Client(),
	})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", "https://site.example/a?b=c", nil)
	req.Header.Set("User-Agent", "ExampleBot/1.0")
	if err := (&webbotauth.Signer{Key: priv, Agent: dir.URL}).Sign(req); err != nil {
		t.Fatal(err)
	}
	headerOnly := verify.Request{Addr: netip.MustParseAddr("192.0.2.1"), UserAgent: "ExampleBot/1.0", Header: req.Header.Clone()}
	headerOnly.Header.Del("Host")
	if got := v.Verify(context.Background(), headerOnly); got.Status != verify.CannotTell || !strings.Contains(got.Detail, "is not known") {
		t.Errorf("header only: %+v", got)
	}
	full := headerOnly
	full.Method, full.Scheme, full.Authority, full.Path = "POST", "https", "site.example", "/a?b=c"
	if got := v.Verify(context.Background(), full); got.Status != verify.Verified {
		t.Errorf("with the request line: %+v", got)
	}
}
