package graph

import (
	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
)

// Blocked on a stale read: which graphs the exploration leaves out, and
// why no verdict changes (sc, tso, pso, rc11, and IMM as immsym.go
// says; not under -liveness).
//
// A thread that stops in a cut spin loop (Options.SpinReg) waits there
// forever in the execution explored. When the last event of such a
// thread T is a read r (a plain read or a failed compare-and-swap) that
// reads a write w0 although a write w1 coherence-after w0 was added to
// the graph before r (r was not added maximally), the graph is left out
// with everything the exploration would build from it.
//
// Closure. Every execution built from such a graph still has T stopped
// after r, r reading w0 and w1 after w0 in coherence: forward steps add
// events to the other threads only (T has ended), never change an
// existing read, and place a new write in coherence without reordering
// the others; a backward revisit by a write w removes the events
// added after the revisited read that are not in w's po ∪ rf prefix,
// and only when they, and the revisited read, were added maximally
// (maximal). r is in no such prefix (nothing follows it in T, and no
// event reads a read), and r is never maximal: w1 was added before it
// and is coherence-after its write, whatever the prefix. So r is never
// revisited, and never removed; nor is an event of T before r, nor w1:
// a revisit removing one of them removes every event added after the
// revisited read and outside the prefix, r among them.
//
// Such executions are useless. Let X be a complete execution in which
// a thread T stopped in a spin loop has as last event a read r
// satisfying the race condition below, reading a write that is not the
// coherence-latest of its location. Remove r: X minus r is a po ∪ rf
// prefix of X, consistent under the four models (consistency is closed
// under such prefixes). Add r back reading the coherence-latest write
// and let T run on, each new event reading the coherence-latest write,
// being placed coherence-last, or being a fence: under the four models
// such an event has no outgoing edge in any relation (visit), so each
// step keeps the execution consistent, until T ends or stops again.
// (A failed compare-and-swap that now succeeds adds its write right
// after the write it reads: coherence-last, atomic.) Repeat while some
// such thread remains. Events are never fewer; a round that adds none
// leaves T stopped right after r, now reading the latest write, and adds
// no write, so one stale thread fewer; rounds that add events are
// finitely many (the code is loop-free). The result X° is a complete
// consistent execution in which no stopped thread's last read is stale.
// Every execution built from a graph left out has such a thread
// (closure), and TruSt builds every consistent complete execution along
// one path: X°'s path crosses no graph left out, so X° is explored. X°
// keeps every fact of X the
// verdict reads: the events and reads of every other thread are those of
// X (assertions, the unroller's %bound); happens-before among X's events
// is unchanged (a read last in its thread starts no synchronisation,
// and no event of X reads a new write, so no synchronisation goes from a
// new event to an old one), so X's data races stay, provided the read r is
// plain (no synchronisation ends in it, so its races stay too) or no
// plain write may write its location (an atomic read races with plain
// writes only): the race condition, checked only when flags are
// wanted. Livelocks (cfront's -liveness) compare the values read with
// the final values, which the rounds change: the pruning is off there
// (Options.NoSpinPrune).

// staleBlocked tells whether thread t of g stopped in a cut spin loop
// with a last read that was not added maximally (see above). Whether a
// read was added maximally does not change as writes are added after
// it: visit asks about the thread of the read just added or revisited
// only (engine.fresh).
func (x *engine) staleBlocked(g *graph, t int) (bool, error) {
	th := g.threads[t]
	n := len(th)
	if n == 0 {
		return false, nil
	}
	er := &g.evs[th[n-1]]
	if er.kind != event.Read {
		return false, nil
	}
	if x.deps && !lastAdded(g, th) {
		return false, nil // (immsym.go)
	}
	after := false
	stale := false
	for _, y := range g.co[er.loc] {
		if after && g.evs[y].stamp < er.stamp {
			stale = true
			break
		}
		if y == er.rf {
			after = true
		}
	}
	if !stale || !x.opts.NoFlags && !x.raceKept(er) {
		return false, nil
	}
	p, err := x.nextAny(g, t)
	if err != nil {
		return false, err
	}
	return p.done && prog.Truth(regFile{x.code[t], p.fin}.get(x.opts.SpinReg)), nil
}

// raceKept tells whether the data races of an execution stay when read e
// is removed or reads another write: e is a plain read (no
// synchronisation ends in it), or no plain write may write its location.
func (x *engine) raceKept(e *ev) bool {
	if e.mask&(tA|tX|tACQ|tACQREL|tSC) == 0 {
		return true
	}
	return !x.naAny && !x.naLocs[e.loc]
}

// naWrites finds the locations plain writes may write (naAny: some
// plain write has an address it cannot name before the run): a constant
// propagation over each thread's loop-free code (registers start with
// their initial values; a load's register is unknown; where paths
// meet, a register keeps its value when they agree).
func (x *engine) naWrites() {
	x.naLocs = map[string]bool{}
	for t, th := range x.t.Threads {
		in := make([]cstate, len(th.Code)+1)
		in[0] = cstate{}
		for name, v := range x.initRegs[t] {
			in[0][name] = cval{v: v}
		}
		// flow hands st to pc: st itself when owned (the caller's last
		// use of it), else a copy.
		flow := func(pc int, st cstate, owned bool) {
			switch {
			case in[pc] != nil:
				in[pc].meet(st)
			case owned:
				in[pc] = st
			default:
				in[pc] = st.copy()
			}
		}
		for pc, ins := range th.Code {
			if pc&1023 == 0 && x.ctx.Err() != nil {
				// Out of time: any plain write may write anywhere, which
				// assumes nothing (the run stops at its next poll).
				x.naAny = true
				return
			}
			st := in[pc]
			if st == nil {
				continue // unreachable
			}
			// The code is loop-free (a jump back returns below), so
			// nothing flows into pc again: st is this instruction's alone,
			// changed in place and handed on. A copy per instruction made
			// the pass quadratic: a C thread of 1500 lines took 1.4 GB and
			// ran 10 s past -timeout here.
			in[pc] = nil
			switch ins := ins.(type) {
			case prog.Jump:
				target := x.labels[t][ins.Target]
				if target <= pc {
					x.naAny = true // a loop: not propagated
					return
				}
				flow(target, st, false)
				if ins.Cond == nil {
					continue
				}
			case prog.Assign:
				if v, ok := st.eval(ins.Val); ok {
					st[ins.Dst] = cval{v: v}
				} else {
					st[ins.Dst] = cval{unknown: true}
				}
			case prog.Load:
				st.forget(ins.Dst)
			case prog.RMW:
				st.forget(ins.Dst)
			case prog.Havoc:
				st.forget(ins.Dst)
			case prog.StoreCond:
				st.forget(ins.Status)
			case prog.Store:
				if !hasTag(ins.Tags, "A") && !hasTag(ins.Tags, "X") {
					if v, ok := st.eval(ins.Addr); ok {
						x.naLocs[locOf(v)] = true
					} else {
						x.naAny = true
					}
				}
			}
			flow(pc+1, st, true)
		}
	}
}

// cstate maps registers to what the constant propagation knows of them
// (a register it does not hold has its initial value, zero).
type cstate map[string]cval

type cval struct {
	v       prog.Value
	unknown bool
}

func (s cstate) copy() cstate {
	c := make(cstate, len(s))
	for k, v := range s {
		c[k] = v
	}
	return c
}

// forget makes reg unknown in s itself ("" is no register).
func (s cstate) forget(reg string) {
	if reg != "" {
		s[reg] = cval{unknown: true}
	}
}

// meet keeps in s what s and o agree on.
func (s cstate) meet(o cstate) {
	for k, v := range o {
		if s[k] != v {
			s[k] = cval{unknown: true}
		}
	}
	for k, v := range s {
		if _, ok := o[k]; !ok && v != (cval{}) {
			s[k] = cval{unknown: true}
		}
	}
}

// eval is e's value when the constant propagation knows it.
func (s cstate) eval(e prog.Expr) (prog.Value, bool) {
	switch e := e.(type) {
	case prog.Const:
		return e.V, true
	case prog.Reg:
		v := s[e.Name]
		return v.v, !v.unknown
	case prog.Bin:
		a, ok1 := s.eval(e.X)
		b, ok2 := s.eval(e.Y)
		if ok1 && ok2 {
			if v, err := prog.ApplyTotal(e.Op, a, b); err == nil {
				return v, true
			}
		}
	case prog.Un:
		if a, ok := s.eval(e.X); ok {
			if v, err := prog.ApplyUnary(e.Op, a); err == nil {
				return v, true
			}
		}
	}
	return prog.Value{}, false
}

func hasTag(tags []string, t string) bool {
	for _, x := range tags {
		if x == t {
			return true
		}
	}
	return false
}
