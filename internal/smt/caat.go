package smt

/*
#include "shim.h"
*/
import "C"

import "unsafe"

// The derived relations of derived.go given to the solver's propagator
// (acyclic.go): the solver knows only the base literals.

type dref struct {
	d    int32 // index in acycTheory.derived
	base int32 // index in Derived.base
}

// AddDerived registers the base literals of d with the solver's
// propagator, which from then on derives d's relations and enforces its
// constraints (see derived.go). It returns false, and registers nothing,
// when the base edges that always hold violate a constraint by
// themselves (the caller then asserts false). It must be called before
// any Push, once per Derived; d must not change after.
func (s *Solver) AddDerived(d *Derived) bool {
	s.enter("AddDerived")
	s.changed()
	if d.added {
		panic(&Error{Op: "AddDerived", Code: InvalidArg, Msg: "the relations were added already"})
	}
	d.added = true
	live := d.prune()
	d.run = newDrun(d)
	for k, b := range d.base {
		if !b.lit.IsZero() || !live[b.node] {
			continue
		}
		if d.run.add(b.node, b.x, b.y, -1, -1, int32(k)) || d.run.propagate() {
			return false
		}
	}
	t := s.theory("AddDerived")
	di := int32(len(t.derived))
	t.derived = append(t.derived, d)
	for k := range d.base {
		b := &d.base[k]
		if b.lit.IsZero() || !live[b.node] {
			continue
		}
		var err C.int
		b.lit = s.watchable("AddDerived", b.lit, d.Wrap)
		id := C.musket_prop_register(s.c.z, s.s, s.c.arg("AddDerived", b.lit), &err)
		if err != 0 && d.Wrap != nil {
			// Z3 4.8.12 refuses to watch some formulas with arithmetic
			// inside ("malformed atomic constraint"): an equivalent
			// variable is watched instead.
			b.lit = d.Wrap(b.lit)
			id = C.musket_prop_register(s.c.z, s.s, s.c.arg("AddDerived", b.lit), &err)
		}
		if err != 0 {
			panic(s.c.error("AddDerived", err))
		}
		b.id = int32(id)
		for int(id) >= len(t.drefs) {
			t.drefs = append(t.drefs, nil)
		}
		t.drefs[id] = append(t.drefs[id], dref{d: di, base: int32(k)})
		t.stats.Watched++
	}
	t.stats.Graphs++
	return true
}

// prune drops the relations no constraint depends on (a check the
// compiler gave up on half way leaves some): their base literals are not
// watched and nothing is derived for them.
func (d *Derived) prune() []bool {
	live := make([]bool, len(d.nodes))
	for i, nd := range d.nodes {
		live[i] = nd.acyclic || nd.irreflexiv
	}
	for changed := true; changed; {
		changed = false
		for i := range d.nodes {
			if live[i] {
				continue
			}
			for _, l := range d.nodes[i].parents {
				if live[l.p] {
					live[i], changed = true, true
					break
				}
			}
		}
	}
	for i := range d.nodes {
		ps := d.nodes[i].parents[:0]
		for _, l := range d.nodes[i].parents {
			if live[l.p] {
				ps = append(ps, l)
			}
		}
		d.nodes[i].parents = ps
	}
	return live
}

// fixedDerived adds the base edges of a literal that became true, derives
// what follows and reports the first violation as a conflict.
func (t *acycTheory) fixedDerived(cb C.Z3_solver_callback, refs []dref) {
	for _, r := range refs {
		d := t.derived[r.d]
		b := d.base[r.base]
		bad := d.run.add(b.node, b.x, b.y, -1, -1, r.base)
		if t.conflict {
			// A conflict is pending: the edges go on the trail (the
			// backtrack removes them) but derive nothing.
			d.run.queue, d.run.conflict = d.run.queue[:0], nil
			continue
		}
		if !bad {
			bad = d.run.propagate()
		}
		if !bad {
			continue
		}
		t.expl = t.expl[:0]
		for _, k := range d.run.explain() {
			if id := d.base[k].id; id >= 0 {
				t.expl = append(t.expl, C.unsigned(id))
			}
		}
		d.run.conflict = nil
		if len(t.expl) == 0 {
			panic("derived relations: a violation by edges that always hold")
		}
		t.conflict = true
		t.stats.Conflicts++
		C.musket_prop_conflict(t.z, cb, C.unsigned(len(t.expl)), (*C.unsigned)(unsafe.Pointer(&t.expl[0])))
	}
}
