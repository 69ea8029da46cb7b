package gate

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"
)

// Forward says how ForwardAuth reads the original request from a proxy's
// headers. Each list of header names is tried in order; the first present wins.
// The zero Forward reads what nginx (as docs/gate.md configures it), Caddy's
// forward_auth, Traefik's ForwardAuth and Envoy's ext_authz send, from proxies on
// loopback.
type Forward struct {
	// TrustedProxies are the addresses the gate takes forwarded headers from; a
	// request from any other is a bad request. Empty: loopback (127.0.0.0/8, ::1).
	TrustedProxies []netip.Prefix
	// Method: X-Forwarded-Method, X-Original-Method; absent, the request's own
	// method (nginx's auth_request subrequest and Envoy keep the original's).
	Method []string
	// Scheme: X-Forwarded-Proto, X-Original-Proto; absent, not known.
	Scheme []string
	// Host: X-Forwarded-Host, X-Original-Host; absent, a bad request, unless
	// the request is Envoy's (see Prefix), whose own Host is the original's.
	Host []string
	// URI: X-Forwarded-Uri, X-Original-URI; absent, a bad request, unless the
	// request is Envoy's.
	URI []string
	// For: X-Forwarded-For (the last address not of a trusted proxy), X-Real-IP;
	// absent, a bad request.
	For []string
	// Prefix is the path ForwardAuth is mounted at (default /v1/gate). Envoy's
	// ext_authz asks for its path_prefix followed by the original path: a request
	// for Prefix + "/..." is read that way, with its own method and Host.
	Prefix string
}

// forward is a Forward ready to use.
type forward struct {
	trusted                       []netip.Prefix
	method, scheme, host, uri, to []string
	prefix                        string
}

// DefaultPrefix is where "robots serve" mounts ForwardAuth.
const DefaultPrefix = "/v1/gate"

func (f Forward) compile() (forward, error) {
	c := forward{trusted: f.TrustedProxies, method: f.Method, scheme: f.Scheme, host: f.Host, uri: f.URI, to: f.For,
		prefix: strings.TrimSuffix(f.Prefix, "/")}
	if len(c.trusted) == 0 {
		c.trusted = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	}
	for i, p := range c.trusted {
		if !p.IsValid() {
			return c, errorf("trusted proxy %d is not a valid prefix", i)
		}
		c.trusted[i] = p.Masked()
	}
	or := func(names []string, def ...string) []string {
		if len(names) == 0 {
			return def
		}
		for i, n := range names {
			names[i] = http.CanonicalHeaderKey(strings.TrimSpace(n))
		}
		return names
	}
	c.method = or(c.method, "X-Forwarded-Method", "X-Original-Method")
	c.scheme = or(c.scheme, "X-Forwarded-Proto", "X-Original-Proto")
	c.host = or(c.host, "X-Forwarded-Host", "X-Original-Host")
	c.uri = or(c.uri, "X-Forwarded-Uri", "X-Original-Uri")
	c.to = or(c.to, "X-Forwarded-For", "X-Real-Ip")
	if c.prefix == "" {
		c.prefix = DefaultPrefix
	}
	return c, nil
}

func (f *forward) isTrusted(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range f.trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// first returns the value of the first of names present in h, and which.
func first(h http.Header, names []string) (string, string, bool) {
	for _, n := range names {
		if v, ok := h[n]; ok && len(v) > 0 {
			if len(v) > 1 {
				return strings.Join(v, ", "), n, true
			}
			return v[0], n, true
		}
	}
	return "", "", false
}

// peerAddr is the address of the connection a request came on.
func peerAddr(r *http.Request) (netip.Addr, error) {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		a, aerr := netip.ParseAddr(r.RemoteAddr)
		if aerr != nil {
			return netip.Addr{}, fmt.Errorf("peer address %q: %v", r.RemoteAddr, err)
		}
		return a.Unmap(), nil
	}
	return ap.Addr().Unmap(), nil
}

// parseAddr reads one address of X-Forwarded-For or X-Real-IP: an IP address,
// perhaps with a port, IPv6 perhaps in brackets.
func parseAddr(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if a, err := netip.ParseAddr(strings.Trim(s, "[]")); err == nil {
		return a.Unmap(), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	return netip.Addr{}, false
}

// client returns the client address the proxies forwarded: the last address of
// the list not of a trusted proxy (each proxy appends the address it saw).
func (f *forward) client(h http.Header) (netip.Addr, error) {
	v, name, ok := first(h, f.to)
	if !ok {
		return netip.Addr{}, fmt.Errorf("no client address: none of %s", strings.Join(f.to, ", "))
	}
	var a netip.Addr
	for rest := v; rest != ""; {
		var item string
		if i := strings.LastIndexByte(rest, ','); i >= 0 {
			item, rest = rest[i+1:], rest[:i]
		} else {
			item, rest = rest, ""
		}
		addr, ok := parseAddr(item)
		if !ok {
			return netip.Addr{}, fmt.Errorf("%s: %q is not an IP address", name, clip(strings.TrimSpace(item)))
		}
		a = addr
		if !f.isTrusted(addr) {
			return a, nil
		}
	}
	if !a.IsValid() {
		return a, fmt.Errorf("%s is empty", name)
	}
	return a, nil // every address is a proxy's: the first is the client's
}

// ForwardAuth returns the forward-auth handler: it reads the original request
// from the proxy's headers (Config.Forward), judges it, and answers 200 to pass,
// 403 to deny and 429 with Retry-After to limit, with the reason in the response
// headers X-Robots-Gate (pass, log, deny or limit) and X-Robots-Gate-Reason (see
// docs/gate.md). A request it cannot read is answered by Policy.FailClosed, with
// X-Robots-Gate-Error saying what is missing; never silently.
func (g *Gate) ForwardAuth() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, err := g.forwarded(r)
		var d Decision
		if err != nil {
			d = g.failed(BadRequest, err)
			g.record(&req, &d, g.now())
		} else {
			d = g.Decide(r.Context(), &req)
		}
		g.answer(w, &req, &d)
	})
}

// forwarded reads the original request of a forward-auth request.
func (g *Gate) forwarded(r *http.Request) (Request, error) {
	f := &g.forward
	req := Request{Method: r.Method, UserAgent: r.UserAgent(), Header: r.Header}
	peer, err := peerAddr(r)
	if err != nil {
		return req, err
	}
	if !f.isTrusted(peer) {
		return req, fmt.Errorf("%s is not a trusted proxy: forwarded headers are read only from the configured proxy addresses", peer)
	}
	envoy := ""
	if p := r.URL.Path; len(p) > len(f.prefix) && strings.HasPrefix(p, f.prefix) && p[len(f.prefix)] == '/' {
		envoy = r.URL.RawPath
		if envoy == "" {
			envoy = r.URL.EscapedPath()
		}
		envoy = strings.TrimPrefix(envoy, f.prefix)
		if r.URL.RawQuery != "" {
			envoy += "?" + r.URL.RawQuery
		}
	}
	if v, _, ok := first(r.Header, f.method); ok {
		req.Method = strings.TrimSpace(v)
	}
	if v, _, ok := first(r.Header, f.scheme); ok {
		req.Scheme = strings.TrimSpace(v)
	}
	if v, name, ok := first(r.Header, f.host); ok {
		if strings.IndexByte(v, ',') >= 0 {
			return req, fmt.Errorf("%s holds several hosts (%q): the proxy must send the one the client asked for", name, clip(v))
		}
		req.Host = strings.TrimSpace(v)
	} else if envoy != "" {
		req.Host = r.Host
	} else {
		return req, fmt.Errorf("no original host: none of %s", strings.Join(f.host, ", "))
	}
	if v, _, ok := first(r.Header, f.uri); ok {
		req.URI = strings.TrimSpace(v)
	} else if envoy != "" {
		req.URI = envoy
	} else {
		return req, fmt.Errorf("no original URI: none of %s", strings.Join(f.uri, ", "))
	}
	if req.Addr, err = f.client(r.Header); err != nil {
		return req, err
	}
	return req, checkRequest(&req)
}

// Middleware returns next behind the gate: a request the gate passes goes on to
// next, one it denies is answered 403 and one it limits 429 with Retry-After, with
// the reason in the response headers as ForwardAuth gives it. The client address
// is the connection's, or the forwarded one when the connection comes from a
// trusted proxy (Config.Forward.TrustedProxies).
func (g *Gate) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req := Request{Method: r.Method, Host: r.Host, URI: r.RequestURI, UserAgent: r.UserAgent(), Header: r.Header, Scheme: "http"}
		if r.TLS != nil {
			req.Scheme = "https"
		}
		if req.URI == "" || req.URI[0] != '/' {
			req.URI = r.URL.RequestURI()
		}
		peer, err := peerAddr(r)
		if err == nil && g.forward.isTrusted(peer) {
			if _, _, ok := first(r.Header, g.forward.to); ok {
				peer, err = g.forward.client(r.Header)
			}
		}
		req.Addr = peer
		if err != nil {
			d := g.failed(BadRequest, err)
			g.record(&req, &d, g.now())
			if d.Verdict == Pass {
				setHeaders(w.Header(), &d)
				next.ServeHTTP(w, r)
				return
			}
			g.answer(w, &req, &d)
			return
		}
		if g.Judge(r.Context(), w, &req) {
			next.ServeHTTP(w, r)
		}
	})
}

// Judge decides req as Middleware does, for a server that reads the request its
// own way (contrib/caddy takes the client address and the request as Caddy
// received it, before any rewrite). When the gate passes req, Judge sets the
// gate's response headers on w and returns true: the caller serves the request.
// Otherwise it answers w (403, or 429 with Retry-After) and returns false.
func (g *Gate) Judge(ctx context.Context, w http.ResponseWriter, req *Request) bool {
	d := g.Decide(ctx, req)
	if d.Verdict == Pass {
		setHeaders(w.Header(), &d)
		if al := logAttrsOf(w); al != nil {
			al.AddLogAttrs(d.LogAttrs(req)...)
		}
		return true
	}
	g.answer(w, req, &d)
	return false
}

// answer writes d as the gate's answer.
func (g *Gate) answer(w http.ResponseWriter, req *Request, d *Decision) {
	h := w.Header()
	setHeaders(h, d)
	if al := logAttrsOf(w); al != nil {
		al.AddLogAttrs(d.LogAttrs(req)...)
	}
	switch d.Verdict {
	case Pass:
		h["Content-Length"] = zeroLength
		w.WriteHeader(http.StatusOK)
	case Limit:
		h.Set("Retry-After", strconv.FormatInt(int64((d.RetryAfter+time.Second-1)/time.Second), 10))
		h["Content-Type"], h["X-Content-Type-Options"] = textPlain, noSniff
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprintf(w, "robots.txt asks %s to wait %s between requests\n", d.Crawler, d.CrawlDelay)
	default:
		h["Content-Type"], h["X-Content-Type-Options"] = textPlain, noSniff
		w.WriteHeader(http.StatusForbidden)
		io.WriteString(w, d.explain()+"\n")
	}
}

// The values of the answer's fixed headers, set without canonicalizing their
// names or allocating for each answer (nothing changes a header value in place).
var (
	zeroLength = []string{"0"}
	textPlain  = []string{"text/plain; charset=utf-8"}
	noSniff    = []string{"nosniff"}
)

// explain is a refusal's body: one line a person can read.
func (d *Decision) explain() string {
	switch d.Reason {
	case Disallowed:
		return fmt.Sprintf("robots.txt disallows this URL for %s (line %d: %s)", d.Crawler, d.Rule.Line, d.Rule)
	case Impostor:
		return fmt.Sprintf("this client is not %s", d.Crawler)
	case TooFast:
		return fmt.Sprintf("robots.txt asks %s to wait %s between requests", d.Crawler, d.CrawlDelay)
	}
	if d.Err != nil {
		return fmt.Sprintf("robots gate: %s: %v", d.Reason, d.Err)
	}
	return "robots gate: " + d.Reason.String()
}

// Header names of the gate's answers.
const (
	HeaderVerdict = "X-Robots-Gate"        // pass, log (passed, violation recorded), deny or limit
	HeaderReason  = "X-Robots-Gate-Reason" // the reason, with the crawler, identity and rule as parameters
	HeaderError   = "X-Robots-Gate-Error"  // what was wrong with a request the gate could not judge
)

// Action returns the verdict as the X-Robots-Gate header and the metrics name it:
// pass, log (a violation that passed), deny or limit.
func (d *Decision) Action() string {
	if d.Verdict == Pass && d.Violation {
		return "log"
	}
	return d.Verdict.String()
}

// setHeaders sets the gate's response headers for d.
func setHeaders(h http.Header, d *Decision) {
	v := []string{d.Action(), d.reasonField()} // one allocation for both values
	h[HeaderVerdict], h[HeaderReason] = v[:1:1], v[1:2:2]
	if d.Err != nil {
		h[HeaderError] = []string{sfSafe(d.Err.Error())}
	}
}

// reasonField is the X-Robots-Gate-Reason value: an RFC 9651 Item, a token with
// parameters: disallowed;crawler="GPTBot";identity=verified;line=3;rule="Disallow: /x".
func (d *Decision) reasonField() string {
	var b strings.Builder
	b.Grow(96) // most reasons fit: one allocation
	b.WriteString(d.Reason.String())
	if d.Crawler != "" {
		b.WriteString(`;crawler="`)
		b.WriteString(sfString(d.Crawler))
		b.WriteString(`";identity=`)
		b.WriteString(d.Identity.Status.String())
	}
	if d.Rule.Line > 0 {
		b.WriteString(";line=")
		b.WriteString(strconv.Itoa(d.Rule.Line))
		b.WriteString(`;rule="`)
		b.WriteString(sfString(d.Rule.String()))
		b.WriteByte('"')
	}
	if d.CrawlDelay > 0 {
		b.WriteString(";crawl-delay=")
		b.WriteString(strconv.FormatFloat(d.CrawlDelay.Seconds(), 'f', -1, 64))
	}
	if d.Stale {
		b.WriteString(";stale")
	}
	if d.Spared {
		b.WriteString(";spared")
	}
	return b.String()
}

// sfString escapes s for the inside of an RFC 9651 String: printable ASCII, with
// \ and " escaped; any other byte is written %XX.
func sfString(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '%' {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c >= 0x7f || c == '%':
			fmt.Fprintf(&b, "%%%02X", c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// sfSafe makes s a valid header value: printable ASCII.
func sfSafe(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c < 0x20 || c >= 0x7f {
			b[i] = '?'
		}
	}
	return string(b)
}

// LogAttrs are the attributes of d for an access log line: the original request
// and the decision.
func (d *Decision) LogAttrs(r *Request) []slog.Attr {
	attrs := []slog.Attr{
		slog.String("gate", d.Action()),
		slog.String("gate_reason", d.Reason.String()),
		slog.String("orig_method", r.Method),
		slog.String("orig_host", r.Host),
		slog.String("orig_uri", r.URI),
	}
	if r.Addr.IsValid() {
		attrs = append(attrs, slog.String("client", r.Addr.String()))
	}
	if d.Crawler != "" {
		attrs = append(attrs, slog.String("crawler", d.Crawler), slog.String("identity", d.Identity.Status.String()))
		if d.Identity.Method != "" {
			attrs = append(attrs, slog.String("verified_by", d.Identity.Method))
		}
	}
	if d.Rule.Line > 0 {
		attrs = append(attrs, slog.Int("rule_line", d.Rule.Line), slog.String("rule", d.Rule.String()))
	}
	if d.RetryAfter > 0 {
		attrs = append(attrs, slog.Float64("retry_after_seconds", d.RetryAfter.Seconds()))
	}
	if d.Err != nil {
		attrs = append(attrs, slog.String("gate_error", d.Err.Error()))
	}
	return attrs
}

// LogAttrser is a ResponseWriter that takes attributes for the request's access
// log line: the gate adds its decision's (Decision.LogAttrs). "robots serve"'s
// access log is one.
type LogAttrser interface {
	AddLogAttrs(...slog.Attr)
}

// logAttrsOf finds a LogAttrser among w and the writers it wraps.
func logAttrsOf(w http.ResponseWriter) LogAttrser {
	for range 8 {
		if al, ok := w.(LogAttrser); ok {
			return al
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return nil
		}
		w = u.Unwrap()
	}
	return nil
}
