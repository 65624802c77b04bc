package smt

/*
#include "shim.h"
*/
import "C"

// Model is a satisfying assignment returned by Solver.Model. It stays
// valid after the solver changes. All methods accept a nil *Model and
// then report ok == false. Evaluation uses model completion: constants
// the model does not mention get a default value.
type Model struct {
	c *Context
	m C.Z3_model
}

func (m *Model) eval(op string, t Term, mode C.int) (C.musket_val, bool) {
	if m == nil {
		return C.musket_val{}, false
	}
	m.c.enter(op)
	x := m.c.arg(op, t)
	v := C.musket_eval(m.c.z, m.m, x, mode)
	return v, v.ok != 0
}

// Bool evaluates the Boolean term t.
func (m *Model) Bool(t Term) (val bool, ok bool) {
	v, ok := m.eval("Model.Bool", t, C.MUSKET_VAL_BOOL)
	return ok && v.a != 0, ok
}

// Int evaluates t to an integer; ok is false if the value is not an
// integer numeral that fits in an int64.
func (m *Model) Int(t Term) (int64, bool) {
	v, ok := m.eval("Model.Int", t, C.MUSKET_VAL_INT64)
	if !ok {
		return 0, false
	}
	return int64(v.a), true
}

// Real evaluates t to a rational num/den (den > 0); ok is false if the
// value is irrational (an algebraic number) or does not fit in int64s.
func (m *Model) Real(t Term) (num, den int64, ok bool) {
	v, ok := m.eval("Model.Real", t, C.MUSKET_VAL_RATIONAL)
	if !ok {
		return 0, 0, false
	}
	return int64(v.a), int64(v.b), true
}

// BV evaluates the bit-vector term t to its unsigned value; ok is false
// if it does not fit in 64 bits.
func (m *Model) BV(t Term) (uint64, bool) {
	v, ok := m.eval("Model.BV", t, C.MUSKET_VAL_UINT64)
	if !ok {
		return 0, false
	}
	return uint64(v.a), true
}

// Eval evaluates t in the model and returns the resulting term (a value
// for ground terms of the supported sorts).
func (m *Model) Eval(t Term) (Term, bool) {
	if m == nil {
		return Term{}, false
	}
	m.c.enter("Model.Eval")
	x := m.c.arg("Model.Eval", t)
	r := C.musket_eval_term(m.c.z, m.m, x)
	if r.err != 0 {
		return Term{}, false
	}
	return m.c.wrap("Model.Eval", r), true
}

// String renders the model as Z3 prints it.
func (m *Model) String() string {
	if m == nil {
		return "<nil>"
	}
	m.c.enter("Model.String")
	r := C.musket_model_string(m.c.z, m.m)
	if r == nil {
		return ""
	}
	return C.GoString(r)
}
