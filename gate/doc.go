// Package gate enforces robots.txt at the edge: it judges each request a site
// receives by the site's own robots.txt, read exactly as the root package reads
// it, and answers pass, deny (403) or limit (429 with Retry-After).
//
// One decision, [Gate.Decide], is shared by three ways in:
//
//   - [Gate.ForwardAuth], a forward-auth endpoint for reverse proxies: nginx
//     auth_request, Caddy forward_auth, Traefik ForwardAuth and Envoy ext_authz
//     (HTTP). It reads the original request from the headers the proxy sends
//     (X-Forwarded-Method, -Proto, -Host, -Uri, -For, or X-Original-URI and the
//     like), trusting the client address only from configured proxy addresses.
//     "robots serve" mounts it at /v1/gate.
//   - [Gate.Middleware], a net/http handler wrapper for Go servers, and
//     [Gate.Judge], its decision and answer for servers that read the request
//     their own way: contrib/caddy, the Caddy module (http.handlers.robots_gate).
//   - The decision itself, for anything else that sees requests.
//
// # The decision
//
// For a request to a configured [Site] (any other Host is refused, so the gate
// never fetches a site its operator did not name), the gate:
//
//  1. passes /robots.txt, always: a crawler must be able to read the rules it is
//     judged by;
//  2. names the crawler and verifies it ([Verifier]): verified, not who it claims
//     (an impostor), or cannot tell. "Cannot tell" is never treated as an
//     impostor;
//  3. passes requests of crawlers the [Policy] does not enforce, and of clients
//     that name no crawler (browsers);
//  4. applies the policy's Impostor action to impostors;
//  5. decides the URL with the site's robots.txt for the crawler's product token;
//     a disallowed URL is a violation, handled by the policy's Disallowed action;
//  6. for a crawler documented as honouring Crawl-delay, checks the time since its
//     previous request to the same site; too soon is a violation, handled by the
//     policy's CrawlDelay action (429 with Retry-After when set to limit).
//
// Every action can be "log": the request passes and the violation is recorded
// (metrics, report, the reason header, the access log). The zero Policy logs
// everything and denies nothing; start there and read the report before denying.
//
// # Safety
//
// A crawler is denied as an impostor only when verification says so. A verified
// crawler whose purposes include search is never denied because robots.txt could
// not be read (fail closed) or because only an old copy of it could be: the gate
// passes it and records why. When robots.txt cannot be read at all the gate
// passes by default (Policy.FailClosed false).
//
// A [Gate] is safe for concurrent use. Its state is its robots.txt files (local
// files read again when they change, or the fetch client's cache), the time of
// each enforced crawler's last request per site (bounded by the configured sites
// times the enforced crawlers), its counters and its report.
package gate
