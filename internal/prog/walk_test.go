package prog

import (
	"reflect"
	"testing"
)

// TestInstrWalkers covers every instruction kind: the expressions it
// evaluates, the registers it reads and writes, the locations it names
// and the memory access it makes.
func TestInstrWalkers(t *testing.T) {
	x, y := Addr("x"), Addr("y")
	r := func(n string) Expr { return Reg{Name: n} }
	add := func(a, b Expr) Expr { return Bin{Op: OpAdd, X: a, Y: b} }
	eq := func(a, b Expr) Expr { return Bin{Op: OpEq, X: a, Y: b} }
	tests := []struct {
		name        string
		in          Instr
		exprs       []Expr
		uses, defs  []string
		addrs       []Value
		addr        Expr // nil: not a read or write
		read, write bool
	}{
		{name: "load", in: Load{Dst: "r1", Addr: add(r("a"), x), Tags: []string{"A"}},
			exprs: []Expr{add(r("a"), x)}, uses: []string{"a"}, defs: []string{"r1"},
			addrs: []Value{AddrValue("x")}, addr: add(r("a"), x), read: true},
		{name: "load without destination", in: Load{Addr: x},
			exprs: []Expr{x}, addrs: []Value{AddrValue("x")}, addr: x, read: true},
		{name: "store", in: Store{Addr: r("p"), Val: add(r("v"), r("p"))},
			exprs: []Expr{r("p"), add(r("v"), r("p"))}, uses: []string{"p", "v"},
			addr: r("p"), write: true},
		{name: "rmw with condition", in: RMW{Dst: "r2", Addr: x, New: add(Old{}, r("n")), Cond: eq(Old{}, r("c"))},
			exprs: []Expr{x, add(Old{}, r("n")), eq(Old{}, r("c"))}, uses: []string{"n", "c"}, defs: []string{"r2"},
			addrs: []Value{AddrValue("x")}, addr: x, read: true, write: true},
		{name: "rmw without condition", in: RMW{Addr: y, New: Int(1)},
			exprs: []Expr{y, Int(1)}, addrs: []Value{AddrValue("y")}, addr: y, read: true, write: true},
		{name: "store-conditional", in: StoreCond{Addr: x, Val: y, Status: "s", OkVal: IntValue(0), FailVal: IntValue(1)},
			exprs: []Expr{x, y}, defs: []string{"s"},
			addrs: []Value{AddrValue("x"), AddrValue("y")}, addr: x, write: true},
		{name: "fence", in: Fence{Tags: []string{"MFENCE"}}},
		{name: "assign", in: Assign{Dst: "r4", Val: Un{Op: OpNeg, X: r("r4")}},
			exprs: []Expr{Un{Op: OpNeg, X: r("r4")}}, uses: []string{"r4"}, defs: []string{"r4"}},
		{name: "assign of an address", in: Assign{Dst: "p", Val: Const{V: Value{Loc: "x", Int: 4}}},
			exprs: []Expr{Const{V: Value{Loc: "x", Int: 4}}}, defs: []string{"p"}, addrs: []Value{{Loc: "x", Int: 4}}},
		{name: "conditional jump", in: Jump{Cond: eq(r("a"), x), Target: "L"},
			exprs: []Expr{eq(r("a"), x)}, uses: []string{"a"}, addrs: []Value{AddrValue("x")}},
		{name: "jump", in: Jump{Target: "L"}},
		{name: "label", in: Label{Name: "L"}},
		{name: "havoc", in: Havoc{Dst: "h"}, defs: []string{"h"}},
		{name: "located", in: Located{Op: LocTryLock, Addr: x, Dst: "ok"},
			exprs: []Expr{x}, defs: []string{"ok"}, addrs: []Value{AddrValue("x")}},
		{name: "located event", in: Located{Op: LocEvent, Addr: r("q"), Tags: []string{"Sync-srcu"}},
			exprs: []Expr{r("q")}, uses: []string{"q"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Exprs(tc.in); !reflect.DeepEqual(got, tc.exprs) {
				t.Errorf("Exprs = %v, want %v", got, tc.exprs)
			}
			if got := Uses(tc.in); !reflect.DeepEqual(got, tc.uses) {
				t.Errorf("Uses = %v, want %v", got, tc.uses)
			}
			if got := Defs(tc.in); !reflect.DeepEqual(got, tc.defs) {
				t.Errorf("Defs = %v, want %v", got, tc.defs)
			}
			if got := AddrConsts(tc.in); !reflect.DeepEqual(got, tc.addrs) {
				t.Errorf("AddrConsts = %v, want %v", got, tc.addrs)
			}
			addr, rd, wr, ok := Access(tc.in)
			if ok != (tc.addr != nil) || !reflect.DeepEqual(addr, tc.addr) || rd != tc.read || wr != tc.write {
				t.Errorf("Access = %v, %v, %v, %v; want %v, %v, %v", addr, rd, wr, ok, tc.addr, tc.read, tc.write)
			}
			if a, ok := AddrOf(tc.in); ok != (tc.addr != nil) || !reflect.DeepEqual(a, tc.addr) {
				t.Errorf("AddrOf = %v, %v; want %v", a, ok, tc.addr)
			}
			if a, ok := WriteAddr(tc.in); ok != tc.write || tc.write && !reflect.DeepEqual(a, tc.addr) {
				t.Errorf("WriteAddr = %v, %v; want %v, %v", a, ok, tc.addr, tc.write)
			}
		})
	}
}

func TestExprRegsAndWalk(t *testing.T) {
	e := Bin{Op: OpAdd, X: Reg{Name: "b"}, Y: Bin{Op: OpMul, X: Reg{Name: "a"}, Y: Un{Op: OpNeg, X: Reg{Name: "b"}}}}
	if got, want := ExprRegs(e), []string{"b", "a"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ExprRegs = %v, want %v", got, want)
	}
	if got := ExprRegs(nil); got != nil {
		t.Errorf("ExprRegs(nil) = %v", got)
	}
	var kinds []string
	WalkExpr(e, func(e Expr) {
		switch e.(type) {
		case Bin:
			kinds = append(kinds, "bin")
		case Un:
			kinds = append(kinds, "un")
		case Reg:
			kinds = append(kinds, "reg")
		}
	})
	if want := []string{"bin", "reg", "bin", "reg", "un", "reg"}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("WalkExpr order %v, want %v", kinds, want)
	}
}

func TestReplaceOld(t *testing.T) {
	r := Reg{Name: "r"}
	for _, tc := range []struct{ in, want Expr }{
		{Old{}, r},
		{Bin{Op: OpAdd, X: Old{}, Y: Int(1)}, Bin{Op: OpAdd, X: r, Y: Int(1)}},
		{Un{Op: OpBNot, X: Bin{Op: OpEq, X: Old{}, Y: Old{}}}, Un{Op: OpBNot, X: Bin{Op: OpEq, X: r, Y: r}}},
		{Reg{Name: "s"}, Reg{Name: "s"}},
	} {
		if got := ReplaceOld(tc.in, r); got != tc.want {
			t.Errorf("ReplaceOld(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
