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
		{[]string{"litmus", "-engine", "smt", "-memory", "4M", sbTest}, "Memory limit SB"},
		{[]string{"litmus", "-json", "-engine", "smt", "-memory", "4M", sbTest}, `"status":"memory limit"`},
		{[]string{"check", "-model", "tso", "-bound", "1", "-memory", "4M", "../../examples/asm/mp.litmus"}, "MP: MEMORY LIMIT"},
		// (a question with integer linear arithmetic: the parameterized
		// checker's own procedure leaves it to Z3, which it then loads)
		{[]string{"param", "-json", "-memory", "4M", "testdata/param_intlin.cub"}, `"status":"memory limit"`},
	} {
		var out, errOut strings.Builder
		code := dispatch(tc.args, &out, &errOut)
		applyResourceDefaults()
		if code != exitLimit || !strings.Contains(out.String(), tc.want) {
			t.Errorf("%q: exit %d, want %d and %q in\n%s%s", tc.args, code, exitLimit, tc.want, out.String(), errOut.String())
		}
	}
}
