package litmus

import (
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// Extensions the range analysis proves useless.
//
// Every write to a W register keeps the low 32 bits of its result,
// zero-extended (a64Result), and the signed conditions read W operands
// sign-extended from 32 bits (a64Signed32). In most litmus tests these
// extensions change nothing: the values are small non-negative constants
// and the operations (EOR of a register with itself, ADD of 1, ORR, AND)
// cannot leave 32 bits. Left in the code they cost the engines work, and
// their constants (2^32-1, shifts by 32) make the narrow-load extension
// and the register-type normalisation think values may be large
// (valuesMayExceed), which changes the code of most tests.
//
// a64DropMasks removes an extension from an assignment's value or a
// jump's condition where the value ranges of regrange.go, at that point of
// the thread, show its operand already in the range it leaves unchanged:
//   - e & (2^k - 1), with every value of e an integer in 0..2^k-1, is e
//     (the AND keeps every bit of a value below 2^k);
//   - (e << s) >> s (arithmetic), with every value of e an integer in
//     0..2^(63-s)-1, is e (e << s stays below 2^63, so no bit is lost and
//     the sign stays clear, and the shift back restores e).
//
// The ranges over-approximate every execution (regrange.go), so the code
// after the rewrite computes the same value as before in every execution
// of the test: the rewrite is exact, not an approximation. An operand that
// may be an address is never in range, so its extension stays.

// What a load reads. regrange.go takes memory as one range of whole
// values, before the mixed-size lowering and the narrow-load extension
// (loadext.go) make the access sizes explicit; a64LoadRange makes that
// sound for AArch64, whose narrow loads zero-extend the bytes they read
// (the sign-extending ones add their own extension after the load):
//   - in a mixed-size test a load of n < 8 bytes may assemble bytes of
//     several stores: any value of 0..2^(8n)-1; one of 8 bytes, or of a
//     size not recorded, any value at all;
//   - else every access reads or writes whole values, and a load of n < 8
//     bytes reads the low n bytes of a value stored: the value itself when
//     every value of memory is in 0..2^(8n)-1, else some value of that
//     range.

// a64LoadRange is the load hook of rangeFixpoint for t, as above.
func a64LoadRange(t *spec.Test, mixed bool) func(ti, pc int, mem vrange) vrange {
	return func(ti, pc int, mem vrange) vrange {
		n := 0
		if th := t.Threads[ti]; pc < len(th.Sizes) {
			n = max(th.Sizes[pc], -th.Sizes[pc])
		}
		narrow := vrange{ints: true, lo: 0, hi: int64(1)<<(8*n) - 1}
		switch {
		case n <= 0 || n >= 8:
			if mixed {
				return fullRange.join(vrange{addr: mem.addr})
			}
			return mem
		case mixed || !mem.within(0, narrow.hi):
			return narrow.join(vrange{addr: mem.addr})
		}
		return mem
	}
}

// a64DropMasks rewrites the threads of t as above; a test the analysis
// does not know (an instruction it cannot run) is left as it is.
func a64DropMasks(t *spec.Test) {
	if keepA64Masks {
		return
	}
	accs := a64StaticAccesses(t)
	mixed := a64IsMixed(t, accs)
	load := a64LoadRange(t, mixed)
	finals, mem, inits := rangeFixpoint(t, load)
	if finals == nil {
		return
	}
	if !mixed {
		if perLoc := a64LocationRanges(t, accs, inits, load); perLoc != nil {
			load = perLoc
		}
	}
	for ti, th := range t.Threads {
		rewritten := map[int]prog.Instr{}
		threadRanges(th, inits[ti], mem, rangeHooks{load: bindLoad(load, ti), visit: func(pc int, reg func(string) vrange) {
			drop := func(e prog.Expr) prog.Expr { return dropUselessExt(e, reg) }
			switch in := th.Code[pc].(type) {
			case prog.Assign:
				in.Val = drop(in.Val)
				rewritten[pc] = in
			case prog.Jump:
				if in.Cond != nil {
					in.Cond = drop(in.Cond)
					rewritten[pc] = in
				}
			}
		}})
		for pc, in := range rewritten {
			th.Code[pc] = in
		}
	}
}

// dropUselessExt is e with each useless extension of the kinds above
// removed, inner ones first, under the register ranges reg.
func dropUselessExt(e prog.Expr, reg func(string) vrange) prog.Expr {
	switch x := e.(type) {
	case prog.Un:
		x.X = dropUselessExt(x.X, reg)
		return x
	case prog.Bin:
		x.X, x.Y = dropUselessExt(x.X, reg), dropUselessExt(x.Y, reg)
		if m, ok := intConst(x.Y); ok && x.Op == prog.OpAnd && m > 0 && m&(m+1) == 0 {
			if evalRange(x.X, reg, vrange{}).within(0, m) {
				return x.X
			}
		}
		if s, ok := intConst(x.Y); ok && x.Op == prog.OpShr && s > 0 && s < 63 {
			if in, isShl := x.X.(prog.Bin); isShl && in.Op == prog.OpShl {
				if s2, ok := intConst(in.Y); ok && s2 == s && evalRange(in.X, reg, vrange{}).within(0, int64(1)<<(63-s)-1) {
					return in.X
				}
			}
		}
		return x
	}
	return e
}

// keepA64Masks turns a64DropMasks off, for the test that compares the
// answers with and without it.
var keepA64Masks bool

// intConst is the integer of a constant expression.
func intConst(e prog.Expr) (int64, bool) {
	if c, ok := e.(prog.Const); ok && !c.V.IsAddr() {
		return c.V.Int, true
	}
	return 0, false
}

// a64LocationRanges is a finer load hook than load for a test whose every
// access has a location known before running, at offset 0, and is not
// mixed-size: memory as one range per location (its initial value and
// every value stored to it), found as rangeFixpoint finds the one range
// of the whole memory, each location widened alike. A load reads its own
// location's range (through load, for the narrow ones). So in LB+rs,
// where one thread stores 1 to y and the other y's value plus 1 to x, x
// stays within 0..2 where one range for both would grow without bound.
// It is nil when some access's location is not known.
func a64LocationRanges(t *spec.Test, accs []a64Access, inits []map[string]vrange, load func(ti, pc int, mem vrange) vrange) func(ti, pc int, mem vrange) vrange {
	at := map[[2]int]string{}
	for _, a := range accs {
		if !a.known || a.off != 0 || a.loc == "" {
			return nil
		}
		at[[2]int{a.thread, a.pc}] = a.loc
	}
	for ti, th := range t.Threads {
		for pc, in := range th.Code {
			switch in.(type) {
			case prog.Load, prog.Store, prog.RMW, prog.StoreCond:
				if _, placed := at[[2]int{ti, pc}]; !placed {
					return nil // an access the placement does not list
				}
			case prog.Assign, prog.Jump, prog.Label, prog.Fence, prog.Havoc:
			default:
				return nil
			}
		}
	}
	start := map[string]vrange{}
	for _, e := range t.Init {
		if e.Ref.IsReg() {
			continue
		}
		if len(e.Elems) > 0 {
			return nil
		}
		start[e.Ref.Name] = constRange(e.Val).join(vrange{ints: true})
	}
	of := func(locs map[string]vrange, loc string) vrange {
		if r, in := locs[loc]; in {
			return r
		}
		return vrange{ints: true} // 0, never written
	}
	locs := start
	hook := func(ti, pc int, _ vrange) vrange { return load(ti, pc, of(locs, at[[2]int{ti, pc}])) }
	for round := 0; ; round++ {
		stored := map[string]vrange{}
		for loc, r := range start {
			stored[loc] = r
		}
		for ti, th := range t.Threads {
			_, _, ok := threadRanges(th, inits[ti], fullRange, rangeHooks{
				load: bindLoad(hook, ti),
				store: func(pc int, v vrange) {
					loc := at[[2]int{ti, pc}]
					stored[loc] = of(stored, loc).join(v)
				},
			})
			if !ok {
				return nil
			}
		}
		// Ranges only grow from round to round (each joins the last),
		// and widening bounds the rounds.
		same := true
		next := map[string]vrange{}
		for loc, old := range locs {
			next[loc] = old
		}
		for loc, r := range stored {
			old := of(locs, loc)
			if nu := old.join(r); nu != old {
				same = false
				next[loc] = widen(round, old, nu)
			}
		}
		if same {
			return hook
		}
		locs = next
	}
}
