package graph

import (
	"fmt"
	"strings"

	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/symexec"
)

// maxSteps bounds the instructions one replay of a thread runs: the code
// is loop-free once unrolled, so only a loop left in it gets there.
const maxSteps = 1 << 20

// pending is the next event of a thread, or its end.
type pending struct {
	done bool
	fin  []prog.Value // the thread's registers at this point (by number, cthread.names; never written)
	e    ev           // the event (thread, stamp and rf not set)
	// Under a model with dependencies (deps.go, which replays threads
	// its own way): the registers at the end, and the event's place in
	// its thread's events.
	regs map[string]prog.Value
	pos  int
}

// UnsupportedError is an instruction the engine cannot run.
type UnsupportedError struct{ What string }

func (e *UnsupportedError) Error() string { return e.What }

// unsupportedInstr is the refusal of instruction in at where (a
// position, "" for none), the same in every replay of a thread: a
// mixed-size access, a store-conditional, an arbitrary value, any
// other instruction the engine does not run.
func unsupportedInstr(where string, in prog.Instr) *UnsupportedError {
	mixed := false
	switch in := in.(type) {
	case prog.StoreCond:
		return &UnsupportedError{where + "store-conditionals are not supported by the graph engine"}
	case prog.Havoc:
		return &UnsupportedError{where + "arbitrary values (__VERIFIER_nondet_*) are not supported by the graph engine"}
	case prog.Load:
		mixed = in.Part
	case prog.Store:
		mixed = in.Part
	case prog.RMW:
		mixed = in.Part
	}
	if mixed {
		return &UnsupportedError{where + "mixed-size accesses are not supported by the graph engine"}
	}
	return &UnsupportedError{fmt.Sprintf("%sinstruction %s is not supported by the graph engine", where, prog.InstrString(in))}
}

// tstate is a thread's state before the instruction that gives its
// event number n (or its end): the instruction, the events consumed, the
// registers (never written once recorded), and what that instruction
// gives. Graphs keep these states per thread (graph.tc) so that a thread
// resumes from its last state instead of re-running from its start.
type tstate struct {
	pc, k int
	regs  []prog.Value
	p     pending
}

// next returns thread t's next event in g (or its end): from the state
// g holds for it when there is one, else by resuming from the latest
// state g holds for a prefix of its events (from its start if none),
// reading the values its reads have in g.
func (x *engine) next(g *graph, t int) (pending, error) {
	mine := g.threads[t]
	n := len(mine)
	cs := g.tc[t]
	if n < len(cs) && cs[n] != nil {
		return cs[n].p, nil
	}
	var from *tstate
	for m := min(n, len(cs)-1); m >= 0; m-- {
		if cs[m] != nil {
			from = cs[m]
			break
		}
	}
	ct := x.code[t]
	pc, k := 0, 0
	var regs []prog.Value
	if from != nil {
		pc, k = from.pc, from.k
		regs = append([]prog.Value(nil), from.regs...)
	} else {
		regs = append([]prog.Value(nil), ct.init...)
	}
	st, err := x.runFrom(g, t, pc, k, regs)
	if err != nil {
		return pending{}, err
	}
	for len(cs) <= n {
		cs = append(cs, nil)
	}
	cs[n] = st
	g.tc[t] = cs
	return st.p, nil
}

// runFrom runs thread t from instruction pc with k of its events
// consumed, reading the values its reads have in g, up to its next
// event (or its end), and returns the state before that instruction.
func (x *engine) runFrom(g *graph, t, pc, k int, regs []prog.Value) (*tstate, error) {
	th := x.t.Threads[t]
	ct := x.code[t]
	mine := g.threads[t]
	at := func(pc int) string {
		if pc < len(th.Pos) && th.Pos[pc].File != "" {
			return fmt.Sprintf("%s:%d: %s: ", th.Pos[pc].File, th.Pos[pc].Line, th.Name)
		}
		return th.Name + ": "
	}
	// An operation the compiled code failed to compute (ct.err) is
	// reported at the instruction that computed it, never run on.
	ct.err = nil
	failed := func(pc int) error {
		err := ct.err
		ct.err = nil
		return opError(at(pc), err)
	}
	stop := func(p pending) (*tstate, error) {
		if ct.err != nil {
			return nil, failed(pc)
		}
		if !p.done {
			if v, ok := x.faultAt(p.e, t, pc); ok {
				// The thread stops here, its fault register set
				// (fault.go); regs is this replay's own copy.
				regs[ct.slot[x.opts.FaultReg]] = v
				return &tstate{pc: pc, k: k, regs: regs, p: pending{done: true, fin: regs}}, nil
			}
			if err := x.undeclared(p.e, at(pc)); err != nil {
				return nil, err
			}
		}
		p.e.mask = tagMask(p.e.tags)
		p.fin = regs
		return &tstate{pc: pc, k: k, regs: regs, p: p}, nil
	}
	var zero prog.Value
	last := pc
	for steps := 0; pc < len(th.Code); steps++ {
		if ct.err != nil {
			return nil, failed(last)
		}
		last = pc
		if steps > maxSteps {
			return nil, fmt.Errorf("%sthe graph engine runs loop-free code: a loop remains (unroll it)", at(pc))
		}
		c := &ct.code[pc]
		switch in := th.Code[pc].(type) {
		case prog.Label:
			pc++
		case prog.Assign:
			regs[c.dst] = c.val(regs, zero)
			pc++
		case prog.Jump:
			if c.cond == nil || prog.Truth(c.cond(regs, zero)) {
				pc = c.target
			} else {
				pc++
			}
		case prog.Fence:
			if k < len(mine) {
				k++
				pc++
				continue
			}
			return stop(pending{e: ev{kind: event.Fence, tags: in.Tags, pc: pc, rf: -1}})
		case prog.Load:
			if in.Part {
				return nil, unsupportedInstr(at(pc), in)
			}
			if k < len(mine) {
				if c.dst >= 0 {
					regs[c.dst] = g.evs[mine[k]].val
				}
				k++
				pc++
				continue
			}
			return stop(pending{e: ev{kind: event.Read, loc: c.location(regs), tags: in.Tags, pc: pc, rf: -1}})
		case prog.Store:
			if in.Part {
				return nil, unsupportedInstr(at(pc), in)
			}
			if k < len(mine) {
				k++
				pc++
				continue
			}
			return stop(pending{e: ev{kind: event.Write, loc: c.location(regs), val: c.val(regs, zero), tags: in.Tags, pc: pc, rf: -1}})
		case prog.RMW:
			if in.Part {
				return nil, unsupportedInstr(at(pc), in)
			}
			k0 := k
			holds := func(old prog.Value) bool {
				return c.cond == nil || prog.Truth(c.cond(regs, old))
			}
			if k >= len(mine) {
				rd := ev{kind: event.Read, loc: c.location(regs), tags: in.RTags, pc: pc, rf: -1, rmwR: true}
				if in.FailRTags != nil {
					// The read's tags depend on the value it reads; regs
					// is kept with the state, never written after.
					rd.retag = func(old prog.Value) []string {
						if holds(old) {
							return in.RTags
						}
						return in.FailRTags
					}
				}
				return stop(pending{e: rd})
			}
			old := g.evs[mine[k]].val
			k++
			if holds(old) {
				if k >= len(mine) {
					nv := c.new(regs, old)
					k = k0
					return stop(pending{e: ev{kind: event.Write, loc: c.location(regs), val: nv, tags: in.WTags, pc: pc, rf: -1, rmwW: true}})
				}
				k++
			}
			if c.dst >= 0 {
				regs[c.dst] = old
			}
			pc++
		default:
			return nil, unsupportedInstr(at(pc), in)
		}
	}
	if ct.err != nil {
		return nil, failed(last)
	}
	return stop(pending{done: true})
}

// opError is the error of an operation the graph engine cannot compute
// (prog.Apply's refusal, e.g. a multiplication of an address), at the
// instruction at (file:line: thread: ).
func opError(at string, err error) error {
	return &UnsupportedError{fmt.Sprintf("%s%v is not supported by the graph engine", at, err)}
}

// intLocPrefix begins the name of the location an integer used as an
// address designates.
const intLocPrefix = "%int"

// locOf names the location an address value designates.
func locOf(v prog.Value) string {
	if !v.IsAddr() {
		// An integer used as an address: a location of its own, which
		// no declared location aliases.
		return fmt.Sprintf("%s%d", intLocPrefix, v.Int)
	}
	return symexec.LocName(v)
}

// undeclared refuses, under Options.DeclaredOnly, an access to a
// location the test gives no initial value (an address outside every
// object of a C program).
func (x *engine) undeclared(e ev, at string) error {
	if !x.opts.DeclaredOnly || x.opts.Fault != nil || e.kind == event.Fence {
		return nil
	}
	if _, ok := x.initMem[e.loc]; ok {
		return nil
	}
	if strings.HasPrefix(e.loc, intLocPrefix) {
		// An integer used as an address (a null pointer's field): the
		// engine meets these in graphs it then finds inconsistent (a
		// stale null read by a lock-free queue's dequeue), and refusing
		// the whole run there cost msqueue.c its answer. Only an
		// object's address at an offset it does not have is refused.
		return nil
	}
	return &UnsupportedError{fmt.Sprintf("%san access to %s, outside every object of the program (an invalid memory access), is left to the SMT engine", at, e.loc)}
}
