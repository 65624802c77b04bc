package cfront

import "github.com/musket-verify/musket/internal/prog"

// This file follows the registers of known value through the unrolled
// code of a thread (expand in threads.go): integers, for the sizes of
// malloc calls, and addresses, for the argument a pthread_create passes.
//
// An address is worth knowing: pthread_create(&t[i], 0, f, &args[i]) in
// a loop unrolled exactly passes args+8*i, an expression of the loop's
// register. Passed as it is, the new thread reads it from a location of
// its own, and every access through it has an address the SMT engine
// does not know before solving, so it is encoded against every location
// it could be: a two-thread program with an array of thread records
// grew from 130 events to 1388 and timed out (cw5/sv_bank.c). Folded to
// the constant args+8, the thread starts with its argument known, as
// when &args[1] is written out. The folding is exact: a register is
// known at a point only when every way into that point gives it the
// same value (constRegs.step), so the constant is the value the
// expression has on every execution that reaches the create.

// foldConst computes e from constants and the registers of known value
// in regs (false: e's value is not known, or it is an address).
func foldConst(e prog.Expr, regs map[string]prog.Value) (int64, bool) {
	v, ok := foldValue(e, regs)
	return v.Int, ok && !v.IsAddr()
}

// foldValue computes e, an integer or an address (a location plus an
// offset), from constants and the registers of known value in regs
// (false: e's value is not known).
func foldValue(e prog.Expr, regs map[string]prog.Value) (prog.Value, bool) {
	switch x := e.(type) {
	case prog.Const:
		return x.V, x.V.Loc != heapLoc && x.V.Loc != coinLoc
	case prog.Reg:
		v, ok := regs[x.Name]
		return v, ok
	case prog.Un:
		a, ok := foldValue(x.X, regs)
		if !ok {
			return prog.Value{}, false
		}
		r, err := prog.ApplyUnary(x.Op, a)
		return r, err == nil
	case prog.Bin:
		a, ok := foldValue(x.X, regs)
		if !ok {
			return prog.Value{}, false
		}
		b, ok := foldValue(x.Y, regs)
		if !ok {
			return prog.Value{}, false
		}
		r, err := prog.Apply(x.Op, a, b)
		return r, err == nil
	}
	return prog.Value{}, false
}

// constRegs follows the registers of known value through the unrolled
// code of a thread, in order: at a label, those every way in agrees on
// (a thread with a backward jump: none).
type constRegs struct {
	cur     map[string]prog.Value // nil: the code here is not reached by falling through
	pending map[string]map[string]prog.Value
	dag     bool
}

func newConstRegs(th *prog.Thread) *constRegs {
	return &constRegs{cur: map[string]prog.Value{}, pending: map[string]map[string]prog.Value{}, dag: forwardOnly(th)}
}

func meetRegs(a, b map[string]prog.Value) map[string]prog.Value {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	out := map[string]prog.Value{}
	for k, v := range a {
		if w, ok := b[k]; ok && w == v {
			out[k] = v
		}
	}
	return out
}

func copyRegs(m map[string]prog.Value) map[string]prog.Value {
	out := make(map[string]prog.Value, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// step moves past in.
func (c *constRegs) step(in prog.Instr) {
	switch x := in.(type) {
	case prog.Label:
		if !c.dag {
			c.cur = map[string]prog.Value{}
			return
		}
		c.cur = meetRegs(c.cur, c.pending[x.Name])
		if c.cur == nil {
			c.cur = map[string]prog.Value{}
		}
		delete(c.pending, x.Name)
		return
	case prog.Jump:
		if c.cur != nil {
			c.pending[x.Target] = meetRegs(c.pending[x.Target], copyRegs(c.cur))
		}
		if x.Cond == nil {
			c.cur = nil
		}
		return
	case prog.Assign:
		if c.cur == nil {
			return
		}
		if v, ok := foldValue(x.Val, c.cur); ok {
			c.cur[x.Dst] = v
		} else {
			delete(c.cur, x.Dst)
		}
		return
	}
	if c.cur == nil {
		return
	}
	for _, r := range prog.Defs(in) {
		delete(c.cur, r)
	}
}

// set records that register r holds v from here on (an object expand
// has just made for a malloc call).
func (c *constRegs) set(r string, v prog.Value) {
	if c.cur != nil {
		c.cur[r] = v
	}
}
