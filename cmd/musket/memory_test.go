package main

import (
	"strings"
	"testing"
)

// TestZ3MemoryLimit runs the SMT engine under a tiny -memory: Z3 gets the
// same limit and runs out of memory (it could not even create a context
// and the process panicked); that is the status "memory limit" and exit
// status 3, in litmus as in check, never a crash or exit 2.
func TestZ3MemoryLimit(t *testing.T) {
	t.Cleanup(applyResourceDefaults) // -memory sets the process's limit
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"litmus", "-engine", "smt", "-memory", "16M", sbTest}, "Memory limit SB"},
		{[]string{"litmus", "-json", "-engine", "smt", "-memory", "16M", sbTest}, `"status":"memory limit"`},
		{[]string{"check", "-model", "tso", "-bound", "1", "-memory", "16M", "../../examples/asm/mp.litmus"}, "MP: MEMORY LIMIT"},
		// (a question with integer linear arithmetic: the parameterized
		// checker's own procedure leaves it to Z3, which it then loads)
		{[]string{"param", "-json", "-memory", "16M", "testdata/param_intlin.cub"}, `"status":"memory limit"`},
		// prove exited 2 ("out of memory" as bad input), compare panicked
		// (robust4).
		{[]string{"prove", "-model", "tso", "-memory", "16M", "../../examples/asm/toppers-spinlock.litmus"}, "memory limit"},
		{[]string{"prove", "-json", "-model", "tso", "-memory", "16M", "../../examples/asm/toppers-spinlock.litmus"}, `"status":"memory limit"`},
		{[]string{"compare", "-source", "tso", "-target", "power", "-memory", "16M", "../../examples/asm/mp.litmus"}, "memory limit reached"},
	} {
		var out, errOut strings.Builder
		code := dispatch(tc.args, &out, &errOut)
		applyResourceDefaults()
		if code != exitLimit || !strings.Contains(out.String(), tc.want) {
			t.Errorf("%q: exit %d, want %d and %q in\n%s%s", tc.args, code, exitLimit, tc.want, out.String(), errOut.String())
		}
	}
}

// TestPortfolioZ3Memout runs a C program on which the SMT engine, beside
// the graph engine under -engine auto, runs out of its own memory budget
// in about two seconds on an idle machine: closing its Z3 context then
// aborted the process (Z3 threw out_of_memory_error from a destructor).
// The run must end in a limit (the graph engine needs about ten seconds
// for its BOUND, past the 5 s given here), never in a crash.
func TestPortfolioZ3Memout(t *testing.T) {
	var out, errOut strings.Builder
	code := dispatch([]string{"check", "-model", "sc", "-bound", "4", "-D", "BUG", "-timeout", "5s", "../../internal/cfront/testdata/cw8/gcd_atomic.c"}, &out, &errOut)
	applyResourceDefaults()
	if code != exitLimit {
		t.Errorf("exit %d, want %d, in\n%s%s", code, exitLimit, out.String(), errOut.String())
	}
}
