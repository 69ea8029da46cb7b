// Package fetchtest holds the contract every fetch.Store must meet, run by the tests
// of fetch and of each store (boltstore, redisstore). The real programs and loopback
// servers the tests need are in internal/testenv.
package fetchtest

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/gorobots/robots/fetch"
)

// SampleResult returns a stale result (the latest fetch unreachable, the copy in
// effect) with every stored field set, its body holding bytes that a text encoding
// would damage (a BOM, CR, NUL, invalid UTF-8).
func SampleResult(origin string, fetchedAt time.Time) *fetch.Result {
	body := "\xef\xbb\xbfUser-agent: *\r\nDisallow: /x\x00\xff\n"
	return &fetch.Result{
		Origin: origin, RobotsURL: origin + "/robots.txt",
		Outcome: fetch.Unreachable, Effect: fetch.ObeyRules, Body: body, Stale: true, Status: 503,
		Hops:      []fetch.Hop{{URL: origin + "/robots.txt", Status: 301}, {URL: "http://other.example/robots.txt", Status: 503}},
		BytesRead: 0, WireBytes: 12, Encoding: "gzip",
		Addrs:     []string{"192.0.2.1:80", "[2001:db8::1]:443"},
		FetchedAt: fetchedAt, ExpiresAt: fetchedAt.Add(time.Minute), Err: &fetch.Error{Kind: fetch.KindTimeout, Text: "reading body: i/o timeout"},
		LastSuccess: fetchedAt.Add(-time.Hour), Failures: 2, FailingSince: fetchedAt.Add(-2 * time.Minute),
		Copy: &fetch.Result{
			Origin: origin, RobotsURL: origin + "/robots.txt", Outcome: fetch.Success, Effect: fetch.ObeyRules,
			Status: 200, Hops: []fetch.Hop{{URL: origin + "/robots.txt", Status: 200}},
			Body:      body,
			BytesRead: 33, WireBytes: 33, Truncated: true, Addrs: []string{"192.0.2.1:80"},
			FetchedAt: fetchedAt.Add(-time.Hour), ExpiresAt: fetchedAt.Add(23 * time.Hour),
			LastSuccess: fetchedAt.Add(-time.Hour),
		},
	}
}

// TestStore checks the contract of a Store: unknown origins load as nil, saved
// results load back equal (to the nanosecond, bytes intact), a save replaces, and
// origins are kept apart.
func TestStore(t *testing.T, s fetch.Store) {
	ctx := context.Background()
	now := time.Date(2026, 11, 21, 12, 0, 0, 123456789, time.UTC)
	prefix := fmt.Sprintf("http://store-%d.test", time.Now().UnixNano())

	got, err := s.Load(ctx, prefix+"-unknown")
	if err != nil || got != nil {
		t.Fatalf("Load(unknown) = %+v, %v; want nil, nil", got, err)
	}

	a, b := SampleResult(prefix+"-a", now), SampleResult(prefix+"-b", now.Add(time.Second))
	b.Copy, b.Stale, b.Effect, b.Body = nil, false, fetch.DisallowAll, ""
	for _, e := range []*fetch.Result{a, b} {
		if err := s.Save(ctx, e); err != nil {
			t.Fatalf("Save(%s): %v", e.Origin, err)
		}
	}
	for _, want := range []*fetch.Result{a, b} {
		got, err := s.Load(ctx, want.Origin)
		if err != nil {
			t.Fatalf("Load(%s): %v", want.Origin, err)
		}
		assertEntry(t, got, want)
	}

	a2 := SampleResult(prefix+"-a", now.Add(time.Hour))
	a2.Outcome, a2.Effect, a2.Body, a2.Stale, a2.Copy, a2.Status = fetch.Unavailable, fetch.AllowAll, "", false, nil, 404
	if err := s.Save(ctx, a2); err != nil {
		t.Fatalf("Save again: %v", err)
	}
	got, err = s.Load(ctx, a2.Origin)
	if err != nil {
		t.Fatal(err)
	}
	assertEntry(t, got, a2)
}

func assertEntry(t *testing.T, got, want *fetch.Result) {
	t.Helper()
	if got == nil {
		t.Fatalf("Load(%s) = nil; want the saved result", want.Origin)
	}
	g, w := normalize(got), normalize(want)
	if !reflect.DeepEqual(g, w) {
		t.Errorf("Load(%s):\ngot  %+v\nwant %+v", want.Origin, g, w)
		if g.Copy != nil && w.Copy != nil {
			t.Errorf("copies:\ngot  %+v\nwant %+v", *g.Copy, *w.Copy)
		}
	}
}

// normalize puts times in UTC: stores may return another location, and the
// instant is what counts.
func normalize(e *fetch.Result) fetch.Result {
	c := *e
	for _, tp := range []*time.Time{&c.FetchedAt, &c.ExpiresAt, &c.LastSuccess, &c.FailingSince} {
		*tp = tp.UTC()
	}
	if c.Copy != nil {
		cp := normalize(c.Copy)
		c.Copy = &cp
	}
	return c
}
