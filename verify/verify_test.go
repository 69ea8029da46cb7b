package verify_test

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"testing"

	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/verify"
)

// fakeDNS is a Resolver answering from maps; an address or name it does not
// hold does not exist (NXDOMAIN), and one in fail fails as a timeout does.
type fakeDNS struct {
	ptr  map[string][]string     // address → names
	host map[string][]netip.Addr // name → addresses
	fail map[string]bool         // address or name → temporary failure
}

func (f fakeDNS) LookupAddr(_ context.Context, addr string) ([]string, error) {
	if f.fail[addr] {
		return nil, &net.DNSError{Err: "i/o timeout", Name: addr, IsTimeout: true, IsTemporary: true}
	}
	if n, ok := f.ptr[addr]; ok {
		return n, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: addr, IsNotFound: true}
}

func (f fakeDNS) LookupNetIP(_ context.Context, network, host string) ([]netip.Addr, error) {
	host = strings.TrimSuffix(host, ".")
	if f.fail[host] {
		return nil, &net.DNSError{Err: "i/o timeout", Name: host, IsTimeout: true, IsTemporary: true}
	}
	var out []netip.Addr
	for _, a := range f.host[host] {
		if (network == "ip4") == a.Is4() || network == "ip" {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return out, nil
}

const googlebotUA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"

// The Googlebot prefixes of testdata/googlebot.json hold 66.249.66.1 and
// 2001:4860:4801:10::1; 203.0.113.9 (TEST-NET-3) is in no Google list.
func TestVerifyRanges(t *testing.T) {
	dns := fakeDNS{
		ptr: map[string][]string{
			"66.249.70.1":  {"crawl-66-249-70-1.googlebot.com."},
			"198.51.100.1": {"crawl-198-51-100-1.googlebot.com."}, // a PTR its owner wrote, not confirmed
			"192.0.2.1":    {"host.example.net."},
		},
		host: map[string][]netip.Addr{
			"crawl-66-249-70-1.googlebot.com": {netip.MustParseAddr("66.249.70.1")},
		},
		fail: map[string]bool{"192.0.2.99": true},
	}
	v, err := verify.New(verify.Options{
		Lists:    map[string]string{"Googlebot": "testdata/googlebot.json"},
		Resolver: dns,
		Offline:  true,
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, addr, ua string
		crawler        string
		status         verify.Status
		method         string
	}{
		{"in range v4", "66.249.66.1", googlebotUA, "Googlebot", verify.Verified, verify.MethodRanges},
		{"in range v6", "2001:4860:4801:10::1", googlebotUA, "Googlebot", verify.Verified, verify.MethodRanges},
		{"v4-mapped v6", "::ffff:66.249.64.40", googlebotUA, "Googlebot", verify.Verified, verify.MethodRanges},
		{"last address of a prefix", "66.249.64.63", googlebotUA, "Googlebot", verify.Verified, verify.MethodRanges},
		{"first address past a prefix", "66.249.64.64", googlebotUA, "Googlebot", verify.Impostor, verify.MethodDNS},
		{"confirmed by DNS", "66.249.70.1", googlebotUA, "Googlebot", verify.Verified, verify.MethodDNS},
		{"PTR not confirmed", "198.51.100.1", googlebotUA, "Googlebot", verify.Impostor, verify.MethodDNS},
		{"PTR elsewhere", "192.0.2.1", googlebotUA, "Googlebot", verify.Impostor, verify.MethodDNS},
		{"no PTR", "203.0.113.9", googlebotUA, "Googlebot", verify.Impostor, verify.MethodDNS},
		{"DNS fails", "192.0.2.99", googlebotUA, "Googlebot", verify.CannotTell, ""},
		{"smartphone UA", "66.249.66.1", "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.135 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot", verify.Verified, verify.MethodRanges},
		{"unknown crawler", "66.249.66.1", "ExampleBot/1.0", "", verify.CannotTell, ""},
		{"browser", "66.249.66.1", "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "", verify.CannotTell, ""},
		// Offline: bingbot's list is a URL, so it cannot be read; DNS says no, but the
		// list might have said yes.
		{"list unavailable", "203.0.113.9", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "bingbot", verify.CannotTell, ""},
		// Anthropic publishes no way to verify ClaudeBot.
		{"no method", "203.0.113.9", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)", "ClaudeBot", verify.CannotTell, ""},
		{"no address", "", googlebotUA, "Googlebot", verify.CannotTell, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var addr netip.Addr
			if tt.addr != "" {
				addr = netip.MustParseAddr(tt.addr)
			}
			got := v.Verify(context.Background(), verify.Request{Addr: addr, UserAgent: tt.ua})
			if got.Crawler != tt.crawler || got.Status != tt.status || got.Method != tt.method {
				t.Errorf("Verify(%s, %q) = %+v; want crawler %q, %s, method %q", tt.addr, tt.ua, got, tt.crawler, tt.status, tt.method)
			}
			if got.Detail == "" {
				t.Error("no detail")
			}
		})
	}
}

// A crawler of one's own, in a registry given to New, with a plain-text list.
func TestVerifyOwnRegistry(t *testing.T) {
	reg := []crawlers.Crawler{
		{Name: "ExampleBot", Verify: crawlers.Verification{Ranges: []string{"https://example.com/examplebot.json"}}},
		{Name: "Other Bot", Verify: crawlers.Verification{Ranges: []string{"https://example.com/examplebot.json"}}},
		{Name: "NoWay"},
	}
	v, err := verify.New(verify.Options{
		Crawlers: reg,
		Lists:    map[string]string{"https://example.com/examplebot.json": "testdata/ranges.txt"},
		Offline:  true,
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		addr, ua, crawler string
		status            verify.Status
	}{
		{"203.0.113.200", "ExampleBot/2.0 (+https://example.com/bot)", "ExampleBot", verify.Verified},
		{"2001:db8:1:ffff::1", "examplebot/2.0", "ExampleBot", verify.Verified},
		{"198.51.100.7", "Mozilla/5.0 (compatible; ExampleBot; +https://example.com/bot)", "ExampleBot", verify.Verified},
		{"198.51.100.8", "ExampleBot/2.0", "ExampleBot", verify.Impostor},
		{"2001:db8:2::1", "ExampleBot/2.0", "ExampleBot", verify.Impostor},
		{"198.51.100.8", "Mozilla/5.0 (compatible; Other Bot 1.0)", "Other Bot", verify.Impostor},
		{"203.0.113.1", "Mozilla/5.0 (compatible; Other Bot 1.0)", "Other Bot", verify.Verified},
		{"198.51.100.8", "NoWay/1", "NoWay", verify.CannotTell},
		// A token in a URL is not the product.
		{"198.51.100.8", "Mozilla/5.0 (+https://example.com/ExampleBot/help)", "", verify.CannotTell},
	}
	for _, tt := range tests {
		got := v.Verify(context.Background(), verify.Request{Addr: netip.MustParseAddr(tt.addr), UserAgent: tt.ua})
		if got.Crawler != tt.crawler || got.Status != tt.status {
			t.Errorf("Verify(%s, %q) = %+v; want %q, %s", tt.addr, tt.ua, got, tt.crawler, tt.status)
		}
	}
}

// A list that cannot be read never makes an impostor: the error says why.
func TestVerifyBadList(t *testing.T) {
	for name, file := range map[string]string{"missing": "testdata/absent.json", "not a list": "testdata/README.md"} {
		t.Run(name, func(t *testing.T) {
			v, err := verify.New(verify.Options{
				Crawlers: []crawlers.Crawler{{Name: "ExampleBot", Verify: crawlers.Verification{Ranges: []string{"https://example.com/r.json"}}}},
				Lists:    map[string]string{"ExampleBot": file},
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := v.Refresh(context.Background()); err == nil || !strings.Contains(err.Error(), file) {
				t.Errorf("Refresh: %v; want an error naming %s", err, file)
			}
			got := v.Verify(context.Background(), verify.Request{Addr: netip.MustParseAddr("192.0.2.1"), UserAgent: "ExampleBot/1"})
			if got.Status != verify.CannotTell || !strings.Contains(got.Detail, file) {
				t.Errorf("got %+v; want cannot-tell naming %s", got, file)
			}
		})
	}
}

func TestStatusText(t *testing.T) {
	for _, s := range []verify.Status{verify.CannotTell, verify.Verified, verify.Impostor} {
		b, _ := s.MarshalText()
		var back verify.Status
		if err := back.UnmarshalText(b); err != nil || back != s {
			t.Errorf("%v: round trip gave %v, %v", s, back, err)
		}
	}
	if want := []string{"cannot-tell", "verified", "impostor"}; verify.CannotTell.String() != want[0] || verify.Verified.String() != want[1] || verify.Impostor.String() != want[2] {
		t.Error("status names changed")
	}
	var s verify.Status
	if err := s.UnmarshalText([]byte("spoofed")); err == nil {
		t.Error("unknown name accepted")
	}
}

// The registry's User-Agent patterns name crawlers whose token is one word of them.
func TestMatchPatterns(t *testing.T) {
	v, err := verify.New(verify.Options{Offline: true, NoDNS: true})
	if err != nil {
		t.Fatal(err)
	}
	for ua, want := range map[string]string{
		"Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)":                                                                          "Sogou",
		"Mozilla/5.0 (compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)":                                                                    "MistralAI-User",
		"Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)":                                                                                 "YandexBot",
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36": "bingbot",
		"Googlebot-Image/1.0": "Googlebot-Image",
		"curl/8.5.0":          "",
		// Only the first Limits.MaxUserAgent bytes are read.
		strings.Repeat("x", verify.DefaultMaxUserAgent) + " GPTBot/1.0": "",
	} {
		if got := v.Verify(context.Background(), verify.Request{Addr: netip.MustParseAddr("192.0.2.1"), UserAgent: ua}); got.Crawler != want {
			t.Errorf("%q names %q, want %q", ua, got.Crawler, want)
		}
		if got := v.Crawler(ua); got != want {
			t.Errorf("Crawler(%q) = %q, want %q", ua, got, want)
		}
	}
}
