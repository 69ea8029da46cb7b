package serve

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/buildinfo"
)

// metrics are the server's Prometheus series. Label values are resolved once where
// they are known in advance, so that the hot path only adds to a counter.
type metrics struct {
	requests       *prometheus.CounterVec   // by handler and status code
	duration       *prometheus.HistogramVec // by handler
	allowed        prometheus.Counter
	disallowed     prometheus.Counter
	fetches        *prometheus.CounterVec // by outcome
	fetchTime      prometheus.Histogram
	hits           prometheus.Counter
	misses         prometheus.Counter
	waits          prometheus.Counter
	storeErrors    prometheus.Counter
	fetchErrors    *prometheus.CounterVec // by fetch.ErrorKind
	rejected       prometheus.Counter     // batches answered 503: MaxBatches were in progress
	slowBodies     prometheus.Counter     // requests answered 408: the body came slower than MinBodyRate
	auditsRejected prometheus.Counter     // audits answered 503: MaxAudits were running
	// budgetRefused counts origins of batches not looked up: BatchMaxBytes were held
	budgetRefused prometheus.Counter
	// stopped counts requests whose work ended before it was done, by why: their
	// CPU budget spent ("cpu-budget") or their deadline passed ("timeout").
	stopped *prometheus.CounterVec
	page    *handlerMetrics
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	decisions := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "robots_decisions_total", Help: "URL decisions made, by verdict.",
	}, []string{"verdict"})
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "robots_http_requests_total", Help: "HTTP requests answered, by handler and status code.",
		}, []string{"handler", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "robots_http_request_duration_seconds", Help: "Time to answer HTTP requests, by handler.",
			Buckets: []float64{.0001, .0005, .001, .0025, .005, .01, .05, .1, .5, 1, 5, 30},
		}, []string{"handler"}),
		allowed:    decisions.WithLabelValues("allowed"),
		disallowed: decisions.WithLabelValues("disallowed"),
		fetches: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "robots_fetches_total", Help: "robots.txt fetches made, by outcome.",
		}, []string{"outcome"}),
		fetchTime: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "robots_fetch_duration_seconds", Help: "Time taken by robots.txt fetches, redirects included.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}),
		hits:           newCounter("robots_cache_hits_total", "Lookups answered by a fresh cached robots.txt."),
		misses:         newCounter("robots_cache_misses_total", "Lookups that needed a fetch."),
		waits:          newCounter("robots_singleflight_waits_total", "Lookups that waited for a fetch of the same origin already in flight."),
		storeErrors:    newCounter("robots_store_errors_total", "Cache store operations that failed (the server went on without the store)."),
		rejected:       newCounter("robots_batches_rejected_total", "Checks, lints and GET /v1/robots answered 503 because MaxBatches were being answered."),
		slowBodies:     newCounter("robots_slow_bodies_total", "Requests answered 408 because their body came slower than -min-body-rate."),
		auditsRejected: newCounter("robots_audits_rejected_total", "Audits (API and tester) answered 503 because MaxAudits were running."),
		budgetRefused:  newCounter("robots_batch_origins_over_budget_total", "Origins of batch requests not looked up because the batch held -batch-max-bytes of robots.txt files."),
		stopped: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "robots_requests_stopped_total", Help: "API requests and tester Tests whose work ended before it was done (a batch or Test answered in part, a check or lint 413 or 504), by why: cpu-budget (-cpu-budget spent) or timeout.",
		}, []string{"reason"}),
		fetchErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "robots_fetch_errors_total", Help: "robots.txt fetches that failed, by kind of failure (dns, timeout, connect, tls, ...).",
		}, []string{"kind"}),
	}
	bi := buildinfo.Read()
	build := prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "robots_build_info", Help: "The build of the running server: always 1, with the module version, VCS revision and Go version as labels.",
	}, []string{"version", "revision", "goversion"})
	build.WithLabelValues(bi.Version, bi.Revision, bi.GoVersion).Set(1)
	for _, c := range []prometheus.Collector{m.requests, m.duration, decisions, m.fetches, m.fetchTime, m.hits, m.misses, m.waits, m.storeErrors, m.fetchErrors, m.rejected, m.slowBodies, m.auditsRejected, m.budgetRefused, m.stopped, build} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	// The runtime's and the process's own series, as every Go exporter has them. A
	// registry that has them already (given in Config) keeps its own.
	for _, c := range []prometheus.Collector{collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})} {
		var are prometheus.AlreadyRegisteredError
		if err := reg.Register(c); err != nil && !errors.As(err, &are) {
			return nil, err
		}
	}
	for _, o := range []fetch.Outcome{fetch.Success, fetch.Unavailable, fetch.Unreachable} {
		m.fetches.WithLabelValues(o.String()) // so that every outcome shows from the start
	}
	m.page = m.handler("page")
	return m, nil
}

func (m *metrics) decided(allowed bool) {
	if allowed {
		m.allowed.Inc()
	} else {
		m.disallowed.Inc()
	}
}

func (m *metrics) observer() fetch.Observer {
	return fetch.Observer{
		CacheHit:   func(string) { m.hits.Inc() },
		CacheMiss:  func(string) { m.misses.Inc() },
		FlightWait: func(string) { m.waits.Inc() },
		Fetched: func(r *fetch.Result, took time.Duration) {
			m.fetches.WithLabelValues(r.Outcome.String()).Inc()
			var fe *fetch.Error
			if errors.As(r.Err, &fe) {
				m.fetchErrors.WithLabelValues(fe.Kind.String()).Inc()
			}
			m.fetchTime.Observe(took.Seconds())
		},
		StoreError: func(string, error) { m.storeErrors.Inc() },
	}
}

// handlerMetrics are one handler's series, resolved once.
type handlerMetrics struct {
	name     string
	requests *prometheus.CounterVec
	ok       prometheus.Counter
	duration prometheus.Observer
}

func (m *metrics) handler(name string) *handlerMetrics {
	return &handlerMetrics{
		name:     name,
		requests: m.requests,
		ok:       m.requests.WithLabelValues(name, "200"),
		duration: m.duration.WithLabelValues(name),
	}
}

func (h *handlerMetrics) done(code int, start time.Time) {
	if code == http.StatusOK {
		h.ok.Inc()
	} else {
		h.requests.WithLabelValues(h.name, strconv.Itoa(code)).Inc()
	}
	h.duration.Observe(time.Since(start).Seconds())
}

// clientMetrics are the fetch client's figures, read at each scrape.
func clientMetrics(c *fetch.Client) []prometheus.Collector {
	gauge := func(name, help string, v func(fetch.Stats) float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 { return v(c.Stats()) })
	}
	return []prometheus.Collector{
		gauge("robots_cache_origins", "Origins whose parsed robots.txt the server holds in memory.",
			func(s fetch.Stats) float64 { return float64(s.Origins) }),
		gauge("robots_cache_bytes", "Estimated bytes of the parsed robots.txt files held in memory (bounded by -memory).",
			func(s fetch.Stats) float64 { return float64(s.Bytes) }),
		gauge("robots_fetches_in_flight", "robots.txt fetches in progress (bounded by -max-inflight).",
			func(s fetch.Stats) float64 { return float64(s.InFlight) }),
		gauge("robots_fetches_queued", "robots.txt fetches waiting for a slot (bounded by fetch.DefaultMaxQueued, and only while someone waits for them).",
			func(s fetch.Stats) float64 { return float64(s.Queued) }),
	}
}

// StoreHealthTimeout bounds the health check of the cache store that a scrape of
// /metrics makes (robots_store_up): a store that takes longer is reported down.
const StoreHealthTimeout = time.Second

// storeUp is robots_store_up: 1 while the store reports itself usable, 0 while it
// does not (a Redis outage, during which the server answers from memory and by
// fetching). It is asked at each scrape.
func storeUp(hc fetch.HealthChecker) prometheus.Collector {
	return prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "robots_store_up", Help: "Whether the cache store (Redis) is usable: 1 yes, 0 no (the server then answers from memory and by fetching).",
	}, func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), StoreHealthTimeout)
		defer cancel()
		if hc.Health(ctx) != nil {
			return 0
		}
		return 1
	})
}

// newCounter is a counter named name, explained by help.
func newCounter(name, help string) prometheus.Counter {
	return prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
}
