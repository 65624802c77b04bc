// Package progtest holds thread code that the tests of several engines
// run, so that each engine is held to the same cases: each engine's test
// says only how it runs a program and what it reports.
package progtest

import (
	"testing"

	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// AddressOp is the code of a thread that applies an operator to an
// address it read back, and what an engine must report for it.
type AddressOp struct {
	Name string
	Code []prog.Instr
	// Want is in the engine's message when the run must be unsupported,
	// naming the operator; "" when the operation is allowed and the run
	// must succeed.
	Want string
}

// AddressOps are the cases of an operation prog.Apply refuses on a value
// read (an address multiplied, negated), which must make a run
// unsupported, naming the operation, rather than drop the execution as
// if it did not exist (issue #24: a C program said PASS). In each, the
// thread stores &x to y and reads y back into a (locations x, y, z), then
// computes on a; the last case adds a constant, which is allowed.
func AddressOps() []AddressOp {
	k := func(v int64) prog.Const { return prog.Const{V: prog.IntValue(v)} }
	r := func(n string) prog.Reg { return prog.Reg{Name: n} }
	y := prog.Const{V: prog.AddrValue("y")}
	z := prog.Const{V: prog.AddrValue("z")}
	head := func(code ...prog.Instr) []prog.Instr {
		return append([]prog.Instr{
			prog.Store{Addr: y, Val: prog.Const{V: prog.AddrValue("x")}},
			prog.Load{Dst: "a", Addr: y},
		}, code...)
	}
	// branchOn computes b = a op c, then stores to z unless b = 5.
	branchOn := func(op prog.Op, c int64) []prog.Instr {
		return head(
			prog.Assign{Dst: "b", Val: prog.Bin{Op: op, X: r("a"), Y: k(c)}},
			prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: r("b"), Y: k(5)}, Target: "L"},
			prog.Store{Addr: z, Val: k(1)},
			prog.Label{Name: "L"},
		)
	}
	return []AddressOp{
		{"branch-on-product", branchOn(prog.OpMul, 3), "P0: operator * on address x and 3"},
		{"stored-negation", head(
			prog.Store{Addr: z, Val: prog.Un{Op: prog.OpNeg, X: r("a")}},
		), "P0: operator - on address x"},
		{"allowed", branchOn(prog.OpAdd, 4), ""},
	}
}

// WithCode parses the litmus test src (one thread, P0) and gives its
// thread the code instead of the parsed one.
func WithCode(t testing.TB, src string, code []prog.Instr) *spec.Test {
	t.Helper()
	lt, err := litmus.Parse("t.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	lt.Threads[0].Code = code
	return lt
}
