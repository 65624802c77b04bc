package litmus

import (
	"strings"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// Register atoms at the register's type.
//
// herd7 decides an atom "0:r=v" of a final condition on the bits of the
// register's type: it masks both the register's final value and v to the
// size of the type the initial state gives the register (int, 32 bits,
// when it gives none) and compares the results (the LV case of its
// condition checker, herd/constraints.ml, with mask_type). So, on a 64-bit
// machine, "0:x5=0xffffffff" holds of a register that lb filled with -1:
// both are 0xffffffff on 32 bits (herd's RISCV/A015).
//
// Musket's registers hold 64-bit values, which its front-ends keep sign-
// or zero-extended from the size of what was loaded or computed. Under
// that invariant, the register's low n bits equal those of v exactly when
// the register is the sign extension or the zero extension of v's low n
// bits: widenRegAtoms rewrites such an atom into the disjunction of those
// two comparisons (one when they coincide, as for every small non-negative
// constant, which is then left as written). The rewrite is exact for
// registers that hold a sign- or zero-extended value, which is what every
// load and word operation produces; a register holding other upper bits
// (a 64-bit sum read at type int) is still compared whole, a difference
// with herd written in docs/divergences.md.
//
// The condition line is printed as the test wrote it (spec.Test.CondLine).

// widenArchs are the architectures whose registers are 64 bits wide in
// herd7, so that a register of a narrower type is compared on fewer bits.
var widenArchs = map[string]bool{"AArch64": true, "RISCV": true, "PPC": true, "X86_64": true}

// regTypeBits is the size in bits of a register declared typ in the
// initial state ("" is herd's default, int); 0 for a pointer or a type
// that is not narrower than 64 bits.
func regTypeBits(typ string) int {
	if strings.HasSuffix(typ, "*") {
		return 0
	}
	if typ == "" {
		typ = "int"
	}
	switch n := a64TypeSize(typ); n {
	case 1, 2, 4:
		return 8 * n
	}
	return 0
}

// widenRegAtoms rewrites the register atoms of t's condition and filter
// on the bits of the registers' types (see above).
func widenRegAtoms(t *spec.Test, arch string) {
	if !widenArchs[arch] {
		return
	}
	types := map[spec.Ref]string{}
	addrs := map[spec.Ref]bool{}
	for _, e := range t.Init {
		if e.Ref.IsReg() {
			types[e.Ref] = e.Type
			addrs[e.Ref] = e.Val.IsAddr()
		}
	}
	changed := false
	var widen func(c spec.Cond) spec.Cond
	widen = func(c spec.Cond) spec.Cond {
		switch c := c.(type) {
		case spec.And:
			return spec.And{L: widen(c.L), R: widen(c.R)}
		case spec.Or:
			return spec.Or{L: widen(c.L), R: widen(c.R)}
		case spec.Not:
			return spec.Not{C: widen(c.C)}
		case spec.Atom:
			if !c.Ref.IsReg() || c.Val.IsAddr() || addrs[c.Ref] {
				return c
			}
			n := regTypeBits(types[c.Ref])
			if n == 0 {
				return c
			}
			zext := c.Val.Int & (1<<n - 1)
			sext := zext << (64 - n) >> (64 - n)
			if zext == c.Val.Int && sext == c.Val.Int {
				return c
			}
			changed = true
			var out spec.Cond = spec.Atom{Ref: c.Ref, Val: prog.IntValue(sext)}
			if zext != sext {
				out = spec.Or{L: out, R: spec.Atom{Ref: c.Ref, Val: prog.IntValue(zext)}}
			}
			if c.Neq {
				return spec.Not{C: out}
			}
			return out
		}
		return c
	}
	line := t.ConditionLine()
	if t.Cond != nil {
		t.Cond = widen(t.Cond)
	}
	if t.Filter != nil {
		t.Filter = widen(t.Filter)
	}
	if changed && t.CondLine == "" {
		t.CondLine = line
	}
}
