package smt

import "fmt"

// php asserts the pigeonhole principle for n+1 pigeons and n holes, which
// is unsatisfiable and takes resolution-based solvers exponential time.
// native selects Z3's cardinality constraint (AtMost(1, ...)) for the
// holes instead of AtMostOne (pairwise clauses for these sizes).
func php(c *Context, s *Solver, n int, native bool) {
	p := make([][]Term, n+1)
	for i := range p {
		p[i] = make([]Term, n)
		for j := range p[i] {
			p[i][j] = c.Bool(fmt.Sprintf("p_%d_%d", i, j))
		}
		s.Assert(c.Or(p[i]...))
	}
	for j := 0; j < n; j++ {
		col := make([]Term, n+1)
		for i := range col {
			col[i] = p[i][j]
		}
		if native {
			s.Assert(c.AtMost(1, col...))
		} else {
			s.Assert(c.AtMostOne(col...))
		}
	}
}
