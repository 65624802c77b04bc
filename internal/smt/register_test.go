package smt

import "testing"

// TestArithmeticLiterals gives the theory edges whose literals are
// arithmetic atoms in the shapes Z3's arithmetic solver does not take
// unpreprocessed (x < k, k < x, x ≥ y; register.go): the checks must
// answer (not Unknown), and answer right. The graph is the cycle 0→1→0;
// edge 0→1 holds when x < 5, edge 1→0 when 3 < x, so both hold only at
// x = 4, which must be excluded.
func TestArithmeticLiterals(t *testing.T) {
	for _, tc := range theoryAdders {
		t.Run(tc.name, func(t *testing.T) {
			c := NewContext()
			defer c.Close()
			s := c.NewSimpleSolver()
			x, y, off := c.Int("x"), c.Int("y"), c.Bool("off")
			zero, one := c.IntVal(0), c.IntVal(1)
			edges := []Edge{
				// The shape of a C program's address ranges (C's < is 0
				// or 1). Z3 refuses to watch an arithmetic atom alone
				// ("malformed atomic constraint"); inside a formula it took
				// it and gave up at the final check.
				{From: 0, To: 1, Lit: c.And(c.Not(c.Eq(c.Ite(c.Lt(x, c.IntVal(5)), one, zero), zero)), c.Not(off))},
				{From: 0, To: 1, Lit: c.Lt(x, c.IntVal(5))},
				{From: 1, To: 0, Lit: c.And(c.Lt(c.IntVal(3), x), c.Ge(x, y))},
			}
			// Arithmetic asserted before the theory is made: Z3 4.8.12
			// chooses its theories from the assertions it has when the
			// propagator is attached.
			s.Assert(c.Ge(x, c.IntVal(4)), c.Not(off)) // x ≥ 5, or x = 4 with y > 4
			if !tc.add(s, edges) {
				t.Fatal("no constant edges, yet a cycle")
			}
			steps := []struct {
				assert Term
				want   Result
			}{
				{c.True(), Sat},
				{c.Le(x, c.IntVal(4)), Sat},   // x = 4, y > 4
				{c.Le(y, c.IntVal(4)), Unsat}, // x = 4 = y: the cycle
			}
			for i, st := range steps {
				s.Assert(st.assert)
				got := s.Check()
				if got != st.want {
					t.Fatalf("check %d: %v (%s), want %v", i+1, got, s.ReasonUnknown(), st.want)
				}
				if got == Sat {
					m := s.Model()
					xv, _ := m.Int(x)
					yv, _ := m.Int(y)
					if xv == 4 && yv <= 4 {
						t.Fatalf("check %d: model x=%d y=%d closes the cycle", i+1, xv, yv)
					}
				}
			}
		})
	}
}

// TestWatchRawShared asks, in order, about literals that share
// subterms: what the walk learnt of a subterm (kept across literals by
// the propagator) must give the answer a fresh walk gives.
func TestWatchRawShared(t *testing.T) {
	c := NewContext()
	defer c.Close()
	x, y := c.Int("x"), c.Int("y")
	p, q := c.Bool("p"), c.Bool("q")
	lt := c.Lt(x, c.IntVal(5))    // needs preprocessing
	bound := c.Le(x, c.IntVal(7)) // a bound: taken as it is
	cmp := c.Ge(x, y)             // needs preprocessing
	inner := c.And(p, c.Not(c.Eq(c.Ite(lt, c.IntVal(1), c.IntVal(0)), c.IntVal(0))))
	clean := c.Or(p, c.And(q, bound))
	steps := []struct {
		lit  Term
		want bool
	}{
		{clean, true},
		{c.And(clean, q), true}, // clean parts walked before
		{inner, false},          // lt two levels down
		{c.Or(q, inner), false}, // a dirty subterm walked before
		{c.And(clean, c.Or(q, inner)), false},
		{c.And(p, bound), true}, // shares bound and p only
		{bound, false},          // an atom alone: Z3 refuses it
		{c.And(q, c.Not(cmp)), false},
		{c.Or(c.And(q, c.Not(cmp)), clean), false},
		{c.Implies(q, c.Eq(x, y)), true}, // an equality inside
	}
	s := c.NewSimpleSolver()
	for i, st := range steps {
		if got := s.watchRaw("test", st.lit); got != st.want {
			t.Errorf("step %d (%s): raw %v, want %v", i+1, st.lit, got, st.want)
		}
		// The same literal asked of a solver that never saw the others.
		fresh := c.NewSimpleSolver()
		if got := fresh.watchRaw("test", st.lit); got != st.want {
			t.Errorf("step %d alone: raw %v, want %v", i+1, got, st.want)
		}
	}
}

// theoryAdders are the two ways to hand a two-node graph's edges to the
// acyclicity theory: directly, and as the base relation of a derived
// one that must be acyclic.
var theoryAdders = []struct {
	name string
	add  func(s *Solver, edges []Edge) bool
}{
	{"AddAcyclic", func(s *Solver, edges []Edge) bool { return s.AddAcyclic(2, edges) }},
	{"AddDerived", func(s *Solver, edges []Edge) bool {
		d := NewDerived(2)
		d.Acyclic(d.Base(edges))
		return s.AddDerived(d)
	}},
}
