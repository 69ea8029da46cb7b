package fetch_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
)

// TestDialectPolicy: the dialect picks the status policy unless Policy is set.
// Expected values: the 1996 draft §3.1 (401/403: "regard access to the site
// completely restricted"; 404: unrestricted) and §3.4 (7 days without cache
// headers, note the Expires header); RFC 9309 §2.3.1.3 and Google's documentation for its reading (every 4xx but 429
// allows all, 24 hours); the 1994 document says nothing on status codes, so Google's.
func TestDialectPolicy(t *testing.T) {
	legacy := fetch.Config{Dialect: robots.Legacy1996}
	for _, tt := range []struct {
		name    string
		cfg     fetch.Config
		status  int
		header  []string
		outcome fetch.Outcome
		effect  fetch.Effect
		private bool // /private/x allowed
		public  bool // /public/x allowed
		ttl     time.Duration
	}{
		{"legacy1996 401", legacy, 401, nil, fetch.Unavailable, fetch.DisallowAll, false, false, 7 * 24 * time.Hour},
		{"legacy1996 403", legacy, 403, nil, fetch.Unavailable, fetch.DisallowAll, false, false, 7 * 24 * time.Hour},
		{"legacy1996 404", legacy, 404, nil, fetch.Unavailable, fetch.AllowAll, true, true, 7 * 24 * time.Hour},
		{"legacy1996 410", legacy, 410, nil, fetch.Unavailable, fetch.AllowAll, true, true, 7 * 24 * time.Hour},
		{"legacy1996 200", legacy, 200, nil, fetch.Success, fetch.ObeyRules, false, true, 7 * 24 * time.Hour},
		{"legacy1996 503", legacy, 503, nil, fetch.Unreachable, fetch.DisallowAll, false, false, fetch.DefaultRetryMin},
		{"legacy1996 max-age", legacy, 200, []string{"Cache-Control", "max-age=3600"}, fetch.Success, fetch.ObeyRules, false, true, time.Hour},
		{"legacy1996 Expires", legacy, 200, []string{"Expires", "+2h"}, fetch.Success, fetch.ObeyRules, false, true, 2 * time.Hour},
		{"legacy1996 max-age over Expires", legacy, 200, []string{"Expires", "+2h", "Cache-Control", "max-age=3600"}, fetch.Success, fetch.ObeyRules, false, true, time.Hour},
		{"google 401", fetch.Config{}, 401, nil, fetch.Unavailable, fetch.AllowAll, true, true, 24 * time.Hour},
		{"google 403", fetch.Config{}, 403, nil, fetch.Unavailable, fetch.AllowAll, true, true, 24 * time.Hour},
		{"google 200", fetch.Config{}, 200, nil, fetch.Success, fetch.ObeyRules, false, true, 24 * time.Hour},
		{"google ignores Expires", fetch.Config{}, 200, []string{"Expires", "+2h"}, fetch.Success, fetch.ObeyRules, false, true, 24 * time.Hour},
		{"rfc9309 403", fetch.Config{Dialect: robots.RFC9309}, 403, nil, fetch.Unavailable, fetch.AllowAll, true, true, 24 * time.Hour},
		{"legacy1994 403", fetch.Config{Dialect: robots.Legacy1994}, 403, nil, fetch.Unavailable, fetch.AllowAll, true, true, 24 * time.Hour},
		{"legacy1994 200", fetch.Config{Dialect: robots.Legacy1994}, 200, nil, fetch.Success, fetch.ObeyRules, false, true, 24 * time.Hour},
		{"Policy overrides the dialect", fetch.Config{Dialect: robots.Legacy1996, Policy: fetch.GooglePolicy()}, 403, nil, fetch.Unavailable, fetch.AllowAll, true, true, 24 * time.Hour},
		{"a partial Policy takes the dialect's", fetch.Config{Dialect: robots.Legacy1996, Policy: fetch.Policy{TTL: time.Hour}}, 403, nil, fetch.Unavailable, fetch.DisallowAll, false, false, time.Hour},
		{"Legacy1996Policy for google files", fetch.Config{Policy: fetch.Legacy1996Policy()}, 403, nil, fetch.Unavailable, fetch.DisallowAll, false, false, 7 * 24 * time.Hour},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				date := time.Now().UTC()
				w.Header().Set("Date", date.Format(http.TimeFormat))
				for i := 0; i+1 < len(tt.header); i += 2 {
					v := tt.header[i+1]
					if d, err := time.ParseDuration(v); err == nil && tt.header[i] == "Expires" {
						v = date.Add(d).Format(http.TimeFormat)
					}
					w.Header().Set(tt.header[i], v)
				}
				w.WriteHeader(tt.status)
				w.Write([]byte(rulesBody))
			})
			res := mustGet(t, newClient(t, tt.cfg), srv.URL+"/", t0)
			private, public := verdicts(res)
			if res.Outcome != tt.outcome || res.Effect != tt.effect || private != tt.private || public != tt.public {
				t.Errorf("%v %v, /private allowed %v, /public allowed %v; want %v %v, %v, %v",
					res.Outcome, res.Effect, private, public, tt.outcome, tt.effect, tt.private, tt.public)
			}
			if got := res.ExpiresAt.Sub(t0); got != tt.ttl {
				t.Errorf("lifetime %v; want %v", got, tt.ttl)
			}
		})
	}
}
