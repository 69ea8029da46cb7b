package webbotauth

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dunglas/httpsfv"
)

// RFC 9421's test-key-ed25519 (Appendix B.1.4), as JWK.
const (
	testKeyD = "n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU"
	testKeyX = "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"
)

func testKey(t *testing.T) (ed25519.PrivateKey, ed25519.PublicKey) {
	t.Helper()
	seed, err := base64.RawURLEncoding.DecodeString(testKeyD)
	if err != nil {
		t.Fatal(err)
	}
	priv := ed25519.NewKeyFromSeed(seed)
	pub := priv.Public().(ed25519.PublicKey)
	if got := base64.RawURLEncoding.EncodeToString(pub); got != testKeyX {
		t.Fatalf("public key %s, RFC 9421 gives %s", got, testKeyX)
	}
	return priv, pub
}

// RFC 9421 Appendix B.2.6: the signature base and the signature of the test
// request with test-key-ed25519 (Ed25519 is deterministic, so signing gives the
// RFC's value too).
func TestRFC9421B26(t *testing.T) {
	priv, pub := testKey(t)
	m := Message{Method: "POST", Scheme: "https", Authority: "example.com", Path: "/foo?param=Value&Pet=dog",
		Header: http.Header{
			"Date":           {"Tue, 20 Apr 2021 02:07:55 GMT"},
			"Content-Type":   {"application/json"},
			"Content-Length": {"18"},
		}}
	in, err := httpsfv.UnmarshalDictionary([]string{`sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"`})
	if err != nil {
		t.Fatal(err)
	}
	member, _ := in.Get("sig-b26")
	base, _, err := signatureBase(m, member.(httpsfv.InnerList))
	if err != nil {
		t.Fatal(err)
	}
	want := `"date": Tue, 20 Apr 2021 02:07:55 GMT
"@method": POST
"@path": /foo
"@authority": example.com
"content-type": application/json
"content-length": 18
"@signature-params": ("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"`
	if string(base) != want {
		t.Fatalf("signature base:\n%s\nwant:\n%s", base, want)
	}
	const sigB64 = "wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw=="
	sig, _ := base64.StdEncoding.DecodeString(sigB64)
	if !ed25519.Verify(pub, base, sig) {
		t.Error("the RFC's signature does not verify")
	}
	if got := base64.StdEncoding.EncodeToString(ed25519.Sign(priv, base)); got != sigB64 {
		t.Errorf("signing gives %s, the RFC %s", got, sigB64)
	}
}

type vector struct {
	Key struct {
		X string `json:"x"`
	} `json:"key"`
	TargetURL      string `json:"target_url"`
	Label          string `json:"label"`
	Signature      string `json:"signature"`
	SignatureInput string `json:"signature_input"`
	SignatureAgent string `json:"signature_agent"`
	CreatedMS      int64  `json:"created_ms"`
	ExpiresMS      int64  `json:"expires_ms"`
}

func vectors(t *testing.T) []vector {
	b, err := os.ReadFile("testdata/web_bot_auth_architecture_ed25519.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	return vs
}

// The Web Bot Auth test vectors (testdata/README.md): each signature verifies
// with the key, over the target URL; keyid is the key's thumbprint.
func TestVectors(t *testing.T) {
	for _, v := range vectors(t) {
		t.Run(v.Label, func(t *testing.T) {
			x, _ := base64.RawURLEncoding.DecodeString(v.Key.X)
			pub := ed25519.PublicKey(x)
			req := httptest.NewRequest("GET", v.TargetURL, nil)
			req.Header.Set("Signature-Input", v.SignatureInput)
			req.Header.Set("Signature", v.Signature)
			if v.SignatureAgent != "" {
				req.Header.Set("Signature-Agent", v.SignatureAgent)
			}
			sigs, err := Parse(MessageOf(req))
			if err != nil || len(sigs) != 1 {
				t.Fatalf("Parse: %v, %d signatures", err, len(sigs))
			}
			s := sigs[0]
			if s.KeyID != Thumbprint(pub) {
				t.Errorf("keyid %s, thumbprint %s", s.KeyID, Thumbprint(pub))
			}
			if s.Created.UnixMilli() != v.CreatedMS || s.Expires.UnixMilli() != v.ExpiresMS {
				t.Errorf("created %v, expires %v", s.Created, s.Expires)
			}
			if v.SignatureAgent == "" {
				// It covers @authority alone: the signature verifies, but names no agent.
				if s.Err == nil || !strings.Contains(s.Err.Error(), "Signature-Agent") {
					t.Errorf("Err = %v, want one saying no Signature-Agent is covered", s.Err)
				}
				in, _ := httpsfv.UnmarshalDictionary([]string{v.SignatureInput})
				member, _ := in.Get(v.Label)
				base, _, err := signatureBase(MessageOf(req), member.(httpsfv.InnerList))
				sig, _ := httpsfv.UnmarshalDictionary([]string{v.Signature})
				raw, _ := sig.Get(v.Label)
				if err != nil || !ed25519.Verify(pub, base, raw.(httpsfv.Item).Value.([]byte)) {
					t.Errorf("signature does not verify: %v", err)
				}
				return
			}
			if s.Err != nil || s.Agent != "https://signature-agent.test" {
				t.Fatalf("Err %v, agent %q", s.Err, s.Agent)
			}
			if !s.Verify(pub) {
				t.Error("signature does not verify")
			}
			// Another authority breaks it.
			req.Host = "example.org"
			sigs, _ = Parse(MessageOf(req))
			if sigs[0].Verify(pub) {
				t.Error("verifies for another authority")
			}
		})
	}
}

// A Signer's signature verifies with its key, covers the Signature-Agent member,
// and breaks when the request changes.
func TestSignRoundTrip(t *testing.T) {
	priv, pub := testKey(t)
	now := time.Unix(1764331200, 0)
	s := &Signer{Key: priv, Agent: "https://Bot.Example:443/", Now: func() time.Time { return now }}
	req, _ := http.NewRequest("GET", "https://site.example/a/b?c=d", nil)
	if err := s.Sign(req); err != nil {
		t.Fatal(err)
	}
	if got := req.Header.Get("Signature-Agent"); got != `sig1="https://bot.example"` {
		t.Errorf("Signature-Agent %s", got)
	}
	sigs, err := Parse(MessageOf(req))
	if err != nil || len(sigs) != 1 {
		t.Fatalf("Parse: %v %d", err, len(sigs))
	}
	g := sigs[0]
	want := []string{`"@authority"`, `"@method"`, `"@path"`, `"signature-agent";key="sig1"`}
	if strings.Join(g.Components, " ") != strings.Join(want, " ") || g.Agent != "https://bot.example" || g.Alg != "ed25519" ||
		!g.Created.Equal(now) || !g.Expires.Equal(now.Add(DefaultLifetime)) || g.KeyID != Thumbprint(pub) || g.Nonce == "" {
		t.Errorf("parsed %+v", g)
	}
	if !g.Verify(pub) {
		t.Fatal("own signature does not verify")
	}
	other, _, _ := ed25519.GenerateKey(nil)
	if g.Verify(other) {
		t.Error("verifies with another key")
	}
	for name, change := range map[string]func(r *http.Request){
		"path":   func(r *http.Request) { r.URL.Path = "/a/c" },
		"method": func(r *http.Request) { r.Method = "POST" },
		"agent":  func(r *http.Request) { r.Header.Set("Signature-Agent", `sig1="https://evil.example"`) },
	} {
		r := req.Clone(req.Context())
		change(r)
		sigs, _ := Parse(MessageOf(r))
		if len(sigs) == 1 && sigs[0].Verify(pub) {
			t.Errorf("still verifies after changing the %s", name)
		}
	}
	// A query is not covered by @path: the signature survives a changed query.
	r := req.Clone(req.Context())
	r.URL.RawQuery = "c=e"
	if sigs, _ := Parse(MessageOf(r)); !sigs[0].Verify(pub) {
		t.Error("a changed query broke a signature over @path")
	}
}

func TestSignerErrors(t *testing.T) {
	priv, _ := testKey(t)
	req, _ := http.NewRequest("GET", "https://site.example/", nil)
	for _, s := range []*Signer{{Agent: "https://bot.example"}, {Key: priv, Agent: "http://bot.example"}, {Key: priv, Agent: "https://bot.example/keys"}, {Key: priv, Agent: "https://bot.example", Components: []string{"x-missing"}}} {
		if err := s.Sign(req); err == nil {
			t.Errorf("%+v signed", s)
		}
	}
}

func TestDirectory(t *testing.T) {
	_, pub := testKey(t)
	// The thumbprint of RFC 9421's key, as the Web Bot Auth vectors give it.
	if got := Thumbprint(pub); got != "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U" {
		t.Errorf("Thumbprint = %s", got)
	}
	srv := httptest.NewServer(DirectoryHandler(pub))
	defer srv.Close()
	resp, err := http.Get(srv.URL + WellKnownPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != MediaType {
		t.Errorf("Content-Type %s", ct)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	d, err := ParseDirectory(body)
	if err != nil {
		t.Fatal(err)
	}
	if k := d.Keys[Thumbprint(pub)]; !k.Equal(pub) || len(d.Keys) != 1 {
		t.Errorf("directory %+v", d)
	}
	tests := []struct{ name, in, want string }{
		{"not json", `{`, "unexpected end"},
		{"no keys", `{"keys": []}`, "no Ed25519 key"},
		{"rsa only", `{"keys": [{"kty": "RSA", "n": "AQAB", "e": "AQAB"}]}`, "1 skipped"},
		{"short x", `{"keys": [{"kty": "OKP", "crv": "Ed25519", "x": "AAAA"}]}`, "keys[0]: x is not"},
		{"kid not thumbprint", `{"keys": [{"kty": "OKP", "crv": "Ed25519", "kid": "mine", "x": "` + testKeyX + `"}]}`, "1 skipped"},
	}
	for _, tt := range tests {
		if _, err := ParseDirectory([]byte(tt.in)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

// Malformed fields give an error or a signature with Err, never a panic.
func FuzzParse(f *testing.F) {
	for _, v := range []string{`sig1=("@authority" "signature-agent";key="sig1");created=1;expires=2;keyid="k";tag="web-bot-auth"`, `sig1=("@query-param";name="a");tag="web-bot-auth"`} {
		f.Add(v, `sig1=:AAAA:`, `sig1="https://a.example"`)
	}
	f.Fuzz(func(t *testing.T, in, sig, agent string) {
		h := http.Header{"Signature-Input": {in}, "Signature": {sig}, "Signature-Agent": {agent}}
		sigs, err := Parse(Message{Method: "GET", Scheme: "https", Authority: "a.example", Path: "/", Header: h})
		if err == nil {
			for _, s := range sigs {
				s.Verify(make(ed25519.PublicKey, ed25519.PublicKeySize))
			}
		}
	})
}
