package corpus

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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

// TestDirFlag: -corpus names the directory; without it, Find looks ($ROBOTS_CORPUS
// here), and when it finds none the error says what to give.
func TestDirFlag(t *testing.T) {
	good := t.TempDir()
	if err := os.Mkdir(filepath.Join(good, "robots"), 0o755); err != nil {
		t.Fatal(err)
	}
	dirOf := func(args ...string) (string, error) {
		fs := flag.NewFlagSet("cmd", flag.ContinueOnError)
		dir := DirFlag(fs, "its files")
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		return dir()
	}
	t.Setenv(EnvDir, good)
	if got, err := dirOf("-corpus", "elsewhere"); got != "elsewhere" || err != nil {
		t.Errorf("with -corpus: %q, %v; want elsewhere", got, err)
	}
	if got, err := dirOf(); got != good || err != nil {
		t.Errorf("without -corpus: %q, %v; want $%s, %s", got, err, EnvDir, good)
	}
	t.Setenv(EnvDir, filepath.Join(good, "missing"))
	if _, err := dirOf(); err == nil || !strings.Contains(err.Error(), "give -corpus or set $"+EnvDir) {
		t.Errorf("with a $%s that holds no corpus: %v; want an error saying what to give", EnvDir, err)
	}
}
