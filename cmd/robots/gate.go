package main

import (
	"errors"
	"flag"
	"fmt"
	"net/netip"
	"strings"
	"time"

	"github.com/gorobots/robots/gate"
	"github.com/gorobots/robots/verify"
)

// gateFlags are the flags of robots serve's gate (/v1/gate, docs/gate.md).
type gateFlags struct {
	sites                            agentList
	enforce                          string
	disallowed, crawlDelay, impostor string
	unverified, fail, trusted        string
	wait                             time.Duration
	verify, offline, noDNS           bool
	lists                            agentList
}

const gateHelp = `
Gate (docs/gate.md): with -gate-site, /v1/gate is a forward-auth endpoint for
nginx auth_request, Caddy forward_auth, Traefik ForwardAuth and Envoy ext_authz:
it judges the original request by the site's robots.txt and answers 200 (pass),
403 (deny) or 429 (Crawl-delay not kept), with the reason in X-Robots-Gate-Reason.
GET /v1/gate-report is the per-crawler account of its decisions. Every action
defaults to log: start there, read the report, then deny.
`

func addGateFlags(fs *flag.FlagSet) *gateFlags {
	g := &gateFlags{}
	fs.Var(&g.sites, "gate-site", "serve the gate for a site: `HOST=SOURCE`, SOURCE a robots.txt file or the origin (http://127.0.0.1:8081) to fetch it from (repeatable)")
	fs.StringVar(&g.enforce, "gate-enforce", "", "crawlers and purposes the gate enforces robots.txt on (`LIST` of names and purposes such as ai-train; default: every crawler of the registry)")
	fs.StringVar(&g.disallowed, "gate-disallowed", "log", "what the gate does with a disallowed request: `log` or deny")
	fs.StringVar(&g.crawlDelay, "gate-crawl-delay", "log", "what the gate does with a request sooner than the Crawl-delay of a crawler that honours it: `log`, deny or 429")
	fs.StringVar(&g.impostor, "gate-impostor", "log", "what the gate does with a client verification shows is not the crawler it claims: `log` or deny")
	fs.StringVar(&g.unverified, "gate-unverified", "judge", "crawlers verification cannot tell about: `judge` them as the crawler they claim, or only log their violations")
	fs.StringVar(&g.fail, "gate-fail", "open", "when a site's robots.txt or a forwarded request cannot be read: `open` (pass) or closed (deny)")
	fs.StringVar(&g.trusted, "gate-trusted-proxies", "127.0.0.0/8,::1/128", "proxy addresses (`CIDRs`) whose forwarded headers the gate reads")
	fs.DurationVar(&g.wait, "gate-wait", gate.DefaultFetchWait, "how long a request waits for a site's robots.txt not yet cached")
	fs.BoolVar(&g.verify, "gate-verify", true, "verify crawlers (operators' range lists, reverse DNS, signatures); without it every crawler is \"cannot tell\" and none an impostor")
	fs.Var(&g.lists, "gate-list", "read a range list from a local file: `NAME=FILE`, NAME a crawler's token or a list's URL as the registry gives it (repeatable)")
	fs.BoolVar(&g.offline, "gate-offline", false, "fetch no range list: only those of -gate-list are used, crawlers verified by the others are \"cannot tell\"")
	fs.BoolVar(&g.noDNS, "gate-no-dns", false, "verify no crawler by reverse DNS")
	return g
}

// config is the gate's configuration, or nil without -gate-site, and its
// verifier (nil without -gate-verify).
func (g *gateFlags) config() (*gate.Config, *verify.Verifier, error) {
	if len(g.sites) == 0 {
		return nil, nil, nil
	}
	cfg, err := g.policy()
	if err != nil {
		return nil, nil, err
	}
	if !g.verify {
		return cfg, nil, nil
	}
	opts := verify.Options{Offline: g.offline, NoDNS: g.noDNS, Lists: map[string]string{}}
	for _, l := range g.lists {
		name, file, ok := strings.Cut(l, "=")
		if !ok || strings.TrimSpace(name) == "" || strings.TrimSpace(file) == "" {
			return nil, nil, fmt.Errorf("-gate-list %q: want NAME=FILE", l)
		}
		opts.Lists[strings.TrimSpace(name)] = strings.TrimSpace(file)
	}
	v, err := verify.New(opts)
	if err != nil {
		return nil, nil, fmt.Errorf("-gate-list: %v", err)
	}
	cfg.Verifier = gate.FromVerify(v)
	return cfg, v, nil
}

// policy is the gate's configuration but its verifier.
func (g *gateFlags) policy() (*gate.Config, error) {
	var cfg gate.Config
	for _, s := range g.sites {
		host, src, ok := strings.Cut(s, "=")
		if !ok || strings.TrimSpace(host) == "" || strings.TrimSpace(src) == "" {
			return nil, fmt.Errorf("-gate-site %q: want HOST=FILE or HOST=ORIGIN", s)
		}
		site := gate.Site{Host: strings.TrimSpace(host)}
		if src = strings.TrimSpace(src); strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://") {
			site.Origin = src
		} else {
			site.File = src
		}
		cfg.Sites = append(cfg.Sites, site)
	}
	var err error
	cfg.Policy, err = gate.Words{
		Enforce:    []string{g.enforce},
		Disallowed: gate.Word{Option: "-gate-disallowed", Value: g.disallowed},
		CrawlDelay: gate.Word{Option: "-gate-crawl-delay", Value: g.crawlDelay},
		Impostor:   gate.Word{Option: "-gate-impostor", Value: g.impostor},
		Unverified: gate.Word{Option: "-gate-unverified", Value: g.unverified},
		Fail:       gate.Word{Option: "-gate-fail", Value: g.fail},
	}.Policy()
	if err != nil {
		return nil, err
	}
	for _, p := range splitList(g.trusted) {
		pre, err := netip.ParsePrefix(p)
		if err != nil {
			a, aerr := netip.ParseAddr(p)
			if aerr != nil {
				return nil, fmt.Errorf("-gate-trusted-proxies: %q is neither an address nor a CIDR prefix", p)
			}
			pre = netip.PrefixFrom(a, a.BitLen())
		}
		cfg.Forward.TrustedProxies = append(cfg.Forward.TrustedProxies, pre)
	}
	if len(cfg.Forward.TrustedProxies) == 0 {
		return nil, errors.New("-gate-trusted-proxies is empty: the gate reads forwarded headers only from proxies it trusts")
	}
	cfg.FetchWait = g.wait
	return &cfg, nil
}
