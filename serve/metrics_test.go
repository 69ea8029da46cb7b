package serve

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil/promlint"

	"github.com/gorobots/robots/internal/buildinfo"
)

// scrape returns the text of s's /metrics.
func scrape(t *testing.T, s *Server) string {
	t.Helper()
	resp, err := http.Get("http://" + s.Addr() + "/metrics")
	b := readBody(t, resp, err)
	return string(b)
}

// TestOperatorMetrics: the series an operator alerts on are exported, with the
// values the requests made imply.
func TestOperatorMetrics(t *testing.T) {
	ok := newOrigin(t, 200, "User-agent: *\nDisallow: /x\n")
	// A port nothing listens on: the fetch fails to connect.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	s, _ := start(t, Config{AllowPrivate: true})
	var a checkAnswer
	get(t, s, checkPath([]string{"a"}, ok.URL+"/x"), &a)
	get(t, s, checkPath([]string{"a"}, closed+"/x"), &a)
	text := scrape(t, s)

	bi := buildinfo.Read()
	for _, tc := range []struct{ name, want string }{
		{"build info", fmt.Sprintf(`robots_build_info{goversion=%q,revision=%q,version=%q} 1`, bi.GoVersion, bi.Revision, bi.Version)},
		{"go collector", "go_goroutines "},
		{"process collector", "process_cpu_seconds_total "},
		{"fetch outcomes", `robots_fetches_total{outcome="unreachable"} 1`},
		{"fetch errors by kind", `robots_fetch_errors_total{kind="connect"} 1`},
		{"store errors", "robots_store_errors_total 0"},
		{"cache size (origins)", "robots_cache_origins 2"},
		{"cache size (bytes)", "robots_cache_bytes "},
		{"in-flight fetches", "robots_fetches_in_flight 0"},
		{"per-endpoint latency", `robots_http_request_duration_seconds_count{handler="check"} 2`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(text, tc.want) {
				t.Errorf("/metrics lacks %q", tc.want)
			}
		})
	}
}

// TestMetricNames: every series, ours and the collectors', passes promlint (the
// Prometheus naming conventions: units, _total on counters, help text).
func TestMetricNames(t *testing.T) {
	o := newOrigin(t, 200, "User-agent: *\nDisallow: /x\n")
	s, _ := start(t, Config{AllowPrivate: true})
	var a checkAnswer
	get(t, s, checkPath([]string{"a"}, o.URL+"/x"), &a)
	problems, err := promlint.New(strings.NewReader(scrape(t, s))).Lint()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("promlint: %s: %s", p.Metric, p.Text)
	}
}
