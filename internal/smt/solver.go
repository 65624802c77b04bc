package smt

/*
#include "shim.h"
*/
import "C"

import (
	"context"
	"math"
	"unsafe"
)

// Result is the outcome of a satisfiability check. The zero value is Unknown.
type Result int8

// Check results.
const (
	Unknown Result = iota
	Sat
	Unsat
)

func (r Result) String() string {
	switch r {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// Solver is an incremental Z3 solver: a stack of assertions with
// push/pop scopes. It belongs to its Context's goroutine.
type Solver struct {
	c *Context
	s C.Z3_solver

	checked bool   // a Check ran and nothing changed the solver since
	last    Result // result of that Check
	reason  string // Z3 error message if that Check failed with an error

	acyc *acycTheory // the acyclicity theory (AddAcyclic), if any
}

// NewSolver returns a general-purpose solver (Z3_mk_solver), which picks
// a strategy from the assertions.
func (c *Context) NewSolver() *Solver { return c.newSolver("NewSolver", "") }

// NewSimpleSolver returns Z3's SMT solver itself (Z3_mk_simple_solver),
// without the general-purpose solver's switch to tactics for a first
// check without assumptions. Z3 4.8.12 accepts a user propagator (the
// acyclicity theory, AddAcyclic) on this solver only. Checks with
// assumptions or after a Push run this same solver under NewSolver too.
func (c *Context) NewSimpleSolver() *Solver { return c.newSolver("NewSimpleSolver", "\x00simple") }

// NewSolverFor returns a solver specialised for an SMT-LIB logic such as
// "QF_LIA", "QF_BV" or "QF_UFLIA". It panics with *Error if Z3 does not
// recognise the logic (Z3 4.8.12 rejects unknown names; the logic is
// expected to be a constant in the code, so this is a programming error).
func (c *Context) NewSolverFor(logic string) *Solver {
	return c.newSolver("NewSolverFor", logic)
}

func (c *Context) newSolver(op, logic string) *Solver {
	c.enter(op)
	var err C.int
	simple := C.int(0)
	if logic == "\x00simple" {
		simple, logic = 1, ""
	}
	p, n := goStr(logic)
	z := C.musket_mk_solver(c.z, p, n, simple, &err)
	if z == nil {
		panic(c.error(op, err))
	}
	s := &Solver{c: c, s: z}
	track(c, s, C.MUSKET_OBJ_SOLVER, unsafe.Pointer(z))
	return s
}

func (s *Solver) enter(op string) {
	s.c.enter(op)
}

// changed invalidates the result of the last Check.
func (s *Solver) changed() {
	s.checked = false
	s.last = Unknown
	s.reason = ""
}

// Assert adds the Boolean terms ts to the current scope. It panics with
// *Error if a term is not Boolean.
func (s *Solver) Assert(ts ...Term) {
	s.enter("Assert")
	s.changed()
	if len(ts) == 0 {
		return
	}
	p := s.c.args("Assert", ts)
	if err := C.musket_assert(s.c.z, s.s, C.unsigned(len(ts)), p); err != 0 {
		panic(s.c.error("Assert", err))
	}
}

// Push opens a new assertion scope.
func (s *Solver) Push() {
	s.enter("Push")
	s.changed()
	if err := C.musket_push(s.c.z, s.s); err != 0 {
		panic(s.c.error("Push", err))
	}
}

// Pop closes the n innermost scopes, discarding their assertions. It
// panics with *Error if n < 0 or n > NumScopes().
func (s *Solver) Pop(n int) {
	s.enter("Pop")
	if n < 0 || n > s.NumScopes() {
		panic(&Error{Op: "Pop", Code: InvalidArg, Msg: "cannot pop more scopes than were pushed"})
	}
	if n == 0 {
		return
	}
	s.changed()
	if err := C.musket_pop(s.c.z, s.s, C.unsigned(n)); err != 0 {
		panic(s.c.error("Pop", err))
	}
}

// NumScopes returns the number of open scopes (pushes not yet popped).
func (s *Solver) NumScopes() int {
	s.enter("NumScopes")
	return int(C.musket_num_scopes(s.c.z, s.s))
}

// Reset removes all assertions and scopes.
func (s *Solver) Reset() {
	s.enter("Reset")
	s.changed()
	if err := C.musket_reset(s.c.z, s.s); err != 0 {
		panic(s.c.error("Reset", err))
	}
	if s.acyc != nil && s.acyc.prop != nil {
		// The literals walked are no longer the solver's (register.go).
		C.musket_watch_forget(s.acyc.prop)
	}
}

// Check decides the satisfiability of the current assertions. It returns
// Unknown on timeout, interruption, resource limits or a Z3 error; see
// ReasonUnknown. It never panics on problem-dependent conditions.
func (s *Solver) Check() Result { return s.check("Check", nil) }

// CheckAssumptions checks the assertions together with the Boolean
// assumptions as (typically literals). After Unsat, UnsatCore returns a
// subset of as that is unsatisfiable with the assertions.
func (s *Solver) CheckAssumptions(as ...Term) Result {
	return s.check("CheckAssumptions", as)
}

func (s *Solver) check(op string, as []Term) Result {
	s.enter(op)
	s.changed()
	var p *C.Z3_ast
	if len(as) > 0 {
		p = s.c.args(op, as)
	}
	var err C.int
	r := C.musket_check(s.c.z, s.s, C.unsigned(len(as)), p, &err)
	s.checked = true
	if s.acyc != nil && s.acyc.panicked != nil {
		x := s.acyc.panicked
		s.acyc.panicked = nil
		s.last = Unknown
		panic(x)
	}
	switch {
	case err != 0:
		s.last = Unknown
		e := s.c.error(op, err)
		s.reason = e.Msg
		if s.reason == "" {
			s.reason = e.Error()
		}
	case r == C.Z3_L_TRUE:
		s.last = Sat
	case r == C.Z3_L_FALSE:
		s.last = Unsat
	default:
		s.last = Unknown
	}
	return s.last
}

// CheckContext is CheckAssumptions that is interrupted when ctx is done
// (then it returns Unknown with reason "canceled"). It starts a watcher
// goroutine that calls Interrupt, repeatedly, until the check returns, so
// a cancellation that races with the start of the check is not lost.
func (s *Solver) CheckContext(ctx context.Context, as ...Term) Result {
	if ctx.Done() == nil {
		return s.CheckAssumptions(as...)
	}
	if ctx.Err() != nil {
		s.enter("CheckContext")
		s.changed()
		s.checked = true
		s.reason = "canceled"
		return Unknown
	}
	stop := s.c.InterruptWhenDone(ctx)
	r := s.check("CheckContext", as)
	stop()
	if r == Unknown && ctx.Err() != nil && s.reason == "" {
		s.reason = "canceled"
	}
	return r
}

// ReasonUnknown explains why the last Check returned Unknown: "timeout",
// "interrupted" (Interrupt), "canceled" (CheckContext), Z3's reason for
// giving up (e.g. "incomplete quantifiers"), or the message of a Z3 error
// (e.g. a non-Boolean assumption; Check reports such errors this way
// instead of panicking). It returns "" if the last Check
// did not return Unknown or no Check ran since the last change.
func (s *Solver) ReasonUnknown() string {
	s.enter("ReasonUnknown")
	if !s.checked || s.last != Unknown {
		return ""
	}
	if s.reason != "" {
		return s.reason
	}
	r := C.musket_reason_unknown(s.c.z, s.s)
	if r == nil {
		return ""
	}
	return C.GoString(r)
}

// SetTimeout limits every following Check to ms milliseconds (Z3's
// "timeout" parameter); 0 removes the limit.
func (s *Solver) SetTimeout(ms uint) {
	if ms == 0 || ms > math.MaxUint32 {
		ms = math.MaxUint32
	}
	if err := s.SetUintParam("timeout", ms); err != nil {
		panic(err)
	}
}

// SetUintParam sets an unsigned solver parameter, e.g. "random_seed".
// Unknown parameters are reported as an error.
func (s *Solver) SetUintParam(name string, v uint) error {
	if v > math.MaxUint32 {
		v = math.MaxUint32
	}
	return s.setParam("SetUintParam", name, false, v)
}

// SetBoolParam sets a Boolean solver parameter, e.g. "core.minimize".
// Unknown parameters are reported as an error.
func (s *Solver) SetBoolParam(name string, v bool) error {
	u := uint(0)
	if v {
		u = 1
	}
	return s.setParam("SetBoolParam", name, true, u)
}

func (s *Solver) setParam(op, name string, isBool bool, v uint) error {
	s.enter(op)
	p, n := goStr(name)
	b := C.int(0)
	if isBool {
		b = 1
	}
	if err := C.musket_set_param(s.c.z, s.s, p, n, b, C.unsigned(v)); err != 0 {
		return s.c.error(op+"("+name+")", err)
	}
	return nil
}

// Model returns the model found by the last Check, or nil unless that
// Check returned Sat and the solver has not changed since.
func (s *Solver) Model() *Model {
	s.enter("Model")
	if !s.checked || s.last != Sat {
		return nil
	}
	z := C.musket_get_model(s.c.z, s.s)
	if z == nil {
		return nil
	}
	m := &Model{c: s.c, m: z}
	track(s.c, m, C.MUSKET_OBJ_MODEL, unsafe.Pointer(z))
	return m
}

// UnsatCore returns the assumptions (passed to CheckAssumptions) that the
// last Check found jointly unsatisfiable with the assertions. It returns
// nil unless the last Check returned Unsat and the solver has not changed
// since; it is empty if the assertions alone are unsatisfiable.
func (s *Solver) UnsatCore() []Term {
	s.enter("UnsatCore")
	if !s.checked || s.last != Unsat {
		return nil
	}
	var n C.unsigned
	v := C.musket_get_core(s.c.z, s.s, &n)
	if v == nil {
		return nil
	}
	out := make([]Term, 0, int(n))
	if n == 0 {
		C.musket_take_vector(s.c.z, v, nil, 0)
		return out
	}
	res := make([]C.musket_res, int(n))
	C.musket_take_vector(s.c.z, v, &res[0], n)
	for _, r := range res {
		if r.err == 0 {
			out = append(out, s.c.wrap("UnsatCore", r))
		}
	}
	return out
}

// Statistics returns Z3's statistics for this solver (e.g. "conflicts",
// "decisions", "time", "memory").
func (s *Solver) Statistics() map[string]float64 {
	s.enter("Statistics")
	var n C.unsigned
	st := C.musket_get_stats(s.c.z, s.s, &n)
	if st == nil {
		return map[string]float64{}
	}
	defer C.musket_stats_release(s.c.z, st)
	out := make(map[string]float64, int(n))
	for i := C.unsigned(0); i < n; i++ {
		var v C.double
		if k := C.musket_stats_entry(s.c.z, st, i, &v); k != nil {
			out[C.GoString(k)] = float64(v)
		}
	}
	return out
}

// StatisticsString returns Z3's statistics for this solver as text.
func (s *Solver) StatisticsString() string {
	s.enter("StatisticsString")
	var n C.unsigned
	st := C.musket_get_stats(s.c.z, s.s, &n)
	if st == nil {
		return ""
	}
	defer C.musket_stats_release(s.c.z, st)
	r := C.musket_stats_string(s.c.z, st)
	if r == nil {
		return ""
	}
	return C.GoString(r)
}

// String returns the solver's assertions in SMT-LIB syntax.
func (s *Solver) String() string {
	s.enter("String")
	r := C.musket_solver_string(s.c.z, s.s)
	if r == nil {
		return ""
	}
	return C.GoString(r)
}
