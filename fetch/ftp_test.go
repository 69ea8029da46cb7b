package fetch_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/testenv"
)

// TestFTP fetches robots.txt from a real FTP server (vsftpd) by anonymous login.
func TestFTP(t *testing.T) {
	big := rulesBody + strings.Repeat("# filler\n", robots.DefaultMaxBytes/9+10) + "Disallow: /late\n"
	withFile := testenv.StartFTP(t, map[string]string{"robots.txt": rulesBody})
	withBig := testenv.StartFTP(t, map[string]string{"robots.txt": big})
	without := testenv.StartFTP(t, map[string]string{"index.html": "<html></html>"})

	tests := []struct {
		name      string
		addr      string
		outcome   fetch.Outcome
		status    int
		private   bool
		truncated bool
	}{
		{"file", withFile, fetch.Success, 226, false, false},
		{"file over the limit", withBig, fetch.Success, 226, false, true},
		{"no file", without, fetch.Unavailable, 550, true, false},
		{"refused", testenv.ClosedAddr(t), fetch.Unreachable, 0, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(t, fetch.Config{Timeout: 5 * time.Second})
			res := mustGet(t, c, "ftp://"+tc.addr+"/pub/file", t0)
			if res.Outcome != tc.outcome || res.Status != tc.status || res.Allowed(agent, "/private") != tc.private || res.Truncated != tc.truncated {
				t.Errorf("outcome %v status %d /private allowed %v truncated %v (err %v); want %v %d %v %v",
					res.Outcome, res.Status, res.Allowed(agent, "/private"), res.Truncated, res.Err,
					tc.outcome, tc.status, tc.private, tc.truncated)
			}
			if res.RobotsURL != "ftp://"+tc.addr+"/robots.txt" {
				t.Errorf("robots URL %q", res.RobotsURL)
			}
			if tc.truncated && (res.Allowed(agent, "/private") || !res.Allowed(agent, "/late") || res.BytesRead != robots.DefaultMaxBytes) {
				t.Errorf("over the limit: read %d bytes; want the rules of the first %d only", res.BytesRead, robots.DefaultMaxBytes)
			}
		})
	}
}
