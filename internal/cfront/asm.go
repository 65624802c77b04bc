package cfront

import (
	"fmt"
	"strings"

	"github.com/llir/llvm/ir"

	"github.com/musket-verify/musket/internal/prog"
)

// Inline assembly. A program may use the full fence of its target in
// asm: x86's mfence, AArch64's dmb ish (dmb sy), Power's sync (hwsync),
// RISC-V's fence rw,rw (fence, fence iorw,iorw). Each is the fence a C11
// seq_cst fence compiles to on that target, so it is lowered as one
// (Fence tagged SC): under a C-level model it is a seq_cst fence, under
// the target's model its full fence. The compiler barrier
// asm volatile("" ::: "memory") and the spin hints (pause, yield, nop)
// make no event: they order nothing between threads. Any other asm is
// refused with its text. A fence of another architecture than -target is
// refused when the program is checked for that target.

// asmFence is an architecture's full fence, by its normalised text.
var asmFences = map[string]string{
	"mfence":          "x86",
	"dmb ish":         "aarch64",
	"dmb sy":          "aarch64",
	"sync":            "power",
	"hwsync":          "power",
	"sync 0":          "power",
	"fence rw,rw":     "riscv",
	"fence iorw,iorw": "riscv",
	"fence":           "riscv",
}

// asmNoEvent are the asm texts that make no event.
var asmNoEvent = map[string]bool{"": true, "pause": true, "yield": true, "nop": true, "rep; nop": true, "rep nop": true}

// normAsm normalises an asm text: lower case, one space between words,
// none after commas, no trailing separators.
func normAsm(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimRight(s, "; \t\n")
	s = strings.Join(strings.Fields(s), " ")
	s = strings.ReplaceAll(s, ", ", ",")
	return s
}

// asmKind says what an inline asm callee is: "fence", "none" (no event)
// or "" (not supported); for a fence, its architecture.
func asmKind(a *ir.InlineAsm) (kind, arch string) {
	s := normAsm(a.Asm)
	if arch, ok := asmFences[s]; ok {
		return "fence", arch
	}
	if asmNoEvent[s] {
		return "none", ""
	}
	return "", ""
}

// isKnownAsm tells whether a call is inline asm that the lowering
// supports (spin loops may contain it).
func isKnownAsm(c *ir.InstCall) bool {
	a, ok := c.Callee.(*ir.InlineAsm)
	if !ok {
		return false
	}
	k, _ := asmKind(a)
	return k != ""
}

// asmFence records the fences of an architecture a program uses.
type asmFence struct {
	pos  prog.Pos
	arch string
	text string
}

// inlineAsm lowers a call of inline asm.
func (l *lowerer) inlineAsm(cs *callSite, a *ir.InlineAsm) error {
	kind, arch := asmKind(a)
	switch kind {
	case "fence":
		l.asmFences = append(l.asmFences, asmFence{pos: cs.pos, arch: arch, text: normAsm(a.Asm)})
		cs.fr.b.emit(prog.Fence{Tags: []string{"SC"}})
		cs.returnZero()
		return nil
	case "none":
		cs.returnZero()
		return nil
	}
	return l.errAt(cs.pos, "unsupported inline asm %q (supported: the full fences mfence, dmb ish, sync, fence rw,rw, the compiler barrier asm volatile(\"\" ::: \"memory\"), pause, yield, nop)", strings.TrimSpace(a.Asm))
}

// checkAsmTarget refuses an asm fence of another architecture than the
// target the program is checked for.
func (p *Program) checkAsmTarget(target string) error {
	if target == "" {
		return nil
	}
	want := target
	switch target {
	case "x86", "x86_64", "tso":
		want = "x86"
	case "ppc", "power7", "power":
		want = "power"
	case "arm64", "armv8", "aarch64":
		want = "aarch64"
	case "riscv", "riscv64":
		want = "riscv"
	}
	for _, f := range p.asmFences {
		if f.arch != want {
			return fmt.Errorf("%s:%d: asm %q is a fence of %s, and the program is checked for target %s", f.pos.File, f.pos.Line, f.text, f.arch, target)
		}
	}
	return nil
}
