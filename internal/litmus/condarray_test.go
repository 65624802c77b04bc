package litmus

import "testing"

// TestArrayAtoms: a whole-array atom "t={1,3}" is the conjunction of its
// cells' atoms ("!=": the disjunction of their negations), and the
// condition line writes it whole, as herd prints it.
func TestArrayAtoms(t *testing.T) {
	for _, tc := range []struct{ name, cond, line string }{
		{"equal", "forall (t={1,3})", "forall (t={1,3})"},
		{"with another atom", "exists (0:X2=1 /\\ t = { -1 , 0x5 })", `exists (0:X2=1 /\ t={-1,5})`},
		{"not equal", "exists (t != {0,0})", "exists (not (t={0,0}))"},
		{"negated", "exists (~t={0,2} \\/ 0:X2=0)", `exists (not (t={0,2}) \/ 0:X2=0)`},
	} {
		src := "AArch64 A\n{ int t[2] = {1,2}; 0:X0=t; }\n P0 ;\n MOV W2,#1 ;\n STR W2,[X0,#4] ;\n" + tc.cond + "\n"
		lt, err := Parse("t.litmus", []byte(src))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := lt.ConditionLine(); got != tc.line {
			t.Errorf("%s: condition line %q, want %q", tc.name, got, tc.line)
		}
		if lt.WholeArrays["t"] != 2 {
			t.Errorf("%s: WholeArrays %v, want t:2", tc.name, lt.WholeArrays)
		}
	}
}

func TestArrayAtomErrors(t *testing.T) {
	head := "AArch64 A\n{ int t[2] = {1,2}; 0:X0=t; }\n P0 ;\n LDR W2,[X0] ;\n"
	for _, tc := range []struct{ name, src, want string }{
		{"too few", head + "exists (t={1})", "t.litmus:5:11: array t has 2 cells and the condition gives 1 values"},
		{"not an array", head + "exists (x={1,2})", "t.litmus:5:11: unsupported: a list of values for x, which is not an array of the initial state"},
		{"register", head + "exists (0:X2={1,2})", "t.litmus:5:14: unsupported: a list of values compares a whole array, in AArch64, RISC-V and X86_64 tests only"},
		{"bad value", head + "exists (t={1,(2)})", "t.litmus:5:14: expected a value in the list of t, found '('"},
		{"no comma", head + "exists (t={1 2})", "t.litmus:5:14: expected ',' or '}' between the values of t, found \"2\""},
	} {
		_, err := Parse("t.litmus", []byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %s", tc.name, err, tc.want)
		}
	}
}
