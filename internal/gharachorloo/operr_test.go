package gharachorloo_test

import (
	"context"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/gharachorloo"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
)

// TestOperationOnAddress: an operation prog.Apply refuses on a value read
// (an address multiplied, negated) makes the run unsupported, naming the
// operation, as in the explicit and graph engines, rather than dropping
// the execution (issue #24: a C program said PASS in the explicit
// engine). The thread stores &x to y and reads y back: the read gives &x.
func TestOperationOnAddress(t *testing.T) {
	src := `C T
{ x=0; y=0; z=0; }
P0 (int* x, int* y) { *x = 1; }
exists (z=1)
`
	k := func(v int64) prog.Const { return prog.Const{V: prog.IntValue(v)} }
	r := func(n string) prog.Reg { return prog.Reg{Name: n} }
	y := prog.Const{V: prog.AddrValue("y")}
	z := prog.Const{V: prog.AddrValue("z")}
	head := []prog.Instr{
		prog.Store{Addr: y, Val: prog.Const{V: prog.AddrValue("x")}},
		prog.Load{Dst: "a", Addr: y},
	}
	for _, c := range []struct {
		name string
		code []prog.Instr
		want string // in the message; "" when the run must succeed
	}{
		{"branch-on-product", []prog.Instr{
			prog.Assign{Dst: "b", Val: prog.Bin{Op: prog.OpMul, X: r("a"), Y: k(3)}},
			prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: r("b"), Y: k(5)}, Target: "L"},
			prog.Store{Addr: z, Val: k(1)},
			prog.Label{Name: "L"},
		}, "P0: operator * on address x and 3"},
		{"stored-negation", []prog.Instr{
			prog.Store{Addr: z, Val: prog.Un{Op: prog.OpNeg, X: r("a")}},
		}, "P0: operator - on address x"},
		{"allowed", []prog.Instr{
			prog.Assign{Dst: "b", Val: prog.Bin{Op: prog.OpAdd, X: r("a"), Y: k(4)}},
			prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: r("b"), Y: k(5)}, Target: "L"},
			prog.Store{Addr: z, Val: k(1)},
			prog.Label{Name: "L"},
		}, ""},
	} {
		lt, err := litmus.Parse("t.litmus", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		lt.Threads[0].Code = append(append([]prog.Instr(nil), head...), c.code...)
		res := gharachorloo.Run(context.Background(), lt, gharachorloo.SC, gharachorloo.Options{})
		if c.want == "" {
			if res.Status != result.Done || len(res.States) == 0 {
				t.Errorf("%s: %s %v (%d states)", c.name, res.Status, res.Err, len(res.States))
			}
			continue
		}
		if res.Status != result.Unsupported || res.Err == nil || !strings.Contains(res.Err.Error(), c.want) ||
			!strings.Contains(res.Err.Error(), "not supported by the gharachorloo engine") {
			t.Errorf("%s: %s %v, want unsupported: %q...", c.name, res.Status, res.Err, c.want)
		}
	}
}
