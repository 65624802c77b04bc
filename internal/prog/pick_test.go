package prog

import "testing"

func TestPickAnalyses(t *testing.T) {
	r := func(n string) Expr { return Reg{Name: n} }
	pick := Assign{Dst: "a", Val: Pick(r("x"), r("c"))}
	for _, tc := range []struct {
		name        string
		code        []Instr
		has, stayIn bool
	}{
		{"none", []Instr{Assign{Dst: "a", Val: r("x")}, Store{Addr: r("a"), Val: Int(1)}}, false, true},
		{"unused", []Instr{pick, Assign{Dst: "b", Val: r("a")}}, true, true},
		{"used by a store", []Instr{pick, Assign{Dst: "b", Val: r("a")}, Store{Addr: Addr("x"), Val: r("b")}}, true, false},
		{"used by a branch", []Instr{pick, Jump{Cond: r("a"), Target: "L"}, Label{Name: "L"}}, true, false},
		{"read before", []Instr{Store{Addr: Addr("x"), Val: r("a")}, pick}, true, true},
		{"in an access", []Instr{RMW{Addr: Addr("x"), New: Pick(r("x"), Old{})}}, true, true},
		{"backward jump", []Instr{Label{Name: "L"}, pick, Jump{Cond: r("c"), Target: "L"}}, true, false},
	} {
		if got := HasPick(tc.code); got != tc.has {
			t.Errorf("%s: HasPick %v, want %v", tc.name, got, tc.has)
		}
		if got := PicksStayLocal(tc.code); got != tc.stayIn {
			t.Errorf("%s: PicksStayLocal %v, want %v", tc.name, got, tc.stayIn)
		}
	}
	if v, err := Apply(OpPick, IntValue(3), IntValue(7)); err != nil || v != IntValue(3) {
		t.Errorf("3 pick 7 = %v, %v; want 3", v, err)
	}
}
