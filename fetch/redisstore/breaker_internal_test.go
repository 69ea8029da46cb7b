package redisstore

import (
	"testing"
	"time"
)

// An operation let through while the breaker was closed may answer after others
// opened it: its late success must not close the breaker (only the probe does), or
// one outage is logged as two (serve's TestRedisOutage/killed saw it about one run in
// four).
func TestBreakerLateAnswer(t *testing.T) {
	var b breaker
	now := time.Now()
	ok, late := b.allow(now)
	if !ok || late {
		t.Fatalf("closed breaker: allow = %v, probe %v; want true, false", ok, late)
	}
	var tr transition
	for range FailuresToOpen {
		_, p := b.allow(now)
		tr = b.done(true, p, now, time.Second, time.Minute)
	}
	if tr != opened {
		t.Fatalf("after %d failures: %v; want opened", FailuresToOpen, tr)
	}
	if tr := b.done(false, late, now, time.Second, time.Minute); tr != unchanged {
		t.Errorf("a late success while open: %v; want unchanged", tr)
	}
	if ok, _ := b.allow(now.Add(time.Millisecond)); ok {
		t.Error("the breaker let an operation through before its retry time")
	}
	later := now.Add(2 * time.Second)
	ok, probe := b.allow(later)
	if !ok || !probe {
		t.Fatalf("after the retry time: allow = %v, probe %v; want true, true", ok, probe)
	}
	if tr := b.done(false, probe, later, time.Second, time.Minute); tr != closed {
		t.Errorf("the probe's success: %v; want closed", tr)
	}
}
