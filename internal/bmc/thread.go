package bmc

import (
	"fmt"

	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
)

// The encoding of one thread: its loop-free code walked in order, each
// instruction guarded by the disjunction of the control-flow edges that
// reach it, the register state merged where paths join (merge); the
// memory accesses are encoded in access.go.

// threadEnc is the encoding of one thread under way.
type threadEnc struct {
	p      *progEnc
	ti     int
	th     *prog.Thread
	labels map[string]int
	in     [][]edge // the control-flow edges into each instruction (and the end)
	succ   [][]int  // the successors of each instruction
	head   int      // the first chunk of the access being encoded
	// scChoice is the choice of success of the latest store exclusive,
	// which its further parts (chunks) follow.
	scChoice B
}

// errAt places an error of instruction pc.
func (t *threadEnc) errAt(pc int, err error) error {
	if pc < len(t.th.Pos) {
		return fmt.Errorf("%s: %s: %w", t.th.Pos[pc], t.th.Name, err)
	}
	return fmt.Errorf("%s: %w", t.th.Name, err)
}

// flow adds a control-flow edge, taken when cond holds.
func (t *threadEnc) flow(from, to int, cond B, st *tstate) {
	if cond.isFalse() {
		return
	}
	t.in[to] = append(t.in[to], edge{cond: cond, st: st})
	t.succ[from] = append(t.succ[from], to)
}

// thread encodes one thread over its loop-free code.
func (p *progEnc) thread(ti int, th *prog.Thread) error {
	labels, err := th.Labels()
	if err != nil {
		return err
	}
	n := len(th.Code)
	t := &threadEnc{p: p, ti: ti, th: th, labels: labels, in: make([][]edge, n+1), succ: make([][]int, n+1)}
	regs := map[string]*sv{}
	for r, v := range p.initRegs[ti] {
		regs[r] = p.known(v)
	}
	t.in[0] = []edge{{cond: bTrue, st: &tstate{regs: regs}}}
	p.cut[ti] = bFalse
	p.pickLocal = prog.PicksStayLocal(th.Code)
	for pc := 0; pc < n; pc++ {
		if !prog.IsPart(th.Code[pc]) {
			t.head = pc
		}
		if len(t.in[pc]) == 0 {
			continue // unreachable
		}
		g, st := t.enter(pc)
		next, err := t.instr(pc, g, st)
		if err != nil {
			return t.errAt(pc, err)
		}
		if next {
			t.flow(pc, pc+1, g, st)
		}
	}
	t.finish()
	return nil
}

// enter gives the guard of instruction pc (some edge into it is taken)
// and the register state merged over its edges.
func (t *threadEnc) enter(pc int) (B, *tstate) {
	p := t.p
	var conds []B
	for _, e := range t.in[pc] {
		conds = append(conds, e.cond)
	}
	g := p.f.define(fmt.Sprintf("x%d_%d", t.ti, pc), p.f.or(conds...))
	p.guard, p.at = g, t.th.Name
	if pc < len(t.th.Pos) {
		p.at = fmt.Sprintf("%s: %s", t.th.Pos[pc], t.th.Name)
	}
	st := p.merge(t.in[pc])
	t.in[pc] = nil
	return g, st
}

// instr encodes instruction pc, executed when g holds, on the state st;
// next says whether control goes on to pc+1 (jumps add their own edges).
func (t *threadEnc) instr(pc int, g B, st *tstate) (next bool, err error) {
	p, ti := t.p, t.ti
	switch ins := t.th.Code[pc].(type) {
	case prog.Label:
		p.join(st, ins.Name)
		if ins.Name == compile.CutLabel {
			p.cut[ti] = g
			p.hasCut = true
		}
	case prog.Assign:
		p.assigning = true
		v, err := p.expr(st, ins.Val, nil)
		p.assigning = false
		if err != nil {
			return false, err
		}
		st.regs[ins.Dst] = v
	case prog.Havoc:
		p.havoc(ti, pc, st, ins)
	case prog.Fence:
		e := p.newEvent(ti, pc, 0, event.Fence, "", ins.Tags, g)
		p.setDeps(e, nil, nil, p.ctrlOf(st))
	case prog.Load:
		return true, t.load(pc, g, st, ins)
	case prog.Store:
		return true, t.store(pc, g, st, ins)
	case prog.StoreCond:
		return true, t.storeCond(pc, g, st, ins)
	case prog.RMW:
		return true, t.rmw(pc, g, st, ins)
	case prog.Jump:
		return t.jump(pc, g, st, ins)
	case prog.Located:
		return true, p.located(ti, pc, t.th, g, st, ins)
	default:
		return false, fmt.Errorf("unsupported instruction %T", ins)
	}
	return true, nil
}

// jump adds the edges of a jump (forward only: loops are unrolled
// before); next says whether control may also go on to pc+1.
func (t *threadEnc) jump(pc int, g B, st *tstate, ins prog.Jump) (next bool, err error) {
	p := t.p
	target, ok := t.labels[ins.Target]
	if !ok {
		return false, fmt.Errorf("jump to undefined label %s", ins.Target)
	}
	if target <= pc {
		return false, fmt.Errorf("backward jump to %s left after unrolling", ins.Target)
	}
	if ins.Cond == nil {
		t.flow(pc, target, g, st)
		return false, nil
	}
	if ins.Either {
		// both ways: a fresh boolean chooses, with no dependency
		cb := p.f.boolVar("either")
		t.flow(pc, target, p.f.and(g, cb), st)
		t.flow(pc, pc+1, p.f.and(g, p.f.not(cb)), st)
		return false, nil
	}
	c, err := p.expr(st, ins.Cond, nil)
	if err != nil {
		return false, err
	}
	if !ins.NoCtrl {
		// Syntactic, as the explicit engine's: whatever the condition
		// was computed from, even where its value is known (a
		// store-conditional's status).
		if ins.Join != "" && hasPick(c.deps) {
			return false, &UnsupportedError{What: "a pick dependency in a scoped branch", Program: true}
		}
		p.branch(st, ins.Join, c.deps)
	}
	if c.known {
		if prog.Truth(c.v) {
			t.flow(pc, target, g, st)
			return false, nil
		}
		return true, nil
	}
	cb := p.truth(c)
	t.flow(pc, target, p.f.and(g, cb), st)
	t.flow(pc, pc+1, p.f.and(g, p.f.not(cb)), st)
	return false, nil
}

// finish gives the thread's final state (merged over the paths that reach
// its end) and the reachability between its instructions.
func (t *threadEnc) finish() {
	p, n := t.p, len(t.th.Code)
	if len(t.in[n]) == 0 {
		// No path ends: every path was cut (cannot happen with Unroll's
		// output) — the thread has no complete execution.
		p.f.assert(bFalse)
		p.final[t.ti] = &tstate{regs: map[string]*sv{}}
	} else {
		p.final[t.ti] = p.merge(t.in[n])
	}
	// Reachability between nodes (code order is topological), one bit
	// a pair: node i reaches node j when bit j of reach[i] is set.
	words := (n + 1 + 63) / 64
	reach := make([][]uint64, n+1)
	f := p.f
	for i := n; i >= 0; i-- {
		// n² work and memory: a thread of 65536 instructions took
		// seconds past the deadline (see fb.tick for the unwinding).
		if i&255 == 0 && f.limit != nil && f.limit.Err() != nil {
			panic(errTimeout)
		}
		row := make([]uint64, words)
		row[i>>6] |= 1 << (uint(i) & 63)
		for _, s := range t.succ[i] {
			for w, x := range reach[s] {
				row[w] |= x
			}
		}
		reach[i] = row
	}
	p.reach[t.ti] = reach
}
