package cat

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// herdLibrary maps the model files of herd7's library to the built-in
// models that define the same model (the same axioms, written for
// Musket), so that `-model x86tso.cat` works as it does with herd7.
var herdLibrary = map[string]string{
	"x86tso.cat":  "tso",
	"tso.cat":     "tso",
	"sc.cat":      "sc",
	"ppc.cat":     "power",
	"power.cat":   "power",
	"aarch64.cat": "aarch64",
	"arm.cat":     "armv7",
	"armv7.cat":   "armv7",
	"riscv.cat":   "riscv",
	"c11.cat":     "c11",
	"rc11.cat":    "rc11",
	"pso.cat":     "pso",
	"rmo.cat":     "rmo",
	"alpha.cat":   "alpha",
	"mips.cat":    "mips",
	"bpf.cat":     "bpf",
}

// Resolved is where a -model argument leads: a file to load (Path), or
// a built-in model (Builtin). Note says why, when the name was not taken
// as written (a herd7 library name answered by a built-in model, or a
// file found in a library folder).
type Resolved struct {
	Path    string
	Builtin string
	Note    string
}

// ResolveModel says what a -model argument names, as herd7 reads it: a
// file (any argument with a folder or an existing file); a bare .cat
// name found in one of libDirs (herd7's -set-libdir), in order; a bare
// herd7 library name ("x86tso.cat") with a built-in counterpart; or a
// built-in model's name ("tso"). Anything else is an error naming what
// was tried.
func ResolveModel(spec string, libDirs []string) (Resolved, error) {
	if strings.ContainsAny(spec, `/\`) {
		return Resolved{Path: spec}, nil
	}
	if !strings.HasSuffix(spec, ".cat") {
		// A built-in model's name; the loader names the built-in
		// models when it is not one.
		return Resolved{Builtin: spec}, nil
	}
	if _, err := os.Stat(spec); err == nil {
		return Resolved{Path: spec}, nil
	}
	for _, d := range libDirs {
		p := filepath.Join(d, spec)
		if _, err := os.Stat(p); err == nil {
			return Resolved{Path: p, Note: fmt.Sprintf("%s: read from the library folder %s", spec, d)}, nil
		}
	}
	if b, ok := herdLibrary[spec]; ok {
		return Resolved{Builtin: b, Note: fmt.Sprintf("%s: herd7's library model, answered by the built-in model %s", spec, b)}, nil
	}
	where := "in the current folder"
	if len(libDirs) > 0 {
		where += " nor in " + strings.Join(libDirs, ", ")
	}
	return Resolved{}, fmt.Errorf("%s: no such file %s, and not a herd7 library model Musket has built in (%s)", spec, where, strings.Join(libraryNames(), ", "))
}

// LibraryModel says which built-in model answers a herd7 library model's
// name ("x86tso.cat": "tso"), if one does.
func LibraryModel(name string) (string, bool) {
	b, ok := herdLibrary[name]
	return b, ok
}

// libraryNames lists the herd7 library names ResolveModel knows.
func libraryNames() []string {
	var out []string
	for n := range herdLibrary {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// LoadResolved loads what ResolveModel found; opts.LibDirs are also
// searched for included files.
func LoadResolved(r Resolved, opts LoadOptions) (*Model, error) {
	opts.IncludeDirs = append(append([]string(nil), opts.IncludeDirs...), opts.LibDirs...)
	if r.Builtin != "" {
		return LoadBuiltinWith(r.Builtin, opts)
	}
	return Load(r.Path, opts)
}
