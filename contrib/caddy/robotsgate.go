// Package robotsgate is the robots.txt gate (package gate, docs/gate.md) as a
// Caddy module: the HTTP handler http.handlers.robots_gate, and the Caddyfile
// directive robots_gate, judge each request by the site's robots.txt inside
// Caddy, with the same decision and policy as "robots serve"'s forward-auth
// endpoint, without a second service.
//
//	example.com {
//		robots_gate {
//			robots /srv/example/robots.txt
//			disallowed deny
//			crawl_delay 429
//			impostor deny
//		}
//		reverse_proxy 127.0.0.1:8081
//	}
//
// The directive is ordered before redir (it judges the request as received);
// build Caddy with it by "xcaddy build --with github.com/gorobots/robots/contrib/caddy"
// or "go build ./cmd/caddy" in this module.
package robotsgate

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"go.uber.org/zap"

	"github.com/gorobots/robots/gate"
	"github.com/gorobots/robots/verify"
)

func init() {
	caddy.RegisterModule(Handler{})
	httpcaddyfile.RegisterHandlerDirective("robots_gate", parseCaddyfile)
	httpcaddyfile.RegisterDirectiveOrder("robots_gate", httpcaddyfile.Before, "redir")
}

// Handler is the http.handlers.robots_gate module. Its fields are those of
// "robots serve"'s -gate-* flags, by the same names and values; every action
// defaults to log: start there, read the report (the metrics), then deny.
type Handler struct {
	// Sites: the hosts judged and where each one's robots.txt comes from. A site
	// whose host is empty or "*" is every host that reaches the handler (Caddy
	// has routed by host already): the usual case, one robots.txt per site block.
	Sites []Site `json:"sites,omitempty"`
	// Enforce: crawler names (or product tokens the registry does not know) and
	// purposes (ai-train, search, ...) enforced, a word holding several separated
	// by commas; empty, every crawler of the registry.
	Enforce []string `json:"enforce,omitempty"`
	// Disallowed: log or deny. CrawlDelay: log, deny or 429. Impostor: log or
	// deny. Unverified: judge (default) or log. Fail: open (default) or closed.
	Disallowed string `json:"disallowed,omitempty"`
	CrawlDelay string `json:"crawl_delay,omitempty"`
	Impostor   string `json:"impostor,omitempty"`
	Unverified string `json:"unverified,omitempty"`
	Fail       string `json:"fail,omitempty"`
	// Wait bounds how long a request waits for what is not cached (the site's
	// robots.txt, range lists, DNS); default gate.DefaultFetchWait.
	Wait caddy.Duration `json:"wait,omitempty"`
	// NoVerify turns verification off: every crawler is "cannot tell", none an
	// impostor. Lists reads range lists from local files (name: a crawler's token
	// or a list's URL as the registry gives it); Offline fetches none; NoDNS
	// verifies no crawler by reverse DNS.
	NoVerify bool              `json:"no_verify,omitempty"`
	Lists    map[string]string `json:"lists,omitempty"`
	Offline  bool              `json:"offline,omitempty"`
	NoDNS    bool              `json:"no_dns,omitempty"`

	gate *gate.Gate
}

// Site is a host and its robots.txt: a local file, or the origin (such as
// http://127.0.0.1:8081, the upstream) its /robots.txt is fetched from.
type Site struct {
	Host   string `json:"host,omitempty"`
	Robots string `json:"robots"`
}

// CaddyModule returns the module's information.
func (Handler) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{ID: "http.handlers.robots_gate", New: func() caddy.Module { return new(Handler) }}
}

// Provision makes the gate: it reads local robots.txt files (an unreadable
// one is an error) and registers its counter, robots_gate_decisions_total, with
// Caddy's metrics.
func (h *Handler) Provision(ctx caddy.Context) error {
	cfg, err := h.config()
	if err != nil {
		return err
	}
	cfg.Registerer = ctx.GetMetricsRegistry()
	cfg.Logger = ctx.Slogger()
	if !h.NoVerify {
		v, err := verify.New(verify.Options{Lists: h.Lists, Offline: h.Offline, NoDNS: h.NoDNS})
		if err != nil {
			return fmt.Errorf("robots_gate: lists: %v", err)
		}
		cfg.Verifier = gate.FromVerify(v)
	}
	if h.gate, err = gate.New(*cfg); err != nil {
		return fmt.Errorf("robots_gate: %v", err)
	}
	return nil
}

// config is the gate's configuration but its verifier, metrics and logger.
func (h *Handler) config() (*gate.Config, error) {
	var cfg gate.Config
	if len(h.Sites) == 0 {
		return nil, fmt.Errorf("robots_gate: no robots.txt: give the site's file or origin")
	}
	for _, s := range h.Sites {
		site := gate.Site{Host: strings.TrimSpace(s.Host)}
		if site.Host == "" {
			site.Host = gate.AnyHost
		}
		src := strings.TrimSpace(s.Robots)
		switch {
		case src == "":
			return nil, fmt.Errorf("robots_gate: site %s: no robots.txt file or origin", site.Host)
		case strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://"):
			site.Origin = src
		default:
			site.File = src
		}
		cfg.Sites = append(cfg.Sites, site)
	}
	var err error
	cfg.Policy, err = gate.Words{
		Enforce:    h.Enforce,
		Disallowed: gate.Word{Option: "disallowed", Value: h.Disallowed},
		CrawlDelay: gate.Word{Option: "crawl_delay", Value: h.CrawlDelay},
		Impostor:   gate.Word{Option: "impostor", Value: h.Impostor},
		Unverified: gate.Word{Option: "unverified", Value: h.Unverified},
		Fail:       gate.Word{Option: "fail", Value: h.Fail},
	}.Policy()
	if err != nil {
		return nil, fmt.Errorf("robots_gate: %v", err)
	}
	cfg.FetchWait = time.Duration(h.Wait)
	return &cfg, nil
}

// ServeHTTP judges the request as Caddy received it (before any rewrite), from
// the client address Caddy determined (its trusted_proxies decide whether
// X-Forwarded-For counts), and passes it on or answers 403 or 429. The
// decision's fields go to Caddy's access log.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler) error {
	// Caddy keeps the method and target as received (before any rewrite) in a
	// partial copy of the request; the Host and headers are the request's.
	method, uri := r.Method, r.RequestURI
	if or, ok := r.Context().Value(caddyhttp.OriginalRequestCtxKey).(http.Request); ok {
		method, uri = or.Method, or.RequestURI
		if (uri == "" || uri[0] != '/') && or.URL != nil {
			uri = or.URL.RequestURI()
		}
	}
	req := gate.Request{Method: method, Host: r.Host, URI: uri, UserAgent: r.UserAgent(), Header: r.Header, Scheme: "http"}
	if r.TLS != nil {
		req.Scheme = "https"
	}
	if ip, ok := caddyhttp.GetVar(r.Context(), caddyhttp.ClientIPVarKey).(string); ok {
		req.Addr, _ = netip.ParseAddr(ip)
	}
	if !req.Addr.IsValid() {
		if ap, err := netip.ParseAddrPort(r.RemoteAddr); err == nil {
			req.Addr = ap.Addr()
		}
	}
	req.Addr = req.Addr.Unmap()
	lw := logWriter{ResponseWriter: w}
	if elf, ok := r.Context().Value(caddyhttp.ExtraLogFieldsCtxKey).(*caddyhttp.ExtraLogFields); ok {
		lw.fields = elf
	}
	if h.gate.Judge(r.Context(), lw, &req) {
		return next.ServeHTTP(w, r)
	}
	return nil
}

// logWriter hands the gate's log attributes to Caddy's access log.
type logWriter struct {
	http.ResponseWriter
	fields *caddyhttp.ExtraLogFields
}

func (w logWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w logWriter) AddLogAttrs(attrs ...slog.Attr) {
	if w.fields == nil {
		return
	}
	for _, a := range attrs {
		w.fields.Set(zap.Any(a.Key, a.Value.Any()))
	}
}

// parseCaddyfile reads the directive:
//
//	robots_gate [<matcher>] {
//		robots <robots.txt file or origin>        # for every host of the site block
//		site <host> <robots.txt file or origin>   # or per host; repeatable
//		enforce <crawler or purpose>...
//		disallowed log|deny
//		crawl_delay log|deny|429
//		impostor log|deny
//		unverified judge|log
//		fail open|closed
//		wait <duration>
//		no_verify
//		list <crawler token or list URL> <file>   # repeatable
//		offline
//		no_dns
//	}
func parseCaddyfile(hp httpcaddyfile.Helper) (caddyhttp.MiddlewareHandler, error) {
	h := new(Handler)
	err := h.UnmarshalCaddyfile(hp.Dispenser)
	return h, err
}

// UnmarshalCaddyfile reads the robots_gate directive (see parseCaddyfile).
func (h *Handler) UnmarshalCaddyfile(d *caddyfile.Dispenser) error {
	d.Next() // the directive's name
	if d.NextArg() {
		// A first argument starting with / would be taken by Caddy for a path
		// matcher: the file is given by the robots option.
		return d.Errf("robots_gate takes no argument: give robots.txt as 'robots <file or origin>' in its block")
	}
	word := func(dst *string) error {
		if !d.NextArg() {
			return d.ArgErr()
		}
		*dst = d.Val()
		if d.NextArg() {
			return d.ArgErr()
		}
		return nil
	}
	for d.NextBlock(0) {
		var err error
		switch d.Val() {
		case "robots":
			var src string
			if err = word(&src); err == nil {
				h.Sites = append(h.Sites, Site{Robots: src})
			}
		case "site":
			args := d.RemainingArgs()
			if len(args) != 2 {
				return d.ArgErr()
			}
			h.Sites = append(h.Sites, Site{Host: args[0], Robots: args[1]})
		case "enforce":
			args := d.RemainingArgs()
			if len(args) == 0 {
				return d.ArgErr()
			}
			h.Enforce = append(h.Enforce, args...)
		case "disallowed":
			err = word(&h.Disallowed)
		case "crawl_delay":
			err = word(&h.CrawlDelay)
		case "impostor":
			err = word(&h.Impostor)
		case "unverified":
			err = word(&h.Unverified)
		case "fail":
			err = word(&h.Fail)
		case "wait":
			var s string
			if err = word(&s); err == nil {
				var dur time.Duration
				if dur, err = caddy.ParseDuration(s); err != nil {
					return d.Errf("wait %q: %v", s, err)
				}
				h.Wait = caddy.Duration(dur)
			}
		case "no_verify":
			h.NoVerify = true
		case "list":
			args := d.RemainingArgs()
			if len(args) != 2 {
				return d.ArgErr()
			}
			if h.Lists == nil {
				h.Lists = map[string]string{}
			}
			h.Lists[args[0]] = args[1]
		case "offline":
			h.Offline = true
		case "no_dns":
			h.NoDNS = true
		default:
			return d.Errf("robots_gate: unknown option %q", d.Val())
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Interface guards.
var (
	_ caddy.Provisioner           = (*Handler)(nil)
	_ caddyhttp.MiddlewareHandler = (*Handler)(nil)
	_ caddyfile.Unmarshaler       = (*Handler)(nil)
)
