package litmus

import (
	"cmp"
	"slices"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// Registers observed at their type.
//
// herd7 gives each register of a test the type its initial state declares
// ("uint64_t 0:X1;"), int (32 bits, signed) when it declares none, and
// observes a register's final value at that type, where the machine's
// registers are wider (64 bits: AArch64, RISC-V, PPC, X86_64):
//   - a condition atom "0:r=v" masks both the final value and v to the
//     type's size and compares the results (herd/constraints.ml, the LV
//     case, with mask_type): on RISC-V, "0:x5=0xffffffff" holds of a
//     register that lb filled with -1 (herdtools7's RISCV/A015, A016);
//   - a final state prints the value cast to the type: sign-extended from
//     its size for a signed type, masked for an unsigned one
//     (archExtra_herd.ml, pp_typed), so lwu of 0xffffffff prints -1.
//
// Musket's registers hold 64-bit values. For such a register of a type of
// n < 64 bits, observeRegTypes makes the final value the one herd7 prints,
// norm(r) (the low n bits, sign- or zero-extended as the type is signed or
// not), by an assignment r := norm(r) after the thread's last instruction,
// and rewrites each atom "r=v" into "r=norm(v)". Since norm(a) = norm(b)
// exactly when a and b have the same low n bits, the atom holds exactly
// when herd7's does, and the state printed is herd7's.
//
// The assignment is left out when regRanges (regrange.go) proves that the
// register always holds a value of its type's range, where norm changes
// nothing: every test whose values are small, which is nearly all of them,
// runs the same code as before. Left as they are, compared and printed
// whole: registers that may hold an address (herd7 does not mask those),
// registers compared with another ref ("0:r=1:s", which herd7 compares
// unmasked), and registers of 64-bit or pointer types.
//
// The condition line is printed as the test wrote it (spec.Test.CondLine).

// regTypeArchs are the architectures whose registers are 64 bits wide (MIPS as herd7 runs it),
// and ARM (AArch32), whose registers are 32 bits wide but hold, in Musket,
// values the arithmetic does not wrap (MOVT of 0xBEEF gives 0xBEEF0000,
// which herd7 holds as the int -1091633152: its ARM/A013): there too a
// register of type int is compared and printed at 32 bits.
var regTypeArchs = map[string]bool{"AArch64": true, "RISCV": true, "PPC": true, "X86_64": true, "ARM": true, "MIPS": true}

// regTypeSizes are the sizes in bits of the types narrower than 64 bits,
// and whether they are signed.
var regTypeSizes = map[string]struct {
	bits   int
	signed bool
}{
	"int": {32, true}, "int32_t": {32, true}, "uint32_t": {32, false}, "unsigned int": {32, false},
	"unsigned": {32, false}, "__u32": {32, false}, "u32": {32, false}, "__s32": {32, true}, "s32": {32, true},
	"short": {16, true}, "int16_t": {16, true}, "uint16_t": {16, false}, "unsigned short": {16, false},
	"char": {8, true}, "int8_t": {8, true}, "uint8_t": {8, false}, "unsigned char": {8, false},
}

// normInt is v at a type of n bits: its low n bits, sign-extended when
// signed, zero-extended otherwise.
func normInt(v int64, n int, signed bool) int64 {
	if signed {
		return v << (64 - n) >> (64 - n)
	}
	return v & (1<<n - 1)
}

// observeRegTypes applies the above to t, a test of architecture arch.
func observeRegTypes(t *spec.Test, arch string) {
	if regTypeArchs[arch] {
		observeTyped(t, arch)
	}
}

// observeTyped is observeRegTypes for a test of one of regTypeArchs. Out
// of line, so that observeRegTypes, which every test's parse runs, stays
// small: in the playground's WebAssembly engine the browser compiled
// this body (10.5 KB) with its optimising compiler on the X86 suite's
// second pass, though no X86 test runs it.
//
//go:noinline
func observeTyped(t *spec.Test, arch string) {
	type regInfo struct {
		bits   int
		signed bool
	}
	info := map[regKey]regInfo{}
	skip := map[regKey]bool{}
	types := map[regKey]string{}
	for _, e := range t.Init {
		if e.Ref.IsReg() {
			types[regKey{e.Ref.Thread, e.Ref.Name}] = e.Type
		}
	}
	consider := func(r spec.Ref) {
		k := regKey{r.Thread, r.Name}
		if !r.IsReg() || skip[k] {
			return
		}
		if _, done := info[k]; done {
			return
		}
		typ := strings.Join(strings.Fields(types[k]), " ")
		if typ == "" {
			typ = "int"
		}
		sz, ok := regTypeSizes[typ]
		if !ok {
			skip[k] = true
			return
		}
		info[k] = regInfo{sz.bits, sz.signed}
	}
	var walk func(c spec.Cond)
	walk = func(c spec.Cond) {
		switch c := c.(type) {
		case spec.And:
			walk(c.L)
			walk(c.R)
		case spec.Or:
			walk(c.L)
			walk(c.R)
		case spec.Not:
			walk(c.C)
		case spec.Atom:
			if c.Val.IsAddr() && c.Ref.IsReg() {
				skip[regKey{c.Ref.Thread, c.Ref.Name}] = true
			}
			consider(c.Ref)
		case spec.RefEq:
			for _, r := range []spec.Ref{c.L, c.R} {
				if r.IsReg() {
					skip[regKey{r.Thread, r.Name}] = true
				}
			}
		}
	}
	walk(t.Cond)
	walk(t.Filter)
	for _, r := range t.Locations {
		consider(r)
	}
	for k := range skip {
		delete(info, k)
	}
	if len(info) == 0 {
		return
	}
	ranges := regRanges(t)
	var appendNorm []regKey
	for k, ri := range info {
		r, known := ranges[k]
		if !known {
			if ranges == nil {
				r = fullRange.join(vrange{addr: true}) // the analysis gave up
			} else {
				r = vrange{ints: true} // never written, not initialised: 0
				if init, ok := initValue(t, k); ok {
					r = constRange(init)
				}
			}
		}
		if r.addr {
			delete(info, k)
			continue
		}
		lo, hi := int64(0), int64(1)<<ri.bits-1
		if ri.signed {
			lo, hi = -1<<(ri.bits-1), 1<<(ri.bits-1)-1
		}
		if !r.within(lo, hi) {
			appendNorm = append(appendNorm, k)
		}
	}
	if len(info) == 0 {
		return
	}
	changed := false
	var rewrite func(c spec.Cond) spec.Cond
	rewrite = func(c spec.Cond) spec.Cond {
		switch c := c.(type) {
		case spec.And:
			return spec.And{L: rewrite(c.L), R: rewrite(c.R)}
		case spec.Or:
			return spec.Or{L: rewrite(c.L), R: rewrite(c.R)}
		case spec.Not:
			return spec.Not{C: rewrite(c.C)}
		case spec.Atom:
			ri, ok := info[regKey{c.Ref.Thread, c.Ref.Name}]
			if !ok || !c.Ref.IsReg() {
				return c
			}
			if v := normInt(c.Val.Int, ri.bits, ri.signed); v != c.Val.Int {
				changed = true
				c.Val = prog.IntValue(v)
			}
			return c
		}
		return c
	}
	line := t.ConditionLine()
	if t.Cond != nil {
		t.Cond = rewrite(t.Cond)
	}
	if t.Filter != nil {
		t.Filter = rewrite(t.Filter)
	}
	if changed && t.CondLine == "" && arch != "ARM" {
		// ARM's values are 32 bits wide in herd7 from the start: it
		// prints the constants of the condition at 32 bits too.
		t.CondLine = line
	}
	// The assignments, in a fixed order (registers sorted per thread).
	slices.SortFunc(appendNorm, func(a, b regKey) int {
		return cmp.Or(cmp.Compare(a.thread, b.thread), strings.Compare(a.name, b.name))
	})
	for _, k := range appendNorm {
		if k.thread >= len(t.Threads) {
			continue
		}
		ri := info[k]
		var val prog.Expr
		if ri.signed {
			val = a64Sext(prog.Reg{Name: k.name}, int64(ri.bits))
		} else {
			val = a64Bin(prog.OpAnd, prog.Reg{Name: k.name}, prog.Int(1<<ri.bits-1))
		}
		th := t.Threads[k.thread]
		if len(th.Pos) == len(th.Code) {
			th.Pos = append(th.Pos, prog.Pos{})
		}
		if th.Sizes != nil {
			th.Sizes = append(th.Sizes, 0)
		}
		th.Code = append(th.Code, prog.Assign{Dst: k.name, Val: val})
	}
}

// initValue is the value t's initial state gives register k, if any.
func initValue(t *spec.Test, k regKey) (prog.Value, bool) {
	for _, e := range t.Init {
		if e.Ref.IsReg() && e.Ref.Thread == k.thread && e.Ref.Name == k.name {
			return e.Val, true
		}
	}
	return prog.Value{}, false
}
