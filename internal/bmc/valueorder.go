package bmc

import (
	"fmt"

	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/smt"
)

// valueOrder makes every value of an execution computable, as in the
// explicit engine and herd7: a read takes the value of the write it
// reads from, a write's value is computed from the reads of its
// expression (evt.vrefs), and no value may depend on itself. Models
// without a coherence or no-thin-air axiom (e.g. only `acyclic po | rf`
// ... or none at all) otherwise let a read return any value that
// justifies itself through rf and data flow (P0: r1 = x; y = r1 + 1,
// P1: r2 = y; x = r2, r1 = 41), and listing the final states never ends.
//
// It is an acyclicity constraint on rf ∪ vrefs with integer clocks, on
// the edges inside the strongly connected components of the may-graph
// only: a test whose data flow has no cycle gets no constraint.
func (e *encoding) valueOrder() {
	p, f := e.p, e.f
	g := newRel(e.n)
	for k, v := range e.rf {
		w, r := k[0], k[1]
		if p.events[w].thread >= 0 {
			g.set(w, r, v)
		}
	}
	for _, w := range p.events {
		if w.kind != event.Write {
			continue
		}
		for _, r := range sortedKeys(w.vrefs) {
			if p.events[r].kind == event.Read {
				g.set(r, w.id, f.and(w.exec, w.vrefs[r]))
			}
		}
	}
	comp := sccs(g)
	clocks := map[int]smt.Term{}
	clock := func(i int) smt.Term {
		if c, ok := clocks[i]; ok {
			return c
		}
		c := f.intVar(fmt.Sprintf("vc%d", i))
		clocks[i] = c
		return c
	}
	g.each(func(i, j int, b B) {
		if comp[i] != comp[j] || b.isFalse() {
			return
		}
		if i == j {
			f.assert(f.not(b))
			return
		}
		f.assert(f.implies(b, B{t: e.ctx.Lt(clock(i), clock(j))}))
	})
}
