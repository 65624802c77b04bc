package bmc_test

import (
	"context"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
)

// TestHavoc checks prog.Havoc in the SMT engine: an arbitrary value, so
// constrained only by the assumptions (jumps to the cut label) the
// program makes about it.
func TestHavoc(t *testing.T) {
	eq := func(r string, v int64) prog.Expr {
		return prog.Bin{Op: prog.OpEq, X: prog.Reg{Name: r}, Y: prog.Int(v)}
	}
	assume := func(c prog.Expr) []prog.Instr {
		return []prog.Instr{prog.Jump{Cond: prog.Un{Op: prog.OpNot, X: c}, Target: compile.CutLabel}}
	}
	store := prog.Store{Addr: prog.Addr("x"), Val: prog.Reg{Name: "EAX"}}
	cases := []struct {
		name string
		code []prog.Instr
		cond string
		want bool
	}{
		{"any value", []prog.Instr{prog.Havoc{Dst: "EAX"}, store}, "x=7", true},
		{"negative", []prog.Instr{prog.Havoc{Dst: "EAX"}, store}, "x=-3", true},
		{"assumed", append(append([]prog.Instr{prog.Havoc{Dst: "EAX"}}, assume(eq("EAX", 3))...), store), "x=4", false},
		{"assumed value", append(append([]prog.Instr{prog.Havoc{Dst: "EAX"}}, assume(eq("EAX", 3))...), store), "x=3", true},
		{"independent", append([]prog.Instr{prog.Havoc{Dst: "EAX"}, prog.Havoc{Dst: "EBX"}},
			assume(prog.Bin{Op: prog.OpEq, X: prog.Reg{Name: "EAX"}, Y: prog.Bin{Op: prog.OpAdd, X: prog.Reg{Name: "EBX"}, Y: prog.Int(1)}})...),
			"0:EAX=5 /\\ 0:EBX=4", true},
		{"related", append([]prog.Instr{prog.Havoc{Dst: "EAX"}, prog.Havoc{Dst: "EBX"}},
			assume(prog.Bin{Op: prog.OpEq, X: prog.Reg{Name: "EAX"}, Y: prog.Bin{Op: prog.OpAdd, X: prog.Reg{Name: "EBX"}, Y: prog.Int(1)}})...),
			"0:EAX=5 /\\ 0:EBX=5", false},
		{"overwritten", []prog.Instr{prog.Havoc{Dst: "EAX"}, prog.Assign{Dst: "EAX", Val: prog.Int(2)}, store}, "x=1", false},
	}
	m, err := cat.LoadBuiltin("sc")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		lt, err := litmus.Parse(c.name+".litmus", []byte("X86 H\n{ x=0; }\n P0 ;\n MFENCE ;\nexists ("+c.cond+")\n"))
		if err != nil {
			t.Fatal(err)
		}
		th := lt.Threads[0]
		th.Code = append(append([]prog.Instr{}, c.code...), prog.Jump{Target: "end"}, prog.Label{Name: compile.CutLabel}, prog.Label{Name: "end"})
		th.Pos = nil
		r, _ := bmc.RunCut(context.Background(), lt, m, "sc", bmc.Options{VerdictOnly: true, PositiveOnly: true})
		if r.Status != result.Done {
			t.Fatalf("%s: %s %v", c.name, r.Status, r.Err)
		}
		if got := r.Positive > 0; got != c.want {
			t.Errorf("%s: exists (%s) reachable %v, want %v", c.name, c.cond, got, c.want)
		}
		// The explicit engine enumerates values: it names what it
		// cannot do.
		e := enum.Run(context.Background(), lt, m, "sc", enum.Options{})
		if e.Err == nil || !strings.Contains(e.Err.Error(), "arbitrary value (havoc)") {
			t.Errorf("%s: explicit engine: %s %v, want havoc named as unsupported", c.name, e.Status, e.Err)
		}
	}
}
