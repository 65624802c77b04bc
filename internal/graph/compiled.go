package graph

import (
	"github.com/musket-verify/musket/internal/prog"
)

// A thread's code prepared for replay: registers are numbered (a
// thread's registers are a slice, copied cheaply when a state is kept),
// expressions are closures over that slice, and constant addresses are
// named once.

// cexpr is a compiled expression; old is the value an RMW read (Old).
type cexpr func(regs []prog.Value, old prog.Value) prog.Value

// cinstr holds the compiled parts of one instruction (those it has).
type cinstr struct {
	dst    int // the register written (-1: none)
	addr   cexpr
	loc    string // the location of a constant address ("" otherwise)
	val    cexpr
	cond   cexpr // nil: none (always true)
	new    cexpr
	target int // a jump's target
}

// cthread is a thread's compiled code.
type cthread struct {
	slot  map[string]int // the number of each register
	names []string       // the registers, by number
	init  []prog.Value
	code  []cinstr
	// err is the first operation the compiled expressions failed to
	// compute since runFrom last cleared it (an operator on an address
	// that prog.Apply refuses): runFrom reports it as unsupported rather
	// than going on with a made-up value. The engine is single-threaded.
	err error
}

// compileThread compiles thread t of x.t.
func (x *engine) compileThread(t int) *cthread {
	th := x.t.Threads[t]
	slot := map[string]int{}
	ct := &cthread{slot: slot}
	reg := func(name string) int {
		if i, ok := slot[name]; ok {
			return i
		}
		slot[name] = len(ct.names)
		ct.names = append(ct.names, name)
		return slot[name]
	}
	for name := range x.initRegs[t] {
		reg(name)
	}
	if x.opts.Fault != nil || x.opts.FreedMark != nil || x.opts.Raw != nil {
		reg(x.opts.FaultReg) // set by a fault (fault.go) or a use after free (uaf.go)
	}
	var comp func(e prog.Expr) cexpr
	comp = func(e prog.Expr) cexpr {
		switch e := e.(type) {
		case prog.Const:
			v := e.V
			return func([]prog.Value, prog.Value) prog.Value { return v }
		case prog.Reg:
			i := reg(e.Name)
			return func(r []prog.Value, _ prog.Value) prog.Value { return r[i] }
		case prog.Old:
			return func(_ []prog.Value, old prog.Value) prog.Value { return old }
		case prog.Bin:
			a, b, op := comp(e.X), comp(e.Y), e.Op
			return func(r []prog.Value, old prog.Value) prog.Value {
				v, err := prog.ApplyTotal(op, a(r, old), b(r, old))
				if err != nil {
					keepFirst(&ct.err, err)
					return prog.Value{}
				}
				return v
			}
		case prog.Un:
			a, op := comp(e.X), e.Op
			return func(r []prog.Value, old prog.Value) prog.Value {
				v, err := prog.ApplyUnary(op, a(r, old))
				if err != nil {
					keepFirst(&ct.err, err)
					return prog.Value{}
				}
				return v
			}
		}
		return func([]prog.Value, prog.Value) prog.Value { return prog.Value{} }
	}
	addr := func(c *cinstr, e prog.Expr) {
		c.addr = comp(e)
		if k, ok := e.(prog.Const); ok {
			c.loc = locOf(k.V)
		}
	}
	ct.code = make([]cinstr, len(th.Code))
	for pc, in := range th.Code {
		c := &ct.code[pc]
		c.dst = -1
		switch in := in.(type) {
		case prog.Assign:
			c.dst = reg(in.Dst)
			c.val = comp(in.Val)
		case prog.Jump:
			if in.Cond != nil {
				c.cond = comp(in.Cond)
			}
			c.target = x.labels[t][in.Target]
		case prog.Load:
			if in.Dst != "" {
				c.dst = reg(in.Dst)
			}
			addr(c, in.Addr)
		case prog.Store:
			addr(c, in.Addr)
			c.val = comp(in.Val)
		case prog.RMW:
			if in.Dst != "" {
				c.dst = reg(in.Dst)
			}
			addr(c, in.Addr)
			if in.Cond != nil {
				c.cond = comp(in.Cond)
			}
			c.new = comp(in.New)
		}
	}
	ct.init = make([]prog.Value, len(ct.names))
	for name, v := range x.initRegs[t] {
		ct.init[slot[name]] = v
	}
	return ct
}

// regFile is a thread's registers at some point.
type regFile struct {
	ct *cthread
	v  []prog.Value
}

// get is the value of register name (zero when the thread has none).
func (r regFile) get(name string) prog.Value {
	if r.ct == nil {
		return prog.Value{}
	}
	if i, ok := r.ct.slot[name]; ok && i < len(r.v) {
		return r.v[i]
	}
	return prog.Value{}
}

// location is the location an access's address designates.
func (c *cinstr) location(regs []prog.Value) string {
	if c.loc != "" {
		return c.loc
	}
	return locOf(c.addr(regs, prog.Value{}))
}

// keepFirst records err in *first unless an error is there already: the
// engine reports the first operation it failed to compute.
func keepFirst(first *error, err error) {
	if *first == nil {
		*first = err
	}
}
