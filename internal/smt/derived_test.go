package smt

import (
	"fmt"
	"math/rand"
	"testing"
)

// The derived relations, decided by the propagator: each formulation of
// "the digraph is acyclic" over the edge literals of the complete
// digraph on 3 nodes has the 25 labelled acyclic digraphs as models.
func TestDerivedCountsDAGs(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func(d *Derived, b Node)
	}{
		{"acyclic r", func(d *Derived, b Node) { d.Acyclic(b) }},
		{"acyclic r, r;r unconstrained", func(d *Derived, b Node) {
			d.Plus(d.Seq(b, b)) // pruned by AddDerived
			d.Acyclic(b)
		}},
		{"irreflexive r+", func(d *Derived, b Node) { d.Irreflexive(d.Plus(b)) }},
		{"acyclic r^-1", func(d *Derived, b Node) { d.Acyclic(d.Inverse(b)) }},
		{"irreflexive r+;r", func(d *Derived, b Node) { d.Irreflexive(d.Seq(d.Plus(b), b)) }},
		{"acyclic (r & r) | r;r", func(d *Derived, b Node) {
			d.Acyclic(d.Union(d.Inter(b, b), d.Seq(b, b)))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewContext()
			defer c.Close()
			s := c.NewSimpleSolver()
			const n = 3
			var lits []Term
			var edges []Edge
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					if i != j {
						x := c.Bool(fmt.Sprintf("e%d_%d", i, j))
						lits = append(lits, x)
						edges = append(edges, Edge{From: i, To: j, Lit: x})
					}
				}
			}
			d := NewDerived(n)
			tc.build(d, d.Base(edges))
			if !s.AddDerived(d) {
				t.Fatal("AddDerived: no constant edges, yet a violation")
			}
			count := 0
			for s.Check() == Sat {
				m := s.Model()
				var block []Term
				for _, x := range lits {
					if v, _ := m.Bool(x); v {
						block = append(block, c.Not(x))
					} else {
						block = append(block, x)
					}
				}
				s.Assert(c.Or(block...))
				if count++; count > 100 {
					t.Fatal("too many models")
				}
			}
			if count != 25 {
				t.Errorf("%d models, want 25", count)
			}
		})
	}
}

// bm is a relation as a matrix, for the reference evaluation.
type bm [][]bool

func newBM(n int) bm {
	m := make(bm, n)
	for i := range m {
		m[i] = make([]bool, n)
	}
	return m
}

// Violation against a direct evaluation of random definitions on random
// edges; the literals it returns hold, and alone they still violate.
func TestDerivedViolationRandom(t *testing.T) {
	c := NewContext()
	defer c.Close()
	rng := rand.New(rand.NewSource(1))
	const n = 4
	var lits []Term
	for k := 0; k < 3*n*n; k++ {
		lits = append(lits, c.Bool(fmt.Sprintf("l%d", k)))
	}
	for round := 0; round < 300; round++ {
		d := NewDerived(n)
		var vals []bm
		val := map[Term]bool{}
		for _, l := range lits {
			val[l] = rng.Intn(3) == 0
		}
		// Three base relations.
		for b := 0; b < 3; b++ {
			m := newBM(n)
			var edges []Edge
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					switch rng.Intn(4) {
					case 0:
						l := lits[b*n*n+i*n+j]
						edges = append(edges, Edge{From: i, To: j, Lit: l})
						m[i][j] = val[l]
					case 1:
						if rng.Intn(4) == 0 {
							edges = append(edges, Edge{From: i, To: j})
							m[i][j] = true
						}
					}
				}
			}
			d.Base(edges)
			vals = append(vals, m)
		}
		for k := 0; k < 6; k++ {
			pick := func() Node {
				for {
					if x := rng.Intn(len(vals)); vals[x] != nil {
						return Node(x)
					}
				}
			}
			a, b := pick(), pick()
			ma, mb := vals[a], vals[b]
			m := newBM(n)
			switch rng.Intn(6) {
			case 0:
				d.Union(a, b)
				for i := range m {
					for j := range m {
						m[i][j] = ma[i][j] || mb[i][j]
					}
				}
			case 1:
				d.Seq(a, b)
				for i := range m {
					for j := range m {
						for z := range m {
							m[i][j] = m[i][j] || ma[i][z] && mb[z][j]
						}
					}
				}
			case 2:
				d.Inter(a, b)
				for i := range m {
					for j := range m {
						m[i][j] = ma[i][j] && mb[i][j]
					}
				}
			case 3:
				d.Filter(a, func(x, y int) bool { return (x+y)%2 == 0 })
				for i := range m {
					for j := range m {
						m[i][j] = ma[i][j] && (i+j)%2 == 0
					}
				}
			case 4:
				d.Inverse(a)
				for i := range m {
					for j := range m {
						m[i][j] = ma[j][i]
					}
				}
			case 5:
				d.Plus(a) // two nodes: the union and its sequence
				for i := range m {
					copy(m[i], ma[i])
				}
				for z := range m {
					for i := range m {
						for j := range m {
							m[i][j] = m[i][j] || m[i][z] && m[z][j]
						}
					}
				}
				vals = append(vals, m, nil) // the closure, its sequence
				continue
			}
			vals = append(vals, m)
		}
		root := Node(len(vals) - 1)
		for vals[root] == nil {
			root--
		}
		acyc := rng.Intn(2) == 0
		m := vals[root]
		var want bool // violated
		if acyc {
			want = hasCycle(m)
			d.Acyclic(root)
		} else {
			for i := range m {
				want = want || m[i][i]
			}
			d.Irreflexive(root)
		}
		expl, ok := d.Violation(func(x Term) bool { return val[x] })
		if ok == want {
			t.Fatalf("round %d: violated=%v, want %v", round, !ok, want)
		}
		if ok {
			continue
		}
		only := map[Term]bool{}
		for _, l := range expl {
			if !val[l] {
				t.Fatalf("round %d: explanation literal %v is false", round, l)
			}
			only[l] = true
		}
		if _, ok := d.Violation(func(x Term) bool { return only[x] }); ok {
			t.Fatalf("round %d: the explanation alone violates nothing", round)
		}
	}
}

func hasCycle(m bm) bool {
	n := len(m)
	c := newBM(n)
	for i := range m {
		copy(c[i], m[i])
	}
	for z := 0; z < n; z++ {
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				c[i][j] = c[i][j] || c[i][z] && c[z][j]
			}
		}
	}
	for i := 0; i < n; i++ {
		if c[i][i] {
			return true
		}
	}
	return false
}
