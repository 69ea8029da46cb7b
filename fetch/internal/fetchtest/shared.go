package fetchtest

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/netguard"
	"github.com/gorobots/robots/internal/testenv"
)

// TestSharedErrors checks, through a real store shared by two clients, how failed
// fetches are kept: a fetch the dialer refused (netguard, also on a redirect hop) is
// reported with its error value but neither stored nor cached, so that a client
// allowed to dial private addresses fetches the file itself; and the error kind of a
// failed fetch survives the store, for a client that did not make the fetch.
func TestSharedErrors(t *testing.T, store fetch.Store) {
	const agent = "TestBot"
	t0 := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	private := testenv.Serve(t, 200, "User-agent: *\nDisallow: /private\n")
	// A "public" host whose robots.txt redirects to the private server. The dialer
	// below stands in for public DNS: public.test reaches the redirector without the
	// guard; every other address goes through it.
	redirector := testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, private.URL+"/robots.txt", http.StatusMovedPermanently)
	})
	guard := netguard.Dialer(false)
	var dials atomic.Int64
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		if strings.HasPrefix(addr, "public.test:") {
			var d net.Dialer
			return d.DialContext(ctx, network, redirector.Listener.Addr().String())
		}
		return guard.DialContext(ctx, network, addr)
	}
	clock := testenv.NewClock(t0)
	guarded := fetch.NewClient(fetch.Config{Store: store, DialContext: dial, Timeout: 2 * time.Second, Now: clock.Now})
	open := fetch.NewClient(fetch.Config{Store: store, Timeout: 2 * time.Second, Now: clock.Now})
	ctx := t.Context()

	for _, tc := range []struct{ name, target string }{
		{"private address", private.URL},
		{"redirect to a private address", "http://public.test"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target := tc.target
			origin, err := fetch.Origin(target)
			if err != nil {
				t.Fatal(err)
			}
			for i := range 2 {
				before := dials.Load()
				res, err := guarded.Get(ctx, target+"/x")
				if err != nil {
					t.Fatalf("%s: %v", target, err)
				}
				var fe *fetch.Error
				if !errors.Is(res.Err, netguard.ErrRefused) || !errors.As(res.Err, &fe) || fe.Kind != fetch.KindRefused {
					t.Errorf("%s, ask %d: Err %v; want a refusal matching netguard.ErrRefused, of kind refused", target, i+1, res.Err)
				}
				if res.Effect != fetch.DisallowAll || res.Allowed(agent, "/public") {
					t.Errorf("%s, ask %d: effect %v; want disallow-all while refused", target, i+1, res.Effect)
				}
				if dials.Load() == before {
					t.Errorf("%s, ask %d: answered without dialling; a refusal must not be cached", target, i+1)
				}
				if e, err := store.Load(ctx, origin); err != nil || e != nil {
					t.Errorf("%s: the store holds %+v, %v after a refusal; want nothing", target, e, err)
				}
			}
		})
	}
	if n := private.Hits(); n != 0 {
		t.Fatalf("the private server was fetched %d times through the guard; want 0", n)
	}

	// A client allowed to dial private addresses, sharing the store, fetches and obeys.
	clock.Set(t0.Add(time.Second))
	res, err := open.Get(ctx, private.URL+"/x")
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != fetch.Success || res.Allowed(agent, "/private") || !res.Allowed(agent, "/public") {
		t.Errorf("unguarded client: %v %v; want the file fetched and obeyed", res.Outcome, res.Effect)
	}
	if n := private.Hits(); n != 1 {
		t.Errorf("unguarded client: %d fetches of the private server; want 1", n)
	}
	// And the other way round: a guarded client that checks where entries were
	// fetched from does not use the unguarded client's entry, although it is fresh.
	checked := fetch.NewClient(fetch.Config{Store: store, DialContext: dial, Timeout: 2 * time.Second, Now: clock.Now,
		AddrCheck: func(ap netip.AddrPort) error { return netguard.Check(ap.Addr()) }})
	clock.Set(t0.Add(2 * time.Second))
	res, err = checked.Get(ctx, private.URL+"/x")
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(res.Err, netguard.ErrRefused) || res.Allowed(agent, "/public") {
		t.Errorf("guarded client with AddrCheck after the unguarded fetch: %v %v, Err %v; want refused, disallow-all", res.Outcome, res.Effect, res.Err)
	}
	if n := private.Hits(); n != 1 {
		t.Errorf("guarded client: %d fetches of the private server in all; want still 1", n)
	}

	// Error kinds survive the store: the second client reads the first one's failures.
	var loop *testenv.Server
	loop = testenv.ServeFunc(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, loop.URL+"/robots.txt?n="+r.URL.Query().Get("n")+"x", http.StatusFound)
	})
	closed := "http://" + testenv.ClosedAddr(t)
	for _, tt := range []struct {
		name string
		url  string
		kind fetch.ErrorKind
		is   error
	}{
		{"redirect loop", loop.URL, fetch.KindTooManyRedirects, fetch.ErrTooManyRedirects},
		{"connection refused", closed, fetch.KindConnect, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			clock.Set(t0)
			first, err := open.Get(ctx, tt.url+"/")
			if err != nil {
				t.Fatal(err)
			}
			other := fetch.NewClient(fetch.Config{Store: store, Now: clock.Now, DialContext: func(context.Context, string, string) (net.Conn, error) {
				return nil, errors.New("the second client must read the store, not fetch")
			}})
			clock.Set(t0.Add(time.Second))
			second, err := other.Get(ctx, tt.url+"/")
			if err != nil {
				t.Fatal(err)
			}
			for name, res := range map[string]*fetch.Result{"fetching client": first, "other client": second} {
				var fe *fetch.Error
				if !errors.As(res.Err, &fe) || fe.Kind != tt.kind {
					t.Errorf("%s, %s: Err %#v; want kind %v", tt.url, name, res.Err, tt.kind)
					continue
				}
				if fe.Text != first.Err.Error() {
					t.Errorf("%s, %s: text %q; want %q", tt.url, name, fe.Text, first.Err.Error())
				}
				if tt.is != nil && !errors.Is(res.Err, tt.is) {
					t.Errorf("%s, %s: errors.Is(Err, %v) = false", tt.url, name, tt.is)
				}
			}
		})
	}
}
