package bmc

import (
	"fmt"

	"github.com/musket-verify/musket/internal/cat"
)

// Inconsistency: the executions a model REJECTS ("BMC with Memory Models as
// Modules", FMCAD 2018, Section IV,
// phi_¬M). Porthos' oracle looks for executions consistent with one model
// and inconsistent with another; the second model is evaluated like any
// other (same sets, same relations, same folding of constants), but its
// checks are collected as violation formulas instead of being asserted,
// and the encoding asserts that at least one of them holds:
//
//   - empty r is violated by some pair (or element) of r;
//   - irreflexive r by some pair (e, e) of r;
//   - acyclic r by a guessed cycle: a Boolean per event of a strongly
//     connected component of r's may-graph (the event is on the cycle) and
//     a Boolean per may-edge inside a component (the edge is on the cycle,
//     so it is in r and both its events are on the cycle); every event on
//     the cycle has at least one incoming and one outgoing cycle edge. A
//     non-empty set of events each with a successor in the set contains a
//     cycle, and every cycle gives such a set, so this is exact. When
//     every edge of r is an edge of a relation the same execution is
//     asserted acyclic on (the other model's), r has no cycle and the
//     violation is false (inAcyclic); otherwise the guessed cycle has, for
//     each such relation, an edge outside it;
//   - a negated check (~acyclic, ...) is violated when its test holds.
//
// Flags and undefined_unless do not make an execution inconsistent.
//
// Recursive relations (let rec) must then be their LEAST fixpoints: a
// larger fixpoint has more pairs and could invent the cycle that makes an
// execution look inconsistent. See leastfix.go.

// inconsistency is what the evaluation of a model in inconsistent mode
// collects.
type inconsistency struct {
	violations []B
	// notes are remarks on the encoding, such as recursive definitions
	// that could only be encoded with the relaxed (any fixpoint) encoding.
	notes []string
}

// violation records how test (kind, negated or not) on v can fail.
func (ev *evaluator) violation(kind cat.TestKind, negate bool, v value, pos cat.Position) error {
	var b B
	var err error
	switch {
	case negate:
		b, err = ev.testFormula(kind, v, pos)
	case kind == cat.Acyclic:
		b, err = ev.guessCycle(v, pos)
	default:
		var holds B
		holds, err = ev.testFormula(kind, v, pos)
		b = ev.f.not(holds)
	}
	if err != nil {
		return err
	}
	ev.e.incons.violations = append(ev.e.incons.violations, b)
	return nil
}

// guessCycle is the formula "v has a cycle", with fresh variables that
// guess one.
func (ev *evaluator) guessCycle(v value, pos cat.Position) (B, error) {
	f, o := ev.f, ev.o
	switch v.(type) {
	case emptyV:
		return bFalse, nil
	case *Set, eventV:
		// acyclic of a set is its emptiness.
		holds, err := ev.testFormula(cat.IsEmpty, v, pos)
		return f.not(holds), err
	}
	r, ok := ev.asRel(v)
	if !ok {
		return bFalse, errf(pos, "cannot test %s", kindName(v))
	}
	if ev.inAcyclic(r) {
		return bFalse, nil
	}
	comp := sccs(r)
	member := map[int]B{}
	on := func(i int) B {
		if c, ok := member[i]; ok {
			return c
		}
		c := f.boolVar(fmt.Sprintf("cyc%d", i))
		member[i] = c
		return c
	}
	var order []int
	outs, ins := map[int][]B{}, map[int][]B{}
	var loops []B
	// outside[k]: the cycle edges that are not edges of the k-th relation
	// asserted acyclic.
	outside := make([][]B, len(ev.e.acyclic))
	r.each(func(i, j int, b B) {
		edge := f.and(o.exec[i], o.exec[j], b)
		if edge.isFalse() {
			return
		}
		if i == j {
			loops = append(loops, edge)
			return
		}
		if comp[i] != comp[j] {
			return
		}
		if _, ok := member[i]; !ok {
			order = append(order, i)
		}
		ci := on(i)
		if _, ok := member[j]; !ok {
			order = append(order, j)
		}
		cj := on(j)
		x := f.boolVar(fmt.Sprintf("cyce%d_%d", i, j))
		for k, a := range ev.e.acyclic {
			if !inEdges(a, i, j, b) {
				outside[k] = append(outside[k], x)
			}
		}
		f.assert(f.implies(x, f.and(edge, ci, cj)))
		outs[i] = append(outs[i], x)
		ins[j] = append(ins[j], x)
	})
	some := loops
	var members []B
	for _, i := range order {
		c := member[i]
		f.assert(f.implies(c, f.or(outs[i]...)))
		f.assert(f.implies(c, f.or(ins[i]...)))
		some = append(some, c)
		members = append(members, c)
	}
	// A cycle of r is not one of a relation asserted acyclic: it has an
	// edge outside each (implied by the rest, but it spares the solver
	// finding so by search).
	for _, out := range outside {
		f.assert(f.implies(f.or(members...), f.or(out...)))
	}
	return f.or(some...), nil
}

// inAcyclic tells whether every edge of r is, with the same formula or
// for sure, an edge of a relation the execution's encoding asserted
// acyclic (the first model of an execution that Porthos' oracle wants
// consistent with one model and not with another): a cycle of r would be
// one of that relation, so r has none. Under ARMv7 and Power, x86-TSO's
// coherence axiom (acyclic po-loc | com) is one of them.
func (ev *evaluator) inAcyclic(r *Rel) bool {
	for _, a := range ev.e.acyclic {
		sub := true
		r.each(func(i, j int, b B) {
			sub = sub && inEdges(a, i, j, b)
		})
		if sub {
			return true
		}
	}
	return false
}

// inEdges tells whether the edge (i, j) of formula b is, with the same
// formula or for sure, one of edges.
func inEdges(edges map[[2]int]B, i, j int, b B) bool {
	c, ok := edges[[2]int{i, j}]
	return ok && (c.isTrue() || identical(b, c))
}

// identical tells whether two formulas are syntactically the same.
func identical(a, b B) bool {
	if a.k != 0 || b.k != 0 {
		return a.k == b.k
	}
	return a.t.ID() == b.t.ID()
}
