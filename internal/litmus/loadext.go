package litmus

import (
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// Narrow loads of tests that keep whole-location accesses.
//
// A test that is not lowered into chunks (aarch64_mixed.go) reads and
// writes whole values; a load of fewer bytes than a register still sets
// the register as the instruction does: herd7 masks the value read to the
// access size and then, for a sign-extending load (RISC-V lb lh lw,
// AArch64 LDRSB LDRSH LDRSW), extends its top bit, or else leaves it
// zero-extended (lbu lhu lwu, LDRB LDRH LDR W). So with every access of
// a test four bytes wide, lwu of a word holding -56 gives 4294967240 and
// lw of a word holding 2^31 gives -2147483648, as in a mixed-size test.
//
// A store of fewer than 8 bytes writes the bytes of its value it covers:
// herd7 masks the value stored to the access size (RISC-V sw of -56
// writes 4294967240, read back whole by ld).
//
// The extension is an assignment after the load, in arithmetic both
// engines compute alike on negative values (a non-negative remainder).
// It is left out when no value of the test can fall outside
// [0, 2^(8n-1)) for the narrowest load of n bytes, where it changes
// nothing (most tests: small constants, no subtraction), and for loads
// that may read an address (a location initialised with one).

// extendNarrowLoads adds the extension of every load of fewer than 8
// bytes of t and masks the value of every such store (accs: its
// accesses, placed by a64StaticAccesses).
func extendNarrowLoads(t *spec.Test, accs []a64Access) {
	minSize := int64(8)
	for _, a := range accs {
		if a.size < minSize && (isLoad(t, a) || isStore(t, a)) {
			minSize = a.size
		}
	}
	if minSize >= 8 || !valuesMayExceed(t, int64(1)<<(8*minSize-1)) {
		return
	}
	pointers := false
	for _, e := range t.Init {
		if !e.Ref.IsReg() && e.Val.IsAddr() {
			pointers = true
		}
	}
	ext := map[[2]int]a64Access{}
	for _, a := range accs {
		if a.size < 8 && isLoad(t, a) && (!pointers || a.known && !locHoldsAddr(t, a.loc)) {
			ext[[2]int{a.thread, a.pc}] = a
		}
		if a.size < 8 && isStore(t, a) && !storesAddr(t, a) {
			ext[[2]int{a.thread, a.pc}] = a
		}
	}
	if len(ext) == 0 {
		return
	}
	cv := chunkValues{exact: true}
	for ti, th := range t.Threads {
		var code []prog.Instr
		var pos []prog.Pos
		var sizes []int
		for pc, in := range th.Code {
			p := prog.Pos{}
			if pc < len(th.Pos) {
				p = th.Pos[pc]
			}
			a, ok := ext[[2]int{ti, pc}]
			if st, isStore := in.(prog.Store); ok && isStore {
				// The store writes the size bytes of its value.
				st.Val = cv.mod(st.Val, int64(1)<<(8*a.size))
				in = st
			}
			code, pos = append(code, in), append(pos, p)
			if th.Sizes != nil {
				sizes = append(sizes, th.Sizes[pc])
			}
			ld, isLoad := in.(prog.Load)
			if !ok || !isLoad || ld.Dst == "" {
				continue
			}
			dst := ld.Dst
			r := prog.Reg{Name: dst}
			var val prog.Expr = cv.mod(r, int64(1)<<(8*a.size))
			if a.signed {
				top := prog.Bin{Op: prog.OpDiv, X: val, Y: prog.Int(int64(1) << (8*a.size - 1))}
				val = prog.Bin{Op: prog.OpSub, X: val, Y: prog.Bin{Op: prog.OpMul, X: top, Y: prog.Int(int64(1) << (8 * a.size))}}
			}
			code, pos = append(code, prog.Assign{Dst: dst, Val: val}), append(pos, p)
			if th.Sizes != nil {
				sizes = append(sizes, 0)
			}
		}
		th.Code, th.Pos = code, pos
		if th.Sizes != nil {
			th.Sizes = sizes
		}
	}
}

// isLoad tells whether access a is made by a prog.Load.
func isLoad(t *spec.Test, a a64Access) bool {
	_, ok := t.Threads[a.thread].Code[a.pc].(prog.Load)
	return ok
}

// isStore tells whether access a is made by a prog.Store.
func isStore(t *spec.Test, a a64Access) bool {
	_, ok := t.Threads[a.thread].Code[a.pc].(prog.Store)
	return ok
}

// storesAddr tells whether the store a may write an address: its value
// is not a constant or a register never initialised with an address.
func storesAddr(t *spec.Test, a a64Access) bool {
	switch v := t.Threads[a.thread].Code[a.pc].(prog.Store).Val.(type) {
	case prog.Const:
		return v.V.IsAddr()
	case prog.Reg:
		for _, e := range t.Init {
			if e.Ref.IsReg() && e.Ref.Thread == a.thread && e.Ref.Name == v.Name && e.Val.IsAddr() {
				return true
			}
		}
		return false
	}
	return true
}

// locHoldsAddr tells whether location loc is initialised with an address.
func locHoldsAddr(t *spec.Test, loc string) bool {
	for _, e := range t.Init {
		if !e.Ref.IsReg() && e.Ref.Name == loc && e.Val.IsAddr() {
			return true
		}
	}
	return false
}

// valuesMayExceed tells whether some value of t may fall outside
// [0, lim): an integer constant of its initial state or code outside it,
// or an operation that may make one from values inside it (subtraction
// but x-x, negation, complement, multiplication, left shift).
func valuesMayExceed(t *spec.Test, lim int64) bool {
	out := func(v prog.Value) bool { return !v.IsAddr() && (v.Int < 0 || v.Int >= lim) }
	for _, e := range t.Init {
		if out(e.Val) {
			return true
		}
	}
	found := false
	for _, th := range t.Threads {
		for _, in := range th.Code {
			for _, e := range prog.Exprs(in) {
				prog.WalkExpr(e, func(x prog.Expr) {
					switch x := x.(type) {
					case prog.Const:
						found = found || out(x.V)
					case prog.Bin:
						switch x.Op {
						case prog.OpSub:
							found = found || x.X != x.Y
						case prog.OpMul, prog.OpShl:
							found = true
						}
					case prog.Un:
						found = found || x.Op == prog.OpNeg || x.Op == prog.OpBNot
					}
				})
			}
		}
	}
	return found
}
