package smt

import "testing"

// TestArithmeticAfterTheory asserts the arithmetic only after the
// acyclicity theory is attached. Z3 4.8.12 chooses its theories from the
// assertions it holds when the propagator is attached: without the guard
// in theory() (acyclic.go), integers asserted later are an uninterpreted
// sort, x > 5 ∧ x < 3 is satisfiable and models are Int!val!N.
func TestArithmeticAfterTheory(t *testing.T) {
	for _, tc := range theoryAdders {
		t.Run(tc.name, func(t *testing.T) {
			c := NewContext()
			defer c.Close()
			s := c.NewSimpleSolver()
			p, q := c.Bool("p"), c.Bool("q")
			if !tc.add(s, []Edge{{From: 0, To: 1, Lit: p}, {From: 1, To: 0, Lit: q}}) {
				t.Fatal("no constant edges, yet a cycle")
			}
			x := c.Int("x")
			s.Assert(c.Implies(p, c.Gt(x, c.IntVal(5))), c.Implies(q, c.Lt(x, c.IntVal(3))), c.Or(p, q))
			if got := s.Check(); got != Sat {
				t.Fatalf("first check: %v (%s), want sat", got, s.ReasonUnknown())
			}
			m := s.Model()
			xv, ok := m.Int(x)
			pv, _ := m.Bool(p)
			qv, _ := m.Bool(q)
			if !ok || (pv && xv <= 5) || (qv && xv >= 3) || (pv && qv) {
				t.Fatalf("model p=%v q=%v x=%d (ok %v), not a model of the assertions: %s", pv, qv, xv, ok, m)
			}
			s.Assert(p, q) // the cycle, and x > 5 ∧ x < 3 besides
			if got := s.Check(); got != Unsat {
				t.Fatalf("second check: %v, want unsat", got)
			}
			c2 := NewContext()
			defer c2.Close()
			s2 := c2.NewSimpleSolver()
			s2.AddAcyclic(1, nil)
			y := c2.Int("y")
			s2.Assert(c2.Gt(y, c2.IntVal(5)), c2.Lt(y, c2.IntVal(3)))
			if got := s2.Check(); got != Unsat {
				t.Fatalf("x > 5 ∧ x < 3 after an empty graph: %v, want unsat", got)
			}
		})
	}
}
