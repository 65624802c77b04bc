package smt

import (
	"context"
	"fmt"
	"os"
	"testing"
)

// countDAGs counts the models of the edge literals of the complete
// digraph on n nodes under AddAcyclic, by blocking each model found: the
// number of labelled acyclic digraphs (OEIS A003024: 1, 3, 25, 543).
func countDAGs(t *testing.T, n int, compound bool) int {
	c := NewContext()
	defer c.Close()
	s := c.NewSimpleSolver()
	var lits []Term
	var edges []Edge
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i == j {
				continue
			}
			x := c.Bool(fmt.Sprintf("e%d_%d", i, j))
			lits = append(lits, x)
			lit := x
			if compound {
				// An edge defined by a formula, as the encoding's are.
				lit = c.And(x, c.Or(x, c.Bool("other")))
			}
			edges = append(edges, Edge{From: i, To: j, Lit: lit})
		}
	}
	if !s.AddAcyclic(n, edges) {
		t.Fatal("AddAcyclic: no constant edges, yet a cycle")
	}
	s.Push()
	defer s.Pop(1)
	count := 0
	for s.Check() == Sat {
		m := s.Model()
		var block []Term
		for _, x := range lits {
			v, ok := m.Bool(x)
			if !ok {
				t.Fatal("edge without a value")
			}
			if v {
				block = append(block, c.Not(x))
			} else {
				block = append(block, x)
			}
		}
		s.Assert(c.Or(block...))
		count++
		if count > 1000 {
			t.Fatal("too many models")
		}
	}
	return count
}

func TestAcyclicCountsDAGs(t *testing.T) {
	for _, tc := range []struct {
		n, want  int
		compound bool
	}{{1, 1, false}, {2, 3, false}, {3, 25, false}, {3, 25, true}} {
		if got := countDAGs(t, tc.n, tc.compound); got != tc.want {
			t.Errorf("n=%d compound=%v: %d acyclic graphs, want %d", tc.n, tc.compound, got, tc.want)
		}
	}
	if os.Getenv("MUSKET_LONG") != "" {
		// 543 checks: a few seconds.
		if got := countDAGs(t, 4, false); got != 543 {
			t.Errorf("n=4: %d acyclic graphs, want 543", got)
		}
	}
}

// A cycle of edges that always hold is refused; a cycle forced by
// assertions is unsatisfiable, at once or after a Pop.
func TestAcyclicConflicts(t *testing.T) {
	c := NewContext()
	defer c.Close()
	s := c.NewSimpleSolver()
	if s.AddAcyclic(2, []Edge{{From: 0, To: 1}, {From: 1, To: 0}}) {
		t.Error("a cycle of constant edges was accepted")
	}
	a, b, d := c.Bool("a"), c.Bool("b"), c.Bool("d")
	s2 := c.NewSimpleSolver()
	s2.AddAcyclic(3, []Edge{{0, 1, a}, {1, 2, b}, {From: 2, To: 0}, {2, 2, d}})
	if r := s2.CheckAssumptions(d); r != Unsat {
		t.Errorf("self-loop: %v, want unsat", r)
	}
	s2.Push()
	s2.Assert(a)
	if r := s2.Check(); r != Sat {
		t.Errorf("one edge: %v, want sat", r)
	}
	if v, _ := s2.Model().Bool(b); v {
		t.Error("model closes the cycle 0→1→2→0")
	}
	s2.Assert(b)
	if r := s2.Check(); r != Unsat {
		t.Errorf("cycle: %v, want unsat", r)
	}
	s2.Pop(1)
	if r := s2.CheckAssumptions(b); r != Sat {
		t.Errorf("after pop: %v, want sat", r)
	}
	if st := s2.AcyclicStats(); st.Graphs != 1 || st.Watched != 3 {
		t.Errorf("stats %+v", st)
	}
	// The deadline still stops a check that has the theory.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r := s2.CheckContext(ctx); r != Unknown {
		t.Errorf("canceled check: %v", r)
	}
}
