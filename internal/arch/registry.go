package arch

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/musket-verify/musket/internal/litmus"
)

var registry = struct {
	sync.RWMutex
	all    []*Arch
	byName map[string]*Arch // lower-cased name or alias
}{byName: map[string]*Arch{}}

// Register adds an architecture. Its front-end must be set; a name or
// alias already taken by another architecture is a programming error.
func Register(a *Arch) {
	registry.Lock()
	defer registry.Unlock()
	if a.Frontend == nil {
		panic("arch: " + a.Name + " has no front-end")
	}
	for _, n := range a.Names() {
		k := strings.ToLower(n)
		if o, ok := registry.byName[k]; ok && o != a {
			panic(fmt.Sprintf("arch: name %s of %s is taken by %s", n, a.Name, o.Name))
		}
		registry.byName[k] = a
	}
	registry.all = append(registry.all, a)
}

// Lookup returns the architecture called name (its header word, target
// or another alias; any case).
func Lookup(name string) (*Arch, bool) {
	registry.RLock()
	defer registry.RUnlock()
	a, ok := registry.byName[strings.ToLower(name)]
	return a, ok
}

// All lists the architectures in the order of the registry.
func All() []*Arch {
	registry.RLock()
	defer registry.RUnlock()
	return append([]*Arch(nil), registry.all...)
}

// ByTarget returns the architecture whose compilation target is target
// (exactly: "x86", "power", ...).
func ByTarget(target string) (*Arch, bool) {
	for _, a := range All() {
		if a.Target != "" && a.Target == target {
			return a, true
		}
	}
	return nil, false
}

// Targets lists the compilation targets, sorted.
func Targets() []string {
	var out []string
	for _, a := range All() {
		if a.Target != "" {
			out = append(out, a.Target)
		}
	}
	sort.Strings(out)
	return out
}

// ByModel returns the architecture whose default model is model (the
// first in the registry: SPARC shares x86's TSO).
func ByModel(model string) (*Arch, bool) {
	for _, a := range All() {
		if a.Model != "" && a.Model == model { // LISA has none
			return a, true
		}
	}
	return nil, false
}

// DefaultModel returns the built-in model of the architecture called
// name, and an error naming it when there is none.
func DefaultModel(name string) (string, error) {
	a, ok := Lookup(name)
	if !ok || a.Model == "" {
		if strings.EqualFold(name, "LISA") { // the Linux kernel's tests
			return "", fmt.Errorf("no default model for architecture %s: give one with -model, or the Linux kernel's with -conf linux-kernel.cfg (its tools/memory-model)", name)
		}
		return "", fmt.Errorf("no default model for architecture %s: give one with -model", name)
	}
	return a.Model, nil
}

// frontend returns the registered front-end of the header word name; the
// descriptors call it when the package is initialised, after package
// litmus has registered its front-ends.
func frontend(name string) litmus.Frontend {
	fe, err := litmus.Lookup(name)
	if err != nil {
		panic("arch: " + err.Error())
	}
	return fe
}
