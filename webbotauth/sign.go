package webbotauth

import (
	"cmp"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/dunglas/httpsfv"
)

// DefaultLifetime is how long a signature of a Signer is valid: the draft
// recommends no more than a day; a few minutes bound how long a captured
// signature can be replayed.
const DefaultLifetime = 5 * time.Minute

// Signer signs requests for Web Bot Auth. The zero Label, Lifetime and Now stand
// for "sig1", DefaultLifetime and time.Now. A Signer is safe for concurrent use.
type Signer struct {
	Key ed25519.PrivateKey
	// Agent is the https origin that serves Key's public half at WellKnownPath
	// (DirectoryHandler): it is sent as the Signature-Agent member of Label.
	Agent    string
	Label    string
	Lifetime time.Duration
	// Components are covered besides "@authority" and the Signature-Agent member,
	// which every signature covers; nil means "@method" and "@path", which bind the
	// signature to the request rather than to the whole origin.
	Components []string
	Now        func() time.Time
}

// Sign adds Signature-Agent, Signature-Input and Signature to req, replacing any
// there. It fails when the key or agent is missing or malformed, or a covered
// component is absent from req.
func (s *Signer) Sign(req *http.Request) error {
	if len(s.Key) != ed25519.PrivateKeySize {
		return errors.New("webbotauth: Signer.Key is not an Ed25519 private key")
	}
	agent, err := AgentOrigin(s.Agent)
	if err != nil {
		return fmt.Errorf("webbotauth: %w", err)
	}
	label := cmp.Or(s.Label, "sig1")
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	created := now().Unix()
	expires := created + int64(cmp.Or(s.Lifetime, DefaultLifetime)/time.Second)

	sa := httpsfv.NewDictionary()
	sa.Add(label, httpsfv.NewItem(agent))
	saField, err := httpsfv.Marshal(sa)
	if err != nil {
		return err
	}
	req.Header.Set("Signature-Agent", saField)
	req.Header.Del("Signature-Input")
	req.Header.Del("Signature")

	comps := s.Components
	if comps == nil {
		comps = []string{"@method", "@path"}
	}
	il := httpsfv.InnerList{Params: httpsfv.NewParams()}
	il.Items = append(il.Items, httpsfv.NewItem("@authority"))
	for _, c := range comps {
		if c != "@authority" {
			il.Items = append(il.Items, httpsfv.NewItem(c))
		}
	}
	sigAgent := httpsfv.NewItem("signature-agent")
	sigAgent.Params.Add("key", label)
	il.Items = append(il.Items, sigAgent)
	var nonce [32]byte
	_, _ = rand.Read(nonce[:])
	il.Params.Add("created", created)
	il.Params.Add("expires", expires)
	il.Params.Add("keyid", Thumbprint(s.Key.Public().(ed25519.PublicKey)))
	il.Params.Add("alg", "ed25519")
	il.Params.Add("nonce", base64.StdEncoding.EncodeToString(nonce[:]))
	il.Params.Add("tag", Tag)

	base, _, err := signatureBase(MessageOf(req), il)
	if err != nil {
		return fmt.Errorf("webbotauth: %w", err)
	}
	in := httpsfv.NewDictionary()
	in.Add(label, il)
	inField, err := httpsfv.Marshal(in)
	if err != nil {
		return err
	}
	sig := httpsfv.NewDictionary()
	sig.Add(label, httpsfv.NewItem(ed25519.Sign(s.Key, base)))
	sigField, err := httpsfv.Marshal(sig)
	if err != nil {
		return err
	}
	req.Header.Set("Signature-Input", inField)
	req.Header.Set("Signature", sigField)
	return nil
}

// DirectoryHandler serves the key directory of keys at any path it is mounted on
// (mount it at WellKnownPath of the Signer's Agent), with the draft's media type
// and a day's Cache-Control lifetime; it answers GET and HEAD.
func DirectoryHandler(keys ...ed25519.PublicKey) http.Handler {
	body := MarshalDirectory(keys...)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", MediaType)
		w.Header().Set("Cache-Control", "max-age=86400")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		if r.Method == http.MethodGet {
			_, _ = w.Write(body)
		}
	})
}

// Transport is an http.RoundTripper that signs each request with Signer before
// Base (http.DefaultTransport when nil) sends it. The request is cloned first, as
// a RoundTripper may not change the caller's. A request that cannot be signed is
// not sent.
type Transport struct {
	Signer *Signer
	Base   http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	if err := t.Signer.Sign(r); err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	return base.RoundTrip(r)
}
