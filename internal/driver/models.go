// Package driver turns the model flags of every command (-model, -bell,
// -macros, -I, -conf, -variant, -target) into loaded models, the same way
// for each: a built-in name or a .cat file, read with the include folders
// and the bell; when no model is given, the default of the test's
// architecture or of the program's target (package arch). It also expands
// the operands of a command into its files. Commands parse flags, call the
// driver and the engines, and print.
package driver

import (
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/musket-verify/musket/internal/arch"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/source"
	"github.com/musket-verify/musket/internal/spec"
)

// Models is what the model flags of a command say.
type Models struct {
	Model       string   // built-in name or .cat path; "" for the architecture's or target's default
	Bell        string   // a .bell file read before the model (herd7's -bell)
	Macros      string   // a .def file of C macros (herd7's -macros)
	IncludeDirs []string // folders searched for included .cat files (-I)
	Variants    map[string]bool
	LibDirs     []string // herd7's library folders (-set-libdir): see cat.ResolveModel
	Hexa        bool     // the .cfg file asks for values in hexadecimal (hexa true)
	MachSize    int      // the .cfg file's machsize, in bytes (Conf.MachSize); 0 if none
	// Loaded is Model as CheckLoad loaded it (nil before, or without
	// Model): the tests of a run take it rather than load the file again
	// (a user's model was loaded twice per run; robust5).
	Loaded *cat.Model
}

// IsFile tells whether spec names a model file rather than a built-in
// model: it ends in .cat or has a path separator.
func IsFile(spec string) bool {
	return strings.HasSuffix(spec, ".cat") || strings.ContainsRune(spec, os.PathSeparator)
}

// IsModel tells whether spec names a model: a file or a built-in name.
func IsModel(spec string) bool {
	if IsFile(spec) {
		return true
	}
	for _, b := range cat.Builtins() {
		if b.Name == spec {
			return true
		}
	}
	return false
}

// BuiltinNames lists the built-in models, comma-separated.
func BuiltinNames() string {
	var names []string
	for _, b := range cat.Builtins() {
		names = append(names, b.Name)
	}
	return strings.Join(names, ", ")
}

// Load loads the model spec (a built-in name or a .cat file) with the
// include folders, the library folders and the bell of ms; a bare herd7
// library name ("x86tso.cat") resolves as cat.ResolveModel says. The name
// returned is spec.
func (ms Models) Load(spec string) (*cat.Model, string, error) {
	r, err := cat.ResolveModel(spec, ms.LibDirs)
	if err != nil {
		return nil, spec, err
	}
	plain := r.Builtin != "" && len(ms.IncludeDirs) == 0 && ms.Bell == "" && len(ms.LibDirs) == 0
	if plain {
		builtins.Lock()
		m := builtins.m[r.Builtin]
		builtins.Unlock()
		if m != nil {
			return m, spec, nil
		}
	}
	m, err := cat.LoadResolved(r, cat.LoadOptions{IncludeDirs: ms.IncludeDirs, Bell: ms.Bell, LibDirs: ms.LibDirs})
	if plain && err == nil {
		builtins.Lock()
		if builtins.m == nil {
			builtins.m = map[string]*cat.Model{}
		}
		builtins.m[r.Builtin] = m
		builtins.Unlock()
	}
	return m, spec, err
}

// builtins are the built-in models loaded so far without include
// folders or a bell, by name: a process that checks many programs
// (musket bench c runs a check per cell) reads each once. A loaded
// model is never changed (cat.Model has no setters; its evaluation
// state is per goroutine and compares its inputs at each check), so
// checks, even side by side, share it as one check's engines do.
var builtins struct {
	sync.Mutex
	m map[string]*cat.Model
}

// Note says how ms.Model was resolved when it was not taken as written
// (a herd7 library name answered by a built-in model, a file found in a
// library folder), or "".
func (ms Models) Note() string {
	if ms.Model == "" {
		return ""
	}
	r, err := cat.ResolveModel(ms.Model, ms.LibDirs)
	if err != nil {
		return ""
	}
	return r.Note
}

// Load loads a model by built-in name or file path, without include
// folders or bell.
func Load(spec string) (*cat.Model, string, error) {
	return Models{}.Load(spec)
}

// SpecFor returns the model of a test of the architecture archWord: the
// one given, else the architecture's default.
func (ms Models) SpecFor(archWord string) (string, error) {
	if ms.Model != "" {
		return ms.Model, nil
	}
	return arch.DefaultModel(archWord)
}

// ForTarget loads the model of a program compiled for target: the one
// given, else the target's default.
func (ms Models) ForTarget(target string) (*cat.Model, string, error) {
	a, ok := arch.ByTarget(target)
	if !ok {
		return nil, "", fmt.Errorf("unknown target %q (want one of %v)", target, arch.Targets())
	}
	if ms.Model != "" {
		return ms.Load(ms.Model)
	}
	m, name, err := ms.Load(a.Model)
	if err != nil {
		return nil, "", fmt.Errorf("target %s: its built-in model %q does not exist yet; give one with -model (%v)", target, a.Model, err)
	}
	return m, name, nil
}

// Frontends returns the front-ends that replace the registered ones for
// a run: the C front-end with the macros of ms.Macros (none without).
func (ms Models) Frontends() ([]litmus.Frontend, error) {
	if ms.Macros == "" {
		return nil, nil
	}
	m, err := litmus.ReadMacros(ms.Macros)
	if err != nil {
		return nil, err
	}
	return []litmus.Frontend{litmus.NewCFrontend(m)}, nil
}

// Check fails early on a bad -macros file or a -model that does not
// load, rather than once per test.
func (ms Models) Check() error {
	_, err := ms.CheckLoad()
	return err
}

// CheckLoad is Check, and gives the model of ms.Model it loaded (nil
// without one).
func (ms Models) CheckLoad() (*cat.Model, error) {
	for v := range ms.Variants {
		if why, ok := litmus.UnmodelledVariant(v); ok {
			return nil, fmt.Errorf("unsupported: variant %s (%s); herd's models test it with if %q, and Musket's executions have none of its events", v, why, v)
		}
	}
	if ms.Macros != "" {
		if _, err := litmus.ReadMacros(ms.Macros); err != nil {
			return nil, err
		}
	}
	if ms.Model != "" {
		m, _, err := ms.Load(ms.Model)
		return m, err
	}
	return nil, nil
}

// ApplyConf fills what the flags left empty from the herd7 .cfg file at
// path: model, bell, macros, and the variants when variantsGiven is
// false. Flags override the file.
func (ms *Models) ApplyConf(path string, variantsGiven bool) error {
	c, err := ReadConf(path)
	if err != nil {
		return err
	}
	if ms.Model == "" {
		ms.Model = c.Model
	}
	if ms.Bell == "" {
		ms.Bell = c.Bell
	}
	if ms.Macros == "" {
		ms.Macros = c.Macros
	}
	ms.Hexa = ms.Hexa || c.Hexa
	if c.MachSize != 0 {
		ms.MachSize = c.MachSize
	}
	if !variantsGiven && len(c.Variants) > 0 {
		ms.Variants = map[string]bool{}
		for _, v := range strings.Split(strings.Join(c.Variants, ","), ",") {
			if v = strings.TrimSpace(v); v != "" {
				ms.Variants[v] = true
			}
		}
	}
	return nil
}

// Tags lists the tags the events of a test of the architecture archWord
// may carry: those of its front-end, taken from fes when one of them is
// the architecture's (a C front-end with macros), else the registered
// one; nil for an unknown architecture.
func Tags(archWord string, fes ...litmus.Frontend) []string {
	fe, _ := litmus.Lookup(archWord)
	for _, o := range fes {
		if strings.EqualFold(o.Arch(), archWord) {
			fe = o
		}
	}
	if fe == nil {
		return nil
	}
	return fe.Tags()
}

// CheckDialect refuses a C test written with the Linux kernel's
// primitives (READ_ONCE, smp_mb, spin_lock, RCU...) when no model was
// given: the default C11 model gives their tags no meaning, and its
// answers would look like verdicts while meaning nothing. herd7 users
// check such tests with the kernel's own files (-conf linux-kernel.cfg);
// a model named with -model is taken as the user's choice.
func (ms Models) CheckDialect(t *spec.Test) error {
	if ms.Model != "" {
		return nil
	}
	what, pos, ok := litmus.KernelUse(t)
	if !ok {
		return nil
	}
	if !pos.IsValid() {
		pos = source.Pos{File: t.File}
	}
	return source.Errorf(pos, "this statement uses a Linux-kernel primitive (%s), which the default C model (C11) does not define; check kernel tests with the kernel's model (-conf linux-kernel.cfg from the kernel's tools/memory-model, as with herd7), or name a model with -model", what)
}
