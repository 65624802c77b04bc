package bmc

import (
	"context"
	"fmt"

	"github.com/musket-verify/musket/internal/smt"
)

// B is a Boolean formula of the encoding: the constants true and false
// are kept apart from Z3 terms, so that the static parts of the encoding
// (must-pairs, impossible pairs) fold away before anything reaches Z3.
type B struct {
	t smt.Term
	k int8 // 1 true, -1 false, 0 the term t
}

var (
	bTrue  = B{k: 1}
	bFalse = B{k: -1}
)

func (b B) isTrue() bool  { return b.k == 1 }
func (b B) isFalse() bool { return b.k == -1 }

// Stats is the size of an encoding.
type Stats struct {
	Events      int // events of the unrolled program (initial writes included)
	BoolVars    int // Boolean variables
	IntVars     int // integer variables (values, clocks)
	Constraints int // asserted formulas
	RelPairs    int // entries of the relation matrices the model evaluates (may-pairs)
	MustPairs   int // of which must-pairs (folded to true)
	// Formulas counts the formula builder's operations (variables,
	// connectives, assertions, constants folded included): the size of
	// the work of the encoding, independent of the machine's load.
	Formulas int `json:",omitempty"`
	// Lazy acyclicity (lazyacyclic.go): relations given to the theory,
	// their edge literals, the cycles it found (learnt clauses) and the
	// models with a cycle it let through (blocked and asked again).
	LazyGraphs    int `json:",omitempty"`
	LazyEdges     int `json:",omitempty"`
	LazyConflicts int `json:",omitempty"`
	LazyMisses    int `json:",omitempty"`
	LazyFixed     int `json:",omitempty"` // edges the theory was told of
	LazyFinals    int `json:",omitempty"` // its final checks
	// SymmetryPairs counts the pairs of symmetric threads constrained
	// (symmetry.go).
	SymmetryPairs int `json:",omitempty"`
	// UAFUndecided counts the accesses to freed objects whose order
	// before the free is not decided (Options.UAFModel "": uaf.go).
	UAFUndecided int `json:",omitempty"`
}

// Vars is the number of variables.
func (s Stats) Vars() int { return s.BoolVars + s.IntVars }

// fb is the formula builder of one encoding: it owns the Z3 context and
// counts what it creates.
type fb struct {
	ctx   *smt.Context
	sol   *smt.Solver
	stats Stats
	fresh int
	unsat bool // false was asserted
	// tterm caches true and false terms.
	tt, ff smt.Term
	// limit is the context of the encoding under way: every 1024 formulas
	// the builder looks whether it is done, and then unwinds the encoding
	// with a panic of errTimeout, which the entry points recover (the
	// encoding of a large model can take minutes and gigabytes).
	limit context.Context
	ticks int
	// shape: compound formulas are not built, every one is the term
	// shapeT (lazy.go: checking the bindings no check used).
	shape  bool
	shapeT smt.Term
}

// shaped is the stand-in of a compound formula in shape mode.
func (f *fb) shaped() B {
	if f.shapeT.IsZero() {
		f.shapeT = f.ctx.Bool("shape")
	}
	return B{t: f.shapeT}
}

// tick counts one formula built and stops the encoding past its deadline.
func (f *fb) tick() {
	f.ticks++
	if f.ticks&1023 == 0 && f.limit != nil && f.limit.Err() != nil {
		panic(errTimeout)
	}
}

// poll stops the encoding past its deadline (as tick) at every 64th row i
// of a loop over pairs of events, which builds no formula: the program's
// fixed relations over thousands of events took minutes and gigabytes,
// past -timeout and -memory (robust5: a C program with 10^5
// pthread_key_create calls, check -engine smt -timeout 20: 5 GB at 56 s).
func (f *fb) poll(i int) {
	if i&63 == 0 && f.limit != nil && f.limit.Err() != nil {
		panic(errTimeout)
	}
}

func newFB(ctx *smt.Context, sol *smt.Solver) *fb {
	return &fb{ctx: ctx, sol: sol, tt: ctx.True(), ff: ctx.False()}
}

func (f *fb) boolVar(prefix string) B {
	f.tick()
	if f.shape {
		return f.shaped()
	}
	f.fresh++
	f.stats.BoolVars++
	return B{t: f.ctx.Bool(fmt.Sprintf("%s!%d", prefix, f.fresh))}
}

func (f *fb) intVar(prefix string) smt.Term {
	f.tick()
	f.fresh++
	f.stats.IntVars++
	return f.ctx.Int(fmt.Sprintf("%s!%d", prefix, f.fresh))
}

func (f *fb) term(b B) smt.Term {
	switch b.k {
	case 1:
		return f.tt
	case -1:
		return f.ff
	}
	return b.t
}

func (f *fb) lift(t smt.Term) B { return B{t: t} }

func (f *fb) not(a B) B {
	f.tick()
	switch a.k {
	case 1:
		return bFalse
	case -1:
		return bTrue
	}
	if f.shape {
		return f.shaped()
	}
	return B{t: f.ctx.Not(a.t)}
}

func (f *fb) and(xs ...B) B {
	f.tick()
	var ts []smt.Term
	for _, x := range xs {
		switch x.k {
		case -1:
			return bFalse
		case 0:
			ts = append(ts, x.t)
		}
	}
	switch len(ts) {
	case 0:
		return bTrue
	case 1:
		return B{t: ts[0]}
	}
	if f.shape {
		return f.shaped()
	}
	return B{t: f.ctx.And(ts...)}
}

func (f *fb) or(xs ...B) B {
	f.tick()
	var ts []smt.Term
	for _, x := range xs {
		switch x.k {
		case 1:
			return bTrue
		case 0:
			ts = append(ts, x.t)
		}
	}
	switch len(ts) {
	case 0:
		return bFalse
	case 1:
		return B{t: ts[0]}
	}
	if f.shape {
		return f.shaped()
	}
	return B{t: f.ctx.Or(ts...)}
}

func (f *fb) implies(a, b B) B { return f.or(f.not(a), b) }

func (f *fb) iff(a, b B) B {
	f.tick()
	switch {
	case a.k == 1:
		return b
	case b.k == 1:
		return a
	case a.k == -1:
		return f.not(b)
	case b.k == -1:
		return f.not(a)
	}
	if f.shape {
		return f.shaped()
	}
	return B{t: f.ctx.Iff(a.t, b.t)}
}

// assert adds a constraint to the solver.
func (f *fb) assert(b B) {
	f.tick()
	if f.shape {
		return
	}
	switch b.k {
	case 1:
		return
	case -1:
		f.unsat = true
	}
	f.stats.Constraints++
	f.sol.Assert(f.term(b))
}

// define returns a variable equivalent to b when b is a compound term
// (keeps the formulas that use b small), b itself otherwise.
func (f *fb) define(prefix string, b B) B {
	if b.k != 0 {
		return b
	}
	v := f.boolVar(prefix)
	f.assert(B{t: f.ctx.Iff(v.t, b.t)})
	return v
}
