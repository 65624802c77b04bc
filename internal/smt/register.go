package smt

/*
#include "shim.h"
*/
import "C"

import "fmt"

// Why a literal with arithmetic inside is not registered as it is.
//
// Z3 preprocesses the formulas asserted on a solver (its rewriter turns
// x < k into ¬(x ≥ k), x ≥ y into x - y ≥ 0, lifts if-then-else terms out
// of arithmetic...) before its arithmetic solver sees them, and that
// solver (theory_lra, Z3 4.8.12) takes an atom only in the rewritten
// form: a bound t ≤ k or t ≥ k of a term by a number. A term registered
// with the user propagator is not preprocessed: it is internalized as it
// was built. An atom of another shape there (x < 4096, from the address
// ranges of a C program's objects) is marked unhandled by the arithmetic
// solver, which then answers every final check with "give up": the check
// ends unknown, "incomplete (theory arithmetic)", whatever the formula.
// (A theory atom registered alone Z3 refuses outright: "malformed atomic
// constraint".) So such a literal is registered through a Boolean
// variable asserted equivalent to it: the assertion is preprocessed like
// any other, and the variable is what the propagator watches. Same
// models, same conflicts (the variable and the literal have the same
// value in every model of the assertions). The other literals are
// registered as they are (musket_watch_raw in shim.c decides): wrapping
// every literal with arithmetic inside was measured slower where Z3 had
// not given up (big_struct_ret, cfeat_jobs, futex_mutex under Power).
//
// Registering those literals as they are first, and wrapping them only
// when a check gives up, was tried (cspeed5): rand_seq under Power took
// 2.8 s of CPU instead of 5.8, but tss_key did not give up; it searched,
// 890 conflicts in 14 s of CPU, against 1.8 s wrapped. Z3_simplify on
// the literal (arith_lhs, the form the arithmetic solver takes) was
// slower than the variable on both. So they are wrapped from the start.

// watchable returns lit when Z3 can watch it as it is, else a variable
// asserted equivalent to it: wrap(lit) when wrap is not nil, else a
// variable of the solver's own, one per literal.
func (s *Solver) watchable(op string, lit Term, wrap func(Term) Term) Term {
	if s.watchRaw(op, lit) {
		return lit
	}
	if wrap != nil {
		return wrap(lit)
	}
	t := s.theory(op)
	if x, ok := t.proxies[lit.ID()]; ok {
		return x
	}
	// The name cannot clash with Musket's own ("prefix!N") and is the
	// same term for the same literal, with the same definition.
	x := s.c.Bool(fmt.Sprintf("musket.watch!%d", lit.ID()))
	s.Assert(s.c.Iff(x, lit))
	if t.proxies == nil {
		t.proxies = make(map[uint32]Term)
	}
	t.proxies[lit.ID()] = x
	return x
}

// watchRaw tells whether Z3 can watch lit as it is (musket_watch_raw:
// what it found of each subterm is kept by the solver's propagator).
func (s *Solver) watchRaw(op string, lit Term) bool {
	switch C.musket_watch_raw(s.theory(op).prop, s.c.arg(op, lit)) {
	case 1:
		return true
	case -1:
		panic(&Error{Op: op, Code: MemoutFail, Msg: "out of memory walking a literal"})
	}
	return false
}
