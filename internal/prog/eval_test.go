package prog

import (
	"strings"
	"testing"
)

// TestApply covers every binary operator on integers, every rule on
// addresses, and the errors.
func TestApply(t *testing.T) {
	i := IntValue
	x, y := AddrValue("x"), AddrValue("y")
	x4 := Value{Loc: "x", Int: 4}
	tests := []struct {
		op   Op
		a, b Value
		want Value
		err  string // a part of the error; "" for none
	}{
		// Integers.
		{OpAdd, i(2), i(3), i(5), ""},
		{OpSub, i(2), i(3), i(-1), ""},
		{OpMul, i(-4), i(3), i(-12), ""},
		{OpDiv, i(7), i(2), i(3), ""},
		{OpDiv, i(-7), i(2), i(-3), ""}, // truncated, as Go
		{OpDiv, i(1), i(0), Value{}, "division by zero"},
		{OpMod, i(7), i(3), i(1), ""},
		{OpMod, i(-7), i(3), i(-1), ""},
		{OpMod, i(1), i(0), Value{}, "modulo by zero"},
		{OpAnd, i(6), i(3), i(2), ""},
		{OpOr, i(6), i(3), i(7), ""},
		{OpXor, i(6), i(3), i(5), ""},
		{OpShl, i(1), i(4), i(16), ""},
		{OpShl, i(1), i(64), i(1), ""}, // the shift is taken modulo 64
		{OpShr, i(-16), i(2), i(-4), ""},
		{OpShr, i(256), i(67), i(32), ""},
		{OpEq, i(2), i(2), i(1), ""},
		{OpEq, i(2), i(3), i(0), ""},
		{OpNe, i(2), i(3), i(1), ""},
		{OpLt, i(2), i(3), i(1), ""},
		{OpLt, i(3), i(3), i(0), ""},
		{OpLe, i(3), i(3), i(1), ""},
		{OpGt, i(3), i(2), i(1), ""},
		{OpGe, i(2), i(3), i(0), ""},
		{OpLAnd, i(2), i(5), i(1), ""},
		{OpLAnd, i(2), i(0), i(0), ""},
		{OpLOr, i(0), i(0), i(0), ""},
		{OpLOr, i(0), i(-1), i(1), ""},
		{OpNeg, i(1), i(2), Value{}, "not a binary operator"},
		{Op(99), i(1), i(2), Value{}, "not a binary operator"},
		// Addresses: equality.
		{OpEq, x, x, i(1), ""},
		{OpEq, x, y, i(0), ""},
		{OpEq, x, x4, i(0), ""},
		{OpEq, x, i(0), i(0), ""},
		{OpNe, x, y, i(1), ""},
		{OpNe, x4, x4, i(0), ""},
		// Offsets.
		{OpAdd, x, i(4), x4, ""},
		{OpAdd, i(4), x, x4, ""},
		{OpAdd, x4, i(-4), x, ""},
		{OpSub, x4, i(4), x, ""},
		{OpAdd, x, y, Value{}, "operator + on address"},
		{OpSub, i(4), x, Value{}, "operator - on address"},
		{OpSub, x, y, Value{}, "operator - on address"},
		{OpSub, x, x, i(0), ""},
		{OpSub, x4, x, i(4), ""},
		// herd's false dependencies and the absorbing zero.
		{OpXor, x, x, i(0), ""},
		{OpXor, x, i(0), x, ""},
		{OpXor, i(0), y, y, ""},
		{OpXor, x, y, Value{}, "operator ^ on address"},
		{OpXor, x, i(1), Value{}, "operator ^ on address"},
		{OpAnd, x, i(0), i(0), ""},
		{OpAnd, i(0), x, i(0), ""},
		{OpAnd, x, i(1), Value{}, "operator & on address"},
		{OpMul, x, i(0), i(0), ""},
		{OpMul, i(0), x, i(0), ""},
		{OpMul, x, i(2), Value{}, "operator * on address"},
		// Logic: an address is true.
		{OpLAnd, x, i(1), i(1), ""},
		{OpLAnd, x, i(0), i(0), ""},
		{OpLOr, i(0), x, i(1), ""},
		// No order, division or shift on addresses.
		{OpLt, x, y, Value{}, "operator < on address"},
		{OpDiv, x, i(1), Value{}, "operator / on address"},
		{OpShl, x, i(1), Value{}, "operator << on address"},
		{OpOr, i(0), x, Value{}, "operator | on address"},
	}
	for _, tc := range tests {
		got, err := Apply(tc.op, tc.a, tc.b)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Apply(%s, %v, %v) = %v, %v; want an error with %q", tc.op, tc.a, tc.b, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Apply(%s, %v, %v) = %v, %v; want %v", tc.op, tc.a, tc.b, got, err, tc.want)
		}
	}
}

func TestApplyUnary(t *testing.T) {
	x := AddrValue("x")
	tests := []struct {
		op   Op
		a    Value
		want Value
		err  bool
	}{
		{OpNot, IntValue(0), IntValue(1), false},
		{OpNot, IntValue(7), IntValue(0), false},
		{OpNot, x, IntValue(0), false},
		{OpNeg, IntValue(7), IntValue(-7), false},
		{OpBNot, IntValue(0), IntValue(-1), false},
		{OpNeg, x, Value{}, true},
		{OpBNot, x, Value{}, true},
		{OpAdd, IntValue(1), Value{}, true},
	}
	for _, tc := range tests {
		got, err := ApplyUnary(tc.op, tc.a)
		if (err != nil) != tc.err || !tc.err && got != tc.want {
			t.Errorf("ApplyUnary(%s, %v) = %v, %v; want %v (error %v)", tc.op, tc.a, got, err, tc.want, tc.err)
		}
	}
}

func TestTruthAndTotal(t *testing.T) {
	for _, tc := range []struct {
		v    Value
		want bool
	}{{IntValue(0), false}, {IntValue(-1), true}, {AddrValue("x"), true}, {Value{Loc: "x", Int: -4}, true}} {
		if Truth(tc.v) != tc.want {
			t.Errorf("Truth(%v) = %v", tc.v, !tc.want)
		}
	}
	for _, tc := range []struct {
		op   Op
		b    Value
		want bool
	}{{OpDiv, IntValue(0), true}, {OpMod, IntValue(0), true}, {OpDiv, IntValue(2), false}, {OpAdd, IntValue(0), false}, {OpDiv, AddrValue("x"), false}} {
		if DividesByZero(tc.op, tc.b) != tc.want {
			t.Errorf("DividesByZero(%s, %v) = %v", tc.op, tc.b, !tc.want)
		}
	}
	if v, err := ApplyTotal(OpDiv, IntValue(5), IntValue(0)); err != nil || v != IntValue(0) {
		t.Errorf("ApplyTotal 5/0 = %v, %v; want 0", v, err)
	}
	if v, err := ApplyTotal(OpMod, IntValue(5), IntValue(3)); err != nil || v != IntValue(2) {
		t.Errorf("ApplyTotal 5%%3 = %v, %v; want 2", v, err)
	}
	if _, err := ApplyTotal(OpLt, AddrValue("x"), IntValue(0)); err == nil {
		t.Errorf("ApplyTotal x<0: no error")
	}
	e := &DivisionByZeroError{At: "t.litmus:3:4: P0"}
	if e.Error() != "t.litmus:3:4: P0: division by zero in an execution the model allows" {
		t.Errorf("DivisionByZeroError: %q", e.Error())
	}
}

func TestValueAndLocValue(t *testing.T) {
	for _, tc := range []struct {
		v    Value
		want string
	}{{IntValue(-3), "-3"}, {AddrValue("x"), "x"}, {Value{Loc: "x", Int: 4}, "x+4"}} {
		if got := tc.v.String(); got != tc.want {
			t.Errorf("String(%#v) = %q, want %q", tc.v, got, tc.want)
		}
		if b, _ := tc.v.MarshalText(); string(b) != tc.want {
			t.Errorf("MarshalText(%#v) = %q, want %q", tc.v, b, tc.want)
		}
		if tc.v.IsAddr() {
			if got := LocValue(tc.want); got != tc.v {
				t.Errorf("LocValue(%q) = %#v, want %#v", tc.want, got, tc.v)
			}
		}
	}
	for _, tc := range []struct {
		name string
		want Value
	}{{"a+b", AddrValue("a+b")}, {"+4", AddrValue("+4")}, {"x+", AddrValue("x+")}, {"x+-2", Value{Loc: "x", Int: -2}}} {
		if got := LocValue(tc.name); got != tc.want {
			t.Errorf("LocValue(%q) = %#v, want %#v", tc.name, got, tc.want)
		}
	}
	if OpShl.String() != "<<" || OpBNot.String() != "~" || Op(99).String() != "op99" {
		t.Errorf("Op.String: %s %s %s", OpShl, OpBNot, Op(99))
	}
}

func TestPrinting(t *testing.T) {
	x := Addr("x")
	r := Reg{Name: "r1"}
	exprs := []struct {
		e    Expr
		want string
	}{
		{Int(3), "3"},
		{x, "x"},
		{r, "r1"},
		{Old{}, "old"},
		{Bin{Op: OpAdd, X: r, Y: Int(1)}, "(r1 + 1)"},
		{Un{Op: OpNot, X: r}, "!r1"},
		{nil, "<nil>"},
	}
	for _, tc := range exprs {
		if got := ExprString(tc.e); got != tc.want {
			t.Errorf("ExprString(%#v) = %q, want %q", tc.e, got, tc.want)
		}
	}
	instrs := []struct {
		in   Instr
		want string
	}{
		{Load{Dst: "r1", Addr: x, Tags: []string{"A"}}, "r1 = load.A [x]"},
		{Load{Dst: "r1", Addr: x, Part: true}, "+ r1 = load [x]"},
		{Store{Addr: x, Val: Int(1), Tags: []string{"L", "X"}}, "store.L.X [x] 1"},
		{RMW{Dst: "r2", Addr: x, New: Int(1), Cond: Bin{Op: OpEq, X: Old{}, Y: Int(0)}, RTags: []string{"X"}, WTags: []string{"X"}}, "r2 = rmw.X/.X [x] 1 if (old == 0)"},
		{StoreCond{Status: "s", Addr: x, Val: r, Tags: []string{"EX"}}, "s = storecond.EX [x] r1"},
		{Fence{Tags: []string{"MFENCE"}}, "fence.MFENCE"},
		{Assign{Dst: "r1", Val: Int(2)}, "r1 = 2"},
		{Jump{Target: "L"}, "goto L"},
		{Jump{Cond: r, Target: "L"}, "if r1 goto L"},
		{Label{Name: "L"}, "L:"},
		{Havoc{Dst: "h"}, "h = *"},
		{Located{Op: LocLock, Addr: x}, "lock [x]"},
		{Located{Op: LocTryLock, Addr: x, Dst: "ok"}, "ok = trylock [x]"},
		{Located{Op: LocEvent, Addr: x, Tags: []string{"Sync-srcu"}}, "event[Sync-srcu] [x]"},
	}
	for _, tc := range instrs {
		if got := InstrString(tc.in); got != tc.want {
			t.Errorf("InstrString(%#v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestThreadLabelsAndParts(t *testing.T) {
	th := &Thread{Name: "P0", Code: []Instr{Label{Name: "L"}, Jump{Target: "M"}, Label{Name: "M"}, Jump{Target: "L"}}}
	m, err := th.Labels()
	if err != nil || m["L"] != 0 || m["M"] != 2 || len(m) != 2 {
		t.Errorf("Labels = %v, %v", m, err)
	}
	for _, tc := range []struct {
		code []Instr
		want string
	}{
		{[]Instr{Label{Name: "L"}, Label{Name: "L"}}, "P0: label L defined twice"},
		{[]Instr{Jump{Target: "Z"}}, "P0: jump to undefined label Z"},
	} {
		th := &Thread{Name: "P0", Code: tc.code}
		if _, err := th.Labels(); err == nil || err.Error() != tc.want {
			t.Errorf("Labels of %v: %v, want %q", tc.code, err, tc.want)
		}
	}
	for _, tc := range []struct {
		in   Instr
		want bool
	}{{Load{Part: true}, true}, {Store{Part: true}, true}, {Load{}, false}, {RMW{}, false}, {Fence{}, false}} {
		if IsPart(tc.in) != tc.want {
			t.Errorf("IsPart(%#v) = %v", tc.in, !tc.want)
		}
	}
}
