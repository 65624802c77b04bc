package bmc

import (
	"fmt"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/result"
)

// The checks of a model (acyclic, irreflexive, empty, their negations and
// flags): constraints on the executions, or formulas asked about after the
// encoding.

// staticEmpty tells whether a value is empty, when that is known before
// solving.
func (ev *evaluator) staticEmpty(v value) (bool, bool) {
	switch v := v.(type) {
	case emptyV:
		return true, true
	case *vsetV:
		return len(v.elems) == 0, true
	case *Set:
		if len(v.m) == 0 {
			return true, true
		}
		for k, b := range v.m {
			if b.isTrue() && ev.o.exec[k].isTrue() {
				return false, true
			}
		}
	case *Rel:
		if v.isEmpty() {
			return true, true
		}
		nonEmpty := false
		v.each(func(i, j int, b B) {
			if b.isTrue() && ev.o.exec[i].isTrue() && ev.o.exec[j].isTrue() {
				nonEmpty = true
			}
		})
		if nonEmpty {
			return false, true
		}
	case univV:
		return ev.o.n() == 0, true
	case eventV, pairV:
		return false, true
	}
	return false, false
}

// check encodes one check, flag or undefined_unless.
func (ev *evaluator) check(kind cat.CheckKind, t *cat.Test, en *env, as string) error {
	if kind == cat.Check && !t.Negate && ev.e.caat != nil && !ev.f.shape &&
		(t.Kind == cat.Acyclic || t.Kind == cat.Irreflexive) && ev.caatCheck(kind, t, en, as) {
		return nil
	}
	eval := ev.expr
	if t.Kind == cat.Irreflexive {
		// Only the diagonal is ever read (entries, testFormula).
		eval = ev.diagExpr
	}
	v, err := eval(t.X, en)
	if err != nil {
		return err
	}
	name := t.Name
	if name == "" {
		name = t.Text
	}
	if as != "" {
		name = as
	}
	switch kind {
	case cat.Flag:
		b, err := ev.testFormula(t.Kind, v, t.At)
		if err != nil {
			return err
		}
		if t.Negate {
			b = ev.f.not(b)
		}
		ev.e.flags = append(ev.e.flags, flagCheck{name: name, b: b})
		return nil
	case cat.UndefinedUnless:
		// herd7 raises the flag *undef* (result.UndefFlag) in an
		// execution that fails the test.
		b, err := ev.testFormula(t.Kind, v, t.At)
		if err != nil {
			return err
		}
		if !t.Negate {
			b = ev.f.not(b)
		}
		ev.e.flags = append(ev.e.flags, flagCheck{name: result.UndefFlag, b: b})
		return nil
	}
	if ev.e.incons != nil {
		return ev.violation(t.Kind, t.Negate, v, t.At)
	}
	if t.Negate {
		b, err := ev.testFormula(t.Kind, v, t.At)
		if err != nil {
			return err
		}
		ev.f.assert(ev.f.not(b))
		return nil
	}
	return ev.assertTest(t.Kind, v, t.At)
}

// entries lists the (absolute) formulas of the elements of a set or the
// pairs of a relation; a set stands for its identity.
func (ev *evaluator) entries(v value, pos cat.Position, diagOnly bool) ([]B, error) {
	f, o := ev.f, ev.o
	var out []B
	switch v.(type) {
	case emptyV:
		return nil, nil
	case *Set, eventV:
		s, _ := ev.asSet(v)
		for _, k := range s.elems() {
			out = append(out, f.and(o.exec[k], s.m[k]))
		}
		return out, nil
	}
	r, ok := ev.asRel(v)
	if !ok {
		return nil, errf(pos, "cannot test %s", kindName(v))
	}
	r.each(func(i, j int, b B) {
		if diagOnly && i != j {
			return
		}
		out = append(out, f.and(o.exec[i], o.exec[j], b))
	})
	return out, nil
}

// testFormula is the formula saying the test holds.
func (ev *evaluator) testFormula(kind cat.TestKind, v value, pos cat.Position) (B, error) {
	f := ev.f
	switch kind {
	case cat.IsEmpty:
		es, err := ev.entries(v, pos, false)
		if err != nil {
			return bFalse, err
		}
		return f.not(f.or(es...)), nil
	case cat.Irreflexive:
		es, err := ev.entries(v, pos, true)
		if err != nil {
			return bFalse, err
		}
		return f.not(f.or(es...)), nil
	}
	switch v.(type) {
	case emptyV:
		return bTrue, nil
	case *Set, eventV:
		return ev.testFormula(cat.IsEmpty, v, pos)
	}
	r, ok := ev.asRel(v)
	if !ok {
		return bFalse, errf(pos, "cannot test %s", kindName(v))
	}
	return ev.testFormula(cat.Irreflexive, ev.o.plus(r), pos)
}

// assertTest asserts that a test holds: empty and irreflexive pair by
// pair, acyclic with integer clocks on the edges inside the strongly
// connected components of the may-graph (edges between components
// cannot close a cycle).
func (ev *evaluator) assertTest(kind cat.TestKind, v value, pos cat.Position) error {
	f, o := ev.f, ev.o
	if kind != cat.Acyclic {
		es, err := ev.entries(v, pos, kind == cat.Irreflexive)
		if err != nil {
			return err
		}
		for _, b := range es {
			f.assert(f.not(b))
		}
		return nil
	}
	switch v.(type) {
	case emptyV:
		return nil
	case *Set, eventV:
		return ev.assertTest(cat.IsEmpty, v, pos)
	}
	r, ok := ev.asRel(v)
	if !ok {
		return errf(pos, "cannot test %s", kindName(v))
	}
	edges := map[[2]int]B{}
	r.each(func(i, j int, b B) { edges[[2]int{i, j}] = b })
	ev.e.acyclic = append(ev.e.acyclic, edges)
	comp := sccs(r)
	if ev.e.lazy && !f.shape {
		return ev.lazyAcyclic(r, comp)
	}
	clocks := map[int]B{}
	clock := func(i int) B {
		if c, ok := clocks[i]; ok {
			return c
		}
		c := B{t: f.intVar(fmt.Sprintf("clk%d", i))}
		clocks[i] = c
		return c
	}
	full := ev.e.opts.NoAnalysis
	r.each(func(i, j int, b B) {
		edge := f.and(o.exec[i], o.exec[j], b)
		if i == j {
			f.assert(f.not(edge))
			return
		}
		if !full && comp[i] != comp[j] {
			return
		}
		f.assert(f.implies(edge, B{t: ev.e.ctx.Lt(clock(i).t, clock(j).t)}))
	})
	return nil
}

// sccs numbers the strongly connected components of the may-graph of r
// (Tarjan); events in no cycle get components of their own.
func sccs(r *Rel) []int {
	n := r.n()
	index := make([]int, n)
	low := make([]int, n)
	on := make([]bool, n)
	comp := make([]int, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	next, ncomp := 0, 0
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		on[v] = true
		for _, w := range sortedKeys(r.rows[v]) {
			if index[w] < 0 {
				visit(w)
				if low[w] < low[v] {
					low[v] = low[w]
				}
			} else if on[w] && index[w] < low[v] {
				low[v] = index[w]
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				comp[w] = ncomp
				if w == v {
					break
				}
			}
			ncomp++
		}
	}
	for v := 0; v < n; v++ {
		if index[v] < 0 {
			visit(v)
		}
	}
	return comp
}
