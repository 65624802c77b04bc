package bmc

import (
	"testing"

	"github.com/musket-verify/musket/internal/smt"
)

// TestBoundedClosure: the transitive closure of a relation whose entries
// are variables nests its own entries into each other; fb.bounded names
// the big ones, so that every entry stays below bigTerm, and the
// closure is still exact.
func TestBoundedClosure(t *testing.T) {
	zc := smt.NewContext()
	defer zc.Close()
	sol := zc.NewSolver()
	f := newFB(zc, sol)
	const n = 24
	o := &ops{f: f, exec: make([]B, n)}
	for i := range o.exec {
		o.exec[i] = f.boolVar("e")
	}
	r := newRel(n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			r.set(i, j, f.boolVar("r"))
		}
	}
	before := f.stats.Constraints
	c := o.plus(r)
	if f.stats.Constraints == before {
		t.Error("no entry of the closure was named")
	}
	c.each(func(i, j int, b B) {
		if b.sz >= bigTerm {
			t.Fatalf("entry (%d, %d) has size %d, at least %d", i, j, b.sz, bigTerm)
		}
	})
	// Every event executed and r the chain 0 -> 1 -> ... -> n-1: the
	// closure holds on (0, n-1) and not on (n-1, 0).
	var assume []smt.Term
	for i := 0; i < n; i++ {
		assume = append(assume, f.term(o.exec[i]))
		for j := 0; j < n; j++ {
			x, _ := r.get(i, j)
			if j == i+1 {
				assume = append(assume, f.term(x))
			} else {
				assume = append(assume, zc.Not(f.term(x)))
			}
		}
	}
	first, _ := c.get(0, n-1)
	if sol.CheckAssumptions(append(assume, zc.Not(f.term(first)))...) != smt.Unsat {
		t.Error("(0, n-1) of the closure of a chain can be false")
	}
	back, _ := c.get(n-1, 0)
	if sol.CheckAssumptions(append(assume, f.term(back))...) != smt.Unsat {
		t.Error("(n-1, 0) of the closure of a chain can be true")
	}
}
