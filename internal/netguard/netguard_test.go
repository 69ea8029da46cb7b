package netguard

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"testing"
)

func TestReason(t *testing.T) {
	// Expected kinds from the IANA IPv4/IPv6 special-purpose registries and RFC 1918,
	// RFC 4193 (fc00::/7), RFC 3927 and RFC 4291 (link-local).
	tests := []struct {
		addr string
		want string
	}{
		{"127.0.0.1", "loopback"},
		{"127.255.255.254", "loopback"},
		{"::1", "loopback"},
		{"::ffff:127.0.0.1", "loopback"},
		{"10.1.2.3", "private"},
		{"172.16.0.1", "private"},
		{"172.31.255.255", "private"},
		{"192.168.1.1", "private"},
		{"fd00:ec2::254", "private"}, // AWS metadata over IPv6
		{"fc00::1", "private"},
		{"169.254.169.254", "link-local"}, // cloud metadata
		{"169.254.0.1", "link-local"},
		{"fe80::1", "link-local"},
		{"224.0.0.1", "multicast"},
		{"239.255.255.250", "multicast"},
		{"ff02::1", "multicast"},
		{"ff0e::1", "multicast"},
		{"0.0.0.0", "unspecified"},
		{"::", "unspecified"},
		{"0.1.2.3", "this-network"},
		{"100.100.100.200", "shared"}, // Alibaba Cloud metadata
		{"100.64.0.1", "shared"},
		{"192.0.0.8", "protocol-assignment"},
		{"192.0.2.1", "documentation"},
		{"198.18.0.1", "benchmarking"},
		{"255.255.255.255", "reserved"},
		{"240.0.0.1", "reserved"},
		{"2001:db8::1", "documentation"},
		{"64:ff9b::7f00:1", "loopback"},      // NAT64 of 127.0.0.1
		{"64:ff9b::a9fe:a9fe", "link-local"}, // NAT64 of 169.254.169.254
		{"2002:a00:1::1", "private"},         // 6to4 of 10.0.0.1
		// Ranges that hide or translate to an IPv4 address, or are not routed publicly
		// (IANA IPv6 special-purpose registry; issue 14's review found these let through).
		{"::7f00:1", "ipv4-compatible"},         // ::127.0.0.1, RFC 4291 §2.5.5.1
		{"::a9fe:a9fe", "ipv4-compatible"},      // ::169.254.169.254
		{"::ffff:0:7f00:1", "ipv4-translated"},  // RFC 2765
		{"::ffff:0:808:808", "ipv4-translated"}, // even a public IPv4 behind it: the translator is local
		{"64:ff9b:1::7f00:1", "nat64-local"},    // RFC 8215
		{"64:ff9b:1:ffff::808:808", "nat64-local"},
		{"fec0::1", "site-local"},                          // RFC 3879
		{"2001:0:4136:e378:8000:63bf:3fff:fdd2", "teredo"}, // RFC 4380's example form
		{"2001:2::1", "benchmarking"},                      // RFC 5180
		{"2001:10::1", "orchid"},                           // RFC 4843
		{"192.88.99.1", "6to4-relay"},                      // RFC 7526
		// Public addresses pass.
		{"93.184.215.14", ""},
		{"8.8.8.8", ""},
		{"172.32.0.1", ""}, // just past 172.16.0.0/12
		{"100.128.0.1", ""},
		{"2606:4700::1111", ""},
		{"64:ff9b::808:808", ""}, // NAT64 of 8.8.8.8
		{"::ffff:8.8.8.8", ""},
		{"2001:4860:4860::8888", ""}, // Google Public DNS: 2001:4860::/32 is past Teredo's 2001::/32
		{"2001:200::1", ""},          // past 2001::/23's special ranges
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			got := Reason(netip.MustParseAddr(tt.addr))
			if got != tt.want {
				t.Errorf("Reason(%s) = %q, want %q", tt.addr, got, tt.want)
			}
		})
	}
	if got := Reason(netip.Addr{}); got == "" {
		t.Errorf("Reason(zero Addr) = %q, want a refusal", got)
	}
}

func TestCheckError(t *testing.T) {
	err := Check(netip.MustParseAddr("::ffff:10.0.0.1"))
	var re *RefusedError
	if !errors.As(err, &re) || !errors.Is(err, ErrRefused) {
		t.Fatalf("Check = %v, want a *RefusedError matching ErrRefused", err)
	}
	if re.Addr != netip.MustParseAddr("10.0.0.1") || re.Reason != "private" {
		t.Errorf("RefusedError = {%v %q}, want {10.0.0.1 private}", re.Addr, re.Reason)
	}
	// Package fetch recognises a deliberate refusal by this method.
	var r interface{ Refused() bool }
	if !errors.As(err, &r) || !r.Refused() {
		t.Errorf("Check = %v, want an error with Refused() true", err)
	}
	if err := Check(netip.MustParseAddr("8.8.4.4")); err != nil {
		t.Errorf("Check(8.8.4.4) = %v, want nil", err)
	}
}

// TestDialerRefusesResolvedLoopback dials a real listener by a name that resolves to
// loopback: the guard must refuse on the resolved address, not the name.
func TestDialerRefusesResolvedLoopback(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	ctx := context.Background()

	for _, target := range []string{"localhost:" + port, "127.0.0.1:" + port} {
		c, err := Dialer(false).DialContext(ctx, "tcp", target)
		if err == nil {
			c.Close()
			t.Errorf("guarded dial %s succeeded, want refusal", target)
			continue
		}
		if !errors.Is(err, ErrRefused) {
			t.Errorf("guarded dial %s: %v, want an error matching ErrRefused", target, err)
		}
	}
	c, err := Dialer(true).DialContext(ctx, "tcp", "127.0.0.1:"+port)
	if err != nil {
		t.Fatalf("dial with allowPrivate: %v", err)
	}
	c.Close()
}
