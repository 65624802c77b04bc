package cfront

import (
	"context"

	"sort"

	"github.com/musket-verify/musket/internal/spec"
)

// The cells an access through a pointer may reach, by the address
// analysis.
//
// narrow (narrow.go) turns an access whose address is not a constant
// into a choice among cells. Read syntactically, an address held in a
// register (own[id] with id a thread's argument, *p in a loop over an
// array) may be any cell whose address the program takes: each thread
// then writes, in branches no execution takes, every such cell. That
// hides which thread writes what from ownStores (forward.go), so a
// thread's own arithmetic is no longer forwarded and the SMT engine is
// back to non-linear terms over values it chooses by rf: random C
// programs whose workers wrote own[id] while main computed on its own
// union and struct had no answer in minutes.
//
// The flow-insensitive analysis of mixed.go gives each access the set of
// cells its address may be (an over-approximation of every execution).
// When it names them all (no unknown offset, no integer used as an
// address anywhere in the program, which the analysis does not follow),
// the choice is among those cells only; an offset that is no cell of the
// program keeps the failure branch ("invalid memory access"), as any
// address outside the choice does.

// accessCells gives, per access (thread, pc) of t, the cells the
// analysis says its address may be, in order; an access missing from the
// map is left to narrow's syntactic choice. nil when the analysis is not
// to be trusted for t, or when ctx ended before the analysis did.
func accessCells(ctx context.Context, t *spec.Test) map[[2]int][]string {
	for _, e := range t.Init {
		if e.Ref.IsReg() {
			return nil
		}
	}
	m := initialAnalysis(ctx, t)
	sizes := make([][]int64, len(t.Threads))
	for ti, th := range t.Threads {
		sizes[ti] = make([]int64, len(th.Code))
		m.env = append(m.env, map[string]*aval{})
	}
	m.run(t, sizes)
	if ctx.Err() != nil {
		return nil // an analysis stopped halfway is no fixpoint
	}
	for _, a := range m.addrs {
		if a.anyInt || len(a.ints) > 0 && !(len(a.ints) == 1 && a.ints[0] == 0) {
			return nil // an integer used as an address
		}
	}
	out := map[[2]int][]string{}
	for k, a := range m.addrs {
		if hasNull(a) || len(a.ptrs) == 0 {
			continue // null: narrow's failure branch, by its syntactic choice
		}
		var cells []string
		known := true
		for o, offs := range a.ptrs {
			for off := range offs {
				if off == anyOff {
					known = false
				}
				cells = append(cells, locName(o, off))
			}
		}
		if !known {
			continue
		}
		sort.Strings(cells)
		out[k] = cells
	}
	return out
}

// narrowedCells is the choice narrow makes for the access at (ti, pc):
// the analysis's cells that are cells of the program (whole: an offset
// that is none of them is left to the failure branch), else syntactic.
func narrowedCells(byAccess map[[2]int][]string, ti, pc int, exists map[string]bool, syntactic []string) []string {
	cells, ok := byAccess[[2]int{ti, pc}]
	if !ok {
		return syntactic
	}
	var out []string
	for _, c := range cells {
		if exists[c] {
			out = append(out, c)
		}
	}
	return out
}

// initialAnalysis is a mixed-size analysis whose memory holds t's
// initial values (every other cell zero), before any thread runs.
func initialAnalysis(ctx context.Context, t *spec.Test) *mixedAnalysis {
	m := &mixedAnalysis{mem: map[string]map[int64]*aval{}, zeroUnset: true, set: map[string]map[int64]bool{}, ctx: ctx}
	for _, e := range t.Init {
		o, off := splitOff(e.Ref.Name)
		v := &aval{}
		if e.Val.IsAddr() {
			v.addPtr(e.Val.Loc, e.Val.Int)
		} else {
			v.addInt(e.Val.Int)
		}
		m.store(&aval{ptrs: map[string]map[int64]bool{o: {off: true}}}, v)
		if m.set[o] == nil {
			m.set[o] = map[int64]bool{}
		}
		m.set[o][off] = true
	}
	return m
}
