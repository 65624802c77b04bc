package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/musket-verify/musket/internal/smt"
)

// version is Musket's release; builds may set it with
// -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func init() {
	register("version", "print Musket's version and the version of the Z3 library it uses", runVersion)
}

// runVersionString is the version a run records in its JSON summary:
// "0.1.0-dev commit abcdef123456".
func runVersionString() string { return version + vcsRevision() }

func runVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "musket version: takes no arguments, got %q\n", args[0])
		return exitBadInput
	}
	fmt.Fprintf(stdout, "musket %s%s (%s)\n", version, vcsRevision(), runtime.Version())
	fmt.Fprintf(stdout, "Z3 %s\n", smt.Version())
	return exitOK
}

// vcsRevision is " commit abcdef123456" (with "+dirty" for uncommitted
// changes) when the binary was built from a git checkout, else "".
func vcsRevision() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev == "" {
		return ""
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	return " commit " + rev + dirty
}
