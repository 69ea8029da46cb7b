package gate

import (
	"errors"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// gateMetrics are the gate's Prometheus series: decisions by crawler, purpose,
// identity, action and reason. Every label takes few values: crawlers are the
// registry's names and the policy's tokens ("" for none), so the series stay
// bounded whatever the requests say.
type gateMetrics struct {
	decisions *prometheus.CounterVec
	// resolved holds the counters already looked up, so that a decision adds to a
	// counter without hashing its labels again.
	resolved sync.Map // metricKey → prometheus.Counter
}

type metricKey struct {
	crawler string
	purpose string
	id      Status
	action  string
	reason  Reason
}

func newGateMetrics(reg prometheus.Registerer) (*gateMetrics, error) {
	if reg == nil {
		return nil, nil
	}
	m := &gateMetrics{decisions: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "robots_gate_decisions_total",
		Help: "Requests judged by the robots.txt gate, by crawler (\"\" when the User-Agent names none), its main purpose, its identity (verified, impostor, cannot-tell), the action (pass, log: passed with a violation recorded, deny, limit) and the reason.",
	}, []string{"crawler", "purpose", "identity", "action", "reason"})}
	if err := reg.Register(m.decisions); err != nil {
		// A second gate on the same registry (two Caddy sites, a reload) adds to
		// the same series.
		var are prometheus.AlreadyRegisteredError
		if !errors.As(err, &are) {
			return nil, err
		}
		var ok bool
		if m.decisions, ok = are.ExistingCollector.(*prometheus.CounterVec); !ok {
			return nil, err
		}
	}
	return m, nil
}

func (m *gateMetrics) count(d *Decision) {
	if m == nil {
		return
	}
	k := metricKey{crawler: d.Crawler, purpose: string(d.Purpose), id: d.Identity.Status, action: d.Action(), reason: d.Reason}
	if c, ok := m.resolved.Load(k); ok {
		c.(prometheus.Counter).Inc()
		return
	}
	id := ""
	if d.Crawler != "" {
		id = d.Identity.Status.String()
	}
	c := m.decisions.WithLabelValues(k.crawler, k.purpose, id, k.action, k.reason.String())
	m.resolved.Store(k, c)
	c.Inc()
}
