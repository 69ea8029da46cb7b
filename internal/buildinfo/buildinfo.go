// Package buildinfo reads what the Go toolchain recorded in the binary about its
// build: the module version and the version-control revision. The command's
// version subcommand prints it and the server exports it as robots_build_info.
package buildinfo

import (
	"runtime"
	"runtime/debug"
)

// Info is what a binary knows of its own build. Fields the toolchain did not
// record are "unknown" (a test binary, a build outside a module or a checkout).
type Info struct {
	Version   string // the main module's version: "v1.2.3", or "(devel)" for a build from a checkout
	Revision  string // vcs.revision, with "-dirty" when vcs.modified is true
	Time      string // vcs.time, RFC 3339
	GoVersion string // runtime.Version()
}

// Read returns the running binary's build information.
func Read() Info {
	in := Info{Version: "unknown", Revision: "unknown", Time: "unknown", GoVersion: runtime.Version()}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return in
	}
	if v := bi.Main.Version; v != "" {
		in.Version = v
	}
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.time":
			in.Time = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if dirty && in.Revision != "unknown" {
		in.Revision += "-dirty"
	}
	return in
}
