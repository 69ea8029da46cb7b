package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
)

// TestMonitorUnreachable: an origin found unreachable is no change of its file (no
// group is "removed"); the verdicts it turns to disallowed are the changes.
func TestMonitorUnreachable(t *testing.T) {
	const o = "https://example.com"
	rule := "Disallow: /private/"
	t0 := time.Date(2026, 11, 28, 6, 0, 0, 0, time.UTC)
	prev := &monitorState{Format: 1, CheckedAt: t0,
		Origins:  map[string]*originSeen{o: {FetchedAt: t0, Outcome: fetch.Success, Status: 200, Effect: fetch.ObeyRules, SHA256: "a", Body: "User-agent: *\n" + rule + "\n"}},
		Verdicts: []monitorVerdict{{URL: o + "/", Agent: "Googlebot", Allowed: true}, {URL: o + "/private/x", Agent: "Googlebot", Allowed: false, Rule: &rule, Line: 2}}}
	t1 := t0.Add(time.Hour)
	next := &monitorState{Format: 1, CheckedAt: t1,
		Origins:  map[string]*originSeen{o: {FetchedAt: t1, Outcome: fetch.Unreachable, Status: 503, Effect: fetch.DisallowAll, SHA256: "e"}},
		Verdicts: []monitorVerdict{{URL: o + "/", Agent: "Googlebot", Allowed: false}, {URL: o + "/private/x", Agent: "Googlebot", Allowed: false}}}
	rep := compareStates(prev, next, robots.Google)
	if !rep.changed() || len(rep.Changes) != 1 || rep.Changes[0].Kind != "url" || rep.Changes[0].URL != o+"/" {
		t.Fatalf("changes %+v; want the root's verdict alone", rep.Changes)
	}
	var b bytes.Buffer
	rep.writeText(&b, "state.json")
	out := b.String()
	if !strings.Contains(out, "changed: unreachable (HTTP 503): every URL disallowed, fetched 2026-11-28T07:00:00Z (was success (HTTP 200)") ||
		strings.Contains(out, "group") || !strings.Contains(out, "allowed (no rule matched)\n    -> disallowed (no rule matched)\n    for Googlebot\n    - "+o+"/\n") {
		t.Errorf("text:\n%s", out)
	}
}
