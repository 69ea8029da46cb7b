package fetch_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gorobots/robots/fetch"
)

// recorder is a RoundTripper that keeps every response it passes on, as an
// archive of the crawl would.
type recorder struct {
	rt   http.RoundTripper
	seen []recorded
}

type recorded struct {
	status int
	header http.Header
	body   []byte
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.rt.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	r.seen = append(r.seen, recorded{resp.StatusCode, resp.Header.Clone(), body})
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

// TestReplay reads, with Replay, the responses a Fetch from a real server on
// loopback got, and checks that the access method reads them as it read them on
// the web: the same outcome, effect, hops, body, cut and error, with the effect
// the status policy gives (SPEC §2). A chain that the record ends early is a
// failed request.
func TestReplay(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(rulesBody))
	zw.Close()
	big := strings.Repeat("Disallow: /x\n", 50_000) // 650,000 bytes, past the 500 KiB limit
	tests := []struct {
		name   string
		url    func(t *testing.T) string
		effect fetch.Effect
	}{
		{"200", httpStatus(200, rulesBody), fetch.ObeyRules},
		{"404", httpStatus(404, rulesBody), fetch.AllowAll},
		{"503", httpStatus(503, rulesBody), fetch.DisallowAll},
		{"301 to 200", redirectChain(1, 301), fetch.ObeyRules},
		{"5 redirects", redirectChain(5, 302), fetch.ObeyRules},
		{"6 redirects read as 404", redirectChain(6, 301), fetch.AllowAll},
		{"redirect loop read as 404", redirectLoop, fetch.AllowAll},
		{"redirect without Location read as 404", httpStatus(302, ""), fetch.AllowAll},
		{"redirect to 503", redirectTo(503), fetch.DisallowAll},
		{"gzip", func(t *testing.T) string {
			return serve(t, answer(200, gz.String(), "Content-Encoding", "gzip")).URL
		}, fetch.ObeyRules},
		{"past 500 KiB", httpStatus(200, big), fetch.ObeyRules},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{rt: http.DefaultTransport}
			c := newClient(t, fetch.Config{HTTP: rec})
			u := tc.url(t)
			web, err := c.Fetch(t.Context(), u)
			if err != nil {
				t.Fatal(err)
			}
			if web.Effect != tc.effect {
				t.Fatalf("Fetch: effect %v, want %v", web.Effect, tc.effect)
			}
			var asked []string
			next := 0
			res, err := newClient(t, fetch.Config{}).Replay(u, func(url string) (*fetch.Recorded, error) {
				asked = append(asked, url)
				r := rec.seen[next]
				next++
				return &fetch.Recorded{Status: r.status, Header: r.header, Body: string(r.body)}, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if next != len(rec.seen) {
				t.Errorf("Replay read %d responses, Fetch got %d", next, len(rec.seen))
			}
			if got, want := errText(res.Err), errText(web.Err); res.Outcome != web.Outcome || res.Effect != web.Effect ||
				res.Status != web.Status || res.Body != web.Body || res.Truncated != web.Truncated || got != want {
				t.Errorf("Replay: %v %v %d truncated=%v err=%q; Fetch: %v %v %d truncated=%v err=%q",
					res.Outcome, res.Effect, res.Status, res.Truncated, got, web.Outcome, web.Effect, web.Status, web.Truncated, want)
			}
			if len(res.Hops) != len(web.Hops) || len(asked) != len(res.Hops) {
				t.Fatalf("hops %v, asked %v; Fetch's %v", res.Hops, asked, web.Hops)
			}
			for i := range res.Hops {
				if res.Hops[i] != web.Hops[i] || asked[i] != web.Hops[i].URL {
					t.Errorf("hop %d: %v, asked %s; Fetch's %v", i, res.Hops[i], asked[i], web.Hops[i])
				}
			}
			if tc.name == "past 500 KiB" && (!res.Truncated || len(res.Body) != 500<<10) {
				t.Errorf("past 500 KiB: truncated=%v, %d bytes", res.Truncated, len(res.Body))
			}
		})
	}

	// A record that stops before the chain does: the request fails, as on the web.
	t.Run("record ends", func(t *testing.T) {
		u := redirectChain(1, 301)(t)
		missing := errors.New("not recorded")
		n := 0
		res, err := newClient(t, fetch.Config{}).Replay(u, func(url string) (*fetch.Recorded, error) {
			if n++; n > 1 {
				return nil, missing
			}
			return &fetch.Recorded{Status: 301, Header: http.Header{"Location": {"/r1"}}}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != fetch.Unreachable || res.Effect != fetch.DisallowAll || !errors.Is(res.Err, missing) || len(res.Hops) != 2 {
			t.Errorf("got %v %v err=%v hops=%v; want unreachable, disallow-all, the get's error, 2 hops", res.Outcome, res.Effect, res.Err, res.Hops)
		}
	})
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
