package graph

import (
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// Threads that start after an atomic: no cycle can come back to it.
//
// armRMWRefuse's cycle (armrmw.go) leaves the read x after the atomic a
// and comes back to a read r of x's thread t at or before a, from a
// write w of another thread u (a read of t cannot read a write of t
// after it in program order: coherence). When u starts after r, no
// consistent graph has that last step:
//
//   - u starts with an acquire read q of a flag that waits for a write of
//     the program (Options.Await: cfront's %start.N, whose read reads the
//     parent's write, never the initial value), and nothing comes before
//     q in u's code but register assignments and labels: every event of
//     u is after q in program order, so ordered after it ([A|Q]; po ⊆ bob);
//   - the flag's address is never a value (no expression of the program
//     names it but as the whole address of an access, and no initial
//     value is it), so a write through a computed address is never to
//     it, and every write to it is a release store (L) either of t, after r in code order (t has no backward
//     jump, so r, when it runs, is before it in program order), or of a
//     thread that starts after r in the same sense (by induction over
//     the creations, every such thread's events are ordered after r);
//
// so r is ordered before the flag's write (po; [L] ⊆ bob), which reads-
// from (rfe ⊆ ob) orders before q and so before w; w →rfe r closes a
// cycle of ordered-before, which aarch64.cat's external axiom forbids.
// When every thread but t starts after a (a's own position: every read
// at or before a is before it in code order), the cycle of armrmw.go
// does not exist, whatever the location flow says, and the atomic at a
// is no reason to refuse. This is the shape of a structure that main
// builds with atomics before it creates the threads (a Treiber stack's
// pushes): the old rule refused it for the threads' later writes to the
// stack's top, which flow to main's first reads of it.

// startsAfter tells whether every thread of f but t starts after
// instruction pc of t (see above); await is Options.Await (nil: no read
// waits, and the answer is false), init the program's initial values.
func (f *armFlow) startsAfter(t, pc int, await func(string) bool, init []spec.InitEntry) bool {
	if await == nil || f.back[t] {
		return false
	}
	flags := make([]prog.Const, len(f.ths))
	for u, th := range f.ths {
		if u == t {
			continue
		}
		c, ok := startFlag(th, await)
		if !ok || !f.addrHidden(c.V.Loc, init) {
			return false
		}
		flags[u] = c
	}
	after := make([]bool, len(f.ths))
	for grew := true; grew; {
		grew = false
		for u := range f.ths {
			if u != t && !after[u] && f.flagWrittenAfter(flags[u], t, pc, after) {
				after[u], grew = true, true
			}
		}
	}
	for u := range f.ths {
		if u != t && !after[u] {
			return false
		}
	}
	return true
}

// startFlag is the flag thread th waits for first: its first instruction
// that is neither a register assignment nor a label must be an acquire
// read of a constant address await names.
func startFlag(th *prog.Thread, await func(string) bool) (prog.Const, bool) {
	for _, in := range th.Code {
		switch r := in.(type) {
		case prog.Assign, prog.Label:
			continue
		case prog.Load:
			c, ok := r.Addr.(prog.Const)
			if ok && c.V.IsAddr() && armAcquire(r.Tags) && await(c.V.Loc) && c.V.Int == 0 {
				return c, true
			}
		}
		return prog.Const{}, false
	}
	return prog.Const{}, false
}

// flagWrittenAfter tells whether every instruction of the program that
// writes flag (an address addrHidden holds for) is a release store of
// thread t after pc, or of a thread already known to start after it
// (after).
func (f *armFlow) flagWrittenAfter(flag prog.Const, t, pc int, after []bool) bool {
	for v, th := range f.ths {
		for k, in := range th.Code {
			a, _, w, ok := prog.Access(in)
			if !ok || !w {
				continue
			}
			if c, isConst := a.(prog.Const); !isConst || c.V != flag.V {
				continue // (another location: the flag's address is no value)
			}
			st, isStore := in.(prog.Store)
			if !isStore || !hasTag(st.Tags, "L") {
				return false
			}
			if v == t && k <= pc || v != t && !after[v] {
				return false
			}
		}
	}
	return true
}

// addrHidden tells whether the address of location loc is never a value
// of the program: every constant that names it is the whole address of
// a memory access, and no initial value names it. No register or memory
// cell then ever holds it (address arithmetic keeps the location of the
// address it starts from), so only an access whose address is that
// constant may touch loc.
func (f *armFlow) addrHidden(loc string, init []spec.InitEntry) bool {
	for _, e := range init {
		if e.Val.Loc == loc {
			return false
		}
		for _, v := range e.Elems {
			if v.Loc == loc {
				return false
			}
		}
	}
	for _, th := range f.ths {
		for _, in := range th.Code {
			for k, e := range prog.Exprs(in) {
				if _, _, _, acc := prog.Access(in); acc && k == 0 {
					if _, isConst := e.(prog.Const); isConst {
						continue // the address of the access itself
					}
				}
				named := false
				prog.WalkExpr(e, func(x prog.Expr) {
					if c, ok := x.(prog.Const); ok && c.V.Loc == loc {
						named = true
					}
				})
				if named {
					return false
				}
			}
		}
	}
	return true
}
