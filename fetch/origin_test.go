package fetch_test

import (
	"testing"

	"github.com/gorobots/robots/fetch"
)

// TestOrigin: the origins of SPEC §1. Spellings of one origin give one key; other
// schemes, hosts and ports are other origins.
func TestOrigin(t *testing.T) {
	tests := []struct {
		url, origin string
	}{
		{"https://example.com/", "https://example.com"},
		{"https://example.com", "https://example.com"},
		{"HTTPS://EXAMPLE.com/Path", "https://example.com"},
		{"https://example.com:443/a", "https://example.com"},
		{"http://example.com:80/a", "http://example.com"},
		{"ftp://example.com:21/a", "ftp://example.com"},
		{"http://example.com:443/", "http://example.com:443"},
		{"https://example.com:8181/", "https://example.com:8181"},
		{"https://example.com:08181/", "https://example.com:8181"},
		{"http://www.exämple.com/", "http://www.xn--exmple-cua.com"},
		{"http://www.xn--exmple-cua.com/", "http://www.xn--exmple-cua.com"},
		{"http://WWW.EXÄMPLE.COM/", "http://www.xn--exmple-cua.com"},
		{"http://user:pass@example.com/", "http://example.com"},
		{"http://my_host.example.com/", "http://my_host.example.com"},
		{"http://192.0.2.1:8080/x", "http://192.0.2.1:8080"},
		{"http://[::1]:80/", "http://[::1]"},
		{"http://[0:0::1]:8080/", "http://[::1]:8080"},
		{" https://example.com/#frag ", "https://example.com"},
	}
	for _, tc := range tests {
		origin, robotsURL, err := fetch.Origin(tc.url)
		if err != nil || origin != tc.origin || robotsURL != tc.origin+"/robots.txt" {
			t.Errorf("Origin(%q) = %q, %q, %v; want %q", tc.url, origin, robotsURL, err, tc.origin)
		}
	}
	for _, bad := range []string{"", "example.com", "/robots.txt", "file:///etc/passwd", "http://", "http://:80/",
		"http://example.com:0/", "http://example.com:65536/", "http://example.com:x/", "http://[::1/"} {
		if o, _, err := fetch.Origin(bad); err == nil {
			t.Errorf("Origin(%q) = %q; want an error", bad, o)
		}
	}
}
