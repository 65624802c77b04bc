package graph

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
)

// The replay of a thread under a model with dependencies (deps.go),
// compiled and resumable: registers are numbered (compiled.go's code of
// the thread), each register slot has its taint (the reads of its
// thread its value was computed from), and the interpreter's state is
// kept at each point where the thread reaches an event with k of its
// events consumed. That state depends only on the first k events of
// the thread in the graph (which instruction each is, and the value
// each read reads), so a replay resumes from the state of the longest
// prefix of the thread's events that its last replay consumed too,
// instead of re-running the thread from its start with registers in a
// map (replayDep, kept as the reference that Options.CrossCheck compares
// this replay with).

// dscope is a control dependency that ends at a join label (herd7's C
// if statements, prog.Jump.Join).
type dscope struct {
	join string
	d    taint
}

// dstate is a thread's state where it reaches an event (or its end)
// with k of its events consumed: at instruction pc, at the write of the
// read-modify-write there when wph (its read consumed, reading old).
// Its slices are never written while the state is kept.
type dstate struct {
	pc, k  int
	wph    bool
	old    prog.Value
	regs   []prog.Value
	taints []taint
	ctrl   taint
	sctrl  taint
	scoped []dscope // never written once made (copied on change)
}

// dsig is what a consumed event tells a replay: its instruction, whether
// it is the write of a read-modify-write, and for a read its value.
type dsig struct {
	pc  int
	w   bool
	val prog.Value
}

// dcache is, per thread, the states of its last replay: st[k] the state
// reaching an event with k events consumed, sig[k] the event consumed
// after st[k]; len(st) == len(sig)+1 when st is not empty. States past
// the part a replay keeps are overwritten in place (their slices
// reused).
type dcache struct {
	sig []dsig
	st  []*dstate
	n   int // states in use (st[n:] are spare)
	// the working registers and taints
	regs   []prog.Value
	taints []taint
	// one is, per pc, the taint of a register read by the read at pc.
	one []taint
	// regs read by each instruction's expressions
	uses []duses
}

// duses are the registers an instruction's expressions read.
type duses struct {
	addr, val, cond, new []int
	newOld               bool // an RMW's new value reads its read's (prog.Old)
}

// sigOf is event e's signature.
func (g *graph) sigOf(e int) dsig {
	ee := &g.evs[e]
	s := dsig{pc: ee.pc, w: ee.rmwW}
	if ee.kind == event.Read {
		s.val = ee.val
	}
	return s
}

// dcacheOf is thread t's replay cache, made on first use.
func (x *engine) dcacheOf(t int) *dcache {
	a := &x.arena
	if len(a.replay) != len(x.code) {
		a.replay = make([]*dcache, len(x.code))
	}
	if c := a.replay[t]; c != nil {
		return c
	}
	th := x.t.Threads[t]
	ct := x.code[t]
	c := &dcache{one: make([]taint, len(th.Code)), uses: make([]duses, len(th.Code))}
	slots := func(e prog.Expr) []int {
		var out []int
		var walk func(e prog.Expr)
		walk = func(e prog.Expr) {
			switch e := e.(type) {
			case prog.Reg:
				out = append(out, ct.slot[e.Name])
			case prog.Bin:
				walk(e.X)
				walk(e.Y)
			case prog.Un:
				walk(e.X)
			}
		}
		if e != nil {
			walk(e)
		}
		return out
	}
	for pc, in := range th.Code {
		u := &c.uses[pc]
		switch in := in.(type) {
		case prog.Assign:
			u.val = slots(in.Val)
		case prog.Jump:
			u.cond = slots(in.Cond)
		case prog.Load:
			u.addr = slots(in.Addr)
			c.one[pc] = taint{pc}
		case prog.Store:
			u.addr, u.val = slots(in.Addr), slots(in.Val)
		case prog.RMW:
			u.addr, u.cond, u.new = slots(in.Addr), slots(in.Cond), slots(in.New)
			u.newOld = usesOld(in.New)
			c.one[pc] = taint{pc}
		}
	}
	a.replay[t] = c
	return c
}

// usesOld tells whether e reads prog.Old.
func usesOld(e prog.Expr) bool {
	switch e := e.(type) {
	case prog.Old:
		return true
	case prog.Bin:
		return usesOld(e.X) || usesOld(e.Y)
	case prog.Un:
		return usesOld(e.X)
	}
	return false
}

// taintOf is the union of the taints of registers rs.
func taintOf(taints []taint, rs []int) taint {
	var d taint
	for _, r := range rs {
		d = mergeTaint(d, taints[r])
	}
	return d
}

// save records the working state as st[k] (reusing a spare state).
func (c *dcache) save(pc, k int, wph bool, old prog.Value, ctrl, sctrl taint, scoped []dscope) {
	if c.n < len(c.st) {
		s := c.st[c.n]
		s.pc, s.k, s.wph, s.old, s.ctrl, s.sctrl, s.scoped = pc, k, wph, old, ctrl, sctrl, scoped
		s.regs = append(s.regs[:0], c.regs...)
		s.taints = append(s.taints[:0], c.taints...)
	} else {
		c.st = append(c.st, &dstate{pc: pc, k: k, wph: wph, old: old, ctrl: ctrl, sctrl: sctrl, scoped: scoped,
			regs: append([]prog.Value(nil), c.regs...), taints: append([]taint(nil), c.taints...)})
	}
	c.n++
}

// replayC is replayDep by compiled, resumable code. The registers of a
// thread that has not ended (fin) are given only when fin is set: they
// are wanted only when no thread can run (pickDep).
func (x *engine) replayC(g *graph, t int, fin bool) (pending, error) {
	th := x.t.Threads[t]
	ct := x.code[t]
	c := x.dcacheOf(t)
	mine := g.threads[t]
	at := func(pc int) string { return replayAt(th, pc) }
	ct.err = nil
	// The longest prefix of the thread's events the last replay
	// consumed too; resume from the state after it.
	l, lim := 0, min(len(c.sig), c.n-1, len(mine))
	for l < lim && g.sigOf(mine[l]) == c.sig[l] {
		l++
	}
	var pc, k int
	var wph bool
	var old prog.Value
	var ctrl, sctrl taint
	var scoped []dscope
	resume := c.n > 0
	if resume {
		s := c.st[l]
		pc, k, wph, old, ctrl, sctrl, scoped = s.pc, s.k, s.wph, s.old, s.ctrl, s.sctrl, s.scoped
		c.regs = append(c.regs[:0], s.regs...)
		c.taints = append(c.taints[:0], s.taints...)
		c.n = l + 1
		c.sig = c.sig[:l]
	} else {
		c.regs = append(c.regs[:0], ct.init...)
		c.taints = c.taints[:0]
		for range ct.init {
			c.taints = append(c.taints, nil)
		}
		c.sig = c.sig[:0]
	}
	regs, taints := c.regs, c.taints
	var zero prog.Value
	// reach is where the thread reaches an event with k consumed: the
	// state is kept unless it is the one resumed from.
	reach := func() {
		if resume {
			resume = false
			return
		}
		c.save(pc, k, wph, old, ctrl, sctrl, scoped)
	}
	consume := func() {
		c.sig = append(c.sig, g.sigOf(mine[k]))
		k++
	}
	ctrlNow := func() taint {
		d := ctrl
		for _, s := range scoped {
			d = mergeTaint(d, s.d)
		}
		return d
	}
	// have tells whether g has the event of instruction pc (the write of
	// a read-modify-write when w); it fails when a kept event of the
	// thread was passed by.
	have := func(w bool) (bool, error) { return keptNext(g, mine, k, pc, w, th) }
	yield := func(e ev, addr, data taint) (pending, error) {
		if ct.err != nil {
			err := ct.err
			ct.err = nil
			return pending{}, opError(at(pc), err)
		}
		if v, ok := x.faultAt(e, t, pc); ok {
			// The thread stops here, its fault register set (fault.go).
			if k < len(mine) {
				return pending{}, faultKept(at(pc), e.loc)
			}
			regs[ct.slot[x.opts.FaultReg]] = v
			return pending{done: true, fin: append([]prog.Value(nil), regs...)}, nil
		}
		if err := x.undeclared(e, at(pc)); err != nil {
			return pending{}, err
		}
		e.mask = tagMask(e.tags)
		e.dep = &evDeps{addrD: addr, dataD: data, ctrlD: ctrlNow(), sctrlD: sctrl}
		p := pending{e: e, pos: k}
		if fin {
			p.fin = append([]prog.Value(nil), regs...)
		}
		return p, nil
	}
	last := pc
	for steps := 0; ; steps++ {
		if ct.err != nil {
			err := ct.err
			ct.err = nil
			return pending{}, opError(at(last), err)
		}
		if pc >= len(th.Code) {
			break
		}
		last = pc
		if steps > maxSteps {
			return pending{}, fmt.Errorf("%sthe graph engine runs loop-free code: a loop remains (unroll it)", at(pc))
		}
		ci := &ct.code[pc]
		u := &c.uses[pc]
		switch in := th.Code[pc].(type) {
		case prog.Label:
			for i, s := range scoped {
				if s.join == in.Name {
					m := make([]dscope, 0, len(scoped)-1)
					m = append(m, scoped[:i]...)
					scoped = append(m, scoped[i+1:]...)
					break
				}
			}
			pc++
		case prog.Assign:
			regs[ci.dst] = ci.val(regs, zero)
			taints[ci.dst] = taintOf(taints, u.val)
			pc++
		case prog.Jump:
			if in.Cond != nil {
				d := taintOf(taints, u.cond)
				sctrl = mergeTaint(sctrl, d)
				switch {
				case in.NoCtrl:
				case in.Join == "":
					ctrl = mergeTaint(ctrl, d)
				case len(d) > 0:
					m := make([]dscope, 0, len(scoped)+1)
					found := false
					for _, s := range scoped {
						if s.join == in.Join {
							s.d = mergeTaint(s.d, d)
							found = true
						}
						m = append(m, s)
					}
					if !found {
						m = append(m, dscope{in.Join, d})
					}
					scoped = m
				}
			}
			if ci.cond == nil || prog.Truth(ci.cond(regs, zero)) {
				if ci.target <= pc {
					// Events are known by their instruction: each runs
					// once at most.
					return pending{}, fmt.Errorf("%sthe graph engine runs loop-free code: a loop remains (unroll it)", at(pc))
				}
				pc = ci.target
			} else {
				pc++
			}
		case prog.Fence:
			reach()
			ok, err := have(false)
			if err != nil {
				return pending{}, err
			}
			if !ok {
				return yield(ev{kind: event.Fence, tags: in.Tags, pc: pc, rf: -1}, nil, nil)
			}
			consume()
			pc++
		case prog.Load:
			if in.Part {
				return pending{}, unsupportedInstr(at(pc), in)
			}
			reach()
			ok, err := have(false)
			if err != nil {
				return pending{}, err
			}
			if !ok {
				return yield(ev{kind: event.Read, loc: ci.location(regs), tags: in.Tags, pc: pc, rf: -1}, taintOf(taints, u.addr), nil)
			}
			if ci.dst >= 0 {
				regs[ci.dst] = g.evs[mine[k]].val
				taints[ci.dst] = c.one[pc]
			}
			consume()
			pc++
		case prog.Store:
			if in.Part {
				return pending{}, unsupportedInstr(at(pc), in)
			}
			reach()
			ok, err := have(false)
			if err != nil {
				return pending{}, err
			}
			if !ok {
				return yield(ev{kind: event.Write, loc: ci.location(regs), val: ci.val(regs, zero), tags: in.Tags, pc: pc, rf: -1},
					taintOf(taints, u.addr), taintOf(taints, u.val))
			}
			consume()
			pc++
		case prog.RMW:
			if !wph {
				reach()
				ok, err := have(false)
				if err != nil {
					return pending{}, err
				}
				if !ok {
					rd := ev{kind: event.Read, loc: ci.location(regs), tags: in.RTags, pc: pc, rf: -1, rmwR: true}
					if in.FailRTags != nil {
						// The read's tags depend on the value it reads,
						// with the registers of now (a copy: the working
						// ones change).
						rc := append([]prog.Value(nil), regs...)
						cond := ci.cond
						rd.retag = func(old prog.Value) []string {
							if cond == nil || prog.Truth(cond(rc, old)) {
								return in.RTags
							}
							return in.FailRTags
						}
					}
					p, err := yield(rd, taintOf(taints, u.addr), nil)
					if err == nil && p.e.dep != nil && in.FailRTags != nil {
						// Its tags depend on the condition (deps.go).
						p.e.dep.sctrlD = mergeTaint(p.e.dep.sctrlD, taintOf(taints, u.cond))
					}
					return p, err
				}
				old = g.evs[mine[k]].val
				consume()
				if ci.cond == nil || prog.Truth(ci.cond(regs, old)) {
					if ct.err != nil {
						continue // reported above
					}
					wph = true
				}
			}
			if wph {
				reach()
				ok, err := have(true)
				if err != nil {
					return pending{}, err
				}
				if !ok {
					data := taintOf(taints, u.new)
					for i, d := range data {
						if d == pc {
							data = append(append(taint(nil), data[:i]...), data[i+1:]...)
							break
						}
					}
					if len(data) == 0 {
						data = nil
					}
					p, err := yield(ev{kind: event.Write, loc: ci.location(regs), val: ci.new(regs, old), tags: in.WTags, pc: pc, rf: -1, rmwW: true},
						taintOf(taints, u.addr), data)
					if err == nil && p.e.dep != nil {
						p.e.dep.iico = u.newOld
						// The condition's reads decide whether the
						// write runs (deps.go).
						p.e.dep.sctrlD = mergeTaint(p.e.dep.sctrlD, taintOf(taints, u.cond))
					}
					return p, err
				}
				consume()
				wph = false
			}
			if ci.dst >= 0 {
				regs[ci.dst] = old
				taints[ci.dst] = c.one[pc]
			}
			pc++
		default:
			return pending{}, unsupportedInstr(at(pc), in)
		}
	}
	reach()
	if k < len(mine) {
		return pending{}, fmt.Errorf("%s: internal error: the graph engine's replay ended before an event it kept (dependency tracking)", th.Name)
	}
	return pending{done: true, fin: append([]prog.Value(nil), regs...)}, nil
}

// replayCross is replayC compared with the reference replay (replayDep)
// under Options.CrossCheck: a difference is an internal error.
func (x *engine) replayCross(g *graph, t int, fin bool) (pending, error) {
	p, err := x.replayC(g, t, fin)
	q, qerr := x.replayDep(g, t)
	if (err != nil) != (qerr != nil) || err != nil && err.Error() != qerr.Error() {
		return p, fmt.Errorf("internal error: the graph engine's compiled replay of thread %d gives error %v, the reference %v", t, err, qerr)
	}
	if err != nil {
		return p, err
	}
	if !samePending(p, q) {
		return p, fmt.Errorf("internal error: the graph engine's compiled replay of thread %d gives %+v (%+v), the reference %+v (%+v)", t, p, p.e.dep, q, q.e.dep)
	}
	if (p.done || fin) && !slices.Equal(x.regFileOf(t, q.regs).v, p.fin) {
		return p, fmt.Errorf("internal error: the graph engine's compiled replay of thread %d ends with registers %v, the reference %v", t, p.fin, q.regs)
	}
	return p, nil
}

// samePending tells whether two replays' answers agree (the final
// registers aside).
func samePending(p, q pending) bool {
	if p.done != q.done || p.pos != q.pos {
		return false
	}
	if p.done {
		return true
	}
	a, b := p.e, q.e
	if a.kind != b.kind || a.loc != b.loc || a.val != b.val || a.pc != b.pc || a.rmwR != b.rmwR || a.rmwW != b.rmwW ||
		a.mask != b.mask || !reflect.DeepEqual(a.tags, b.tags) || (a.retag == nil) != (b.retag == nil) {
		return false
	}
	if a.retag != nil {
		for _, v := range []prog.Value{{}, prog.IntValue(1), prog.IntValue(2)} {
			if !reflect.DeepEqual(a.retag(v), b.retag(v)) {
				return false
			}
		}
	}
	eq := func(x, y taint) bool { return len(x) == len(y) && (len(x) == 0 || reflect.DeepEqual(x, y)) }
	return eq(a.addrD(), b.addrD()) && eq(a.dataD(), b.dataD()) && eq(a.ctrlD(), b.ctrlD()) && eq(a.sctrlD(), b.sctrlD()) && a.iico() == b.iico()
}
