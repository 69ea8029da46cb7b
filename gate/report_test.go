package gate

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gorobots/robots/accesslog"
)

// A crawler the policy names by a token the registry does not know is enforced
// by its token, and its row of the report merges with "robots logs -merge"
// (accesslog.Merge), alone and with another gate's report of the same file.
func TestReportOfCrawlerOutsideRegistry(t *testing.T) {
	const robotsTxt = "User-agent: ExampleBot\nDisallow: /secret\n\nUser-agent: *\nDisallow: /private/\n"
	file := writeRobots(t, robotsTxt)
	newGate := func() *Gate {
		g, err := New(Config{Sites: []Site{{Host: "example.com", File: file}},
			Policy: Policy{Crawlers: []string{"ExampleBot", "GPTBot"}, Disallowed: Refuse}, Verifier: testVerifier, Now: newClock().now})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	const uaExample = "Mozilla/5.0 (compatible; ExampleBot/3.1; +https://bot.example/)"
	a, b := newGate(), newGate()
	for _, r := range []struct {
		g       *Gate
		ua, uri string
		verdict Verdict
	}{
		{a, uaExample, "/robots.txt", Pass},
		{a, uaExample, "/secret/plans", Deny}, // line 2
		{a, uaExample, "/private/x", Pass},    // ExampleBot's own group replaces *
		{b, uaExample, "/secret", Deny},
		{b, uaGPTBot, "/private/y", Deny}, // line 5, for GPTBot (in the registry)
	} {
		if d := r.g.Decide(context.Background(), req(r.ua, otherAddr, r.uri)); d.Verdict != r.verdict {
			t.Errorf("%.20s… %s: %s (%s), want %s", r.ua, r.uri, d.Verdict, d.Reason, r.verdict)
		}
	}
	// Through JSON, as robots logs -merge reads the gate's /v1/gate-report.
	reports := []*accesslog.Report{jsonRoundTrip(t, a.Report()), jsonRoundTrip(t, b.Report())}
	for _, rs := range [][]*accesslog.Report{reports[:1], reports} {
		m, err := accesslog.Merge(rs...)
		if err != nil {
			t.Fatalf("merging %d gate reports: %v", len(rs), err)
		}
		rows := map[string]accesslog.Row{}
		for _, r := range m.Crawlers {
			rows[r.Crawler+" "+r.Identity] = r
		}
		ex := rows["ExampleBot cannot-tell"]
		wantReq, wantDis := int64(3), int64(1)
		if len(rs) == 2 {
			wantReq, wantDis = 4, 2
		}
		if ex.Requests != wantReq || ex.Disallowed != wantDis || ex.RobotsFetches != 1 || len(ex.Rules) != 1 || ex.Rules[0].Line != 2 {
			t.Errorf("%d reports: ExampleBot's row %+v, want %d requests, %d disallowed by line 2, 1 robots.txt fetch", len(rs), ex, wantReq, wantDis)
		}
		if gpt := rows["GPTBot impostor"]; len(rs) == 2 && (gpt.Disallowed != 1 || gpt.Rules[0].Line != 5 || gpt.Operator != "OpenAI") {
			t.Errorf("GPTBot's row %+v, want 1 disallowed by line 5, operator OpenAI", gpt)
		}
	}
}

// A report row that names no product token is refused with a reason.
func TestMergeRefusesBadCrawlerName(t *testing.T) {
	g := newTestGate(t, Policy{Crawlers: []string{"ExampleBot"}}, Forward{})
	g.Decide(context.Background(), req("ExampleBot/1.0", otherAddr, "/"))
	rep := jsonRoundTrip(t, g.Report())
	rep.Crawlers[0].Crawler = "Example Bot\n"
	if _, err := accesslog.Merge(rep); err == nil || !strings.Contains(err.Error(), "not a product token") {
		t.Errorf("merging a row named %q: %v, want an error saying it is not a product token", rep.Crawlers[0].Crawler, err)
	}
}

// A site of AnyHost serves every host no other site names, from its own file.
func TestAnyHost(t *testing.T) {
	g, err := New(Config{Sites: []Site{{Host: AnyHost, File: writeRobots(t, "User-agent: GPTBot\nDisallow: /\n")},
		{Host: "example.com", File: writeRobots(t, siteRobots)}}, Policy: Policy{Disallowed: Refuse}, Verifier: testVerifier})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		host, uri string
		verdict   Verdict
		line      int
	}{
		{"other.example", "/a", Deny, 2},
		{"other.example:8443", "/a", Deny, 2},
		{"example.com", "/private/x", Deny, 6}, // example.com's own file: GPTBot's Disallow: /
		{"example.com", "/robots.txt", Pass, 0},
	} {
		r := req(uaGPTBot, openAIAddr, tt.uri)
		r.Host = tt.host
		d := g.Decide(context.Background(), r)
		if d.Verdict != tt.verdict || d.Rule.Line != tt.line {
			t.Errorf("%s%s: %s by line %d, want %s by line %d", tt.host, tt.uri, d.Verdict, d.Rule.Line, tt.verdict, tt.line)
		}
	}
	if _, err := New(Config{Sites: []Site{{Host: AnyHost}}}); err == nil || !strings.Contains(err.Error(), "never fetches") {
		t.Errorf("a site of any host without a file or origin: %v, want an error", err)
	}
}

func jsonRoundTrip(t *testing.T, r *accesslog.Report) *accesslog.Report {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var out accesslog.Report
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return &out
}

// Two gates on one registry (two Caddy sites, a reload) count in the same series.
func TestTwoGatesOneRegistry(t *testing.T) {
	reg := prometheus.NewRegistry()
	file := writeRobots(t, siteRobots)
	for range 2 {
		g, err := New(Config{Sites: []Site{{Host: AnyHost, File: file}}, Verifier: testVerifier, Registerer: reg})
		if err != nil {
			t.Fatalf("a second gate on the registry: %v", err)
		}
		g.Decide(context.Background(), req(uaGPTBot, openAIAddr, "/x"))
	}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == "robots_gate_decisions_total" {
			if m := mf.GetMetric(); len(m) != 1 || m[0].GetCounter().GetValue() != 2 {
				t.Errorf("robots_gate_decisions_total: %v, want one series counting 2", m)
			}
			return
		}
	}
	t.Error("no robots_gate_decisions_total")
}
