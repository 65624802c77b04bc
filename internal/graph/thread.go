package graph

import (
	"fmt"

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
	regs map[string]prog.Value // at the end (or at a read): the thread's registers
	e    ev                    // the event (thread, stamp and rf not set)
	pos  int                   // under a model with dependencies: its place in its thread's events
}

// UnsupportedError is an instruction the engine cannot run.
type UnsupportedError struct{ What string }

func (e *UnsupportedError) Error() string { return e.What }

// next re-runs thread t from its start, reading the values its reads
// have in g, and returns its next event (or its end).
func (x *engine) next(g *graph, t int) (pending, error) {
	th := x.t.Threads[t]
	labels := x.labels[t]
	regs := make(map[string]prog.Value, len(x.initRegs[t])+16)
	for k, v := range x.initRegs[t] {
		regs[k] = v
	}
	mine := g.threads[t]
	k := 0
	at := func(pc int) string {
		if pc < len(th.Pos) && th.Pos[pc].File != "" {
			return fmt.Sprintf("%s:%d: %s: ", th.Pos[pc].File, th.Pos[pc].Line, th.Name)
		}
		return th.Name + ": "
	}
	for pc, steps := 0, 0; pc < len(th.Code); steps++ {
		if steps > maxSteps {
			return pending{}, fmt.Errorf("%sthe graph engine runs loop-free code: a loop remains (unroll it)", at(pc))
		}
		switch in := th.Code[pc].(type) {
		case prog.Label:
			pc++
		case prog.Assign:
			regs[in.Dst] = eval(in.Val, regs, prog.Value{})
			pc++
		case prog.Jump:
			if in.Cond == nil || prog.Truth(eval(in.Cond, regs, prog.Value{})) {
				pc = labels[in.Target]
			} else {
				pc++
			}
		case prog.Fence:
			if k < len(mine) {
				k++
				pc++
				continue
			}
			return pending{e: ev{kind: event.Fence, tags: in.Tags, pc: pc, rf: -1}}, nil
		case prog.Load:
			if in.Part {
				return pending{}, &UnsupportedError{at(pc) + "mixed-size accesses are not supported by the graph engine"}
			}
			loc := locOf(eval(in.Addr, regs, prog.Value{}))
			if k < len(mine) {
				if in.Dst != "" {
					regs[in.Dst] = g.evs[mine[k]].val
				}
				k++
				pc++
				continue
			}
			return pending{e: ev{kind: event.Read, loc: loc, tags: in.Tags, pc: pc, rf: -1}, regs: regs}, nil
		case prog.Store:
			if in.Part {
				return pending{}, &UnsupportedError{at(pc) + "mixed-size accesses are not supported by the graph engine"}
			}
			loc := locOf(eval(in.Addr, regs, prog.Value{}))
			v := eval(in.Val, regs, prog.Value{})
			if k < len(mine) {
				k++
				pc++
				continue
			}
			return pending{e: ev{kind: event.Write, loc: loc, val: v, tags: in.Tags, pc: pc, rf: -1}}, nil
		case prog.RMW:
			loc := locOf(eval(in.Addr, regs, prog.Value{}))
			holds := func(old prog.Value) bool {
				return in.Cond == nil || prog.Truth(eval(in.Cond, regs, old))
			}
			if k >= len(mine) {
				rd := ev{kind: event.Read, loc: loc, tags: in.RTags, pc: pc, rf: -1, rmwR: true}
				if in.FailRTags != nil {
					// The read's tags depend on the value it reads; regs
					// is this replay's own map, not written after.
					rd.retag = func(old prog.Value) []string {
						if holds(old) {
							return in.RTags
						}
						return in.FailRTags
					}
				}
				return pending{e: rd}, nil
			}
			old := g.evs[mine[k]].val
			k++
			if holds(old) {
				if k >= len(mine) {
					nv := eval(in.New, regs, old)
					return pending{e: ev{kind: event.Write, loc: loc, val: nv, tags: in.WTags, pc: pc, rf: -1, rmwW: true}}, nil
				}
				k++
			}
			if in.Dst != "" {
				regs[in.Dst] = old
			}
			pc++
		case prog.StoreCond:
			return pending{}, &UnsupportedError{at(pc) + "store-conditionals are not supported by the graph engine"}
		case prog.Havoc:
			return pending{}, &UnsupportedError{at(pc) + "arbitrary values (__VERIFIER_nondet_*) are not supported by the graph engine"}
		default:
			return pending{}, &UnsupportedError{fmt.Sprintf("%sinstruction %s is not supported by the graph engine", at(pc), prog.InstrString(in))}
		}
	}
	return pending{done: true, regs: regs}, nil
}

// locOf names the location an address value designates.
func locOf(v prog.Value) string {
	if !v.IsAddr() {
		// An integer used as an address: a location of its own, which
		// no declared location aliases.
		return fmt.Sprintf("%%int%d", v.Int)
	}
	return symexec.LocName(v)
}

// eval computes an expression; old is the value an RMW read (Old). A
// division by zero gives 0, as in the other engines.
func eval(e prog.Expr, regs map[string]prog.Value, old prog.Value) prog.Value {
	switch e := e.(type) {
	case prog.Const:
		return e.V
	case prog.Reg:
		return regs[e.Name]
	case prog.Old:
		return old
	case prog.Bin:
		a, b := eval(e.X, regs, old), eval(e.Y, regs, old)
		v, err := prog.ApplyTotal(e.Op, a, b)
		if err != nil {
			return prog.Value{}
		}
		return v
	case prog.Un:
		v, err := prog.ApplyUnary(e.Op, eval(e.X, regs, old))
		if err != nil {
			return prog.Value{}
		}
		return v
	}
	return prog.Value{}
}
