package bmc_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// TestLazyAcyclicitySame: with the acyclic checks decided by the solver's
// acyclicity theory (lazy) the final states and verdicts are those of the
// integer clocks (eager), under SC and TSO (the corpus suites compare the
// two on every test: see the report of this change); the theory is really
// used, and finds the cycles that forbid conditions.
func TestLazyAcyclicitySame(t *testing.T) {
	for _, model := range []string{"sc", "tso"} {
		m, err := cat.LoadBuiltin(model)
		if err != nil {
			t.Fatal(err)
		}
		fe, _ := litmus.Lookup("X86")
		conflicts := 0
		for _, tc := range smallTests {
			lt, err := litmus.Parse(tc.name+".litmus", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // generous: a loaded machine
			a, _ := bmc.RunReport(ctx, lt, m, model, bmc.Options{TagNames: fe.Tags(), Acyclicity: "eager"})
			b, rb := bmc.RunReport(ctx, lt, m, model, bmc.Options{TagNames: fe.Tags(), Acyclicity: "lazy"})
			cancel()
			if a.Status != result.Done || b.Status != result.Done {
				t.Fatalf("%s/%s: eager %s %v, lazy %s %v", model, tc.name, a.Status, a.Err, b.Status, b.Err)
			}
			if stateSet(a) != stateSet(b) || a.Ok() != b.Ok() {
				t.Errorf("%s/%s: eager %v {%s}, lazy %v {%s}", model, tc.name, a.Ok(), stateSet(a), b.Ok(), stateSet(b))
			}
			if rb.Stats.LazyGraphs == 0 {
				t.Errorf("%s/%s: the theory was not used", model, tc.name)
			}
			if rb.Stats.LazyMisses != 0 {
				t.Errorf("%s/%s: %d models with a cycle the theory let through", model, tc.name, rb.Stats.LazyMisses)
			}
			conflicts += rb.Stats.LazyConflicts
		}
		if conflicts == 0 {
			t.Errorf("%s: no cycle found by the theory on any test", model)
		}
	}
}

// TestLazyBitwiseRead: an 'and' of a value read, positive or negative,
// is answered by the lazy encoding itself. Through Z3's conversions
// between integers and bit-vectors, the SMT solver that takes the theory
// ran for more than ten minutes on the positive value (the test was then
// encoded again with clocks) and gave no answer on the negative one
// under either encoding; bitwise operators are now linear arithmetic
// (bits.go). The 300 s limit only guards against a hang (2 s alone; at
// load 35 on two cores the negative value went past a 60 s guard).
func TestLazyBitwiseRead(t *testing.T) {
	for _, v := range []string{"56", "-56"} {
		t.Run(v, func(t *testing.T) { lazyBitwiseRead(t, v) })
	}
}

func lazyBitwiseRead(t *testing.T, v string) {
	src := `RISCV ANDREAD
{ 0:x1=x; 1:x1=x; }
 P0             | P1             ;
 li x5,VAL     | lw x6,0(x1)    ;
 sw x5,0(x1)    | and x7,x6,x6   ;
                | and x8,x6,x7   ;
exists (1:x6=VAL /\ not (1:x7=VAL /\ 1:x8=VAL))
`
	lt, err := litmus.Parse("andread.litmus", []byte(strings.ReplaceAll(src, "VAL", v)))
	if err != nil {
		t.Fatal(err)
	}
	m, err := cat.LoadBuiltin("riscv")
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup("RISCV")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Second)
	defer cancel()
	r, rep := bmc.RunReport(ctx, lt, m, "riscv", bmc.Options{TagNames: fe.Tags(), Acyclicity: "lazy"})
	if r.Status != result.Done {
		t.Fatalf("status %s: %v", r.Status, r.Err)
	}
	if r.Ok() {
		t.Errorf("x & x differs from x: the condition is reachable")
	}
	if rep.LazyFellBack || rep.Stats.LazyGraphs == 0 {
		t.Errorf("the lazy encoding did not answer (fell back: %v)", rep.LazyFellBack)
	}
}
