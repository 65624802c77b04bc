package param

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/musket-verify/musket/internal/memlimit"
	"github.com/musket-verify/musket/internal/smt"
)

// solver decides the conjunctions that the syntactic tests leave open:
// first with the difference-logic procedure of decide.go, which answers
// most of them; Z3 decides the rest. For Z3, atoms are integer (or real)
// constants named after the atom; enumerations and booleans are integers
// in their range; slots are pairwise distinct integers. The Z3 context is
// made at the first question decide.go leaves open: a search that never
// asks one neither loads libz3 nor pays for a context.
type solver struct {
	sys   *System
	ctx   *smt.Context // nil until Z3 is needed
	s     *smt.Solver
	calls int
	// z3calls counts the questions Z3 answered (calls counts all)
	z3calls int
	// undecided counts the questions decide.go left to Z3
	undecided int
	// mu guards ctx and interrupted against interrupt, which another
	// goroutine calls
	mu          sync.Mutex
	interrupted bool
	// crossCheck: every question decide.go answers is asked to Z3 too,
	// and a different answer panics (tests)
	crossCheck bool
	terms      map[Term]smt.Term
	slots      map[int32]smt.Term
	// lits caches the translation of literals, doms the range
	// constraints of atoms: the fixpoint test asks about the same
	// literals again and again, and building Z3 terms costs more than
	// most of its checks
	lits map[Lit]litEntry
	doms map[Term][]smt.Term
	// dl: decide's buffers (decide.go)
	dl dlScratch
	// stopped reports that the search was cancelled
	stopped func() bool
	// failed is Z3's out-of-memory error (the memory limit) once a check
	// met it; the search then stops and Verify returns it.
	failed error
}

func newSolver(sys *System) *solver {
	return &solver{sys: sys, terms: map[Term]smt.Term{}, slots: map[int32]smt.Term{},
		lits: map[Lit]litEntry{}, doms: map[Term][]smt.Term{}}
}

// z3 makes the Z3 context and solver if they are not made yet; false
// when Z3 cannot make a context (out of memory: z.failed says so).
func (z *solver) z3() bool {
	if z.ctx != nil {
		return true
	}
	if z.failed != nil {
		return false
	}
	ctx, err := smt.TryNewContext()
	if err != nil {
		z.failed = fmt.Errorf("%w", err) // Z3 out of memory: the memory limit
		return false
	}
	z.mu.Lock()
	z.ctx = ctx
	if z.interrupted {
		ctx.Interrupt()
	}
	z.mu.Unlock()
	z.s = ctx.NewSolver()
	return true
}

// interrupt stops Z3's current and later checks; it may be called from
// any goroutine.
func (z *solver) interrupt() {
	z.mu.Lock()
	z.interrupted = true
	if z.ctx != nil {
		z.ctx.Interrupt()
	}
	z.mu.Unlock()
}

// litEntry is a translated literal and the atoms of finite sorts it
// mentions (whose range constraints a query needs).
type litEntry struct {
	t     smt.Term
	atoms []Term
}

// maxCachedLits bounds the cache of translated literals.
const maxCachedLits = 1 << 17

func (z *solver) close() {
	z.mu.Lock()
	defer z.mu.Unlock()
	if z.ctx != nil {
		z.ctx.Close()
	}
}

func (z *solver) slot(s int32) smt.Term {
	t, ok := z.slots[s]
	if !ok {
		t = z.ctx.Int(fmt.Sprintf("slot%d", s))
		z.slots[s] = t
	}
	return t
}

// atom is the Z3 constant of an atom (without offset); range constraints
// are added to dom.
func (z *solver) atom(t Term, dom *[]smt.Term) smt.Term {
	t = t.base()
	if a, ok := z.terms[t]; ok {
		return a
	}
	name := fmt.Sprintf("a%d_%d_%d_%v_%d_%d", t.Kind, t.Sym, t.NArgs, t.Args, t.Node, t.Proc)
	var a smt.Term
	if t.Sort.Kind == SReal {
		a = z.ctx.Real(name)
	} else {
		a = z.ctx.Int(name)
	}
	z.terms[t] = a
	return a
}

// domain returns the range constraints of the atom t (base form), once
// built.
func (z *solver) domain(t Term) []smt.Term {
	if d, ok := z.doms[t]; ok {
		return d
	}
	a := z.atom(t, nil)
	var d []smt.Term
	switch t.Sort.Kind {
	case SBool:
		d = []smt.Term{z.ctx.Ge(a, z.ctx.IntVal(0)), z.ctx.Le(a, z.ctx.IntVal(1))}
	case SEnum:
		n := int64(len(z.sys.Enums[t.Sort.Enum].Ctors))
		d = []smt.Term{z.ctx.Ge(a, z.ctx.IntVal(0)), z.ctx.Lt(a, z.ctx.IntVal(n))}
	}
	z.doms[t] = d
	return d
}

// term translates t; the atoms of finite sorts it mentions are added to
// atoms.
func (z *solver) term(t Term, atoms *[]Term) smt.Term {
	var base smt.Term
	switch t.Kind {
	case KBool, KEnum:
		return z.ctx.IntVal(int64(t.Sym))
	case KNum:
		if t.Sort.Kind == SReal {
			return z.ctx.RealVal(t.Off.Num, t.Off.Den)
		}
		if t.Off.Den != 1 {
			return z.ctx.RealVal(t.Off.Num, t.Off.Den)
		}
		return z.ctx.IntVal(t.Off.Num)
	case KSlot:
		base = z.slot(t.Sym)
	case KLin:
		var sum []smt.Term
		for _, p := range linSum(t) {
			a := z.term(p.Atom, atoms)
			if t.Sort.Kind == SReal && p.Atom.Sort.Kind != SReal {
				a = z.ctx.ToReal(a)
			}
			if p.Coef != (Rat{1, 1}) {
				a = z.ctx.Mul(z.num(p.Coef, t.Sort), a)
			}
			sum = append(sum, a)
		}
		base = z.ctx.Add(sum...)
	default:
		base = z.atom(t, nil)
		if k := t.Sort.Kind; k == SBool || k == SEnum {
			*atoms = append(*atoms, t.base())
		}
	}
	if t.Off.isZero() {
		return base
	}
	if t.Sort.Kind == SReal {
		return z.ctx.Add(base, z.ctx.RealVal(t.Off.Num, t.Off.Den))
	}
	return z.ctx.Add(base, z.ctx.IntVal(t.Off.Num))
}

// num is the Z3 constant r of sort s.
func (z *solver) num(r Rat, s Sort) smt.Term {
	if s.Kind == SReal || r.Den != 1 {
		return z.ctx.RealVal(r.Num, r.Den)
	}
	return z.ctx.IntVal(r.Num)
}

// lit translates l and adds the range constraints of its atoms not yet
// seen to dom.
func (z *solver) lit(l Lit, dom *[]smt.Term, seen map[Term]bool) smt.Term {
	e, ok := z.lits[l]
	if !ok {
		if len(z.lits) >= maxCachedLits {
			clear(z.lits)
		}
		e.t = z.translate(l, &e.atoms)
		z.lits[l] = e
	}
	for _, a := range e.atoms {
		if !seen[a] {
			seen[a] = true
			*dom = append(*dom, z.domain(a)...)
		}
	}
	return e.t
}

// translate builds the Z3 term of l.
func (z *solver) translate(l Lit, atoms *[]Term) smt.Term {
	a, b := z.term(l.L, atoms), z.term(l.R, atoms)
	if l.L.Sort.Kind == SReal || l.R.Sort.Kind == SReal {
		if l.L.Kind == KNum && l.L.Sort.Kind != SReal {
			a = z.ctx.ToReal(a)
		}
		if l.R.Kind == KNum && l.R.Sort.Kind != SReal {
			b = z.ctx.ToReal(b)
		}
	}
	switch l.Op {
	case Eq:
		return z.ctx.Eq(a, b)
	case Ne:
		return z.ctx.Not(z.ctx.Eq(a, b))
	case Lt:
		return z.ctx.Lt(a, b)
	case Le:
		return z.ctx.Le(a, b)
	case Gt:
		return z.ctx.Gt(a, b)
	}
	return z.ctx.Ge(a, b)
}

// sat decides whether the conjunction of lits and the negations of the
// conjunctions of nots is satisfiable, with the slots pairwise distinct.
// Unknown counts as satisfiable (the safe side for both uses).
func (z *solver) sat(slots []int32, lits []Lit, nots [][]Lit) (result bool) {
	if z.stopped != nil && z.stopped() {
		return true
	}
	z.calls++
	d := decideWith(&z.dl, z.sys, slots, lits, nots)
	if d == dlUnknown {
		z.undecided++
	}
	if d != dlUnknown && !z.crossCheck {
		return d == dlSat
	}
	r := z.z3sat(slots, lits, nots)
	if z.crossCheck && d != dlUnknown && r != (d == dlSat) && z.failed == nil && (z.stopped == nil || !z.stopped()) {
		panic(fmt.Sprintf("param: decide.go says sat=%v, Z3 says sat=%v: slots %v lits %v nots %v", d == dlSat, r, slots, lits, nots))
	}
	return r
}

// z3sat is sat's question asked to Z3.
func (z *solver) z3sat(slots []int32, lits []Lit, nots [][]Lit) (result bool) {
	if !z.z3() {
		return true
	}
	defer func() {
		// an interrupted context makes Z3 refuse further work
		if r := recover(); r != nil {
			if err, ok := r.(error); ok && errors.Is(err, memlimit.ErrExceeded) {
				z.failed, result = err, true
				return
			}
			if z.stopped == nil || !z.stopped() {
				panic(r)
			}
			result = true
		}
	}()
	z.z3calls++
	var dom []smt.Term
	seen := map[Term]bool{}
	var fs []smt.Term
	for _, l := range lits {
		fs = append(fs, z.lit(l, &dom, seen))
	}
	for _, c := range nots {
		var cj []smt.Term
		for _, l := range c {
			cj = append(cj, z.lit(l, &dom, seen))
		}
		fs = append(fs, z.ctx.Not(z.ctx.And(cj...)))
	}
	if len(slots) > 1 {
		var ss []smt.Term
		for _, s := range slots {
			ss = append(ss, z.slot(s))
		}
		fs = append(fs, z.ctx.Distinct(ss...))
	}
	z.s.Push()
	z.s.Assert(fs...)
	z.s.Assert(dom...)
	r := z.s.Check()
	if r == smt.Unknown && (z.stopped == nil || !z.stopped()) {
		// Out of memory is the memory limit: the search stops with it.
		// Another unknown stays on the safe side (see above).
		if reason := z.s.ReasonUnknown(); strings.Contains(reason, "memory") {
			z.failed = fmt.Errorf("%w (Z3: %s)", memlimit.ErrExceeded, reason)
		}
	}
	z.s.Pop(1)
	return r != smt.Unsat
}
