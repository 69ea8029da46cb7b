package fetch_test

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"sync/atomic"
	"testing"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/netguard"
)

// TestOrigin: the origins of SPEC §1. Spellings of one origin give one key; other
// schemes, hosts and ports are other origins.
func TestOrigin(t *testing.T) {
	tests := []struct {
		url, origin string
	}{
		{"https://example.com/", "https://example.com"},
		{"https://example.com", "https://example.com"},
		{"HTTPS://EXAMPLE.com/Path", "https://example.com"},
		{"https://example.com:443/a", "https://example.com"},
		{"http://example.com:80/a", "http://example.com"},
		{"ftp://example.com:21/a", "ftp://example.com"},
		{"http://example.com:443/", "http://example.com:443"},
		{"https://example.com:8181/", "https://example.com:8181"},
		{"https://example.com:08181/", "https://example.com:8181"},
		{"http://www.exämple.com/", "http://www.xn--exmple-cua.com"},
		{"http://www.xn--exmple-cua.com/", "http://www.xn--exmple-cua.com"},
		{"http://WWW.EXÄMPLE.COM/", "http://www.xn--exmple-cua.com"},
		{"http://user:pass@example.com/", "http://example.com"},
		{"http://my_host.example.com/", "http://my_host.example.com"},
		{"http://192.0.2.1:8080/x", "http://192.0.2.1:8080"},
		{"http://[::1]:80/", "http://[::1]"},
		{"http://[0:0::1]:8080/", "http://[::1]:8080"},
		{" https://example.com/#frag ", "https://example.com"},
		// An IPv4-mapped address stays an IPv6 literal, in the form RFC 5952 §5
		// recommends; a bare IPv4 address in brackets would be no valid host.
		{"http://[::ffff:1.2.3.4]:8100/", "http://[::ffff:1.2.3.4]:8100"},
		{"http://[::FFFF:102:304]/", "http://[::ffff:1.2.3.4]"},
		{"http://[2001:DB8:0:0:0:0:0:1]/", "http://[2001:db8::1]"},
		// The URL Standard's IPv4 parser (https://url.spec.whatwg.org/#concept-ipv4-parser)
		// and the examples of its host-parsing table: a host ending in a number is
		// an address, of one to four numbers in decimal, hex or octal.
		{"http://0x7f000001/", "http://127.0.0.1"},
		{"http://2130706433/", "http://127.0.0.1"},
		{"http://127.1/", "http://127.0.0.1"},
		{"http://0x7f.1:8080/", "http://127.0.0.1:8080"},
		{"http://0177.0.0.1/", "http://127.0.0.1"},
		{"http://192.0x00A80001/", "http://192.168.0.1"},
		{"http://1.2.3.4./", "http://1.2.3.4"},
		{"http://0x/", "http://0.0.0.0"},
		{"http://EXAMPLE.3com/", "http://example.3com"},
		{"http://1.2.3.256x/", "http://1.2.3.256x"}, // a name: its last label is no number
	}
	for _, tc := range tests {
		t.Run(tc.url, func(t *testing.T) {
			origin, err := fetch.Origin(tc.url)
			if err != nil || origin != tc.origin {
				t.Errorf("Origin(%q) = %q, %v; want %q", tc.url, origin, err, tc.origin)
			}
		})
	}
	for _, bad := range []string{"", "example.com", "/robots.txt", "file:///etc/passwd", "http://", "http://:80/",
		"http://example.com:0/", "http://example.com:65536/", "http://example.com:x/", "http://[::1/",
		"http://[1.2.3.4]/", "http://[fe80::1%25eth0]/", "http://%31%30.0.0.1/",
		// No host: a label "xn--" encodes nothing.
		"http://xn--/", "http://XN--/", "http://a.xn--/",
		// Ends in a number, yet not an address (the URL Standard fails them).
		"http://1.2.3.4.5/", "http://256.0.0.1/", "http://foo.123/", "http://4294967296/", "http://08/"} {
		t.Run(bad, func(t *testing.T) {
			if o, err := fetch.Origin(bad); err == nil {
				t.Errorf("Origin(%q) = %q; want an error", bad, o)
			}
		})
	}
}

// TestOriginAllocs: the origin of a common URL is a substring of it.
func TestOriginAllocs(t *testing.T) {
	const u = "https://www.example.com/a/b?q=1"
	if n := testing.AllocsPerRun(100, func() { fetch.Origin(u) }); n != 0 {
		t.Errorf("Origin(%q): %v allocations; want 0", u, n)
	}
}

// TestRefusedLiteral: a client with AddrCheck refuses a URL whose host is an address
// the check refuses, in any spelling, without a dial and without keeping anything;
// names are left to the dialer, whatever they look like.
func TestRefusedLiteral(t *testing.T) {
	var dials atomic.Int64
	c := newClient(t, fetch.Config{
		AddrCheck: func(ap netip.AddrPort) error { return netguard.Check(ap.Addr()) },
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			dials.Add(1)
			return nil, errors.New("no network in this test")
		},
	})
	for _, tc := range []struct {
		url     string
		refused bool
	}{
		{"http://127.0.0.1/", true},
		{"http://127.0.0.1:8080/x", true},
		{"https://[::1]/", true},
		{"http://[::ffff:127.0.0.1]:8100/", true},
		{"http://[::ffff:7f00:1]/", true},
		{"http://example.com@10.0.0.1/", true},
		{"ftp://169.254.169.254/", true},
		{"http://10.0.0.1@example.com/", false}, // user info, and a name
		{"http://127.0.0.1.nip.io/x", false},    // a name: the dialer's guard checks what it resolves to
		{"https://example.com/?q=127.0.0.1", false},
		{"http://192.0.2.1/", true}, // documentation range: netguard refuses it too
	} {
		t.Run(tc.url, func(t *testing.T) {
			before := dials.Load()
			res, err := c.Get(t.Context(), tc.url)
			if err != nil {
				t.Fatal(err)
			}
			dialled := dials.Load() != before
			var fe *fetch.Error
			refused := errors.Is(res.Err, netguard.ErrRefused) && errors.As(res.Err, &fe) && fe.Kind == fetch.KindRefused
			if refused != tc.refused || dialled == tc.refused {
				t.Errorf("Err %v (refused %v), dialled %v; want refused %v, dialled %v", res.Err, refused, dialled, tc.refused, !tc.refused)
			}
			if res.Allowed(agent, tc.url) {
				t.Errorf("allowed; want disallowed (refused or unreachable)")
			}
			if tc.refused {
				if again, _ := c.Peek(tc.url); again != nil {
					t.Errorf("a refusal is held: %+v", again)
				}
			}
		})
	}
}
