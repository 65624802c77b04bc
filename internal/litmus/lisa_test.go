package litmus_test

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestLISALitmus runs the LISA tests of testdata/lisa with both engines
// under the Linux-kernel memory model (the kernel's files in the corpus): fences, release, address and control dependencies, and the two
// forms of rmw (increment, exchange).
func TestLISALitmus(t *testing.T) {
	dir := filepath.Join(testcorpus.Dir(t), "cat", "linux")
	ms := driver.Models{Bell: filepath.Join(dir, "linux-kernel.bell")}
	cases := []engineCase{
		{file: "MP+wmb+rmb", ok: false, states: 3},
		{file: "SB", ok: true, states: 4},
		{file: "MP+rel+addr", ok: false, states: 3},
		{file: "LB+ctrl", ok: false, states: 1},
		{file: "RMW+inc", ok: false, states: 1},
		{file: "SB+xchg", ok: false, states: 3},
	}
	runEngineCasesIn(t, ms, filepath.Join(dir, "linux-kernel.cat"), "LISA", "lisa", 60*time.Second, cases)
}

// TestLISAErrors checks that LISA's unsupported forms are refused by
// name and bad cells are positioned errors.
func TestLISAErrors(t *testing.T) {
	cases := []struct{ cell, want string }{
		{"r[foo] r1 x", `unsupported LISA annotation "foo"`},
		{"f[mb] {a} {b}", "label sets"},
		{"call[f]", "unsupported LISA instruction call"},
		{"r[once] %p x", "symbolic register"},
		{"mov r1 (sub r1 1)", "one of add, xor, and, eq, neq"},
		{"w[once] x", "an integer"},
		{"frob r1", "unknown LISA instruction"},
		{"b[] r1", "a label"},
	}
	for _, tc := range cases {
		src := "LISA T\n{ x = 0; }\n P0 ;\n " + tc.cell + " ;\nexists (x=0)\n"
		_, err := litmus.Parse("t.litmus", []byte(src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want an error with %q", tc.cell, err, tc.want)
		}
	}
}

// TestLISAInstructions checks the instruction each LISA cell becomes:
// annotations as the kernel model's tags, the two forms of rmw, mov's
// operations and the branches.
func TestLISAInstructions(t *testing.T) {
	rmwTags := []string{"MB", litmus.TagRMW, litmus.TagX}
	cases := []struct {
		cell string
		want prog.Instr
	}{
		{"r[once] r1 x", prog.Load{Dst: "r1", Addr: prog.Addr("x"), Tags: []string{"ONCE"}}},
		{"r[deref] r1 r2", prog.Load{Dst: "r1", Addr: prog.Reg{Name: "r2"}, Tags: []string{"ONCE"}}},
		{"r r1 x", prog.Load{Dst: "r1", Addr: prog.Addr("x")}},
		{"r[] r1 x + 0", prog.Load{Dst: "r1", Addr: prog.Bin{Op: prog.OpAdd, X: prog.Addr("x"), Y: prog.Int(0)}}},
		{"w[assign] x r3", prog.Store{Addr: prog.Addr("x"), Val: prog.Reg{Name: "r3"}, Tags: []string{"RELEASE"}}},
		{"w[release,once] x -1", prog.Store{Addr: prog.Addr("x"), Val: prog.Int(-1), Tags: []string{"RELEASE", "ONCE"}}},
		{"f[mb]", prog.Fence{Tags: []string{"MB"}}},
		{"f[rmb]", prog.Fence{Tags: []string{"Rmb"}}},
		{"f[sync]", prog.Fence{Tags: []string{"Sync-rcu"}}},
		{"f[lock]", prog.Fence{Tags: []string{"Rcu-lock"}}},
		{"f[rb_dep]", prog.Fence{Tags: []string{"Rb_dep"}}},
		{"rmw[mb] r1 (add r1 2) x", prog.RMW{Dst: "r1", Addr: prog.Addr("x"), New: prog.Bin{Op: prog.OpAdd, X: prog.Old{}, Y: prog.Int(2)}, RTags: rmwTags, WTags: rmwTags}},
		{"rmw[mb] r1 r2 x", prog.RMW{Dst: "r1", Addr: prog.Addr("x"), New: prog.Reg{Name: "r2"}, RTags: rmwTags, WTags: rmwTags}},
		{"mov r3 (eq r1 0)", prog.Assign{Dst: "r3", Val: prog.Bin{Op: prog.OpEq, X: prog.Reg{Name: "r1"}, Y: prog.Int(0)}}},
		{"mov r3 (neq y r1)", prog.Assign{Dst: "r3", Val: prog.Bin{Op: prog.OpNe, X: prog.Addr("y"), Y: prog.Reg{Name: "r1"}}}},
		{"b[] r3 L", prog.Jump{Cond: prog.Reg{Name: "r3"}, Target: "L"}},
		{"b L", prog.Jump{Target: "L"}},
	}
	for _, tc := range cases {
		src := "LISA T\n{ x = 0; y = 0; 0:r2 = x; }\n P0 ;\n " + tc.cell + " ;\n L: ;\nexists (x=0)\n"
		test, err := litmus.Parse("t.litmus", []byte(src))
		if err != nil {
			t.Errorf("%q: %v", tc.cell, err)
			continue
		}
		got := test.Threads[0].Code[0]
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: got %#v, want %#v", tc.cell, got, tc.want)
		}
	}
}
