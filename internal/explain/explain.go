// Package explain says why a memory model rejects a candidate execution:
// the check that fails and, for an acyclic or irreflexive check, the
// shortest cycle of its relation, edge by edge, each edge named with the
// relations of the model that hold between its events ("mfence; fr;
// mfence; fr" for the store-buffering test with fences under x86-TSO).
//
// The explanation is computed after the evaluator has rejected the
// execution, from the values its outcome gives to the model's top-level
// names: the check's expression is re-evaluated over them, and every edge
// is split along the model's own definitions (a union becomes the member
// that holds, a sequence the events it passes through). Each step is
// checked against those values, so an explanation never names a relation
// that does not hold; where the structure cannot be followed (a function
// application, a name local to a procedure) the edge keeps the enclosing
// name.
package explain

import (
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/rel"
	"github.com/musket-verify/musket/internal/result"
)

// maxDepth bounds how far definitions are followed for one edge (a
// recursive definition such as `let rec ob = ... | ob; ob` would
// otherwise be unfolded forever).
const maxDepth = 12

// Index is what explanations need of a model: its checks and the
// top-level definitions visible at each of them. Build it once per model;
// it is read-only afterwards and safe for concurrent use.
type Index struct {
	checks []check
}

type check struct {
	test *cat.Test
	defs map[string]cat.Expr // the single-name top-level lets before the check
}

// NewIndex reads the checks and definitions of m.
func NewIndex(m *cat.Model) *Index {
	ix := &Index{}
	defs := map[string]cat.Expr{}
	var walk func(ss []cat.Stmt)
	walk = func(ss []cat.Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *cat.BlockStmt:
				walk(s.Stmts)
			case *cat.IfStmt:
				walk(s.Then)
				walk(s.Else)
			case *cat.LetStmt:
				for _, b := range s.Binds {
					if len(b.Pat.Names) != 1 || b.Pat.Tuple {
						continue
					}
					if _, fun := b.Value.(*cat.FunExpr); fun {
						delete(defs, b.Pat.Names[0])
						continue
					}
					defs[b.Pat.Names[0]] = b.Value
				}
			case *cat.CheckStmt:
				if s.Kind != cat.Check && s.Kind != cat.Assert {
					continue
				}
				snap := make(map[string]cat.Expr, len(defs))
				for k, v := range defs {
					snap[k] = v
				}
				ix.checks = append(ix.checks, check{test: s.Test, defs: snap})
			}
		}
	}
	walk(m.Syntax())
	return ix
}

// Why explains the failure of the check named failed (its `as` name, or
// its text when it has none, as cat.Outcome.Failed gives it) on an
// execution of n events whose relations get returns (cat.Outcome.Rel).
// The reason always names the check; Steps is empty when its relation
// could not be recomputed.
func (ix *Index) Why(failed string, n int, get func(string) (rel.Rel, bool)) *result.Reason {
	for _, c := range ix.checks {
		if c.test.Name != failed && c.test.Text != failed {
			continue
		}
		x := &explainer{n: n, get: get, defs: c.defs, visiting: map[string]bool{}}
		r := &result.Reason{Check: failed, Test: c.test.Text}
		v, ok := x.val(c.test.X)
		if !ok || c.test.Negate {
			return r
		}
		if steps, ok := x.witness(c.test.Kind, c.test.X, v); ok {
			r.Steps = steps
			r.Also = x.also(c.test.X, steps)
			return r
		}
		// This check holds on these values: a later one with the same
		// name is the one that failed.
	}
	return &result.Reason{Check: failed}
}

// witness finds the pairs that make a check of kind k on e (value v) fail
// and explains them: the shortest cycle (acyclic), a reflexive pair
// (irreflexive), a pair (empty).
func (x *explainer) witness(k cat.TestKind, e cat.Expr, v rel.Rel) ([]result.Step, bool) {
	switch k {
	case cat.Acyclic:
		cyc := shortestCycle(v)
		if cyc == nil {
			return nil, false
		}
		var out []result.Step
		for i, a := range cyc {
			b := cyc[(i+1)%len(cyc)]
			out = append(out, x.steps(e, a, b, "", 0)...)
		}
		return out, true
	case cat.Irreflexive:
		for a := 0; a < x.n; a++ {
			if v.Has(a, a) {
				return x.steps(e, a, a, "", 0), true
			}
		}
	case cat.IsEmpty:
		for a := 0; a < x.n; a++ {
			for _, b := range v.Succ(a).Elems() {
				return x.steps(e, a, b, "", 0), true
			}
		}
	}
	return nil, false
}

// also splits an edge of an intersection that a check found by each of
// its operands: steps, found in the first, is replaced by the path in
// the first operand, and the paths in the others are returned.
func (x *explainer) also(e cat.Expr, steps []result.Step) [][]result.Step {
	b, ok := e.(*cat.BinaryExpr)
	if !ok || b.Op != cat.OpInter || len(steps) != 1 {
		return nil
	}
	from, to := steps[0].From, steps[0].To
	ops := flatten(b, cat.OpInter)
	var out [][]result.Step
	for _, op := range ops {
		out = append(out, x.steps(op, from, to, "", 1))
	}
	return out
}

// shortestCycle returns the events of a shortest cycle of r in order, or
// nil when r is acyclic: a breadth-first search back to each event.
func shortestCycle(r rel.Rel) []int {
	var best []int
	n := r.N()
	for s := 0; s < n; s++ {
		if p := bfs(r, s, s, true); p != nil && (best == nil || len(p) < len(best)) {
			best = p
		}
	}
	if best == nil {
		return nil
	}
	return best[:len(best)-1]
}

// bfs returns a shortest path from a to b in r as its events, a and b
// included; with nonEmpty, a path from a to itself has one edge or more.
func bfs(r rel.Rel, a, b int, nonEmpty bool) []int {
	if a == b && !nonEmpty {
		return []int{a}
	}
	n := r.N()
	prev := make([]int, n)
	for i := range prev {
		prev[i] = -1
	}
	queue := []int{a}
	seen := make([]bool, n)
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, w := range r.Succ(u).Elems() {
			if w == b {
				path := []int{b}
				for k := u; ; k = prev[k] {
					path = append(path, k)
					if k == a {
						break
					}
				}
				for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
					path[i], path[j] = path[j], path[i]
				}
				return path
			}
			if !seen[w] && w != a {
				seen[w] = true
				prev[w] = u
				queue = append(queue, w)
			}
		}
	}
	return nil
}
