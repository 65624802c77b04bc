package enum

import (
	"context"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
)

// TestOperationOnAddress checks that an operation prog.Apply refuses on
// a value read (an address multiplied, negated, ...) makes the run
// unsupported, naming the operation, rather than dropping the execution
// as if it did not exist (issue #24: a C program said PASS). The thread
// stores &x to y and reads y back: the read gives 0 (initial) or &x.
func TestOperationOnAddress(t *testing.T) {
	src := `C T
{ x=0; y=0; z=0; }
P0(atomic_int *x, atomic_int *y) { atomic_store_explicit(x, 1, memory_order_relaxed); }
exists (x=1)
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
		for _, model := range []string{"sc", "rc11"} {
			lt, err := litmus.Parse("t.litmus", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			lt.Threads[0].Code = append(append([]prog.Instr(nil), head...), c.code...)
			m, err := cat.LoadBuiltin(model)
			if err != nil {
				t.Fatal(err)
			}
			fe, _ := litmus.Lookup(lt.Arch)
			res := Run(context.Background(), lt, m, model, Options{TagNames: fe.Tags()})
			name := c.name + "/" + model
			if c.want == "" {
				if res.Status != result.Done || res.Positive+res.Negative == 0 {
					t.Errorf("%s: %s %v (%d+%d executions)", name, res.Status, res.Err, res.Positive, res.Negative)
				}
				continue
			}
			if res.Status != result.Unsupported || res.Err == nil || !strings.Contains(res.Err.Error(), c.want) ||
				!strings.Contains(res.Err.Error(), "not supported by the explicit engine") {
				t.Errorf("%s: %s %v, want unsupported: %q...", name, res.Status, res.Err, c.want)
			}
		}
	}
}
