package verify_test

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/miekg/dns"

	"github.com/gorobots/robots/verify"
)

// dnsServer is a real DNS server on loopback (UDP) answering PTR, A and AAAA from
// its zone; a name it does not hold is NXDOMAIN, one in servfail SERVFAIL.
type dnsServer struct {
	addr     string
	queries  atomic.Int32
	records  map[string][]dns.RR // "name type" → answers
	servfail map[string]bool
}

func startDNS(t *testing.T, zone []string, servfail ...string) *dnsServer {
	t.Helper()
	s := &dnsServer{records: map[string][]dns.RR{}, servfail: map[string]bool{}}
	for _, z := range zone {
		rr, err := dns.NewRR(z)
		if err != nil {
			t.Fatal(err)
		}
		k := strings.ToLower(rr.Header().Name) + " " + dns.TypeToString[rr.Header().Rrtype]
		s.records[k] = append(s.records[k], rr)
	}
	for _, n := range servfail {
		s.servfail[dns.Fqdn(n)] = true
	}
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	srv := &dns.Server{PacketConn: pc, NotifyStartedFunc: func() { close(started) }, Handler: dns.HandlerFunc(func(w dns.ResponseWriter, q *dns.Msg) {
		s.queries.Add(1)
		m := new(dns.Msg)
		m.SetReply(q)
		m.Authoritative = true
		question := q.Question[0]
		name := strings.ToLower(question.Name)
		switch {
		case s.servfail[name]:
			m.Rcode = dns.RcodeServerFailure
		default:
			m.Answer = s.records[name+" "+dns.TypeToString[question.Qtype]]
			if len(m.Answer) == 0 && !s.holds(name) {
				m.Rcode = dns.RcodeNameError
			}
		}
		_ = w.WriteMsg(m)
	})}
	go func() { _ = srv.ActivateAndServe() }()
	<-started
	t.Cleanup(func() { _ = srv.Shutdown() })
	s.addr = pc.LocalAddr().String()
	return s
}

func (s *dnsServer) holds(name string) bool {
	for k := range s.records {
		if strings.HasPrefix(k, name+" ") {
			return true
		}
	}
	return false
}

func (s *dnsServer) resolver() *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", s.addr)
	}}
}

// TestRealDNS: forward-confirmed reverse DNS against a DNS server on loopback,
// with the suffixes Google, Bing and Apple document, through *net.Resolver.
func TestRealDNS(t *testing.T) {
	srv := startDNS(t, []string{
		// Googlebot, as Google's documentation shows it.
		"1.66.249.66.in-addr.arpa. 300 IN PTR crawl-66-249-66-1.googlebot.com.",
		"crawl-66-249-66-1.googlebot.com. 300 IN A 66.249.66.1",
		// bingbot over IPv6.
		"1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa. 300 IN PTR msnbot-1.search.msn.com.",
		"msnbot-1.search.msn.com. 300 IN AAAA 2001:db8::1",
		// An impostor's own PTR claims googlebot.com; its name resolves elsewhere.
		"9.113.0.203.in-addr.arpa. 300 IN PTR crawl-203-0-113-9.googlebot.com.",
		"crawl-203-0-113-9.googlebot.com. 300 IN A 66.249.66.9",
		// A PTR outside the suffix.
		"10.113.0.203.in-addr.arpa. 300 IN PTR googlebot.com.evil.example.",
		"googlebot.com.evil.example. 300 IN A 203.0.113.10",
		// Applebot whose forward lookup fails.
		"11.2.0.192.in-addr.arpa. 300 IN PTR 17-58-0-1.applebot.apple.com.",
	}, "17-58-0-1.applebot.apple.com", "12.113.0.203.in-addr.arpa")

	v, err := verify.New(verify.Options{Offline: true, Resolver: srv.resolver(),
		// Googlebot, bingbot and Applebot have range lists too: an unavailable list
		// would leave a DNS "no" CannotTell, so each reads a local file, which holds
		// none of the addresses below but 66.249.66.1.
		Lists: map[string]string{"Googlebot": "testdata/googlebot.json", "bingbot": "testdata/ranges.txt", "Applebot": "testdata/ranges.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	const (
		google = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
		bing   = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
		apple  = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)"
	)
	tests := []struct {
		name, addr, ua string
		want           verify.Status
		method, detail string
	}{
		// 66.249.66.1 is in testdata/googlebot.json: the list answers.
		{"range first", "66.249.66.1", google, verify.Verified, verify.MethodRanges,
			"66.249.66.1 is in 66.249.66.0/27 of testdata/googlebot.json"}, // the list as given
		{"confirmed v6", "2001:db8::1", bing, verify.Verified, verify.MethodDNS, "msnbot-1.search.msn.com"},
		{"not confirmed", "203.0.113.9", google, verify.Impostor, verify.MethodDNS, "does not resolve back"},
		{"outside suffix", "203.0.113.10", google, verify.Impostor, verify.MethodDNS, "not under googlebot.com"},
		{"no PTR", "192.0.2.200", google, verify.Impostor, verify.MethodDNS, "no reverse DNS name"},
		{"forward SERVFAIL", "192.0.2.11", apple, verify.CannotTell, "", "forward DNS"},
		{"reverse SERVFAIL", "203.0.113.12", google, verify.CannotTell, "", "reverse DNS of 203.0.113.12 failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := v.Verify(context.Background(), verify.Request{Addr: netip.MustParseAddr(tt.addr), UserAgent: tt.ua})
			if got.Status != tt.want || got.Method != tt.method || !strings.Contains(got.Detail, tt.detail) {
				t.Errorf("got %+v; want %s by %q, detail with %q", got, tt.want, tt.method, tt.detail)
			}
		})
	}
	// Answers are cached: asking again sends no query.
	n := srv.queries.Load()
	for range 10 {
		v.Verify(context.Background(), verify.Request{Addr: netip.MustParseAddr("2001:db8::1"), UserAgent: bing})
		v.Verify(context.Background(), verify.Request{Addr: netip.MustParseAddr("203.0.113.9"), UserAgent: google})
	}
	if m := srv.queries.Load(); m != n {
		t.Errorf("%d DNS queries for cached answers", m-n)
	}
}
