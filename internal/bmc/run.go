package bmc

import (
	"context"
	"errors"
	"fmt"
	"github.com/musket-verify/musket/internal/spec"
	"sort"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/smt"
)

// Run checks t under model m with the SMT engine and returns the same
// result the explicit engine gives: the final states (unless
// VerdictOnly), the verdict, a witness.
func Run(ctx context.Context, t *spec.Test, m *cat.Model, modelName string, opts Options) *result.Result {
	res, _ := RunReport(ctx, t, m, modelName, opts)
	return res
}

// RunReport is Run, also giving the size of the encoding and where the
// time went.
func RunReport(ctx context.Context, t *spec.Test, m *cat.Model, modelName string, opts Options) (*result.Result, *Report) {
	start := time.Now()
	res := &result.Result{File: t.File, Name: t.Name, Model: modelName, Engine: "smt", Quant: t.Quant}
	res.Condition = t.ConditionLine()
	res.Arch = t.Arch
	rep := &Report{}
	err := run(ctx, t, m, opts, res, rep)
	if errors.Is(err, errGaveUp) && rep.GuardedWraps && ctx.Err() == nil {
		// Z3's SMT solver gives up on some guarded remainders
		// (wrapmod.go): the test is encoded again with Z3's mod in
		// their last case, before the clocks below.
		opts.wrapCases = true
		res = &result.Result{File: t.File, Name: t.Name, Model: modelName, Engine: "smt", Quant: t.Quant,
			Condition: res.Condition, Arch: t.Arch}
		rep = &Report{}
		err = run(ctx, t, m, opts, res, rep)
	}
	if errors.Is(err, errGaveUp) && (lazyFor(opts) || caatFor(opts)) && ctx.Err() == nil {
		// Z3's SMT solver, the only one that takes the acyclicity
		// theory, gives up where the general-purpose solver goes on
		// with its tactics ("incomplete (theory arithmetic)"): the test
		// is encoded again with clocks. (Most of these were edge
		// literals with arithmetic inside, which Z3 watched
		// unpreprocessed; package smt now watches a variable for them:
		// register.go.)
		opts.forceEager = true
		res = &result.Result{File: t.File, Name: t.Name, Model: modelName, Engine: "smt", Quant: t.Quant,
			Condition: res.Condition, Arch: t.Arch}
		rep = &Report{LazyFellBack: true}
		err = run(ctx, t, m, opts, res, rep)
	}
	res.Time = time.Since(start)
	if err != nil {
		var u *UnsupportedError
		switch {
		case errors.Is(err, errTimeout) || ctx.Err() != nil:
			res.Status = result.Timeout
		case errors.As(err, &u):
			res.Status = result.Unsupported
			res.Err = err
		default:
			res.Status = result.Failed
			res.Err = err
		}
	}
	return res, rep
}

var errTimeout = errors.New("timeout")

// errGaveUp marks (with an empty message) the error of a check Z3
// answered unknown without being interrupted.
var errGaveUp = gaveUp{}

type gaveUp struct{}

func (gaveUp) Error() string { return "" }

func run(ctx context.Context, t *spec.Test, m *cat.Model, opts Options, res *result.Result, rep *Report) (err error) {
	if m.Syntax() == nil {
		return fmt.Errorf("model %s has no syntax to encode", m.Path())
	}
	prepStart := time.Now()
	t, unrolled, err := compile.UnrollLoops(t, opts.Bound)
	rep.Prepare += time.Since(prepStart)
	if err != nil {
		return err
	}
	if unrolled {
		opts.discardCut = true
		rep.Unrolled = true
	}
	encStart := time.Now()
	zc, err := smt.TryNewArenaContext()
	if err != nil {
		return fmt.Errorf("smt: %w", err) // out of memory: the memory limit's status
	}
	defer func() {
		if ctx.Err() != nil {
			// Freeing a large encoding can take Z3 seconds: after a
			// timeout, the answer does not wait for it.
			go zc.Close()
			return
		}
		s := time.Now()
		zc.Close()
		rep.Release = time.Since(s)
	}()
	defer recoverSMT(&err)
	var sol *smt.Solver
	caatOn := caatFor(opts)
	lazy := lazyFor(opts) || caatOn
	switch {
	case lazy:
		// Z3 4.8.12 takes a user propagator on its SMT solver only.
		sol = zc.NewSimpleSolver()
	case logicOverride == "default":
		sol = zc.NewSolver()
	case logicOverride != "":
		sol = zc.NewSolverFor(logicOverride)
	case opts.Logic != "":
		sol = zc.NewSolverFor(opts.Logic)
	default:
		sol = zc.NewSolver()
	}
	applyParams(sol)
	e := &encoding{f: newFB(zc, sol), ctx: zc, sol: sol, t: t, m: m, opts: opts, oneWay: true, lazy: lazy, caatOn: caatOn}
	if err := e.buildBounded(ctx); err != nil {
		return err
	}
	rep.GuardedWraps = e.p.guarded > 0
	rep.Encode = time.Since(encStart)
	rep.Model = e.modelTime
	rep.Stats = e.f.stats
	rep.Stats.Formulas = e.f.ticks
	if lazy {
		defer func() {
			st := sol.AcyclicStats()
			rep.Stats.LazyGraphs, rep.Stats.LazyEdges = st.Graphs, st.Watched
			rep.Stats.LazyConflicts, rep.Stats.LazyMisses = st.Conflicts, e.lazyMisses
			rep.Stats.LazyFixed, rep.Stats.LazyFinals = st.Fixed, st.Finals
		}()
	}
	res.Observed = e.obs
	if e.p.hasCut {
		// Paths cut by the bound (discarded, or stopped at the bound):
		// the result is bounded when some could run.
		res.Bounded = true
	}
	check := func(assumptions ...smt.Term) (smt.Result, error) {
		s := time.Now()
		r := sol.CheckContext(ctx, assumptions...)
		for r == smt.Sat && (len(e.lazyGraphs) > 0 || e.caat != nil) && e.checkLazy(sol.Model()) {
			r = sol.CheckContext(ctx, assumptions...)
		}
		rep.Solve += time.Since(s)
		rep.Queries++
		traceQuery(sol, rep.Queries, time.Since(s), r, assumptions)
		if r == smt.Unknown {
			if ctx.Err() != nil {
				return r, errTimeout
			}
			return r, fmt.Errorf("smt engine: solver gave up: %s%w", sol.ReasonUnknown(), errGaveUp)
		}
		return r, nil
	}
	if err := e.divisionByZero(check); err != nil {
		return err
	}
	if err := e.settledCheck(check); err != nil {
		return err
	}
	if err := e.raisedFlags(check, res); err != nil {
		return err
	}
	if opts.VerdictOnly {
		return e.verdict(check, res)
	}
	return e.finalStates(check, res)
}

// checker is one check of the solver under assumptions.
type checker func(assumptions ...smt.Term) (smt.Result, error)

// raisedFlags gives the flags of the model that some consistent execution
// raises.
func (e *encoding) raisedFlags(check checker, res *result.Result) error {
	for _, fl := range e.flags {
		r, err := check(e.f.term(fl.b))
		if err != nil {
			return err
		}
		if r == smt.Sat && !contains(res.Flags, fl.name) {
			res.Flags = append(res.Flags, fl.name)
			if e.opts.FlagWitnesses {
				md := e.sol.Model()
				if res.FlagWitnesses == nil {
					res.FlagWitnesses = map[string]*result.Execution{}
				}
				res.FlagWitnesses[fl.name] = e.witness(md, e.state(md))
			}
		}
	}
	sort.Strings(res.Flags)
	return nil
}

// verdict settles the condition without listing the final states: one
// execution where it holds (the witness) and, unless only that is asked,
// one where it does not.
func (e *encoding) verdict(check checker, res *result.Result) error {
	f := e.f
	condB := e.cond(e.t.Cond)
	r, err := check(f.term(condB))
	if err != nil {
		return err
	}
	if r == smt.Sat {
		md := e.sol.Model()
		st := e.state(md)
		res.Positive = 1
		res.Witness = e.witness(md, st)
	}
	if !e.opts.PositiveOnly {
		r, err := check(f.term(f.not(condB)))
		if err != nil {
			return err
		}
		if r == smt.Sat {
			res.Negative = 1
		}
	}
	return nil
}

// finalStates lists every final state: find one, block it, ask again.
func (e *encoding) finalStates(check checker, res *result.Result) error {
	zc, sol, t := e.ctx, e.sol, e.t
	var states []result.State
	sol.Push()
	defer sol.Pop(1)
	for {
		r, err := check()
		if err != nil {
			return err
		}
		if r != smt.Sat {
			break
		}
		md := sol.Model()
		st := e.state(md)
		states = append(states, st)
		holds := spec.Eval(t.Cond, func(ref spec.Ref) prog.Value {
			for i, o := range e.obs {
				if o == ref {
					return st[i]
				}
			}
			return prog.Value{}
		})
		if holds {
			res.Positive++
			if res.Witness == nil {
				res.Witness = e.witness(md, st)
			}
		} else {
			res.Negative++
		}
		if len(e.obs) == 0 {
			// One state only (the empty one): settle the verdict with the
			// condition itself.
			break
		}
		var diff []smt.Term
		for i, term := range e.obsTerms {
			diff = append(diff, zc.Not(zc.Eq(term, zc.IntVal(e.p.enc(st[i])))))
		}
		sol.Assert(zc.Or(diff...))
	}
	res.States = result.SortStates(res.Observed, states)
	return nil
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
