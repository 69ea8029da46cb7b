package webbotauth

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/dunglas/httpsfv"
)

// Message is the part of a request a signature can cover.
type Message struct {
	Method    string // "GET"
	Scheme    string // "https"
	Authority string // the Host: "example.com", "example.com:8443"
	Path      string // the request target in origin form: "/a/b?q=1"
	Header    http.Header
}

// MessageOf returns the Message of a request a server received (Scheme from
// r.TLS, Authority from r.Host) or a client is about to send (from r.URL).
func MessageOf(r *http.Request) Message {
	m := Message{Method: r.Method, Authority: r.Host, Header: r.Header}
	if m.Method == "" {
		m.Method = http.MethodGet
	}
	if r.URL != nil {
		m.Path = r.URL.RequestURI()
		if m.Authority == "" {
			m.Authority = r.URL.Host
		}
		m.Scheme = r.URL.Scheme
	}
	if m.Scheme == "" {
		m.Scheme = "http"
		if r.TLS != nil {
			m.Scheme = "https"
		}
	}
	return m
}

// Signature is one Web Bot Auth signature of a message, as Parse reads it.
type Signature struct {
	Label string
	// Agent is the origin of the Signature-Agent member the signature covers
	// (AgentOrigin's form), "" when it covers none: only a covered member may be
	// trusted to say whose key signed.
	Agent            string
	KeyID, Alg       string
	Created, Expires time.Time // zero when absent
	Nonce            string
	Components       []string // the covered components as serialized: "@authority", `"signature-agent";key="sig1"`
	// Err says why the signature cannot be verified (an unsupported alg or
	// component, a covered field the message lacks, no created or expires); nil
	// when Verify can check it.
	Err error

	base []byte
	sig  []byte
}

// Verify reports whether pub made s over the message Parse read. It checks the
// signature alone: the caller checks Created, Expires and which key Agent
// publishes.
func (s *Signature) Verify(pub ed25519.PublicKey) bool {
	return s.Err == nil && len(pub) == ed25519.PublicKeySize && ed25519.Verify(pub, s.base, s.sig)
}

// Base returns the signature base (RFC 9421 §2.5) s was computed over; nil when
// Err is set.
func (s *Signature) Base() []byte { return s.base }

// ErrUnsigned is Parse's error for a message with no Signature-Input.
var ErrUnsigned = errors.New("no Signature-Input field")

// MaxSignatures bounds the signatures Parse reads of one message.
const MaxSignatures = 8

// Parse reads the Web Bot Auth signatures of m: each member of Signature-Input
// whose tag is "web-bot-auth", with its Signature member, its signature base
// built, and the Signature-Agent member it covers. Signatures with other tags are
// left out. An error means the fields themselves do not parse (RFC 9651), or the
// message has none; a signature that cannot be checked has its Err set.
func Parse(m Message) ([]Signature, error) {
	inputs := m.Header.Values("Signature-Input")
	if len(inputs) == 0 {
		return nil, ErrUnsigned
	}
	in, err := httpsfv.UnmarshalDictionary(inputs)
	if err != nil {
		return nil, fmt.Errorf("Signature-Input: %w", err)
	}
	sigs, err := httpsfv.UnmarshalDictionary(m.Header.Values("Signature"))
	if err != nil {
		return nil, fmt.Errorf("Signature: %w", err)
	}
	var out []Signature
	for _, label := range in.Names() {
		member, _ := in.Get(label)
		il, ok := member.(httpsfv.InnerList)
		if !ok {
			return nil, fmt.Errorf("Signature-Input %s: not an inner list", label)
		}
		if tag, _ := il.Params.Get("tag"); tag != Tag {
			continue
		}
		if len(out) == MaxSignatures {
			return nil, fmt.Errorf("more than %d signatures", MaxSignatures)
		}
		s := Signature{Label: label}
		s.Err = s.read(m, il, sigs)
		out = append(out, s)
	}
	return out, nil
}

func (s *Signature) read(m Message, il httpsfv.InnerList, sigs *httpsfv.Dictionary) error {
	p := il.Params
	str := func(name string) string { v, _ := p.Get(name); t, _ := v.(string); return t }
	num := func(name string) time.Time {
		if v, ok := p.Get(name); ok {
			if n, ok := v.(int64); ok {
				return time.Unix(n, 0)
			}
		}
		return time.Time{}
	}
	s.KeyID, s.Alg, s.Nonce = str("keyid"), str("alg"), str("nonce")
	s.Created, s.Expires = num("created"), num("expires")
	for _, it := range il.Items {
		c, err := httpsfv.Marshal(it)
		if err != nil {
			return err
		}
		s.Components = append(s.Components, c)
	}
	member, ok := sigs.Get(s.Label)
	if !ok {
		return fmt.Errorf("no Signature member %s", s.Label)
	}
	item, ok := member.(httpsfv.Item)
	b, isBytes := item.Value.([]byte)
	if !ok || !isBytes {
		return fmt.Errorf("Signature member %s: not a byte sequence", s.Label)
	}
	s.sig = b
	switch {
	case s.Alg != "" && s.Alg != "ed25519":
		return fmt.Errorf("alg %q: %w (only ed25519)", s.Alg, errUnsupported)
	case s.KeyID == "":
		return errors.New("no keyid")
	case s.Created.IsZero() || s.Expires.IsZero():
		return errors.New("created or expires missing (Web Bot Auth requires both)")
	}
	base, agent, err := signatureBase(m, il)
	if err != nil {
		return err
	}
	s.base, s.Agent = base, agent
	if s.Agent == "" {
		return errors.New("covers no Signature-Agent member")
	}
	return nil
}

// signatureBase builds the signature base of RFC 9421 §2.5 for the covered
// components il, and returns the origin of the Signature-Agent member covered.
func signatureBase(m Message, il httpsfv.InnerList) (base []byte, agent string, err error) {
	var b strings.Builder
	for _, it := range il.Items {
		name, ok := it.Value.(string)
		if !ok {
			return nil, "", errors.New("a covered component that is not a string")
		}
		id, _ := httpsfv.Marshal(it)
		v, err := componentValue(m, name, it.Params)
		if err != nil {
			return nil, "", fmt.Errorf("component %s: %w", id, err)
		}
		if name == "signature-agent" {
			if agent, err = agentOf(v); err != nil {
				return nil, "", err
			}
		}
		b.WriteString(id)
		b.WriteString(": ")
		b.WriteString(v)
		b.WriteByte('\n')
	}
	params, err := httpsfv.Marshal(il)
	if err != nil {
		return nil, "", err
	}
	b.WriteString(`"@signature-params": `)
	b.WriteString(params)
	return []byte(b.String()), agent, nil
}

// agentOf reads the covered Signature-Agent value: a String (of a member, or
// the legacy bare field), of type directory.
func agentOf(v string) (string, error) {
	it, err := httpsfv.UnmarshalItem([]string{v})
	if err != nil {
		return "", fmt.Errorf("Signature-Agent %s: %w", v, err)
	}
	u, ok := it.Value.(string)
	if !ok {
		return "", fmt.Errorf("Signature-Agent %s: not a string", v)
	}
	if t, ok := it.Params.Get("type"); ok && t != httpsfv.Token("directory") {
		return "", fmt.Errorf("Signature-Agent %s: type %v: %w (only directory)", v, t, errUnsupported)
	}
	return AgentOrigin(u)
}

// componentValue derives one covered component (RFC 9421 §2.1, §2.2).
func componentValue(m Message, name string, params *httpsfv.Params) (string, error) {
	for _, p := range params.Names() {
		if p != "key" {
			return "", fmt.Errorf("parameter %s: %w", p, errUnsupported)
		}
	}
	// A part of the message the caller did not give makes the signature
	// uncheckable, never wrong: guessing it ("/", "GET") would fail a genuine
	// signature.
	var missing string
	switch name {
	case "@method":
		if m.Method == "" {
			missing = "method"
		}
	case "@authority":
		if m.Authority == "" {
			missing = "authority (Host)"
		}
	case "@scheme":
		if m.Scheme == "" {
			missing = "scheme"
		}
	case "@target-uri":
		if m.Scheme == "" || m.Authority == "" || m.Path == "" {
			missing = "target URI (scheme, Host and path)"
		}
	case "@request-target", "@path", "@query":
		if m.Path == "" {
			missing = "request target (path)"
		}
	}
	if missing != "" {
		return "", fmt.Errorf("the message's %s is not known", missing)
	}
	path, query, _ := strings.Cut(m.Path, "?")
	if path == "" {
		path = "/"
	}
	switch name {
	case "@method":
		return m.Method, nil
	case "@authority":
		return authority(m), nil
	case "@scheme":
		return strings.ToLower(m.Scheme), nil
	case "@target-uri":
		return strings.ToLower(m.Scheme) + "://" + authority(m) + m.Path, nil
	case "@request-target":
		return m.Path, nil
	case "@path":
		return path, nil
	case "@query":
		return "?" + query, nil
	}
	if strings.HasPrefix(name, "@") {
		return "", errUnsupported
	}
	if name != strings.ToLower(name) {
		return "", errors.New("field names are lower-case")
	}
	vals := m.Header.Values(name)
	if len(vals) == 0 {
		return "", errors.New("the message has no such field")
	}
	if key, ok := params.Get("key"); ok {
		k, _ := key.(string)
		d, err := httpsfv.UnmarshalDictionary(vals)
		if err != nil {
			return "", err
		}
		member, ok := d.Get(k)
		if !ok {
			return "", fmt.Errorf("no member %q", k)
		}
		return httpsfv.Marshal(member)
	}
	trimmed := make([]string, len(vals))
	for i, v := range vals {
		trimmed[i] = strings.TrimSpace(v)
	}
	return strings.Join(trimmed, ", "), nil
}

// authority is @authority: the host lower-case, without the scheme's default port.
func authority(m Message) string {
	a := strings.ToLower(m.Authority)
	switch strings.ToLower(m.Scheme) {
	case "https":
		a = strings.TrimSuffix(a, ":443")
	case "http":
		a = strings.TrimSuffix(a, ":80")
	}
	return a
}
