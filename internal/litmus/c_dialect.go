package litmus

// Which memory model a C test is written for: the C11 atomics
// (atomic_load_explicit...) or the Linux kernel's primitives (READ_ONCE,
// smp_mb, spin_lock, RCU...). The built-in C11 models give the kernel's
// tags no meaning, so a kernel test checked under them would get
// nonsensical answers (every lock acquisition a data race, say); the
// driver refuses that combination when the user did not choose it.

import (
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// kernelTag reports whether an event tag is one the Linux-kernel
// primitives make and C11 atomics never do.
var kernelTag = kernelTagTable()

// kernelTagTable builds kernelTag in a function of its own (see
// x86RegTable).
//
//go:noinline
func kernelTagTable() map[string]bool {
	m := map[string]bool{}
	for _, t := range cKernelTags {
		m[t] = true
	}
	return m
}

// KernelUse finds the first instruction of a C test made by a Linux-kernel
// primitive: an access or fence with a kernel tag, or a lock, unlock or
// SRCU event. It returns the tag or operation and the position of the
// statement; ok is false when the test uses none.
func KernelUse(t *spec.Test) (what string, pos prog.Pos, ok bool) {
	if t.Arch != "C" {
		return "", prog.Pos{}, false
	}
	for _, th := range t.Threads {
		for i, in := range th.Code {
			w := kernelInstr(in)
			if w == "" {
				continue
			}
			if i < len(th.Pos) {
				pos = th.Pos[i]
			}
			return w, pos, true
		}
	}
	return "", prog.Pos{}, false
}

// locatedPrims names the kernel primitive behind a located instruction.
var locatedPrims = map[prog.LocatedOp]string{
	prog.LocLock: "spin_lock", prog.LocUnlock: "spin_unlock", prog.LocTryLock: "spin_trylock",
	prog.LocIsLocked: "spin_is_locked", prog.LocEvent: "synchronize_srcu",
}

// kernelInstr names the kernel tag or primitive of an instruction, or "".
func kernelInstr(in prog.Instr) string {
	var tags []string
	switch in := in.(type) {
	case prog.Load:
		tags = in.Tags
	case prog.Store:
		tags = in.Tags
	case prog.Fence:
		tags = in.Tags
	case prog.RMW:
		tags = in.RTags
	case prog.Located:
		if in.Op == prog.LocEvent && len(in.Tags) > 0 {
			return in.Tags[0]
		}
		return locatedPrims[in.Op]
	}
	for _, t := range tags {
		if kernelTag[t] {
			return "event tag " + t
		}
	}
	return ""
}
