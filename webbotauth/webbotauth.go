// Package webbotauth signs HTTP requests and checks their signatures the way Web
// Bot Auth asks: RFC 9421 HTTP Message Signatures with Ed25519, the
// Signature-Agent field naming where the signer's keys are published, and the key
// directory (a JSON Web Key Set) at /.well-known/http-message-signatures-directory,
// as draft-ietf-webbotauth-httpsig-protocol defines them.
//
// A crawler signs with a [Signer] (package fetch's Transport has one) and serves
// its public keys with [DirectoryHandler]. A site reads a request's signatures with
// [Parse] and checks each against the key its directory gives ([ParseDirectory]);
// package verify does both, with the directory fetched and cached.
//
// Only Ed25519 ("ed25519", RFC 9421 §3.3.6) is supported: it is what the drafts'
// examples and the signing crawlers use. A signature with another alg, or covering
// a component this package does not derive (@query-param, the sf and bs
// parameters, trailers, a response), is returned with Err set and never verifies.
package webbotauth

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Tag is the tag parameter a Web Bot Auth signature carries.
const Tag = "web-bot-auth"

// WellKnownPath is where a Signature-Agent of type directory publishes its keys.
const WellKnownPath = "/.well-known/http-message-signatures-directory"

// MediaType is the media type of a key directory served at WellKnownPath.
const MediaType = "application/http-message-signatures-directory+json"

// Thumbprint returns the JWK SHA-256 thumbprint of an Ed25519 public key (RFC 7638,
// RFC 8037 Appendix A.3), base64url without padding: the keyid Web Bot Auth
// signatures name the key by.
func Thumbprint(pub ed25519.PublicKey) string {
	// The members in lexicographic order, no spaces: RFC 7638 §3.2.
	h := sha256.Sum256([]byte(`{"crv":"Ed25519","kty":"OKP","x":"` + base64.RawURLEncoding.EncodeToString(pub) + `"}`))
	return base64.RawURLEncoding.EncodeToString(h[:])
}

// jwk is one key of a directory, as JSON Web Key (RFC 7517, RFC 8037).
type jwk struct {
	Kty string `json:"kty"`
	Crv string `json:"crv"`
	X   string `json:"x"`
	Kid string `json:"kid,omitempty"`
	Use string `json:"use,omitempty"`
	Alg string `json:"alg,omitempty"`
	Nbf int64  `json:"nbf,omitempty"`
	Exp int64  `json:"exp,omitempty"`
}

// Directory is a key directory read by ParseDirectory: its Ed25519 keys by
// thumbprint.
type Directory struct {
	Keys map[string]ed25519.PublicKey
	// Skipped counts the keys left out: another key type or curve (RSA-PSS, ECDSA),
	// or a kid that is not the key's thumbprint.
	Skipped int
}

// MaxDirectoryKeys bounds the keys ParseDirectory reads.
const MaxDirectoryKeys = 256

// ParseDirectory reads a key directory, a JSON Web Key Set ({"keys": [...]}). A
// key's kid, when present, must be its thumbprint (the draft asks for that); keys
// are indexed by the thumbprint computed here, never by what the file says. A
// malformed Ed25519 key is an error naming it; a directory with no Ed25519 key is
// an error too.
func ParseDirectory(b []byte) (*Directory, error) {
	var doc struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("key directory: %w", err)
	}
	if len(doc.Keys) > MaxDirectoryKeys {
		return nil, fmt.Errorf("key directory: %d keys, more than %d", len(doc.Keys), MaxDirectoryKeys)
	}
	d := &Directory{Keys: map[string]ed25519.PublicKey{}}
	for i, raw := range doc.Keys {
		var k jwk
		if err := json.Unmarshal(raw, &k); err != nil {
			return nil, fmt.Errorf("key directory: keys[%d]: %w", i, err)
		}
		if k.Kty != "OKP" || k.Crv != "Ed25519" {
			d.Skipped++
			continue
		}
		x, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(k.X, "="))
		if err != nil || len(x) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("key directory: keys[%d]: x is not a base64url Ed25519 public key", i)
		}
		pub := ed25519.PublicKey(x)
		tp := Thumbprint(pub)
		if k.Kid != "" && k.Kid != tp {
			d.Skipped++
			continue
		}
		d.Keys[tp] = pub
	}
	if len(d.Keys) == 0 {
		return nil, fmt.Errorf("key directory: no Ed25519 key (%d skipped)", d.Skipped)
	}
	return d, nil
}

// MarshalDirectory writes the key directory of keys, each with its thumbprint as
// kid.
func MarshalDirectory(keys ...ed25519.PublicKey) []byte {
	doc := struct {
		Keys []jwk `json:"keys"`
	}{Keys: []jwk{}}
	for _, k := range keys {
		doc.Keys = append(doc.Keys, jwk{Kty: "OKP", Crv: "Ed25519", X: base64.RawURLEncoding.EncodeToString(k), Kid: Thumbprint(k), Use: "sig"})
	}
	b, _ := json.Marshal(doc)
	return b
}

// AgentOrigin returns the origin a Signature-Agent of type directory names, in
// the form compared (host lower-case, no default port, no path): the draft
// requires an https origin; another scheme, or a path other than "/", is an error.
func AgentOrigin(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("Signature-Agent %q: %w", raw, err)
	}
	switch {
	case !strings.EqualFold(u.Scheme, "https"):
		return "", fmt.Errorf("Signature-Agent %q: not an https origin", raw)
	case u.Host == "" || u.User != nil:
		return "", fmt.Errorf("Signature-Agent %q: no host", raw)
	case u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.Fragment != "":
		return "", fmt.Errorf("Signature-Agent %q: an origin has no path, query or fragment", raw)
	}
	return "https://" + strings.TrimSuffix(strings.ToLower(u.Host), ":443"), nil
}

// DirectoryURL returns the URL of the key directory of a Signature-Agent origin.
func DirectoryURL(agent string) (string, error) {
	o, err := AgentOrigin(agent)
	if err != nil {
		return "", err
	}
	return o + WellKnownPath, nil
}

var errUnsupported = errors.New("unsupported")
