package graph

import (
	"context"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/source"
)

// TestOperationOnAddress checks that an operation prog.Apply refuses
// (an address multiplied, negated, ...) makes the run unsupported, with
// the instruction's position and the operation named, rather than going
// on with a made-up value (issue #24: a silent wrong verdict). Both the
// plain replay (sc) and the replay that tracks dependencies (imm) run.
func TestOperationOnAddress(t *testing.T) {
	src := `C T
{ x=0; y=0; }
P0(atomic_int *x, atomic_int *y) { atomic_store_explicit(x, 1, memory_order_relaxed); }
exists (x=1)
`
	x := prog.Const{V: prog.AddrValue("x")}
	r := func(n string) prog.Reg { return prog.Reg{Name: n} }
	for _, c := range []struct {
		name string
		code []prog.Instr
		want string // in the message; "" when the run must succeed
	}{
		{"mul-assign", []prog.Instr{
			prog.Assign{Dst: "a", Val: prog.Bin{Op: prog.OpMul, X: x, Y: prog.Const{V: prog.IntValue(3)}}},
			prog.Store{Addr: prog.Const{V: prog.AddrValue("y")}, Val: r("a")},
		}, "t.c:1: P0: operator * on address x and 3"},
		{"neg-store-value", []prog.Instr{
			prog.Store{Addr: prog.Const{V: prog.AddrValue("y")}, Val: prog.Un{Op: prog.OpNeg, X: x}},
		}, "t.c:1: P0: operator"},
		{"mul-after-read", []prog.Instr{
			prog.Load{Dst: "a", Addr: x},
			prog.Assign{Dst: "b", Val: prog.Bin{Op: prog.OpMul, X: prog.Bin{Op: prog.OpAdd, X: x, Y: r("a")}, Y: prog.Const{V: prog.IntValue(3)}}},
			prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: r("b"), Y: prog.Const{V: prog.IntValue(0)}}, Target: "L"},
			prog.Store{Addr: prog.Const{V: prog.AddrValue("y")}, Val: prog.Const{V: prog.IntValue(1)}},
			prog.Label{Name: "L"},
		}, "t.c:2: P0: operator * on address"},
		{"allowed", []prog.Instr{
			prog.Assign{Dst: "a", Val: prog.Bin{Op: prog.OpAdd, X: x, Y: prog.Const{V: prog.IntValue(0)}}},
			prog.Store{Addr: r("a"), Val: prog.Const{V: prog.IntValue(1)}},
		}, ""},
	} {
		for _, model := range []string{"sc", "imm"} {
			lt, err := litmus.Parse("t.litmus", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			th := lt.Threads[0]
			th.Code = c.code
			th.Pos = make([]prog.Pos, len(c.code))
			for i := range th.Pos {
				th.Pos[i] = source.Pos{File: "t.c", Line: i + 1}
			}
			m, err := cat.LoadBuiltin(model)
			if err != nil {
				t.Fatal(err)
			}
			fe, _ := litmus.Lookup(lt.Arch)
			res, _ := Run(context.Background(), lt, m, model, Options{TagNames: fe.Tags()})
			name := c.name + "/" + model
			if c.want == "" {
				if res.Status != result.Done {
					t.Errorf("%s: %s %v", name, res.Status, res.Err)
				}
				continue
			}
			if res.Status != result.Unsupported || res.Err == nil || !strings.Contains(res.Err.Error(), c.want) ||
				!strings.Contains(res.Err.Error(), "not supported by the graph engine") {
				t.Errorf("%s: %s %v, want unsupported: %q...", name, res.Status, res.Err, c.want)
			}
		}
	}
}
