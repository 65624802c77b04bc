package arch_test

import (
	. "github.com/musket-verify/musket/internal/arch"
	"slices"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/litmus"
)

// TestLookup: every name and alias finds its architecture, in any case.
func TestLookup(t *testing.T) {
	cases := []struct{ name, want, model string }{
		{"X86", "X86", "tso"}, {"x86", "X86", "tso"},
		{"PPC", "PPC", "power"}, {"power", "PPC", "power"},
		{"ARM", "ARM", "armv7"}, {"armv7", "ARM", "armv7"},
		{"AArch64", "AArch64", "aarch64"}, {"AARCH64", "AArch64", "aarch64"},
		{"RISCV", "RISCV", "riscv"}, {"RISC-V", "RISCV", "riscv"},
		{"SPARC", "SPARC", "tso"}, {"sparc", "SPARC", "tso"},
		{"MIPS", "MIPS", "mips"}, {"mips", "MIPS", "mips"},
		{"C", "C", "c11"},
	}
	for _, tc := range cases {
		a, ok := Lookup(tc.name)
		if !ok || a.Name != tc.want {
			t.Errorf("Lookup(%q) = %v, %v; want %s", tc.name, a, ok, tc.want)
			continue
		}
		if m, err := DefaultModel(tc.name); err != nil || m != tc.model {
			t.Errorf("DefaultModel(%q) = %q, %v; want %q", tc.name, m, err, tc.model)
		}
	}
	if _, ok := Lookup("Z80"); ok {
		t.Error("Lookup(Z80) found an architecture")
	}
	if _, err := DefaultModel("Z80"); err == nil || !strings.Contains(err.Error(), "Z80") {
		t.Errorf("DefaultModel(Z80): %v, want an error naming it", err)
	}
}

// TestDescriptors: each descriptor agrees with its front-end, its model
// exists (when it has one), its fences' tags are tags of its events, and every litmus
// front-end has a descriptor.
func TestDescriptors(t *testing.T) {
	builtin := map[string]bool{}
	for _, b := range cat.Builtins() {
		builtin[b.Name] = true
	}
	for _, a := range All() {
		if a.Frontend.Arch() != a.Name {
			t.Errorf("%s: front-end says %s", a.Name, a.Frontend.Arch())
		}
		if a.Model != "" && !builtin[a.Model] { // "": none (LISA)
			t.Errorf("%s: default model %q is not built in", a.Name, a.Model)
		}
		tags := a.Tags()
		for _, f := range a.Fences {
			if !slices.Contains(tags, f.Tag) {
				t.Errorf("%s: fence %s has tag %s, not one of the front-end's %v", a.Name, f.Mnemonic, f.Tag, tags)
			}
		}
		for alias, tag := range a.TagAliases() {
			if !slices.Contains(tags, tag) {
				t.Errorf("%s: alias %s of %s, not a tag of the front-end", a.Name, alias, tag)
			}
		}
	}
	for _, w := range litmus.Archs() {
		if _, ok := Lookup(w); !ok {
			t.Errorf("litmus front-end %s has no descriptor", w)
		}
	}
}

// TestTargets: the compilation targets are compile's, each with the
// architecture whose header word compiled tests carry.
func TestTargets(t *testing.T) {
	if got, want := Targets(), compile.Targets(); !slices.Equal(got, want) {
		t.Fatalf("Targets() = %v, compile.Targets() = %v", got, want)
	}
	for _, target := range compile.Targets() {
		a, ok := ByTarget(target)
		w, _ := compile.ArchWord(target)
		if !ok || a.Name != w {
			t.Errorf("target %s: architecture %v, compiled tests say %s", target, a, w)
		}
	}
	if a, ok := ByModel("tso"); !ok || a != X86 {
		t.Errorf("ByModel(tso) = %v, want X86 (the first with it)", a)
	}
}

// TestTagAliases: Power's lower-case fence names are aliases of their
// architecture only; RISC-V's AMO is a tag of its own (herd7's AMO, the
// accesses of AMOs, not lr/sc), no alias of X.
func TestTagAliases(t *testing.T) {
	if got := PPC.TagAliases()["lwsync"]; got != "LWSYNC" {
		t.Errorf("PPC lwsync -> %q, want LWSYNC", got)
	}
	if got, ok := RISCV.TagAliases()["AMO"]; ok {
		t.Errorf("RISCV AMO is an alias of %q, want a tag", got)
	}
	if !contains(RISCV.Tags(), "AMO") {
		t.Errorf("RISCV tags %v lack AMO", RISCV.Tags())
	}
	if got := X86.TagAliases()["mfence"]; got != "MFENCE" {
		t.Errorf("X86 mfence -> %q, want MFENCE", got)
	}
	if _, ok := X86.TagAliases()["lwsync"]; ok {
		t.Error("X86 has Power's alias lwsync")
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
