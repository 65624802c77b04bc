package cfront

import (
	"context"
	"testing"

	"github.com/musket-verify/musket/internal/result"
)

// stopIR stores through a pointer whose cell the index read from i
// chooses: narrow splits the store into a branch per cell of a.
const stopIR = `@a = dso_local global [64 x i32] zeroinitializer, align 4
@i = dso_local global i32 0, align 4

define dso_local i32 @main() {
  %1 = load i32, i32* @i, align 4
  %2 = sext i32 %1 to i64
  %3 = getelementptr inbounds [64 x i32], [64 x i32]* @a, i64 0, i64 %2
  store i32 1, i32* %3, align 4
  ret i32 0
}
`

// TestStoppedBeforeEngine: a check whose context has ended before an
// engine runs stops in the phases before it (narrowing, forwarding,
// symmetry, the compilation for a target) with a time-limit result, for
// every engine and target; narrowing stopped by the context gives back
// its input unchanged, never half a rewrite.
func TestStoppedBeforeEngine(t *testing.T) {
	done, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct{ engine, target, model string }{
		{"smt", "", "sc"},
		{"smt", "power", "power"},
		{"smt", "aarch64", "aarch64"},
		{"smt", "riscv", "riscv"},
		{"enum", "x86", "tso"},
		{"", "", "rc11"},
	} {
		p, err := LowerIR("stop.c", []byte(stopIR), Options{Bound: 2})
		if err != nil {
			t.Fatal(err)
		}
		if q := p.narrow(done, p.Test, tc.target != ""); q != p.Test {
			t.Errorf("%v: narrow under an ended context rewrote the program", tc)
		}
		opts := CheckOptions{Engine: tc.engine, Target: tc.target, ModelName: tc.model, Bound: 2}
		r, err := CheckProgram(done, p, opts)
		if err != nil {
			t.Errorf("%v: %v", tc, err)
			continue
		}
		if r.Verdict != Unknown || r.Result == nil || r.Result.Status != result.Timeout {
			t.Errorf("%v: verdict %v, result %+v; want a time limit", tc, r.Verdict, r.Result)
		}
	}
	// The same program is narrowed under a live context.
	p, err := LowerIR("stop.c", []byte(stopIR), Options{Bound: 2})
	if err != nil {
		t.Fatal(err)
	}
	if q := p.narrow(context.Background(), p.Test, false); q == p.Test {
		t.Errorf("narrow left the store through a pointer as it was")
	}
}
