package buildinfo

import (
	"runtime"
	"testing"
)

// TestRead: a test binary records its Go version; the module version and revision
// are either recorded or "unknown", never empty.
func TestRead(t *testing.T) {
	in := Read()
	if in.GoVersion != runtime.Version() {
		t.Errorf("GoVersion %q, want %q", in.GoVersion, runtime.Version())
	}
	for name, v := range map[string]string{"Version": in.Version, "Revision": in.Revision, "Time": in.Time} {
		if v == "" {
			t.Errorf("%s is empty; want a value or \"unknown\"", name)
		}
	}
}
