package bmc

import (
	"sort"

	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/spec"
)

// Symmetry breaking among identical threads (Options.Symmetric).
//
// The caller (package cfront) names, for each thread, its symmetric
// predecessor: threads p < q are symmetric when the program is the same
// once p and q are swapped together with their own locations (start and
// end flags, argument, return value; Options.SymOwn), so that swapping
// them maps every execution of the program onto an execution of the
// program with the same verdict — see cfront's symmetricThreads for the
// conditions on the program (the same code, a constant argument, the
// parent doing nothing else between the creations of the group nor
// between its joins, no thread stopping on an assumption). The parent
// writes the group's start flags, and reads their end flags, in a fixed
// order, and swapping threads does not swap those accesses; their order
// adds no edge that a cycle of the models this is enabled for (Power,
// RISC-V, ARMv8 each compiled for itself, x86-TSO, SC: cfront's
// smtSymmetryModel) can need: each start flag is read only by its
// thread's first event (which stops the thread when it reads the
// initial value, so it has no later event), and the release write is
// ordered after every earlier event of the parent (Power's lwsync and
// RISC-V's fence rw,w before it, ARMv8's STLR, x86-TSO's ppo, which
// orders every pair but a write before a read), so a path entering a
// start write from the parent's earlier events enters the later start
// writes directly too; the end flags are written only by their thread's
// last event and read only by the parent, whose acquire orders each join
// before everything after it (the fence after it, ARMv8's LDAR, TSO's
// ppo from a read). ARMv8 also orders a release write before every
// later acquire read; cfront keeps, under ARMv8, only the groups whose
// joins all follow their creations, so that those edges are the same
// from each start write of the group. When a thread of the group blocks, the parent stops at its join in
// one order and maybe at another join in the other, which changes no
// event but those reads of end flags (nothing else runs between them).
//
// Given such a group g1 < g2 < ... < gm (each the predecessor of the
// next) and the first event of their code that writes a shared location
// (w, the same instruction in each), every execution X has a permuted
// copy πX — thread g_k doing what the k-th thread of X did, the threads
// sorted so that those executing w come first, in the coherence order of
// their w — that is an execution of the program with the same verdict.
// πX satisfies, for each consecutive pair g_k, g_{k+1}:
//
//	exec(w_{k+1}) → exec(w_k) ∧ co(w_k, w_{k+1})
//
// so asserting these constraints keeps an execution of every class: the
// answer to a question that is itself symmetric is unchanged (a lex-leader
// constraint on the first differing choice, after Crawford, Ginsberg,
// Luks, Roy, "Symmetry-Breaking Predicates for Search Problems", KR 1996).
// The question is checked to be symmetric here (symmetricCond): its
// condition, once its top-level disjunction or conjunction is flattened,
// is the same set of atoms after any swap of the group's threads, and
// there is no filter; only verdicts are asked (Options.VerdictOnly: the
// final states listed would be those of the constrained executions).
// Otherwise nothing is asserted. The events of the two threads are
// checked to correspond one to one (same instruction, kind and location
// but for their own locations); a group where they do not is left alone.

// symmetryOff: MUSKET_SMT_SYMMETRY=off turns symmetry breaking off (to
// measure it).
var symmetryOff = envSwitch("MUSKET_SMT_SYMMETRY", "off") == "off"

// symmetry asserts the symmetry-breaking constraints; it returns the
// number of pairs constrained (Stats.SymmetryPairs).
func (e *encoding) symmetry() int {
	sym := e.opts.Symmetric
	if symmetryOff || len(sym) != len(e.t.Threads) || !e.opts.VerdictOnly || e.t.Filter != nil || e.opts.SymOwn == nil {
		return 0
	}
	// Groups: follow the predecessor links.
	var groups [][]int
	in := map[int]int{}
	for q := range sym {
		p := sym[q]
		if p < 0 || p >= q {
			continue
		}
		gi, ok := in[p]
		if !ok {
			gi = len(groups)
			groups = append(groups, []int{p})
			in[p] = gi
		}
		groups[gi] = append(groups[gi], q)
		in[q] = gi
	}
	pairs := 0
	for _, g := range groups {
		if !sort.IntsAreSorted(g) || !e.symmetricCond(g) {
			continue
		}
		k, ok := e.firstSharedWrite(g)
		if !ok {
			continue
		}
		f := e.f
		for i := 0; i+1 < len(g); i++ {
			a := e.p.events[e.p.threadEvents[g[i]][k]]
			b := e.p.events[e.p.threadEvents[g[i+1]][k]]
			co, ok := e.co.get(a.id, b.id)
			if !ok {
				continue
			}
			f.assert(f.implies(b.exec, f.and(a.exec, co)))
			pairs++
		}
	}
	return pairs
}

// firstSharedWrite checks that the threads of g have corresponding events
// and returns the index, in each thread's events, of the first write of a
// location that is not a thread's own.
func (e *encoding) firstSharedWrite(g []int) (int, bool) {
	p := e.p
	first := p.threadEvents[g[0]]
	for _, t := range g[1:] {
		evs := p.threadEvents[t]
		if len(evs) != len(first) {
			return 0, false
		}
		for k := range evs {
			a, b := p.events[first[k]], p.events[evs[k]]
			if a.kind != b.kind || a.node != b.node || a.alt != b.alt || a.inst != b.inst ||
				(a.single == nil) != (b.single == nil) {
				return 0, false
			}
			if a.loc != b.loc && !(e.opts.SymOwn(a.loc) && e.opts.SymOwn(b.loc)) {
				return 0, false
			}
		}
	}
	for k, id := range first {
		ev := p.events[id]
		if ev.kind != event.Write || e.opts.SymOwn(ev.loc) {
			continue
		}
		// Every copy writes that same shared location.
		return k, true
	}
	return 0, false
}

// symmetricCond tells whether the question (the condition) is the same
// after swapping any two threads of g.
func (e *encoding) symmetricCond(g []int) bool {
	atoms := flatten(e.t.Cond)
	if atoms == nil {
		return false
	}
	set := map[string]bool{}
	for _, a := range atoms {
		set[spec.FormatCond(a)] = true
	}
	for i := 0; i+1 < len(g); i++ {
		x, y := g[i], g[i+1]
		for _, a := range atoms {
			s, ok := swapThreads(a, x, y, e.opts.SymOwn)
			if !ok || !set[spec.FormatCond(s)] {
				return false
			}
		}
	}
	return true
}

// flatten gives the operands of c's top-level disjunction (or
// conjunction), nil when c is neither nor an atom.
func flatten(c spec.Cond) []spec.Cond {
	var out []spec.Cond
	var walkOr, walkAnd func(spec.Cond)
	walkOr = func(c spec.Cond) {
		if o, ok := c.(spec.Or); ok {
			walkOr(o.L)
			walkOr(o.R)
			return
		}
		out = append(out, c)
	}
	walkAnd = func(c spec.Cond) {
		if o, ok := c.(spec.And); ok {
			walkAnd(o.L)
			walkAnd(o.R)
			return
		}
		out = append(out, c)
	}
	switch c.(type) {
	case spec.Or:
		walkOr(c)
	case spec.And:
		walkAnd(c)
	case spec.Atom:
		out = []spec.Cond{c}
	default:
		return nil
	}
	// Each operand must be an atom (a nested mixture of the other
	// connective is not compared).
	for _, a := range out {
		if _, ok := a.(spec.Atom); !ok {
			return nil
		}
	}
	return out
}

// swapThreads renames thread x to y and y to x in an atom. An atom on a
// shared location stays; one on a register names a thread. An atom on a
// thread's own location, or whose value is an address, is not renamed:
// it is refused.
func swapThreads(c spec.Cond, x, y int, own func(string) bool) (spec.Cond, bool) {
	a, ok := c.(spec.Atom)
	if !ok || a.Val.Loc != "" || (!a.Ref.IsReg() && own(a.Ref.Name)) {
		return nil, false
	}
	if a.Ref.IsReg() {
		switch a.Ref.Thread {
		case x:
			a.Ref.Thread = y
		case y:
			a.Ref.Thread = x
		}
	}
	return a, true
}
