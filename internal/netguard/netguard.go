// Package netguard keeps a server that fetches URLs on behalf of its callers from
// being used to reach addresses it should not: loopback, private networks,
// link-local addresses (where cloud metadata services live), multicast and the
// other special-purpose ranges that no public web server uses.
//
// The check runs in [net.Dialer]'s Control hook, on the address actually dialled
// after name resolution. A name that resolves to 127.0.0.1, a DNS answer that
// changes between two lookups (rebinding) and every redirect hop are therefore
// all checked, because each of them ends in a dial. [Dialer] returns such a dialer;
// [Control] is the hook itself for callers that build their own.
//
// An HTTP transport that uses a proxy dials the proxy, not the target, so the guard
// only protects transports without one.
package netguard

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"syscall"
	"time"
)

// ErrRefused is matched (with [errors.Is]) by every error the guard returns.
var ErrRefused = errors.New("address refused")

// RefusedError reports a dial the guard stopped.
type RefusedError struct {
	Addr   netip.Addr // the address that was about to be dialled
	Reason string     // the kind of address, e.g. "loopback" or "private"
}

// Error names the address, its kind and what lifts the refusal: people meet it
// when they try the server on a site of their own machine or network.
func (e *RefusedError) Error() string {
	return fmt.Sprintf("refusing to connect to %s (%s address): %s", e.Addr, e.Reason, Hint)
}

// Hint says how to fetch from refused addresses: the option of robots serve (and of
// serve.Config) that turns the guard off.
const Hint = "start robots serve with -allow-private (ROBOTS_ALLOW_PRIVATE=true) to fetch from " +
	"loopback and private addresses"

// Refused reports true: it is how package fetch tells a deliberate refusal, which
// it must not cache, from a failure to connect.
func (e *RefusedError) Refused() bool { return true }

// Is makes errors.Is(err, ErrRefused) hold.
func (e *RefusedError) Is(target error) bool { return target == ErrRefused }

// special lists the ranges netip's predicates do not cover, with their reason. Taken
// from the IANA special-purpose address registries (RFC 6890 and its updates).
var special = []struct {
	prefix netip.Prefix
	reason string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "this-network"},           // RFC 791: "this host on this network"; 0.0.0.0 reaches loopback on Linux
	{netip.MustParsePrefix("100.64.0.0/10"), "shared"},             // RFC 6598 carrier-grade NAT; also Alibaba Cloud's metadata at 100.100.100.200
	{netip.MustParsePrefix("192.0.0.0/24"), "protocol-assignment"}, // RFC 6890
	{netip.MustParsePrefix("192.0.2.0/24"), "documentation"},       // RFC 5737 TEST-NET-1
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking"},       // RFC 2544
	{netip.MustParsePrefix("198.51.100.0/24"), "documentation"},    // RFC 5737 TEST-NET-2
	{netip.MustParsePrefix("203.0.113.0/24"), "documentation"},     // RFC 5737 TEST-NET-3
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},             // RFC 1112, includes 255.255.255.255
	{netip.MustParsePrefix("100::/64"), "discard"},                 // RFC 6666
	{netip.MustParsePrefix("2001:db8::/32"), "documentation"},      // RFC 3849
	{netip.MustParsePrefix("::/96"), "ipv4-compatible"},            // RFC 4291 §2.5.5.1, deprecated: ::7f00:1 is 127.0.0.1 on some stacks
	{netip.MustParsePrefix("::ffff:0:0:0/96"), "ipv4-translated"},  // RFC 2765 SIIT: ::ffff:0:7f00:1 reaches 127.0.0.1 through a translator
	{netip.MustParsePrefix("64:ff9b:1::/48"), "nat64-local"},       // RFC 8215 local-use NAT64: translates to any IPv4 address, private ones included
	{netip.MustParsePrefix("fec0::/10"), "site-local"},             // RFC 3879: deprecated site-local, still routed inside some networks
	{netip.MustParsePrefix("2001::/32"), "teredo"},                 // RFC 4380: tunnels to an IPv4 address hidden in the address
	{netip.MustParsePrefix("2001:2::/48"), "benchmarking"},         // RFC 5180
	{netip.MustParsePrefix("2001:10::/28"), "orchid"},              // RFC 4843: not routable
	{netip.MustParsePrefix("192.88.99.0/24"), "6to4-relay"},        // RFC 7526: deprecated anycast relays
}

// Embedded IPv4 addresses: a target written in one of these IPv6 forms reaches the
// IPv4 address inside it (through a translator), so that address is checked.
var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96") // RFC 6052
	sixToFour = netip.MustParsePrefix("2002::/16")    // RFC 3056
)

// Reason returns why a may not be dialled, or "" if it may. The zero Addr is refused.
func Reason(a netip.Addr) string {
	if !a.IsValid() {
		return "invalid"
	}
	a = a.Unmap() // ::ffff:127.0.0.1 is 127.0.0.1
	switch {
	case a.IsUnspecified():
		return "unspecified"
	case a.IsLoopback():
		return "loopback"
	case a.IsPrivate():
		return "private"
	case a.IsLinkLocalUnicast():
		// 169.254.169.254 (AWS, GCP, Azure, OpenStack metadata) lies here.
		return "link-local"
	case a.IsMulticast(), a.IsLinkLocalMulticast(), a.IsInterfaceLocalMulticast():
		return "multicast"
	}
	if a.Is6() && !a.Is4In6() {
		b := a.As16()
		switch {
		case nat64.Contains(a):
			if r := Reason(netip.AddrFrom4([4]byte(b[12:16]))); r != "" {
				return r
			}
		case sixToFour.Contains(a):
			if r := Reason(netip.AddrFrom4([4]byte(b[2:6]))); r != "" {
				return r
			}
		}
		if a.Zone() != "" {
			return "scoped"
		}
	}
	for _, s := range special {
		if s.prefix.Contains(a) {
			return s.reason
		}
	}
	return ""
}

// Check returns a *RefusedError if a may not be dialled, nil otherwise.
func Check(a netip.Addr) error {
	if r := Reason(a); r != "" {
		return &RefusedError{Addr: a.Unmap(), Reason: r}
	}
	return nil
}

// Control is a [net.Dialer] Control function that refuses the addresses [Reason]
// names. address is "ip:port", as net.Dialer passes it after resolving the name.
func Control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		// Not an IP address: net.Dialer never passes one, so refuse rather than guess.
		return &RefusedError{Reason: "unparsable " + network}
	}
	return Check(ap.Addr())
}

// Dial timeouts for [Dialer]. A connection to a public web server is made in well
// under a second; the bound keeps a black-holed address from holding a fetch slot.
const (
	DialTimeout = 5 * time.Second
	KeepAlive   = 30 * time.Second
)

// Dialer returns a dialer with the guard installed and [DialTimeout] set. With
// allowPrivate, the guard is left out (for local use and tests) but the timeouts stay.
func Dialer(allowPrivate bool) *net.Dialer {
	d := &net.Dialer{Timeout: DialTimeout, KeepAlive: KeepAlive}
	if !allowPrivate {
		d.Control = Control
	}
	return d
}
