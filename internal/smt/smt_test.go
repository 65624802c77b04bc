package smt

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func newCtx(t testing.TB) *Context {
	t.Helper()
	c := NewContext()
	t.Cleanup(c.Close)
	return c
}

// mustPanic runs f and returns the *Error it panicked with.
func mustPanic(t *testing.T, f func()) (e *Error) {
	t.Helper()
	defer func() {
		r := recover()
		if r == nil {
			t.Fatalf("no panic")
		}
		var ok bool
		if e, ok = r.(*Error); !ok {
			t.Fatalf("panic value %T (%v), want *Error", r, r)
		}
	}()
	f()
	return nil
}

func TestVersion(t *testing.T) {
	if v := Version(); !strings.HasPrefix(v, "4.") {
		t.Fatalf("Version() = %q", v)
	}
}

func TestSatUnsat(t *testing.T) {
	tests := []struct {
		name  string
		build func(c *Context) []Term
		want  Result
	}{
		{"empty", func(c *Context) []Term { return nil }, Sat},
		{"true", func(c *Context) []Term { return []Term{c.True()} }, Sat},
		{"false", func(c *Context) []Term { return []Term{c.False()} }, Unsat},
		{"and()", func(c *Context) []Term { return []Term{c.And()} }, Sat},
		{"or()", func(c *Context) []Term { return []Term{c.Or()} }, Unsat},
		{"p and not p", func(c *Context) []Term {
			p := c.Bool("p")
			return []Term{p, c.Not(p)}
		}, Unsat},
		{"implies chain", func(c *Context) []Term {
			p, q, r := c.Bool("p"), c.Bool("q"), c.Bool("r")
			return []Term{p, c.Implies(p, q), c.Implies(q, r), c.Not(r)}
		}, Unsat},
		{"xor", func(c *Context) []Term {
			p, q := c.Bool("p"), c.Bool("q")
			return []Term{c.Xor(p, q), c.Iff(p, q)}
		}, Unsat},
		{"ite", func(c *Context) []Term {
			p, x := c.Bool("p"), c.Int("x")
			return []Term{c.Eq(x, c.Ite(p, c.IntVal(1), c.IntVal(2))), c.Gt(x, c.IntVal(1)), p}
		}, Unsat},
		{"distinct pigeons", func(c *Context) []Term {
			x, y, z := c.Int("x"), c.Int("y"), c.Int("z")
			var ts []Term
			for _, v := range []Term{x, y, z} {
				ts = append(ts, c.Ge(v, c.IntVal(0)), c.Le(v, c.IntVal(1)))
			}
			return append(ts, c.Distinct(x, y, z))
		}, Unsat},
		{"distinct of one", func(c *Context) []Term { return []Term{c.Distinct(c.Int("x"))} }, Sat},
		{"exactly one", func(c *Context) []Term {
			p, q, r := c.Bool("p"), c.Bool("q"), c.Bool("r")
			return []Term{c.ExactlyOne(p, q, r), c.Or(p, q), c.Not(p)}
		}, Sat},
		{"exactly one violated", func(c *Context) []Term {
			p, q, r := c.Bool("p"), c.Bool("q"), c.Bool("r")
			return []Term{c.ExactlyOne(p, q, r), p, q}
		}, Unsat},
		{"exactly one of none", func(c *Context) []Term { return []Term{c.ExactlyOne()} }, Unsat},
		{"at most one", func(c *Context) []Term {
			p, q := c.Bool("p"), c.Bool("q")
			return []Term{c.AtMostOne(p, q), p, q}
		}, Unsat},
		{"at most one of none", func(c *Context) []Term { return []Term{c.AtMostOne()} }, Sat},
		{"at least 2 of 3", func(c *Context) []Term {
			p, q, r := c.Bool("p"), c.Bool("q"), c.Bool("r")
			return []Term{c.AtLeast(2, p, q, r), c.Not(p), c.AtMost(1, q, r)}
		}, Unsat},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newCtx(t)
			s := c.NewSolver()
			s.Assert(tc.build(c)...)
			if got := s.Check(); got != tc.want {
				t.Fatalf("Check() = %v, want %v\n%v", got, tc.want, s)
			}
			if m := s.Model(); (m != nil) != (tc.want == Sat) {
				t.Fatalf("Model() = %v after %v", m, tc.want)
			}
		})
	}
}

func TestIntegers(t *testing.T) {
	c := newCtx(t)
	x, y := c.Int("x"), c.Int("y")
	tests := []struct {
		name string
		fs   []Term
		vals map[string]int64 // expected values of x, y
	}{
		{"linear system", []Term{c.Eq(c.Add(x, y), c.IntVal(10)), c.Eq(c.Sub(x, y), c.IntVal(4))},
			map[string]int64{"x": 7, "y": 3}},
		{"neg and mul", []Term{c.Eq(c.Neg(x), c.IntVal(5)), c.Eq(y, c.Mul(x, x, c.IntVal(2)))},
			map[string]int64{"x": -5, "y": 50}},
		{"div mod", []Term{c.Eq(x, c.IntVal(17)), c.Eq(y, c.Add(c.Div(x, c.IntVal(5)), c.Mod(x, c.IntVal(5))))},
			map[string]int64{"x": 17, "y": 5}},
		{"min int64", []Term{c.Eq(x, c.IntVal(math.MinInt64)), c.Eq(y, c.IntVal(math.MaxInt64))},
			map[string]int64{"x": math.MinInt64, "y": math.MaxInt64}},
		{"bounds", []Term{c.Lt(c.IntVal(3), x), c.Le(x, c.IntVal(4)), c.Gt(y, x), c.Ge(c.IntVal(5), y)},
			map[string]int64{"x": 4, "y": 5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := c.NewSolver()
			s.Assert(tc.fs...)
			if r := s.Check(); r != Sat {
				t.Fatalf("Check() = %v", r)
			}
			m := s.Model()
			for name, want := range tc.vals {
				got, ok := m.Int(c.Int(name))
				if !ok || got != want {
					t.Errorf("%s = %d (ok=%v), want %d", name, got, ok, want)
				}
			}
		})
	}
	// Empty sum/product and overflow of int64 in the model.
	s := c.NewSolver()
	s.Assert(c.Eq(x, c.Add(c.IntVal(math.MaxInt64), c.IntVal(1))), c.Eq(y, c.Add(c.Mul(), c.Add())))
	if s.Check() != Sat {
		t.Fatal("not sat")
	}
	m := s.Model()
	if _, ok := m.Int(x); ok {
		t.Errorf("2^63 fits in int64?")
	}
	if v, ok := m.Int(y); !ok || v != 1 {
		t.Errorf("y = %d, %v", v, ok)
	}
}

func TestReals(t *testing.T) {
	c := newCtx(t)
	r, q, i := c.Real("r"), c.Real("q"), c.Int("i")
	tests := []struct {
		name     string
		fs       []Term
		of       Term
		num, den int64
		ok       bool
	}{
		{"half", []Term{c.Eq(c.Mul(c.RealVal(2, 1), r), c.RealVal(1, 1))}, r, 1, 2, true},
		{"negative", []Term{c.Eq(r, c.Add(c.RealVal(-3, 4), c.RealVal(1, -4)))}, r, -1, 1, true},
		{"strict between", []Term{c.Lt(c.RealVal(1, 3), r), c.Lt(r, c.RealVal(1, 2)), c.Eq(q, c.Mul(r, c.RealVal(0, 1)))}, q, 0, 1, true},
		{"int to real", []Term{c.Eq(i, c.IntVal(3)), c.Eq(r, c.Div(c.ToReal(i), c.RealVal(2, 1)))}, r, 3, 2, true},
		{"floor", []Term{c.Eq(r, c.RealVal(7, 2)), c.Eq(i, c.ToInt(r))}, i, 3, 1, true},
		{"irrational", []Term{c.Eq(c.Mul(r, r), c.RealVal(2, 1)), c.Gt(r, c.RealVal(0, 1))}, r, 0, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := c.NewSolver()
			s.Assert(tc.fs...)
			if res := s.Check(); res != Sat {
				t.Fatalf("Check() = %v (%s)", res, s.ReasonUnknown())
			}
			num, den, ok := s.Model().Real(tc.of)
			if ok != tc.ok || (ok && (num != tc.num || den != tc.den)) {
				t.Fatalf("Real = %d/%d (ok=%v), want %d/%d (ok=%v)", num, den, ok, tc.num, tc.den, tc.ok)
			}
		})
	}
	s := c.NewSolver()
	s.Assert(c.Not(c.IsInt(r)), c.IsInt(c.Mul(r, c.RealVal(2, 1))))
	if s.Check() != Sat {
		t.Fatal("not sat")
	}
	if _, den, ok := s.Model().Real(r); !ok || den != 2 {
		t.Fatalf("den = %d, %v", den, ok)
	}
}

func TestBitVectors(t *testing.T) {
	c := newCtx(t)
	a8, b8 := c.BVVal(200, 8), c.BVVal(100, 8)
	tests := []struct {
		name  string
		term  Term
		want  uint64
		width uint
	}{
		{"add wraps", c.BVAdd(a8, b8), 44, 8},
		{"sub wraps", c.BVSub(b8, a8), 156, 8},
		{"mul", c.BVMul(c.BVVal(16, 8), c.BVVal(17, 8)), 16, 8},
		{"neg literal", c.BVVal(-1, 8), 255, 8},
		{"udiv", c.BVUDiv(a8, c.BVVal(3, 8)), 66, 8},
		{"urem", c.BVURem(a8, c.BVVal(3, 8)), 2, 8},
		{"sdiv", c.BVSDiv(c.BVVal(-7, 8), c.BVVal(2, 8)), 253, 8},
		{"srem", c.BVSRem(c.BVVal(-7, 8), c.BVVal(2, 8)), 255, 8},
		{"smod", c.BVSMod(c.BVVal(-7, 8), c.BVVal(2, 8)), 1, 8},
		{"and", c.BVAnd(c.BVVal(0xF0, 8), c.BVVal(0x3C, 8)), 0x30, 8},
		{"or", c.BVOr(c.BVVal(0xF0, 8), c.BVVal(0x3C, 8)), 0xFC, 8},
		{"xor", c.BVXor(c.BVVal(0xF0, 8), c.BVVal(0x3C, 8)), 0xCC, 8},
		{"not", c.BVNot(c.BVVal(0xF0, 8)), 0x0F, 8},
		{"neg", c.BVNeg(c.BVVal(1, 8)), 0xFF, 8},
		{"shl", c.BVShl(c.BVVal(0x81, 8), c.BVVal(1, 8)), 0x02, 8},
		{"lshr", c.BVLShr(c.BVVal(0x80, 8), c.BVVal(7, 8)), 1, 8},
		{"ashr", c.BVAShr(c.BVVal(0x80, 8), c.BVVal(7, 8)), 0xFF, 8},
		{"concat", c.Concat(c.BVVal(0xAB, 8), c.BVVal(0xCD, 8)), 0xABCD, 16},
		{"extract", c.Extract(11, 4, c.BVVal(0xABCD, 16)), 0xBC, 8},
		{"zero ext", c.ZeroExt(8, c.BVVal(0x80, 8)), 0x0080, 16},
		{"sign ext", c.SignExt(8, c.BVVal(0x80, 8)), 0xFF80, 16},
		{"int2bv", c.Int2BV(8, c.IntVal(-2)), 254, 8},
		{"64 bit", c.BVValUint(math.MaxUint64, 64), math.MaxUint64, 64},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if s := tc.term.Sort(); s != BVSort(tc.width) {
				t.Fatalf("sort %v, want %v", s, BVSort(tc.width))
			}
			v := c.BV("v_"+tc.name, tc.width)
			s := c.NewSolverFor("QF_BV")
			s.Assert(c.Eq(v, tc.term))
			if r := s.Check(); r != Sat {
				t.Fatalf("Check() = %v", r)
			}
			if got, ok := s.Model().BV(v); !ok || got != tc.want {
				t.Fatalf("got %#x (ok=%v), want %#x", got, ok, tc.want)
			}
		})
	}
	preds := []struct {
		name string
		term Term
		want bool
	}{
		{"ult", c.BVUlt(b8, a8), true},
		{"ule", c.BVUle(a8, a8), true},
		{"ugt", c.BVUgt(b8, a8), false},
		{"uge", c.BVUge(a8, b8), true},
		{"slt (200 is negative)", c.BVSlt(a8, b8), true},
		{"sle", c.BVSle(b8, a8), false},
		{"sgt", c.BVSgt(b8, a8), true},
		{"sge", c.BVSge(a8, b8), false},
		{"bv2int unsigned", c.Eq(c.BV2Int(a8, false), c.IntVal(200)), true},
		{"bv2int signed", c.Eq(c.BV2Int(a8, true), c.IntVal(-56)), true},
	}
	for _, tc := range preds {
		t.Run(tc.name, func(t *testing.T) {
			if got := c.Simplify(tc.term); !got.Equal(c.BoolVal(tc.want)) {
				t.Fatalf("simplified to %v, want %v", got, tc.want)
			}
		})
	}
	// Solve: 3x = 9 (mod 256) with x odd has the unique solution 3.
	x := c.BV("x", 8)
	s := c.NewSolver()
	s.Assert(c.Eq(c.BVMul(c.BVVal(3, 8), x), c.BVVal(9, 8)))
	if s.Check() != Sat {
		t.Fatal("not sat")
	}
	if v, _ := s.Model().BV(x); v != 3 {
		t.Fatalf("x = %d", v)
	}
	// A 128-bit value does not fit in a uint64.
	s.Reset()
	w := c.BV("w", 128)
	s.Assert(c.Eq(w, c.Concat(c.BVVal(1, 64), c.BVVal(0, 64))))
	if s.Check() != Sat {
		t.Fatal("not sat")
	}
	if _, ok := s.Model().BV(w); ok {
		t.Fatal("128-bit value reported as fitting")
	}
}

func TestPushPop(t *testing.T) {
	c := newCtx(t)
	x := c.Int("x")
	s := c.NewSolver()
	s.Assert(c.Gt(x, c.IntVal(0)))
	steps := []struct {
		op     string
		arg    Term
		n      int
		want   Result
		scopes int
	}{
		{op: "check", want: Sat},
		{op: "push", scopes: 1},
		{op: "assert", arg: c.Lt(x, c.IntVal(0)), scopes: 1},
		{op: "check", want: Unsat, scopes: 1},
		{op: "push", scopes: 2},
		{op: "push", scopes: 3},
		{op: "assert", arg: c.Eq(x, c.IntVal(5)), scopes: 3},
		{op: "pop", n: 3, scopes: 0},
		{op: "check", want: Sat},
		{op: "push", scopes: 1},
		{op: "assert", arg: c.Eq(x, c.IntVal(5)), scopes: 1},
		{op: "check", want: Sat, scopes: 1},
		{op: "pop", n: 0, scopes: 1},
		{op: "pop", n: 1, scopes: 0},
		{op: "check", want: Sat},
	}
	for i, st := range steps {
		switch st.op {
		case "check":
			if r := s.Check(); r != st.want {
				t.Fatalf("step %d: Check() = %v, want %v", i, r, st.want)
			}
		case "push":
			s.Push()
		case "pop":
			s.Pop(st.n)
		case "assert":
			s.Assert(st.arg)
		}
		if n := s.NumScopes(); n != st.scopes {
			t.Fatalf("step %d (%s): NumScopes() = %d, want %d", i, st.op, n, st.scopes)
		}
	}
	if m := s.Model(); m == nil {
		t.Fatal("no model after sat")
	}
	s.Push()
	if m := s.Model(); m != nil {
		t.Fatal("model survives Push")
	}
	if e := mustPanic(t, func() { s.Pop(2) }); e.Code != InvalidArg {
		t.Fatalf("code %v", e.Code)
	}
	mustPanic(t, func() { s.Pop(-1) })
	s.Assert(c.False())
	s.Reset()
	if s.NumScopes() != 0 || s.Check() != Sat {
		t.Fatal("Reset did not clear the solver")
	}
}

func TestAssumptionsAndCores(t *testing.T) {
	c := newCtx(t)
	x := c.Int("x")
	a1, a2, a3, a4 := c.Bool("a1"), c.Bool("a2"), c.Bool("a3"), c.Bool("a4")
	s := c.NewSolver()
	s.Assert(
		c.Implies(a1, c.Gt(x, c.IntVal(10))),
		c.Implies(a2, c.Lt(x, c.IntVal(5))),
		c.Implies(a3, c.Eq(x, c.IntVal(7))),
		c.Implies(a4, c.Ge(x, c.IntVal(0))),
	)
	tests := []struct {
		name string
		as   []Term
		want Result
		core []string // names that must be in the core (exactly)
	}{
		{"none", nil, Sat, nil},
		{"a1 a4", []Term{a1, a4}, Sat, nil},
		{"a1 a2", []Term{a1, a2, a4}, Unsat, []string{"a1", "a2"}},
		{"a2 a3", []Term{a4, a3, a2}, Unsat, []string{"a2", "a3"}},
		{"negated", []Term{c.Not(a1), c.Not(a2), a3}, Sat, nil},
		{"formula assumption", []Term{c.Lt(x, c.IntVal(0)), a4}, Unsat, []string{"(< x 0)", "a4"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := s.CheckAssumptions(tc.as...)
			if r != tc.want {
				t.Fatalf("CheckAssumptions = %v, want %v (%s)", r, tc.want, s.ReasonUnknown())
			}
			core := s.UnsatCore()
			if r != Unsat {
				if core != nil {
					t.Fatalf("core %v after %v", core, r)
				}
				return
			}
			var names []string
			for _, t := range core {
				names = append(names, t.String())
			}
			got := strings.Join(sortStrings(names), " ")
			if want := strings.Join(sortStrings(tc.core), " "); got != want {
				t.Fatalf("core = %q, want %q", got, want)
			}
			// The core itself is unsatisfiable with the assertions.
			if r := s.CheckAssumptions(core...); r != Unsat {
				t.Fatalf("core is %v", r)
			}
		})
	}
	// Assertions alone unsatisfiable: empty core.
	s.Push()
	s.Assert(c.False())
	if r := s.CheckAssumptions(a1); r != Unsat {
		t.Fatal(r)
	}
	if core := s.UnsatCore(); core == nil || len(core) != 0 {
		t.Fatalf("core = %v, want empty", core)
	}
	s.Pop(1)
	// A non-Boolean assumption is reported, not panicked.
	if r := s.CheckAssumptions(x); r != Unknown || s.ReasonUnknown() == "" {
		t.Fatalf("CheckAssumptions(int) = %v, %q", r, s.ReasonUnknown())
	}
}

func sortStrings(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestModel(t *testing.T) {
	c := newCtx(t)
	p, q, x, y, b := c.Bool("p"), c.Bool("q"), c.Int("x"), c.Int("y"), c.BV("b", 16)
	s := c.NewSolver()
	s.Assert(p, c.Eq(x, c.IntVal(42)), c.Eq(b, c.BVVal(-2, 16)))
	if s.Check() != Sat {
		t.Fatal("not sat")
	}
	m := s.Model()
	s.Assert(c.False()) // the model survives changes of the solver
	if s.Model() != nil {
		t.Fatal("Model() after Assert")
	}
	tests := []struct {
		name string
		eval func() (any, bool)
		want any
		ok   bool
	}{
		{"bool", func() (any, bool) { return m.Bool(p) }, true, true},
		{"bool completion", func() (any, bool) { return m.Bool(q) }, false, true},
		{"bool formula", func() (any, bool) { return m.Bool(c.And(p, c.Gt(x, c.IntVal(40)))) }, true, true},
		{"int", func() (any, bool) { return m.Int(x) }, int64(42), true},
		{"int term", func() (any, bool) { return m.Int(c.Mul(x, c.IntVal(2))) }, int64(84), true},
		{"int completion", func() (any, bool) { return m.Int(y) }, int64(0), true},
		{"int of bool", func() (any, bool) { return m.Int(p) }, int64(0), false},
		{"bool of int", func() (any, bool) { return m.Bool(x) }, false, false},
		{"bv", func() (any, bool) { return m.BV(b) }, uint64(0xFFFE), true},
		{"real of int", func() (any, bool) { n, d, ok := m.Real(x); return [2]int64{n, d}, ok }, [2]int64{42, 1}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := tc.eval()
			if ok != tc.ok || (ok && got != tc.want) {
				t.Fatalf("got %v (ok=%v), want %v (ok=%v)", got, ok, tc.want, tc.ok)
			}
		})
	}
	if v, ok := m.Eval(c.Add(x, c.IntVal(1))); !ok || v.String() != "43" {
		t.Fatalf("Eval = %v, %v", v, ok)
	}
	if str := m.String(); !strings.Contains(str, "42") {
		t.Fatalf("Model.String() = %q", str)
	}
	var nilModel *Model
	if _, ok := nilModel.Bool(p); ok {
		t.Fatal("nil model evaluates")
	}
	if _, ok := nilModel.Int(x); ok || nilModel.String() != "<nil>" {
		t.Fatal("nil model evaluates")
	}
}

func TestTerms(t *testing.T) {
	c := newCtx(t)
	x1, x2 := c.Int("x"), c.Int("x")
	if !x1.Equal(x2) || x1.ID() != x2.ID() {
		t.Fatal("hash-consing lost")
	}
	if x1.Equal(c.Real("x")) || x1.Equal(Term{}) {
		t.Fatal("different terms Equal")
	}
	tests := []struct {
		term Term
		str  string
		sort Sort
	}{
		{c.True(), "true", BoolSort()},
		{c.Not(c.Bool("p")), "(not p)", BoolSort()},
		{c.Add(x1, c.IntVal(-3)), "(+ x (- 3))", IntSort()},
		{c.RealVal(1, 2), "(/ 1.0 2.0)", RealSort()},
		{c.BVVal(10, 8), "#x0a", BVSort(8)},
		{c.BV("b", 3), "b", BVSort(3)},
		{c.Const("odd name", IntSort()), "|odd name|", IntSort()},
		{c.Simplify(c.Add(c.IntVal(1), c.IntVal(2))), "3", IntSort()},
	}
	for _, tc := range tests {
		if got := tc.term.String(); got != tc.str {
			t.Errorf("String() = %q, want %q", got, tc.str)
		}
		if got := tc.term.Sort(); got != tc.sort {
			t.Errorf("%v: Sort() = %v, want %v", tc.term, got, tc.sort)
		}
	}
	if (Term{}).String() != "<nil>" || !(Term{}).IsZero() || x1.Context() != c {
		t.Fatal("zero Term")
	}
	if s := BVSort(32).String(); s != "(_ BitVec 32)" {
		t.Fatal(s)
	}
}

func TestProgrammingErrors(t *testing.T) {
	c := newCtx(t)
	other := newCtx(t)
	x, p := c.Int("x"), c.Bool("p")
	tests := []struct {
		name string
		f    func()
		code ErrorCode
	}{
		{"and of int", func() { c.And(p, x) }, Exception},
		{"not of int", func() { c.Not(x) }, Exception},
		{"add of bool", func() { c.Add(x, p) }, Exception},
		{"eq mismatch", func() { c.Eq(x, p) }, Exception},
		{"ite branches", func() { c.Ite(p, x, p) }, Exception},
		{"bv widths", func() { c.BVAdd(c.BV("a", 8), c.BV("b", 16)) }, Exception},
		{"bv of int", func() { c.BVUlt(x, x) }, Exception},
		{"extract range", func() { c.Extract(9, 0, c.BV("a", 8)) }, Exception},
		{"at most one of ints", func() { c.AtMostOne(x, x) }, Exception},
		{"zero term", func() { c.Not(Term{}) }, InvalidArg},
		{"other context", func() { c.And(p, other.Bool("p")) }, InvalidArg},
		{"bv width 0", func() { c.BV("z", 0) }, InvalidArg},
		{"bvval width 0", func() { c.BVVal(1, 0) }, InvalidArg},
		{"zero denominator", func() { c.RealVal(1, 0) }, InvalidArg},
		{"negative bound", func() { c.AtMost(-1, p) }, InvalidArg},
		{"bad sort", func() { c.Const("s", Sort{}) }, InvalidArg},
		{"assert int", func() { c.NewSolver().Assert(x) }, InvalidArg},
		{"unknown logic", func() { c.NewSolverFor("NOT_A_LOGIC") }, Exception},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := mustPanic(t, tc.f)
			if e.Code != tc.code {
				t.Fatalf("code %v, want %v (%v)", e.Code, tc.code, e)
			}
			var err error = e
			var target *Error
			if !errors.As(err, &target) || !strings.HasPrefix(err.Error(), "smt: ") {
				t.Fatalf("bad error %v", err)
			}
		})
	}
	// The context is still usable after recovered panics.
	s := c.NewSolver()
	s.Assert(c.Gt(x, c.IntVal(1)))
	if s.Check() != Sat {
		t.Fatal("context broken after errors")
	}
	if err := s.SetUintParam("no_such_param", 1); err == nil {
		t.Fatal("unknown parameter accepted")
	}
	if err := s.SetBoolParam("core.minimize", true); err != nil {
		t.Fatal(err)
	}
}

func TestClose(t *testing.T) {
	c := NewContext()
	x := c.Int("x")
	s := c.NewSolver()
	c.Close()
	c.Close() // idempotent
	c.Interrupt()
	if x.String() != "<closed>" {
		t.Fatal(x.String())
	}
	if e := mustPanic(t, func() { c.Int("y") }); e.Code != InvalidUsage {
		t.Fatal(e)
	}
	mustPanic(t, func() { s.Check() })
	mustPanic(t, func() { c.Not(x) })
}

// hardSolver returns a solver holding PHP(n+1, n), which takes CDCL
// solvers exponential time.
func hardSolver(c *Context, n int) *Solver {
	s := c.NewSolver()
	php(c, s, n, false)
	return s
}

func TestTimeout(t *testing.T) {
	c := newCtx(t)
	s := hardSolver(c, 11)
	s.SetTimeout(100)
	r := s.Check()
	if r != Unknown || s.ReasonUnknown() != "timeout" {
		t.Fatalf("Check() = %v (%q)", r, s.ReasonUnknown())
	}
	// The context and solver stay usable; removing the timeout works.
	s.SetTimeout(0)
	s2 := c.NewSolver()
	s2.Assert(c.Bool("p"))
	if s2.Check() != Sat {
		t.Fatal("context unusable after timeout")
	}
	if st := s.Statistics(); len(st) == 0 || s.StatisticsString() == "" {
		t.Fatal("no statistics")
	}
}

func TestInterrupt(t *testing.T) {
	c := newCtx(t)
	c.Interrupt() // nothing running: no effect
	s := hardSolver(c, 11)
	// Interrupted again and again until the check returns: an interrupt
	// that comes before the check starts is lost, and on a loaded
	// machine the check may start after any fixed delay.
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
				c.Interrupt()
			}
		}
	}()
	r := s.Check()
	close(stop)
	<-done
	if r != Unknown {
		t.Fatalf("Check() = %v", r)
	}
	// Interrupts are not sticky.
	s2 := c.NewSolver()
	s2.Assert(c.Bool("p"))
	if s2.Check() != Sat {
		t.Fatal("context unusable after interrupt")
	}
}

func TestCheckContext(t *testing.T) {
	c := newCtx(t)
	s := hardSolver(c, 11)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if r := s.CheckContext(ctx); r != Unknown || s.ReasonUnknown() != "canceled" {
		t.Fatalf("CheckContext = %v (%q)", r, s.ReasonUnknown())
	}
	// Already canceled: returns at once.
	if r := s.CheckContext(ctx); r != Unknown {
		t.Fatal(r)
	}
	// Not canceled: normal result.
	s2 := c.NewSolver()
	s2.Assert(c.Bool("p"))
	if r := s2.CheckContext(context.Background()); r != Sat {
		t.Fatal(r)
	}
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	if r := s2.CheckContext(ctx2); r != Sat {
		t.Fatal(r)
	}
}

func TestParallelContexts(t *testing.T) {
	const workers = 8
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			c := NewContext()
			defer c.Close()
			for i := 0; i < 10; i++ {
				x, y := c.Int("x"), c.Int("y")
				s := c.NewSolver()
				s.Assert(c.Eq(c.Add(x, y), c.IntVal(int64(w*100+i))), c.Eq(c.Sub(x, y), c.IntVal(int64(i))))
				if r := s.Check(); r != Sat {
					errs <- fmt.Errorf("worker %d: %v", w, r)
					return
				}
				vx, _ := s.Model().Int(x)
				vy, _ := s.Model().Int(y)
				if vx+vy != int64(w*100+i) || vx-vy != int64(i) {
					// No integer solution exists when the parity differs.
					errs <- fmt.Errorf("worker %d: x=%d y=%d", w, vx, vy)
					return
				}
				_ = s.Statistics()
				if i%3 == 0 {
					runtime.GC() // exercise concurrent cleanups
				}
			}
			// A hard problem interrupted from another goroutine, again
			// and again until the check returns: an interrupt that comes
			// before the check starts is lost (on a loaded machine the
			// check may start late).
			s := hardSolver(c, 10)
			stop := make(chan struct{})
			go func() {
				for {
					select {
					case <-stop:
						return
					case <-time.After(20 * time.Millisecond):
						c.Interrupt()
					}
				}
			}()
			r := s.Check()
			close(stop)
			if r != Unknown {
				errs <- fmt.Errorf("worker %d: PHP(10) = %v, want Unknown (interrupted)", w, r)
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func rssBytes(t testing.TB) uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skip("no /proc/self/statm")
	}
	f := strings.Fields(string(b))
	pages, _ := strconv.ParseUint(f[1], 10, 64)
	return pages * uint64(os.Getpagesize())
}

// settle lets pending cleanups run and makes c drain its release queue.
func settle(c *Context) {
	for i := 0; i < 5; i++ {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
		if c != nil {
			c.True()
		}
	}
}

// churn builds one context with ~150 Boolean terms; with solve it also
// creates a solver, checks it and queries a model.
func churn(i int, solve bool) {
	c := NewContext()
	defer c.Close()
	ps := make([]Term, 0, 50)
	for j := 0; j < 50; j++ {
		p := c.Bool("p" + strconv.Itoa(j%10))
		ps = append(ps, c.Or(c.Not(p), c.Bool("q")))
	}
	f := c.And(ps...)
	if !solve {
		return
	}
	x := c.Int("x")
	s := c.NewSolver()
	s.Assert(f, c.Eq(x, c.IntVal(int64(i))))
	if s.Check() == Sat {
		s.Model().Int(x)
	}
}

// TestNoLeakContexts creates and closes 300 contexts (every 50th one
// also solving) and checks that neither Z3's heap nor the RSS grows;
// BenchmarkContextChurn does the same with 1000 contexts per iteration.
// (Closing a context that still has live terms costs Z3 ~1.5 ms, which
// dominates.) The goroutine is locked to one OS thread: glibc gives
// every thread that calls Z3 its own malloc arena, which would add
// per-thread (bounded, but noisy) RSS growth. RSS is not checked under
// the race detector, whose shadow memory grows with the Go heap.
func TestNoLeakContexts(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	n := 300
	if testing.Short() {
		n = 100
	}
	for i := 0; i < 50; i++ {
		churn(i, i%10 == 0)
	}
	settle(nil)
	rss0, z0 := rssBytes(t), AllocatedBytes()
	for i := 0; i < n; i++ {
		churn(i, i%50 == 0)
	}
	settle(nil)
	rss1, z1 := rssBytes(t), AllocatedBytes()
	t.Logf("%d contexts: RSS %d -> %d KiB, Z3 heap %d -> %d KiB", n, rss0>>10, rss1>>10, z0>>10, z1>>10)
	if z1 > z0+1<<20 {
		t.Errorf("Z3 heap grew by %d KiB", (z1-z0)>>10)
	}
	if !raceEnabled && rss1 > rss0+16<<20 {
		t.Errorf("RSS grew by %d MiB", (rss1-rss0)>>20)
	}
}

// drainCleanups runs the garbage collector and lets the cleanups of
// unreachable terms run, draining them into c, until done or a bounded
// number of rounds (not a clock: a slow machine gets the same rounds).
func drainCleanups(c *Context, done func() bool) {
	for round := 0; round < 5000 && !done(); round++ {
		runtime.GC()
		time.Sleep(time.Millisecond)
		c.True() // drains; the term it creates is not counted
	}
}

// TestNoLeakTerms discards 140000 distinct terms in one context and
// checks that their references are released and Z3's heap stays flat.
func TestNoLeakTerms(t *testing.T) {
	c := newCtx(t)
	x := c.Int("x")
	var created uint64
	// waitFreed runs the GC until the cleanups of all discarded terms have
	// been drained (or gives up after a few seconds).
	waitFreed := func() {
		drainCleanups(c, func() bool { return c.nfreed >= created })
	}
	build := func(base int) {
		for j := 0; j < 20000; j++ {
			c.Mul(c.Add(x, c.IntVal(int64(base+j))), c.IntVal(int64(j)))
			created += 4
			if j%5000 == 4999 {
				waitFreed() // bound the live terms, hence Z3's peak heap
			}
		}
	}
	// Warm up: Z3's allocators keep their high-water mark.
	build(0)
	build(1000000)
	z0 := AllocatedBytes()
	for round := 2; round <= 6; round++ {
		build(round * 1000000) // distinct terms every round
	}
	z1 := AllocatedBytes()
	t.Logf("Z3 heap %d -> %d KiB; %d of %d references released", z0>>10, z1>>10, c.nfreed, created)
	if c.nfreed < created {
		t.Errorf("released %d of %d references", c.nfreed, created)
	}
	if z1 > z0+2<<20 {
		t.Errorf("Z3 heap grew by %d KiB: terms are not released", (z1-z0)>>10)
	}
}

// TestCloseReleases checks that Close hands back every reference Go still
// holds, in both kinds of context, and that an arena context never
// releases anything before Close.
func TestCloseReleases(t *testing.T) {
	for _, tc := range []struct {
		name  string
		mk    func() *Context
		arena bool
	}{
		{"cleanups", NewContext, false},
		{"arena", NewArenaContext, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.mk()
			x := c.Int("x")
			s := c.NewSolver()
			var keep []Term
			for i := 0; i < 2000; i++ {
				t := c.Lt(x, c.IntVal(int64(i)))
				if i%2 == 0 {
					keep = append(keep, t)
				}
			}
			s.Assert(c.Or(keep...))
			if r := s.Check(); r != Sat {
				t.Fatalf("check: %v", r)
			}
			drainCleanups(c, func() bool { return tc.arena || c.nfreed > 0 })
			live := 0
			for _, o := range c.live {
				if o.ptr != nil {
					live++
				}
			}
			if tc.arena && c.nfreed != 0 {
				t.Errorf("arena context released %d objects before Close", c.nfreed)
			}
			if !tc.arena && c.nfreed == 0 {
				t.Errorf("no unreachable term released")
			}
			if live < len(keep) {
				t.Errorf("%d live objects recorded, want at least %d", live, len(keep))
			}
			runtime.KeepAlive(keep)
			c.Close()
			if c.live != nil {
				t.Errorf("live table kept after Close")
			}
			c.Close() // idempotent
		})
	}
}
