package cfront

import (
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

// This file lowers the verification primitives: assert (and the SV-COMP
// error functions), assume, abort and exit, and the generators of
// arbitrary values.

// assertFail lowers __assert_fail, the failure branch of assert(): an
// assertion site with the asserted text when clang kept it.
func (l *lowerer) assertFail(cs *callSite) error {
	text := "assertion"
	if len(cs.args) > 0 {
		if s, ok := l.constString(cs.args[0]); ok {
			text = "assertion " + s
		}
	}
	l.fail(cs.fr.b, cs.pos, text)
	return nil
}

// reachError lowers SV-COMP's reach_error(): an assertion site.
func (l *lowerer) reachError(cs *callSite) error {
	l.fail(cs.fr.b, cs.pos, "reach_error()")
	return nil
}

// verifierError lowers __VERIFIER_error(): an assertion site.
func (l *lowerer) verifierError(cs *callSite) error {
	l.fail(cs.fr.b, cs.pos, "__VERIFIER_error()")
	return nil
}

// verifierAssert lowers __VERIFIER_assert (an assertion site when its
// argument is 0) and __VERIFIER_assume (the thread blocks when it is 0).
func (l *lowerer) verifierAssert(cs *callSite) error {
	b := cs.fr.b
	x, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	ok := l.label("ok")
	b.emit(prog.Jump{Cond: x, Target: ok})
	if cs.name == "__VERIFIER_assert" {
		l.fail(b, cs.pos, "__VERIFIER_assert")
	} else {
		b.emit(prog.Assign{Dst: blockedReg, Val: prog.Int(1)})
		b.emit(prog.Jump{Target: blockLabel})
	}
	b.emit(prog.Label{Name: ok})
	return nil
}

// stop lowers abort and exit: the thread blocks (no assertion fails
// after it).
func (l *lowerer) stop(cs *callSite) error {
	b := cs.fr.b
	b.emit(prog.Assign{Dst: blockedReg, Val: prog.Int(1)})
	b.emit(prog.Jump{Target: blockLabel})
	return nil
}

// nondet lowers a __VERIFIER_nondet_ generator: an arbitrary value (0 or
// 1 for _bool).
func (l *lowerer) nondet(cs *callSite) error {
	if cs.dst == "" {
		return nil
	}
	b := cs.fr.b
	b.emit(prog.Havoc{Dst: cs.dst})
	if strings.HasSuffix(cs.name, "_bool") {
		b.emit(prog.Assign{Dst: cs.dst, Val: prog.Bin{Op: prog.OpNe, X: prog.Reg{Name: cs.dst}, Y: prog.Int(0)}})
	} else if bits := nondetBits(strings.TrimPrefix(cs.name, "__VERIFIER_nondet_")); bits > 0 {
		// A value of the type: canonical at its width (intarith.go).
		b.emit(prog.Assign{Dst: cs.dst, Val: wrap(prog.Reg{Name: cs.dst}, bits)})
	}
	return nil
}

// nondetBits is the width of the integer type a __VERIFIER_nondet_
// generator names (0: not an integer type).
func nondetBits(t string) uint64 {
	switch t {
	case "char", "uchar", "schar":
		return 8
	case "short", "ushort":
		return 16
	case "int", "uint", "unsigned", "u32":
		return 32
	case "long", "ulong", "longlong", "ulonglong", "size_t", "u64", "s64":
		return 64
	}
	return 0
}
