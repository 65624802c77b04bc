package bmc

import "github.com/musket-verify/musket/internal/smt"

// Lazy acyclicity: `acyclic r` as a constraint of the solver's acyclicity
// theory (smt.Solver.AddAcyclic: a Z3 user propagator after Haas, Meyer,
// Ponce-de-León, "CAAT: Consistency as a Theory", OOPSLA 2022) instead of
// an integer clock per event and a difference constraint per edge. The
// relation's edges are the same formulas (exec(a) ∧ exec(b) ∧ r[a][b]) on
// the same edges (inside the strongly connected components of the
// may-graph); the theory is told when one becomes true and answers a
// cycle with a conflict. Every satisfying model is checked again here
// (checkLazy): a cycle the theory did not see (an edge Z3 left unassigned)
// is blocked by a clause and the question asked again, so an answer never
// rests on the theory alone.

// Acyclicity, when MUSKET_ACYCLICITY is "eager" or "lazy" in the
// environment, overrides every caller's choice (Options.Acyclicity): it
// is how the two are compared on whole suites and benchmarks.
var Acyclicity = envSwitch("MUSKET_ACYCLICITY", "lazy", "eager")

// defaultAcyclicity is the encoding of a caller that does not choose.
// The callers that choose lazy are those where it was measured faster
// with the same answers: .pts programs (CheckProgram: Table II of the
// mutex benchmarks), the X86, Power, AArch64 and RISC-V litmus tests
// (package batch) and
// Porthos' sessions (NewSession).
// Elsewhere it was slower (Linux-kernel tests with locks: 5×) or saved
// nothing (C programs under Power), so the default stays eager.
const defaultAcyclicity = "eager"

// lazyFor tells whether an encoding with opts uses the theory (never
// without the relation analysis, which measures the plain encoding).
func lazyFor(opts Options) bool {
	a := Acyclicity
	if a == "" {
		a = opts.Acyclicity
	}
	if a == "" {
		a = defaultAcyclicity
	}
	return a == "lazy" && !opts.NoAnalysis && !opts.forceEager
}

// lazyGraph is one relation given to the theory, kept for checkLazy.
type lazyGraph struct {
	n     int
	edges []smt.Edge
}

// lazyAcyclic hands the edges of r inside the components comp to the
// theory; self-loops are asserted absent, as eagerly.
func (ev *evaluator) lazyAcyclic(r *Rel, comp []int) error {
	f, o := ev.f, ev.o
	var edges []smt.Edge
	r.each(func(i, j int, b B) {
		edge := f.and(o.exec[i], o.exec[j], b)
		if i == j {
			f.assert(f.not(edge))
			return
		}
		if comp[i] != comp[j] || edge.isFalse() {
			return
		}
		e := smt.Edge{From: i, To: j}
		if !edge.isTrue() {
			e.Lit = f.term(edge)
		}
		edges = append(edges, e)
	})
	if len(edges) == 0 {
		return nil
	}
	ev.e.lazyGraphs = append(ev.e.lazyGraphs, lazyGraph{n: r.n(), edges: edges})
	if !ev.e.sol.AddAcyclic(r.n(), edges) {
		f.assert(bFalse)
	}
	return nil
}

// checkLazy looks for a cycle, in the model md, of a relation given to
// the theory; if it finds one it asserts that not all of its edges hold
// and returns true (the caller asks again).
func (e *encoding) checkLazy(md *smt.Model) bool {
	found := e.checkDerived(md)
	for _, g := range e.lazyGraphs {
		var present [][2]int
		var lits []smt.Term
		for _, ed := range g.edges {
			if !ed.Lit.IsZero() {
				if v, ok := md.Bool(ed.Lit); !ok || !v {
					continue
				}
			}
			present = append(present, [2]int{ed.From, ed.To})
			lits = append(lits, ed.Lit)
		}
		cyc := smt.FindCycle(g.n, present)
		if cyc == nil {
			continue
		}
		var clause []smt.Term
		for _, k := range cyc {
			if !lits[k].IsZero() {
				clause = append(clause, e.ctx.Not(lits[k]))
			}
		}
		e.lazyMisses++
		e.sol.Assert(e.ctx.Or(clause...))
		found = true
	}
	return found
}
