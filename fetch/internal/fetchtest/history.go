package fetchtest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gorobots/robots/fetch"
)

// TestHistory checks the history contract of a Historian: each fetch that reached
// the origin is a version unless it found the same file as the latest (which is
// then seen again), unreachable fetches make none, bodies come back byte for
// byte, origins are kept apart, and each origin keeps at most
// fetch.HistoryVersions versions whose bodies add up to at most fetch.HistoryBytes,
// dropping the oldest.
func TestHistory(t *testing.T, s fetch.Historian) {
	ctx := context.Background()
	t0 := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	prefix := fmt.Sprintf("http://history-%d.test", time.Now().UnixNano())
	origin := prefix + "-a"
	save := func(at time.Duration, outcome fetch.Outcome, effect fetch.Effect, status int, body string) {
		t.Helper()
		r := &fetch.Result{Origin: origin, RobotsURL: origin + "/robots.txt", Outcome: outcome, Effect: effect, Status: status,
			Body: body, FetchedAt: t0.Add(at), ExpiresAt: t0.Add(at + time.Hour)}
		if err := s.Save(ctx, r); err != nil {
			t.Fatalf("Save: %v", err)
		}
	}
	a := "\xef\xbb\xbfUser-agent: *\r\nDisallow: /x\x00\xff\n" // bytes a text encoding would damage
	b := "User-agent: *\nDisallow: /\n"
	save(0, fetch.Success, fetch.ObeyRules, 200, a)
	save(time.Hour, fetch.Success, fetch.ObeyRules, 200, a)          // the same file again
	save(2*time.Hour, fetch.Unreachable, fetch.DisallowAll, 503, "") // no version
	save(3*time.Hour, fetch.Unavailable, fetch.AllowAll, 404, "")    // the file was removed
	save(4*time.Hour, fetch.Success, fetch.ObeyRules, 200, b)

	got, err := s.History(ctx, origin)
	if err != nil {
		t.Fatal(err)
	}
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	want := []fetch.Version{
		{N: 3, FetchedAt: t0.Add(4 * time.Hour), SeenAt: t0.Add(4 * time.Hour), Fetches: 1, Outcome: fetch.Success, Status: 200, Effect: fetch.ObeyRules, SHA256: sum(b), Body: b},
		{N: 2, FetchedAt: t0.Add(3 * time.Hour), SeenAt: t0.Add(3 * time.Hour), Fetches: 1, Outcome: fetch.Unavailable, Status: 404, Effect: fetch.AllowAll, SHA256: sum(""), Body: ""},
		{N: 1, FetchedAt: t0, SeenAt: t0.Add(time.Hour), Fetches: 2, Outcome: fetch.Success, Status: 200, Effect: fetch.ObeyRules, SHA256: sum(a), Body: a},
	}
	assertVersions(t, got, want)

	if h, err := s.History(ctx, prefix+"-other"); err != nil || len(h) != 0 {
		t.Errorf("History(an origin never saved) = %d versions, %v; want none", len(h), err)
	}

	// The count limit: HistoryVersions + 5 more files, the oldest dropped.
	for i := range fetch.HistoryVersions + 5 {
		save(time.Duration(5+i)*time.Hour, fetch.Success, fetch.ObeyRules, 200, fmt.Sprintf("User-agent: *\nDisallow: /v%d\n", i))
	}
	got, err = s.History(ctx, origin)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != fetch.HistoryVersions || got[0].N != 3+fetch.HistoryVersions+5 || got[len(got)-1].N != 3+5+1 {
		t.Errorf("after %d more files: %d versions, N %d to %d; want %d, N %d to %d", fetch.HistoryVersions+5,
			len(got), got[len(got)-1].N, got[0].N, fetch.HistoryVersions, 3+5+1, 3+fetch.HistoryVersions+5)
	}

	// The bytes limit: files of 300 KiB, of which HistoryBytes holds 6.
	const big = 300 << 10
	for i := range 8 {
		save(time.Duration(100+i)*time.Hour, fetch.Success, fetch.ObeyRules, 200, "User-agent: *\n"+strings.Repeat(fmt.Sprint(i), big-14))
	}
	got, err = s.History(ctx, origin)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, v := range got {
		total += len(v.Body)
	}
	if want := fetch.HistoryBytes / big; len(got) != want || total > fetch.HistoryBytes || got[0].Body[14] != '7' {
		t.Errorf("after 8 files of %d bytes: %d versions of %d bytes in all, the latest %q…; want %d (at most %d bytes), the latest of 7s",
			big, len(got), total, got[0].Body[:16], want, fetch.HistoryBytes)
	}
}

func assertVersions(t *testing.T, got, want []fetch.Version) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("History: %d versions; want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		g := got[i]
		g.FetchedAt, g.SeenAt = g.FetchedAt.UTC(), g.SeenAt.UTC()
		if g != want[i] {
			t.Errorf("version %d:\ngot  %+v\nwant %+v", i, g, want[i])
		}
	}
}
