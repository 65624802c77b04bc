package compile

import (
	"reflect"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

// TestTripCounts checks which loops get a constant trip count: counted
// loops (with branches on memory in their body, nested in counted loops),
// and not loops whose exit depends on memory or on an unknown entry.
func TestTripCounts(t *testing.T) {
	reg := func(n string) prog.Expr { return prog.Reg{Name: n} }
	bin := func(op prog.Op, x, y prog.Expr) prog.Expr { return prog.Bin{Op: op, X: x, Y: y} }
	inc := func(r string) prog.Instr { return prog.Assign{Dst: r, Val: bin(prog.OpAdd, reg(r), prog.Int(1))} }
	st := prog.Store{Addr: prog.Addr("x"), Val: prog.Int(1)}
	for _, c := range []struct {
		name string
		code []prog.Instr
		want map[string]int
	}{
		{"for i < 3", []prog.Instr{
			prog.Assign{Dst: "i", Val: prog.Int(0)},
			prog.Label{Name: "L"}, st, inc("i"),
			prog.Jump{Cond: bin(prog.OpLt, reg("i"), prog.Int(3)), Target: "L"},
		}, map[string]int{"L": 3}},
		{"branch on memory in the body", []prog.Instr{
			prog.Assign{Dst: "i", Val: prog.Int(0)},
			prog.Label{Name: "L"},
			prog.Load{Dst: "r", Addr: prog.Addr("x")},
			prog.Jump{Cond: reg("r"), Target: "skip"},
			st,
			prog.Label{Name: "skip"}, inc("i"),
			prog.Jump{Cond: bin(prog.OpLt, reg("i"), prog.Int(2)), Target: "L"},
		}, map[string]int{"L": 2}},
		{"exit on memory", []prog.Instr{
			prog.Label{Name: "L"},
			prog.Load{Dst: "r", Addr: prog.Addr("x")},
			prog.Jump{Cond: reg("r"), Target: "L"},
		}, map[string]int{}},
		{"bound read from memory", []prog.Instr{
			prog.Load{Dst: "n", Addr: prog.Addr("n")},
			prog.Assign{Dst: "i", Val: prog.Int(0)},
			prog.Label{Name: "L"}, st, inc("i"),
			prog.Jump{Cond: bin(prog.OpLt, reg("i"), reg("n")), Target: "L"},
		}, map[string]int{}},
		{"nested counted loops", []prog.Instr{
			prog.Assign{Dst: "i", Val: prog.Int(0)},
			prog.Label{Name: "O"},
			prog.Assign{Dst: "j", Val: prog.Int(0)},
			prog.Label{Name: "I"}, st, inc("j"),
			prog.Jump{Cond: bin(prog.OpLt, reg("j"), prog.Int(4)), Target: "I"},
			inc("i"),
			prog.Jump{Cond: bin(prog.OpLt, reg("i"), prog.Int(2)), Target: "O"},
		}, map[string]int{"O": 2, "I": 4}},
		{"inner loop depends on the outer counter", []prog.Instr{
			prog.Assign{Dst: "i", Val: prog.Int(0)},
			prog.Label{Name: "O"},
			prog.Assign{Dst: "j", Val: prog.Int(0)},
			prog.Label{Name: "I"}, st, inc("j"),
			prog.Jump{Cond: bin(prog.OpLt, reg("j"), reg("i")), Target: "I"},
			inc("i"),
			prog.Jump{Cond: bin(prog.OpLt, reg("i"), prog.Int(2)), Target: "O"},
		}, map[string]int{"O": 2}},
		{"spin loop nested in a counted loop", []prog.Instr{
			prog.Assign{Dst: "i", Val: prog.Int(0)},
			prog.Label{Name: "O"},
			prog.Label{Name: "S"},
			prog.Load{Dst: "r", Addr: prog.Addr("x")},
			prog.Jump{Cond: reg("r"), Target: "S"},
			inc("i"),
			prog.Jump{Cond: bin(prog.OpLt, reg("i"), prog.Int(3)), Target: "O"},
		}, map[string]int{"O": 3}},
		{"entered in the middle", []prog.Instr{
			prog.Assign{Dst: "i", Val: prog.Int(0)},
			prog.Jump{Target: "M"},
			prog.Label{Name: "L"}, st,
			prog.Label{Name: "M"}, inc("i"),
			prog.Jump{Cond: bin(prog.OpLt, reg("i"), prog.Int(3)), Target: "L"},
		}, map[string]int{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := TripCounts(&prog.Thread{Name: "P0", Code: c.code})
			if got == nil {
				got = map[string]int{}
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("TripCounts = %v, want %v", got, c.want)
			}
		})
	}
}

// TestUnrollThreadCounts checks that a counted loop is unrolled to its
// count whatever the bound: no path reaches the cut.
func TestUnrollThreadCounts(t *testing.T) {
	th := &prog.Thread{Name: "P0", Code: []prog.Instr{
		prog.Assign{Dst: "i", Val: prog.Int(0)},
		prog.Label{Name: "L"},
		prog.Store{Addr: prog.Addr("x"), Val: prog.Reg{Name: "i"}},
		prog.Assign{Dst: "i", Val: prog.Bin{Op: prog.OpAdd, X: prog.Reg{Name: "i"}, Y: prog.Int(1)}},
		prog.Jump{Cond: prog.Bin{Op: prog.OpLt, X: prog.Reg{Name: "i"}, Y: prog.Int(3)}, Target: "L"},
	}}
	for _, k := range []int{1, 2, 5} {
		u, err := UnrollThreadCounts(th, k, TripCounts(th))
		if err != nil {
			t.Fatal(err)
		}
		stores := 0
		for _, in := range u.Code {
			if _, ok := in.(prog.Store); ok {
				stores++
			}
		}
		if stores != 3 {
			t.Errorf("bound %d: %d stores, want 3 (one per iteration)", k, stores)
		}
		// The path through the copies never reaches the cut: the copy
		// that would jump there has i = 3.
		if c := TripCounts(u); len(c) != 0 {
			t.Errorf("bound %d: the unrolled thread still has loops %v", k, c)
		}
	}
}
