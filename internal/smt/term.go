package smt

/*
#include "shim.h"
*/
import "C"

import (
	"math/big"
	"strconv"
	"unsafe"
)

// SortKind classifies the sorts this package can build.
type SortKind uint8

// Sort kinds. KindOther is reported by Term.Sort for sorts this package
// does not construct (arrays, datatypes, ...).
const (
	KindOther SortKind = iota
	KindBool
	KindInt
	KindReal
	KindBV
)

// The kinds above must match shim.h (compile-time check).
var (
	_ = [1]struct{}{}[KindBool-SortKind(C.MUSKET_SORT_BOOL)]
	_ = [1]struct{}{}[KindBV-SortKind(C.MUSKET_SORT_BV)]
)

// Sort describes the type of a term. It is a plain, comparable value,
// independent of any Context.
type Sort struct {
	kind  SortKind
	width uint
}

// BoolSort is the Boolean sort.
func BoolSort() Sort { return Sort{kind: KindBool} }

// IntSort is the sort of mathematical integers.
func IntSort() Sort { return Sort{kind: KindInt} }

// RealSort is the sort of real numbers.
func RealSort() Sort { return Sort{kind: KindReal} }

// BVSort is the sort of bit-vectors of the given width. It panics with
// *Error if width is 0.
func BVSort(width uint) Sort {
	if width == 0 || width > 1<<30 {
		panic(&Error{Op: "BVSort", Code: InvalidArg, Msg: "bit-vector width must be in 1..2^30"})
	}
	return Sort{kind: KindBV, width: width}
}

// Kind returns the kind of s.
func (s Sort) Kind() SortKind { return s.kind }

// Width returns the bit-width of a bit-vector sort, 0 for other sorts.
func (s Sort) Width() uint { return s.width }

func (s Sort) String() string {
	switch s.kind {
	case KindBool:
		return "Bool"
	case KindInt:
		return "Int"
	case KindReal:
		return "Real"
	case KindBV:
		return "(_ BitVec " + strconv.FormatUint(uint64(s.width), 10) + ")"
	}
	return "<other sort>"
}

func (c *Context) checkSort(op string, s Sort) {
	switch s.kind {
	case KindBool, KindInt, KindReal:
		return
	case KindBV:
		if s.width > 0 {
			return
		}
	}
	panic(&Error{Op: op, Code: InvalidArg, Msg: "invalid sort " + s.String()})
}

// Term is a Z3 expression (formula or value). It holds a Z3 reference that
// is released after the Term (and all its copies) become unreachable. The
// zero Term is invalid. Term values may be copied freely; == compares
// handles, not expressions: use Equal or ID for structural identity.
type Term struct {
	r *termRef
}

type termRef struct {
	ast C.Z3_ast
	ctx *Context
	id  uint32
}

// wrap turns a C result into a Term, or panics with *Error on failure.
func (c *Context) wrap(op string, r C.musket_res) Term {
	if r.err != 0 {
		panic(c.error(op, r.err))
	}
	ref := &termRef{ast: r.ast, ctx: c, id: uint32(r.id)}
	track(c, ref, C.MUSKET_OBJ_AST, unsafe.Pointer(r.ast))
	return Term{ref}
}

// IsZero reports whether t is the zero Term.
func (t Term) IsZero() bool { return t.r == nil }

// Context returns the context t belongs to (nil for the zero Term).
func (t Term) Context() *Context {
	if t.r == nil {
		return nil
	}
	return t.r.ctx
}

// ID returns Z3's identifier of the expression. Two live terms of the same
// context have the same ID if and only if they are the same expression
// (Z3 hash-conses expressions), so ID is suitable as a map key.
func (t Term) ID() uint32 {
	if t.r == nil {
		return 0
	}
	return t.r.id
}

// Equal reports whether t and u are the same expression of the same
// context (syntactic identity after hash-consing, not semantic equality).
func (t Term) Equal(u Term) bool {
	if t.r == nil || u.r == nil {
		return t.r == u.r
	}
	return t.r.ctx == u.r.ctx && t.r.ast == u.r.ast
}

// String renders t in SMT-LIB syntax. It returns "<nil>" for the zero
// Term and "<closed>" if its context is closed.
func (t Term) String() string {
	if t.r == nil {
		return "<nil>"
	}
	c := t.r.ctx
	if c.z == nil {
		return "<closed>"
	}
	c.enter("String")
	s := C.musket_ast_string(c.z, t.r.ast)
	if s == nil {
		return "<error>"
	}
	return C.GoString(s)
}

// Sort returns the sort of t.
func (t Term) Sort() Sort {
	if t.r == nil {
		panic(&Error{Op: "Sort", Code: InvalidArg, Msg: "zero Term"})
	}
	c := t.r.ctx
	c.enter("Sort")
	var w C.unsigned
	k := C.musket_sort_of(c.z, t.r.ast, &w)
	return Sort{kind: SortKind(k), width: uint(w)}
}

// goStr passes a Go string to C without copying; C copies it before use.
func goStr(s string) (*C.char, C.size_t) {
	return (*C.char)(unsafe.Pointer(unsafe.StringData(s))), C.size_t(len(s))
}

// Const returns the constant (free variable) called name of sort s.
// Constants with the same name and sort are the same term.
func (c *Context) Const(name string, s Sort) Term {
	c.enter("Const")
	c.checkSort("Const", s)
	if s.kind == C.MUSKET_SORT_INT || s.kind == C.MUSKET_SORT_REAL {
		c.arith = true
	}
	p, n := goStr(name)
	return c.wrap("Const", C.musket_const(c.z, p, n, C.int(s.kind), C.unsigned(s.width)))
}

// Bool returns the Boolean constant called name.
func (c *Context) Bool(name string) Term { return c.Const(name, BoolSort()) }

// Int returns the integer constant called name.
func (c *Context) Int(name string) Term { return c.Const(name, IntSort()) }

// Real returns the real constant called name.
func (c *Context) Real(name string) Term { return c.Const(name, RealSort()) }

// BV returns the bit-vector constant called name of the given width.
func (c *Context) BV(name string, width uint) Term { return c.Const(name, BVSort(width)) }

// BoolVal returns the Boolean literal v.
func (c *Context) BoolVal(v bool) Term {
	c.enter("BoolVal")
	b := C.int(0)
	if v {
		b = 1
	}
	return c.wrap("BoolVal", C.musket_bool_val(c.z, b))
}

// True returns the literal true.
func (c *Context) True() Term { return c.BoolVal(true) }

// False returns the literal false.
func (c *Context) False() Term { return c.BoolVal(false) }

// IntVal returns the integer literal v.
func (c *Context) IntVal(v int64) Term {
	c.enter("IntVal")
	c.arith = true
	return c.wrap("IntVal", C.musket_int64(c.z, C.int64_t(v), C.MUSKET_SORT_INT, 0))
}

// RealVal returns the rational literal num/den. It panics with *Error if
// den is 0.
func (c *Context) RealVal(num, den int64) Term {
	c.enter("RealVal")
	c.arith = true
	if den == 0 {
		panic(&Error{Op: "RealVal", Code: InvalidArg, Msg: "zero denominator"})
	}
	p, n := goStr(big.NewRat(num, den).RatString())
	return c.wrap("RealVal", C.musket_numeral(c.z, p, n, C.MUSKET_SORT_REAL, 0))
}

// BVVal returns the bit-vector literal of the given width whose value is
// v modulo 2^width (so negative v gives the two's complement encoding).
func (c *Context) BVVal(v int64, width uint) Term {
	c.enter("BVVal")
	s := BVSort(width)
	return c.wrap("BVVal", C.musket_int64(c.z, C.int64_t(v), C.MUSKET_SORT_BV, C.unsigned(s.width)))
}

// BVValUint returns the bit-vector literal of the given width whose value
// is v modulo 2^width.
func (c *Context) BVValUint(v uint64, width uint) Term {
	c.enter("BVValUint")
	s := BVSort(width)
	p, n := goStr(strconv.FormatUint(v, 10))
	return c.wrap("BVValUint", C.musket_numeral(c.z, p, n, C.MUSKET_SORT_BV, C.unsigned(s.width)))
}

func (c *Context) app1(op string, code C.int, a Term, k1, k2 uint) Term {
	c.enter(op)
	x := c.arg(op, a)
	return c.wrap(op, C.musket_app1(c.z, code, x, C.unsigned(k1), C.unsigned(k2)))
}

func (c *Context) app2(op string, code C.int, a, b Term) Term {
	c.enter(op)
	x, y := c.arg(op, a), c.arg(op, b)
	return c.wrap(op, C.musket_app2(c.z, code, x, y))
}

func (c *Context) appN(op string, code C.int, ts []Term, k uint) Term {
	c.enter(op)
	p := c.args(op, ts)
	return c.wrap(op, C.musket_app(c.z, code, C.unsigned(len(ts)), p, C.unsigned(k), 0))
}

// Not returns ¬t.
func (c *Context) Not(t Term) Term { return c.app1("Not", C.MUSKET_OP_NOT, t, 0, 0) }

// And returns the conjunction of ts; And() is true.
func (c *Context) And(ts ...Term) Term {
	if len(ts) == 0 {
		return c.True()
	}
	return c.appN("And", C.MUSKET_OP_AND, ts, 0)
}

// Or returns the disjunction of ts; Or() is false.
func (c *Context) Or(ts ...Term) Term {
	if len(ts) == 0 {
		return c.False()
	}
	return c.appN("Or", C.MUSKET_OP_OR, ts, 0)
}

// Implies returns a → b.
func (c *Context) Implies(a, b Term) Term { return c.app2("Implies", C.MUSKET_OP_IMPLIES, a, b) }

// Iff returns a ↔ b.
func (c *Context) Iff(a, b Term) Term { return c.app2("Iff", C.MUSKET_OP_IFF, a, b) }

// Xor returns a ⊕ b.
func (c *Context) Xor(a, b Term) Term { return c.app2("Xor", C.MUSKET_OP_XOR, a, b) }

// Ite returns if cond then a else b; a and b must have the same sort.
func (c *Context) Ite(cond, a, b Term) Term {
	c.enter("Ite")
	x, y, z := c.arg("Ite", cond), c.arg("Ite", a), c.arg("Ite", b)
	return c.wrap("Ite", C.musket_app3(c.z, C.MUSKET_OP_ITE, x, y, z))
}

// Eq returns a = b; a and b must have the same sort (Int and Real mix).
func (c *Context) Eq(a, b Term) Term { return c.app2("Eq", C.MUSKET_OP_EQ, a, b) }

// Distinct returns the constraint that ts are pairwise different; it is
// true for fewer than two terms.
func (c *Context) Distinct(ts ...Term) Term {
	if len(ts) < 2 {
		for _, t := range ts {
			c.arg("Distinct", t)
		}
		return c.True()
	}
	return c.appN("Distinct", C.MUSKET_OP_DISTINCT, ts, 0)
}

// Add returns the sum of ts (Int or Real); Add() is the integer 0.
func (c *Context) Add(ts ...Term) Term {
	if len(ts) == 0 {
		return c.IntVal(0)
	}
	return c.appN("Add", C.MUSKET_OP_ADD, ts, 0)
}

// Mul returns the product of ts (Int or Real); Mul() is the integer 1.
func (c *Context) Mul(ts ...Term) Term {
	if len(ts) == 0 {
		return c.IntVal(1)
	}
	return c.appN("Mul", C.MUSKET_OP_MUL, ts, 0)
}

// Sub returns a - b.
func (c *Context) Sub(a, b Term) Term {
	return c.appN("Sub", C.MUSKET_OP_SUB, []Term{a, b}, 0)
}

// Neg returns -a.
func (c *Context) Neg(a Term) Term { return c.app1("Neg", C.MUSKET_OP_NEG, a, 0, 0) }

// Div returns a / b: integer division (rounding as in SMT-LIB) for Int,
// real division for Real.
func (c *Context) Div(a, b Term) Term { return c.app2("Div", C.MUSKET_OP_DIV, a, b) }

// Mod returns a mod b (Int).
func (c *Context) Mod(a, b Term) Term { return c.app2("Mod", C.MUSKET_OP_MOD, a, b) }

// Rem returns a rem b (Int).
func (c *Context) Rem(a, b Term) Term { return c.app2("Rem", C.MUSKET_OP_REM, a, b) }

// Lt returns a < b.
func (c *Context) Lt(a, b Term) Term { return c.app2("Lt", C.MUSKET_OP_LT, a, b) }

// Le returns a ≤ b.
func (c *Context) Le(a, b Term) Term { return c.app2("Le", C.MUSKET_OP_LE, a, b) }

// Gt returns a > b.
func (c *Context) Gt(a, b Term) Term { return c.app2("Gt", C.MUSKET_OP_GT, a, b) }

// Ge returns a ≥ b.
func (c *Context) Ge(a, b Term) Term { return c.app2("Ge", C.MUSKET_OP_GE, a, b) }

// ToReal converts an Int term to Real.
func (c *Context) ToReal(a Term) Term { return c.app1("ToReal", C.MUSKET_OP_TO_REAL, a, 0, 0) }

// ToInt returns the floor of a Real term as an Int.
func (c *Context) ToInt(a Term) Term { return c.app1("ToInt", C.MUSKET_OP_TO_INT, a, 0, 0) }

// IsInt returns the predicate "the Real term a is an integer".
func (c *Context) IsInt(a Term) Term { return c.app1("IsInt", C.MUSKET_OP_IS_INT, a, 0, 0) }

// BVAdd returns a + b modulo 2^width.
func (c *Context) BVAdd(a, b Term) Term { return c.app2("BVAdd", C.MUSKET_OP_BVADD, a, b) }

// BVSub returns a - b modulo 2^width.
func (c *Context) BVSub(a, b Term) Term { return c.app2("BVSub", C.MUSKET_OP_BVSUB, a, b) }

// BVMul returns a * b modulo 2^width.
func (c *Context) BVMul(a, b Term) Term { return c.app2("BVMul", C.MUSKET_OP_BVMUL, a, b) }

// BVUDiv returns unsigned a / b.
func (c *Context) BVUDiv(a, b Term) Term { return c.app2("BVUDiv", C.MUSKET_OP_BVUDIV, a, b) }

// BVSDiv returns signed a / b.
func (c *Context) BVSDiv(a, b Term) Term { return c.app2("BVSDiv", C.MUSKET_OP_BVSDIV, a, b) }

// BVURem returns unsigned a rem b.
func (c *Context) BVURem(a, b Term) Term { return c.app2("BVURem", C.MUSKET_OP_BVUREM, a, b) }

// BVSRem returns signed a rem b (sign follows a).
func (c *Context) BVSRem(a, b Term) Term { return c.app2("BVSRem", C.MUSKET_OP_BVSREM, a, b) }

// BVSMod returns signed a mod b (sign follows b).
func (c *Context) BVSMod(a, b Term) Term { return c.app2("BVSMod", C.MUSKET_OP_BVSMOD, a, b) }

// BVAnd returns bitwise a & b.
func (c *Context) BVAnd(a, b Term) Term { return c.app2("BVAnd", C.MUSKET_OP_BVAND, a, b) }

// BVOr returns bitwise a | b.
func (c *Context) BVOr(a, b Term) Term { return c.app2("BVOr", C.MUSKET_OP_BVOR, a, b) }

// BVXor returns bitwise a ^ b.
func (c *Context) BVXor(a, b Term) Term { return c.app2("BVXor", C.MUSKET_OP_BVXOR, a, b) }

// BVNot returns bitwise ^a.
func (c *Context) BVNot(a Term) Term { return c.app1("BVNot", C.MUSKET_OP_BVNOT, a, 0, 0) }

// BVNeg returns the two's complement negation of a.
func (c *Context) BVNeg(a Term) Term { return c.app1("BVNeg", C.MUSKET_OP_BVNEG, a, 0, 0) }

// BVShl returns a << b.
func (c *Context) BVShl(a, b Term) Term { return c.app2("BVShl", C.MUSKET_OP_BVSHL, a, b) }

// BVLShr returns the logical shift a >> b.
func (c *Context) BVLShr(a, b Term) Term { return c.app2("BVLShr", C.MUSKET_OP_BVLSHR, a, b) }

// BVAShr returns the arithmetic shift a >> b.
func (c *Context) BVAShr(a, b Term) Term { return c.app2("BVAShr", C.MUSKET_OP_BVASHR, a, b) }

// BVUlt returns unsigned a < b.
func (c *Context) BVUlt(a, b Term) Term { return c.app2("BVUlt", C.MUSKET_OP_BVULT, a, b) }

// BVUle returns unsigned a ≤ b.
func (c *Context) BVUle(a, b Term) Term { return c.app2("BVUle", C.MUSKET_OP_BVULE, a, b) }

// BVUgt returns unsigned a > b.
func (c *Context) BVUgt(a, b Term) Term { return c.app2("BVUgt", C.MUSKET_OP_BVUGT, a, b) }

// BVUge returns unsigned a ≥ b.
func (c *Context) BVUge(a, b Term) Term { return c.app2("BVUge", C.MUSKET_OP_BVUGE, a, b) }

// BVSlt returns signed a < b.
func (c *Context) BVSlt(a, b Term) Term { return c.app2("BVSlt", C.MUSKET_OP_BVSLT, a, b) }

// BVSle returns signed a ≤ b.
func (c *Context) BVSle(a, b Term) Term { return c.app2("BVSle", C.MUSKET_OP_BVSLE, a, b) }

// BVSgt returns signed a > b.
func (c *Context) BVSgt(a, b Term) Term { return c.app2("BVSgt", C.MUSKET_OP_BVSGT, a, b) }

// BVSge returns signed a ≥ b.
func (c *Context) BVSge(a, b Term) Term { return c.app2("BVSge", C.MUSKET_OP_BVSGE, a, b) }

// Concat returns the bit-vector a followed by b (a holds the high bits).
func (c *Context) Concat(a, b Term) Term { return c.app2("Concat", C.MUSKET_OP_CONCAT, a, b) }

// Extract returns bits hi..lo (inclusive) of a.
func (c *Context) Extract(hi, lo uint, a Term) Term {
	return c.app1("Extract", C.MUSKET_OP_EXTRACT, a, hi, lo)
}

// ZeroExt returns a extended with n zero bits.
func (c *Context) ZeroExt(n uint, a Term) Term {
	return c.app1("ZeroExt", C.MUSKET_OP_ZERO_EXT, a, n, 0)
}

// SignExt returns a extended with n copies of its sign bit.
func (c *Context) SignExt(n uint, a Term) Term {
	return c.app1("SignExt", C.MUSKET_OP_SIGN_EXT, a, n, 0)
}

// Int2BV converts an Int term to a bit-vector of the given width (modulo 2^width).
func (c *Context) Int2BV(width uint, a Term) Term {
	BVSort(width)
	return c.app1("Int2BV", C.MUSKET_OP_INT2BV, a, width, 0)
}

// BV2Int converts a bit-vector term to an Int, as unsigned or signed.
func (c *Context) BV2Int(a Term, signed bool) Term {
	c.arith = true
	s := uint(0)
	if signed {
		s = 1
	}
	return c.app1("BV2Int", C.MUSKET_OP_BV2INT, a, s, 0)
}

// PairwiseLimit is the largest group for which AtMostOne and ExactlyOne
// use the pairwise encoding; larger groups use Z3's native pseudo-Boolean
// constraints. With Z3 4.8.12 the pairwise clauses propagate better and
// solve faster on small groups (see BenchmarkPigeonhole), while the
// native constraint keeps large groups linear in size.
const PairwiseLimit = 16

// AtMostOne returns the constraint that at most one of the Boolean terms
// ts is true: the pairwise clauses ¬a ∨ ¬b for up to PairwiseLimit terms,
// a native Z3 cardinality constraint (Z3_mk_atmost) above. It is true for
// no terms.
func (c *Context) AtMostOne(ts ...Term) Term {
	if len(ts) == 0 {
		return c.True()
	}
	if len(ts) <= PairwiseLimit {
		return c.appN("AtMostOne", C.MUSKET_OP_AMO_PAIRWISE, ts, 0)
	}
	return c.appN("AtMostOne", C.MUSKET_OP_ATMOST, ts, 1)
}

// ExactlyOne returns the constraint that exactly one of the Boolean terms
// ts is true: the clause a₁ ∨ … ∨ aₙ plus pairwise at-most-one clauses
// for up to PairwiseLimit terms, a native Z3 pseudo-Boolean equality
// (Z3_mk_pbeq with unit coefficients) above. It is false for no terms.
func (c *Context) ExactlyOne(ts ...Term) Term {
	if len(ts) == 0 {
		return c.False()
	}
	if len(ts) <= PairwiseLimit {
		return c.appN("ExactlyOne", C.MUSKET_OP_EO_PAIRWISE, ts, 0)
	}
	return c.appN("ExactlyOne", C.MUSKET_OP_EXACTLY, ts, 1)
}

// AtMost returns the constraint that at most k of the Boolean terms ts
// are true. It panics with *Error if k < 0.
func (c *Context) AtMost(k int, ts ...Term) Term {
	checkBound("AtMost", k)
	if len(ts) == 0 {
		return c.True()
	}
	return c.appN("AtMost", C.MUSKET_OP_ATMOST, ts, uint(k))
}

// AtLeast returns the constraint that at least k of the Boolean terms ts
// are true. It panics with *Error if k < 0.
func (c *Context) AtLeast(k int, ts ...Term) Term {
	checkBound("AtLeast", k)
	if len(ts) == 0 {
		return c.BoolVal(k == 0)
	}
	return c.appN("AtLeast", C.MUSKET_OP_ATLEAST, ts, uint(k))
}

func checkBound(op string, k int) {
	if k < 0 || k > 1<<30 {
		panic(&Error{Op: op, Code: InvalidArg, Msg: "bound out of range"})
	}
}

// Simplify returns a simplified term equivalent to t. If Z3 fails (for
// example because the context was interrupted) it returns t unchanged.
func (c *Context) Simplify(t Term) Term {
	c.enter("Simplify")
	x := c.arg("Simplify", t)
	r := C.musket_app1(c.z, C.MUSKET_OP_SIMPLIFY, x, 0, 0)
	if r.err != 0 {
		return t
	}
	return c.wrap("Simplify", r)
}
