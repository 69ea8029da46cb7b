package testenv

import (
	"testing"
	"time"
)

// The development machine is shared: other jobs stretch wall-clock times by a
// factor that changes from minute to minute. The process's CPU time (garbage
// collector included) stretches much less, so the benchmarks also report rates per
// CPU second ("/cpu-s") to compare against.

// Meter measures one benchmark's CPU time.
type Meter struct {
	b     *testing.B
	start time.Duration
	ok    bool
}

// StartMeter reports allocations, resets the timer and starts measuring CPU time;
// call it just before the benchmark's loop.
func StartMeter(b *testing.B) Meter {
	b.ReportAllocs()
	b.ResetTimer()
	t, ok := CPUTime()
	return Meter{b, t, ok}
}

// Report reports perOp×b.N units per wall-clock second as wallUnit (unless it is
// empty) and per CPU second as cpuUnit (where the system reports CPU time).
func (m Meter) Report(perOp float64, wallUnit, cpuUnit string) {
	total := perOp * float64(m.b.N)
	if s := m.b.Elapsed().Seconds(); s > 0 && wallUnit != "" {
		m.b.ReportMetric(total/s, wallUnit)
	}
	if end, ok := CPUTime(); ok && m.ok && end > m.start {
		m.b.ReportMetric(total/(end-m.start).Seconds(), cpuUnit)
	}
}

// Decisions reports the rates of decisions when each op makes perOp of them.
func (m Meter) Decisions(perOp int) {
	m.Report(float64(perOp), "decisions/s", "decisions/cpu-s")
}

// Bytes reports the parse rate when each op parses perOp bytes: MB/s through
// b.SetBytes, and MB per CPU second.
func (m Meter) Bytes(perOp int64) {
	m.b.SetBytes(perOp)
	m.Report(float64(perOp)/1e6, "", "MB/cpu-s")
}
