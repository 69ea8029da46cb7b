package serve

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// sameOrigin keeps web pages of other sites from using the server through a
// visitor's browser (issue 14): a desktop instance on 127.0.0.1 would otherwise
// fetch, and fill its cache, for any page that posts a form to it.
//
//   - A request a browser marks as cross-site (Sec-Fetch-Site: cross-site), or a
//     request with an Origin header naming another host, is refused (403) unless it
//     is a GET or HEAD of the page, its assets, /healthz or /metrics, which change
//     nothing. Clients that are not browsers (curl, crawlers) send neither header.
//     A page of the same site (another port of the same host, a sibling
//     subdomain: Sec-Fetch-Site: same-site) is another origin, and is treated as
//     cross-site unless its Origin is the server's own.
//   - On a loopback listener, the Host header must name a loopback host (localhost,
//     127.0.0.0/8, ::1): a page whose name was rebound to 127.0.0.1 (DNS rebinding)
//     sends its own name, and is refused (421). On any listener with configured
//     names (Config.Hosts, or a name in Addr), the Host header must be one of them
//     (or, on loopback, a loopback host).
func (s *Server) sameOrigin(h http.Handler) http.Handler {
	names := map[string]bool{}
	for _, n := range s.cfg.Hosts {
		names[hostName(n)] = true
	}
	if h, _, err := net.SplitHostPort(s.cfg.Addr); err == nil && h != "" {
		if _, err := netip.ParseAddr(h); err != nil {
			names[hostName(h)] = true
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.gate != nil && isGatePath(r.URL.Path) {
			h.ServeHTTP(w, r) // the gate has its own sites and trusted proxies (gate.go)
			return
		}
		loopback := s.ln != nil && isLoopbackAddr(s.ln.Addr())
		switch {
		case len(names) > 0 && !names[hostName(r.Host)] && !(loopback && isLoopbackHost(r.Host)):
			refuse(w, r, "this server answers only requests addressed to its configured names (-hosts)", http.StatusMisdirectedRequest)
			return
		case len(names) == 0 && loopback && !isLoopbackHost(r.Host):
			refuse(w, r, "this server listens on loopback and answers only requests addressed to localhost, 127.0.0.1 or [::1]", http.StatusMisdirectedRequest)
			return
		}
		if crossSite(r) && !harmless(r) {
			refuse(w, r, "cross-site request refused: use the API from a program, or the tester from its own page", http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// refuse answers a refused request: under /v1/ as every API error is, JSON
// {"error": msg}; elsewhere (the tester's pages) plain text.
func refuse(w http.ResponseWriter, r *http.Request, msg string, code int) {
	if !strings.HasPrefix(r.URL.Path, "/v1/") {
		http.Error(w, msg, code)
		return
	}
	body := appendError(nil, msg)
	w.Header()["Content-Type"] = jsonType
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	w.Write(body)
}

// crossSite reports whether a browser says r comes from another site's page. A
// browser that sends Sec-Fetch-Site is believed; only older ones are judged by
// Origin (a page whose referrer policy is no-referrer, as the tester's, makes
// Chromium send "Origin: null" even for its own forms).
func crossSite(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	switch r.Header.Get("Sec-Fetch-Site") {
	case "cross-site":
		return true
	case "same-origin", "none":
		return false
	case "same-site":
		return !ownOrigin(origin, r.Host)
	}
	if origin == "" {
		return false
	}
	return !ownOrigin(origin, r.Host)
}

// ownOrigin reports whether an Origin header names the host (and port) the request
// was sent to. "null" (sandboxed frames, file: pages, some redirects) is no one's.
func ownOrigin(origin, host string) bool {
	_, h, ok := strings.Cut(origin, "://")
	return ok && origin != "null" && strings.EqualFold(h, host)
}

// hostName is a Host header's or a configured name's host, without port or final
// dot, in lower case.
func hostName(hostport string) string {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	return strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
}

// harmless reports whether r only reads what the server shows anyone: the tester's
// empty page (in either mode) and assets, health and metrics. GET /v1/check and GET /v1/robots fetch,
// so they are not.
func harmless(r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	p := r.URL.Path
	return (p == "/" && (r.URL.RawQuery == "" || r.URL.RawQuery == "mode=audit")) || strings.HasPrefix(p, "/static/") || p == "/healthz" || p == "/readyz" || p == "/metrics"
}

func isLoopbackAddr(a net.Addr) bool {
	ap, err := netip.ParseAddrPort(a.String())
	return err == nil && ap.Addr().Unmap().IsLoopback()
}

// isLoopbackHost reports whether a Host header names this machine's loopback.
func isLoopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.Unmap().IsLoopback()
}
