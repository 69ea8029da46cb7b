package corpus

import "testing"

// The naming rules come from shared/corpus/SOURCES.md: lower-cased host, ":port"
// becomes "_port", default ":443"/":80" dropped.
func TestHostKey(t *testing.T) {
	tests := []struct {
		name, url, want string
		ok              bool
	}{
		{"plain", "https://www.example.com/a?b", "www.example.com", true},
		{"upper case", "https://WWW.Example.COM/", "www.example.com", true},
		{"no path", "https://4chan.org", "4chan.org", true},
		{"query without path", "https://jalopnik.com?startTime=1", "jalopnik.com", true},
		{"default https port", "https://example.com:443/x", "example.com", true},
		{"default http port", "http://example.com:80/x", "example.com", true},
		{"other port", "http://example.com:8080/x", "example.com_8080", true},
		{"443 on http is not default", "http://example.com:443/x", "example.com_443", true},
		{"path only", "/just/a/path", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := HostKey(tt.url)
			if got != tt.want || ok != tt.ok {
				t.Errorf("HostKey(%q) = %q, %v; want %q, %v", tt.url, got, ok, tt.want, tt.ok)
			}
		})
	}
}
